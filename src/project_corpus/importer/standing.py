"""Whether a decision record or a plan still stands (docs/import.md, "Mapping"). Pure.

Docs/protocol.md keeps what stays true until someone changes it in `state/` and only what is
over in `history/`. A decision record stands unless its own status says it is over
(superseded, deprecated, rejected, withdrawn …, in English or Russian); one with no status, or
accepted, proposed or open, stands. A plan stands unless its status says it is done or every
checkbox in it is ticked. The status is the first one the file states, outside fenced code: a
`Status: value` line (any emphasis or list marker, front matter included), the first line
under a `Status` heading, or the cell under a `Status` column of a table.
"""

from __future__ import annotations

import re

from project_corpus.importer import sections as md

LABEL_RE = re.compile(r"^[\s>*_#-]*(?:status|статус)[\s*_]*:[\s*_]*(\S.*)$", re.IGNORECASE)
LINK_RE = re.compile(r"\]\(([^()\s]+)\)")  # a Markdown link's target
WORD_RE = re.compile(r"[^\W\d_]+")
STATUS_TITLES = ("status", "статус", "статус решения", "decision status")
OVER_STEMS = (
    "supersed",
    "superced",  # as often misspelt
    "deprecat",
    "reject",
    "withdrawn",
    "obsolete",
    "replaced",
    "retired",
    "abandon",
    "declined",
    "заменен",
    "замещен",
    "устар",
    "неактуал",
    "отклонен",
    "отменен",
    "отозван",
    "упразднен",
)
REPLACED_STEMS = ("supersed", "superced", "replaced", "заменен", "замещен")
STAND_STEMS = (
    "accept",
    "approv",
    "adopt",
    "active",
    "propos",
    "draft",
    "open",
    "implement",
    "принят",
    "утвержд",
    "одобр",
    "действ",
    "предлож",
    "черновик",
)
DONE_STEMS = ("done", "complete", "finished", "implemented", "завершен", "выполнен", "готово")
CHECK_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]")  # a checkbox item


def status_value(doc: md.Structure) -> str | None:
    """The first status the file states, as written (None when it states none)."""
    under_heading = False
    for index, line in enumerate(doc.lines):
        if index in doc.fenced:
            continue
        heading = md.HEADING_RE.match(line)
        if heading:
            under_heading = md.normal_title(heading.group(2) or "") in STATUS_TITLES
            continue
        if not line.strip():
            continue
        if under_heading:
            return line.strip()
        found = LABEL_RE.match(line) or _cell(doc.lines, index)
        if found:
            return found if isinstance(found, str) else found.group(1).strip()
    return None


def _cell(lines: tuple[str, ...], index: int) -> str | None:
    """The cell under a `Status` column when LINES[index] is that table's header row."""
    if index + 2 >= len(lines) or not lines[index].lstrip().startswith("|"):
        return None
    header = [c.strip("*_ \t").casefold() for c in _cells(lines[index])]
    if "status" not in header and "статус" not in header:
        return None
    if not set(lines[index + 1].strip()) <= set("|:- "):
        return None
    cells = [c.strip() for c in _cells(lines[index + 2])]
    column = header.index("status") if "status" in header else header.index("статус")
    return cells[column] if column < len(cells) and cells[column] else None


def _cells(row: str) -> list[str]:
    return row.strip().removeprefix("|").removesuffix("|").split("|")


def _says(value: str | None, stems: tuple[str, ...]) -> bool:
    """Whether one of VALUE's first three words starts with STEMS before any word saying the
    record stands ("Accepted, superseded in part by ADR-7" stands)."""
    if value is None:
        return False
    for word in WORD_RE.findall(value.casefold().replace("ё", "е"))[:3]:
        if word.startswith(stems):
            return True
        if word.startswith(STAND_STEMS):
            return False
    return False


def decision_stands(doc: md.Structure) -> bool:
    """False when the record's own status says it is over."""
    return not _says(status_value(doc), OVER_STEMS)


def plan_stands(doc: md.Structure) -> bool:
    """False when the plan's status says it is done, or every checkbox in it is ticked."""
    value = status_value(doc)
    if _says(value, DONE_STEMS) or _says(value, OVER_STEMS):
        return False
    lines = [line for i, line in enumerate(doc.lines) if i not in doc.fenced]
    marks = [m.group(1) for line in lines if (m := CHECK_RE.match(line))]
    return not marks or " " in marks


def kind(role: str, doc: md.Structure, default: str) -> str:
    """The folder kind of a whole file of ROLE: a standing decision record, decision log or
    plan is a `state/` reference; one that is over stays history."""
    if role == "decision":
        return "reference" if decision_stands(doc) else "history"
    if role == "decision-log":
        return "reference"
    if role == "plan":
        return "reference" if plan_stands(doc) else "history"
    return default


def successor(doc: md.Structure) -> str | None:
    """The link target a superseded record's status names (`Superseded by [ADR-5](0005.md)`)."""
    value = status_value(doc)
    if value is None or not _says(value, REPLACED_STEMS):
        return None
    found = LINK_RE.search(value)
    target = found.group(1).partition("#")[0] if found else ""
    return target or None
