"""Quick fixes for the findings whose fix is mechanical (docs/editors.md, "Quick fixes").

Each fix is a title and text edits in characters (0-based lines and columns of the document
as the editor has it); the server turns them into a workspace edit. Offered:

- VOLATILE_WITHOUT_FRESHNESS: `(as of <today>)` right after the volatile term;
- MISSING_SECTION / ARTIFACT_SHAPE "missing <section>": the `## <section>` heading, placed
  before the next required section present (in the Protocol's order), else at the end;
- `Protocol-Version` missing or not `2.0`: the line set to `Protocol-Version: 2.0`;
- ARTIFACT_SHAPE "Task-ID/Report-ID differs from file stem": the value set to the stem;
- every finding that a directive may suppress: `<!-- project-corpus: disable CODE -->`
  above its item (a finding on line 1, about the file as a whole: `disable-file` at the end).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import NamedTuple

from project_corpus.core.records import Document
from project_corpus.core.records import Span
from project_corpus.core.versions import PROTOCOL_VERSION
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.layout import TASKS_DIR
from project_corpus.corpus.layout import inside
from project_corpus.corpus.vocabulary import PROJECT_SECTIONS
from project_corpus.corpus.vocabulary import REPORT_ID
from project_corpus.corpus.vocabulary import REPORT_SECTIONS
from project_corpus.corpus.vocabulary import STATUS_SECTIONS
from project_corpus.corpus.vocabulary import TASK_ID
from project_corpus.corpus.vocabulary import TASK_SECTIONS
from project_corpus.doctor import CHECKS_BY_CODE

VERSION_KEY = "Protocol-Version"
MISSING_RE = re.compile(r"^missing (.+)\Z")


class Edit(NamedTuple):
    """Replace the characters from (line, start) to (end_line, end) by TEXT (0-based)."""

    line: int
    start: int
    end_line: int
    end: int
    text: str


class Fix(NamedTuple):
    title: str
    edits: tuple[Edit, ...]


class Finding(NamedTuple):
    """What a fix needs of a diagnostic: code, detail, 0-based line and token columns."""

    code: str
    detail: str
    line: int
    start: int
    end: int


def insert(line: int, column: int, text: str) -> Edit:
    return Edit(line, column, line, column, text)


class Text(NamedTuple):
    """The document as the editor has it: its lines (split on `\n`, `\r` kept, a last
    empty line when it ends with a newline) and their parse."""

    lines: tuple[str, ...]
    doc: Document

    def width(self, line: int) -> int:
        """Characters of LINE (0-based) without its `\r`."""
        return len(self.lines[line].rstrip("\r")) if 0 <= line < len(self.lines) else 0

    def append(self, text: str) -> Edit:
        """TEXT (a blank line, then lines ending in a newline) after the last non-blank
        line, in place of the blank lines that end the document."""
        last = len(self.lines) - 1
        filled = [n for n, line in enumerate(self.lines) if line.strip()]
        if not filled:
            return Edit(0, 0, last, self.width(last), text.lstrip("\n"))
        return Edit(filled[-1], self.width(filled[-1]), last, self.width(last), f"\n{text}")


def fixes(path: str, text: Text, finding: Finding, today: str) -> list[Fix]:
    """The fixes of FINDING in TEXT (at portable PATH), best first."""
    found = [
        fix
        for fix in (
            date_claim(finding, today),
            add_section(path, text, finding),
            protocol_version(text, finding),
            id_from_stem(text, finding),
        )
        if fix is not None
    ]
    return [*found, *suppress(text, finding)]


def date_claim(finding: Finding, today: str) -> Fix | None:
    if finding.code != "VOLATILE_WITHOUT_FRESHNESS":
        return None
    edit = insert(finding.line, finding.end, f" (as of {today})")
    return Fix(f"Date the claim: as of {today}", (edit,))


def required_sections(path: str) -> tuple[str, ...]:
    if path == PROJECT_PATH:
        return PROJECT_SECTIONS
    if path == STATUS_PATH:
        return STATUS_SECTIONS
    return TASK_SECTIONS if path.startswith(inside(TASKS_DIR)) else REPORT_SECTIONS


def add_section(path: str, text: Text, finding: Finding) -> Fix | None:
    name = _missing(finding)
    order = required_sections(path)
    if name is None or name not in order:
        return None
    present = {h.title: h.line for h in text.doc.headings if h.level == 2}
    later = [present[n] for n in order[order.index(name) + 1 :] if n in present]
    # Before the next required section that is there, else at the end.
    heading = f"## {name}\n"
    edit = insert(later[0] - 1, 0, f"{heading}\n") if later else text.append(f"\n{heading}")
    return Fix(f"Add the section heading `## {name}`", (edit,))


def _missing(finding: Finding) -> str | None:
    if finding.code == "MISSING_SECTION":
        return finding.detail
    match = MISSING_RE.match(finding.detail) if finding.code == "ARTIFACT_SHAPE" else None
    return match.group(1) if match else None


def protocol_version(text: Text, finding: Finding) -> Fix | None:
    title = f"Set `{VERSION_KEY}: {PROTOCOL_VERSION}`"
    line = f"{VERSION_KEY}: {PROTOCOL_VERSION}"
    if finding.code == "INVALID_METADATA" and finding.detail.startswith(f"{VERSION_KEY} "):
        at = finding.line
        return Fix(title, (Edit(at, 0, at, text.width(at), line),))
    if _missing(finding) == VERSION_KEY or (
        finding.code == "MISSING_METADATA" and finding.detail == VERSION_KEY
    ):
        after = 1 if text.lines[0].startswith("# ") else 0
        return Fix(title, (insert(after, 0, f"{line}\n"),))
    return None


def id_from_stem(text: Text, finding: Finding) -> Fix | None:
    # The detail is `KEY 'value' differs from file stem 'stem'` (reprs, corpus.protocol):
    # read without a pattern (a linear cost whatever the names hold).
    key = finding.detail.partition(" ")[0]
    if finding.code != "ARTIFACT_SHAPE" or key not in (TASK_ID, REPORT_ID):
        return None
    _, found, quoted = finding.detail.rpartition(" differs from file stem ")
    try:
        stem = ast.literal_eval(quoted) if found else None
    except (ValueError, SyntaxError):
        return None
    if not isinstance(stem, str):
        return None
    at = finding.line
    edit = Edit(at, 0, at, text.width(at), f"{key}: {stem}")
    return Fix(f"Set `{key}: {stem}` (the file stem)", (edit,))


def suppress(text: Text, finding: Finding) -> list[Fix]:
    check = CHECKS_BY_CODE.get(finding.code)
    if check is None or check.gate:
        return []  # a conformance gate is never suppressed (docs/doctor.md)
    code = finding.code
    first = _item_start(text.doc.spans, finding.line + 1)
    if first is None or first <= 1:  # the H1 or the file as a whole
        directive = f"<!-- project-corpus: disable-file {code} -->"
        return [Fix(f"Suppress {code} in this file", (text.append(f"\n{directive}\n"),))]
    edit = insert(first - 1, 0, f"<!-- project-corpus: disable {code} -->\n")
    return [Fix(f"Suppress {code} for this item", (edit,))]


def _item_start(spans: Sequence[Span], line: int) -> int | None:
    """The first line of the item (not a comment) that holds LINE (1-based)."""
    for span in spans:
        if span.kind != "comment" and span.line_start <= line <= span.line_end:
            return span.line_start
    return None
