"""Doctor report entries as LSP diagnostics (docs/editors.md, "Diagnostics").

A diagnostic covers the finding's token: its line and 1-based column (characters) from the
report, and a width where the token is known (a volatile term, a reference, a metadata value);
a finding without a column covers its line. Positions are made in characters here and turned
into the client's units (UTF-16 by default) by the server's position codec. FAIL is an Error,
WARN a Warning; `code` links to the check's documentation; the message ends with the check's
help line. Suppressed findings are not shown (the directive says someone decided).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from lsprotocol import types

from project_corpus.core.errors import ContextError
from project_corpus.core.errors import render_hint
from project_corpus.doctor import CHECKS_BY_CODE
from project_corpus.doctor import VALUE_CODES
from project_corpus.output.sarif import help_uri

SOURCE = "project-corpus"
SEVERITY = {"FAIL": types.DiagnosticSeverity.Error, "WARN": types.DiagnosticSeverity.Warning}
# A reference or path token (as `corpus.references.PATH_RE` ends one).
TOKEN_RE = re.compile(r"[^\s`'\"<>()\[\]|,;*]+")
QUOTED_RE = re.compile(r"'([^']+)'")


class Mark(NamedTuple):
    """Where a diagnostic is, in characters: 0-based line, start and end columns."""

    line: int
    start: int
    end: int


def line_text(lines: Sequence[str], line: int) -> str:
    """Line LINE (1-based) of LINES without its `\\r`, "" past the end."""
    return lines[line - 1].rstrip("\r\n") if 0 < line <= len(lines) else ""


def token_width(text: str, column: int, code: str, detail: str) -> int:
    """Characters of the token at COLUMN (1-based) of TEXT that causes the finding."""
    rest = text[column - 1 :]
    if code in VALUE_CODES:
        return len(rest.rstrip())
    quoted = QUOTED_RE.search(detail)  # e.g. "volatile term 'right now' without ..."
    if quoted and rest.casefold().startswith(quoted.group(1).casefold()):
        return len(quoted.group(1))
    token = TOKEN_RE.match(rest)
    return len(token.group(0).rstrip(".:")) if token else 0


def mark(entry: Mapping[str, object], lines: Sequence[str]) -> Mark:
    """The characters ENTRY's diagnostic covers in the document of LINES."""
    line = int(str(entry["line"]))
    text = line_text(lines, line)
    column = int(str(entry.get("column", 0)))
    if 0 < column <= len(text):
        width = token_width(text, column, str(entry["code"]), str(entry["detail"]))
        return Mark(line - 1, column - 1, column - 1 + max(width, 1))
    start = len(text) - len(text.lstrip())
    return Mark(line - 1, start, max(len(text), start + 1) if text else 0)


@cache  # a check's help is cut from its docstring: once per code, not per finding
def help_line(code: str) -> str:
    """The `## Fix` line of the check CODE ("" when it has none)."""
    check = CHECKS_BY_CODE.get(code)
    return check.fix if check is not None else ""


def message(entry: Mapping[str, object]) -> str:
    """The finding's sentence, then the check's help line."""
    fix = help_line(str(entry["code"]))
    text = str(entry["message"])
    return f"{text}\nhelp: {fix}" if fix else text


def diagnostic(entry: Mapping[str, object], at: Mark, where: types.Range) -> types.Diagnostic:
    """ENTRY as a diagnostic at WHERE (AT in characters, kept for the quick fixes)."""
    code = str(entry["code"])
    return types.Diagnostic(
        range=where,
        message=message(entry),
        severity=SEVERITY.get(str(entry["severity"]), types.DiagnosticSeverity.Warning),
        code=code,
        code_description=types.CodeDescription(href=help_uri(code)),
        source=SOURCE,
        data={"line": at.line, "start": at.start, "end": at.end, "detail": str(entry["detail"])},
    )


def by_path(report: Mapping[str, object]) -> dict[str, list[Mapping[str, object]]]:
    """The report's unsuppressed entries by portable path, in report order."""
    grouped: dict[str, list[Mapping[str, object]]] = {}
    issues = report.get("issues")
    for entry in issues if isinstance(issues, list) else ():
        if isinstance(entry, dict) and not entry.get("suppressed"):
            grouped.setdefault(str(entry["path"]), []).append(entry)
    return grouped


def error_diagnostic(error: ContextError, root: str) -> types.Diagnostic:
    """A stable error that stopped the doctor (a limit, a bad lint.yaml) on line 1."""
    text = f"{error.code}: {error.detail}"
    hint = render_hint(error.hint, root)
    if hint:
        text += f"\nhelp: {hint}"
    return types.Diagnostic(
        range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
        message=text,
        severity=types.DiagnosticSeverity.Error,
        code=error.code,
        source=SOURCE,
    )
