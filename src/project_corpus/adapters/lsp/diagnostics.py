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
from collections.abc import Iterable
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
LEAD_RE = re.compile(r"\s*")


class Mark(NamedTuple):
    """Where a diagnostic is, in characters: 0-based line, start and end columns."""

    line: int
    start: int
    end: int


def line_text(lines: Sequence[str], line: int) -> str:
    """Line LINE (1-based) of LINES, "" past the end (its `\\r`, if any, is kept)."""
    return lines[line - 1] if 0 < line <= len(lines) else ""


def token_width(text: str, column: int, end: int, code: str, detail: str) -> int:
    """Characters of the token at COLUMN (1-based) of TEXT (END: the line's end without its
    `\\r`) that causes the finding. Reads the token only, never the rest of the line: a
    line with thousands of findings costs its length once (tests/hostile/test_scaling.py)."""
    start = column - 1
    if code in VALUE_CODES:  # the metadata value, to the line's last non-blank character
        return len(text[start:end].rstrip())
    quoted = QUOTED_RE.search(detail)  # e.g. "volatile term 'right now' without ..."
    if quoted:
        term = quoted.group(1)
        if text[start : start + len(term)].casefold() == term.casefold():
            return len(term)
    token = TOKEN_RE.match(text, start, end)
    return len(token.group(0).rstrip(".:")) if token else 0


def mark(entry: Mapping[str, object], lines: Sequence[str]) -> Mark:
    """The characters ENTRY's diagnostic covers in the document of LINES."""
    line = int(str(entry["line"]))
    text = line_text(lines, line)
    end = len(text) - 1 if text.endswith("\r") else len(text)
    column = int(str(entry.get("column", 0)))
    if 0 < column <= end:
        width = token_width(text, column, end, str(entry["code"]), str(entry["detail"]))
        return Mark(line - 1, column - 1, column - 1 + max(width, 1))
    start = LEAD_RE.match(text, 0, end)
    first = start.end() if start else 0
    return Mark(line - 1, first, max(end, first + 1) if end else 0)


def units(text: str, encoding: str) -> int:
    """TEXT's length in the client's position units (UTF-16 code units by default)."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def client_positions(
    lines: Sequence[str], points: Iterable[tuple[int, int]], encoding: str
) -> dict[tuple[int, int], types.Position]:
    """Each (0-based line, character) of POINTS as a client position: each line's prefixes
    are measured once, left to right (linear in the line however many points it has)."""
    found: dict[tuple[int, int], types.Position] = {}
    line, done, total = -1, 0, 0
    for at in sorted(set(points)):
        if at[0] != line:
            line, done, total = at[0], 0, 0
        text = lines[line] if 0 <= line < len(lines) else ""
        total += units(text[done : at[1]], encoding)
        done = max(done, at[1])
        found[at] = types.Position(line, total)
    return found


def client_ranges(lines: Sequence[str], marks: Sequence[Mark], encoding: str) -> list[types.Range]:
    """MARKS as client ranges (see `client_positions`)."""
    points = [(m.line, c) for m in marks for c in (m.start, m.end)]
    at = client_positions(lines, points, encoding)
    return [types.Range(at[(m.line, m.start)], at[(m.line, m.end)]) for m in marks]


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
