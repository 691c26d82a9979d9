"""Tasks, Reports, History and `state/` references from the owner's files (docs/import.md).

A file becomes one document, or one per entry where it is a list of entries: the dated
sections of a work log and the releases of a changelog become Reports, the sections (or
top-level items) of a TODO index become Tasks. What a PROJECT or STATUS took is left out of
the file's own document; what remains is copied whole.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from project_corpus.core.versions import PROTOCOL_VERSION
from project_corpus.corpus import vocabulary as V
from project_corpus.corpus.layout import HISTORY_DIR
from project_corpus.corpus.layout import REPORTS_DIR
from project_corpus.corpus.layout import STATE_DIR
from project_corpus.corpus.layout import TASKS_DIR
from project_corpus.corpus.vocabulary import REPORT_SECTIONS
from project_corpus.corpus.vocabulary import TASK_SECTIONS
from project_corpus.importer import dates
from project_corpus.importer import sections as md
from project_corpus.importer import standing
from project_corpus.importer.canon import NONE_LINE
from project_corpus.importer.layouts import ROLE_KIND
from project_corpus.importer.layouts import kebab
from project_corpus.importer.names import Names
from project_corpus.importer.names import slug
from project_corpus.importer.records import Block
from project_corpus.importer.records import Doc
from project_corpus.importer.records import add
from project_corpus.importer.records import copy
from project_corpus.importer.standing import CHECK_RE

FOLDERS = {"reference": STATE_DIR, "task": TASKS_DIR, "report": REPORTS_DIR, "history": HISTORY_DIR}
VERSION_RE = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?)")
ITEM_RE = re.compile(r"^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.*)$")
TIMESTAMP_KEYS = re.compile(r"^(?:Created-At|Date|Created|Updated-At|Last-Verified-At):")


class Context(NamedTuple):
    """What every document of one import shares."""

    project_id: str
    file_dates: dict[str, str]  # path -> the file's own date (text, name, else first commit)
    names: Names


def humanized(path: str) -> str:
    words = kebab(path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lstrip(".")).replace("-", " ")
    return words.strip().capitalize() or path


def task_status(doc: md.Structure, start: int, end: int) -> str:
    """DONE when every checkbox in lines [start, end) is ticked (and there is one); else OPEN."""
    marks = [m.group(1) for i in range(start, end) if (m := CHECK_RE.match(doc.lines[i]))]
    return "DONE" if marks and " " not in marks else "OPEN"


def _meta(
    ctx: Context, kind: str, ident: str, date: str | None, extra: dict[str, str]
) -> list[str]:
    pairs: list[tuple[str, str]] = []
    if kind == "task":
        pairs = [
            ("Protocol-Version", PROTOCOL_VERSION),
            ("Project-ID", ctx.project_id),
            (V.TASK_ID, ident),
        ]
        pairs.append(("Task-Status", extra.get("Task-Status", "OPEN")))
        pairs += [("Created-At", date)] if date else []
    elif kind == "report":
        pairs = [
            ("Protocol-Version", PROTOCOL_VERSION),
            ("Project-ID", ctx.project_id),
            (V.REPORT_ID, ident),
        ]
        pairs += [("Result", "UNVERIFIED"), *([("Created-At", date)] if date else [])]
    elif (kind == "history" or extra.get("date-line")) and date and not extra.get("dated"):
        pairs = [("Date", date)]
    return [f"{key}: {value}" for key, value in pairs]


def _has_timestamp(doc: md.Structure, ranges: list[tuple[int, int]]) -> bool:
    """Whether the copied lines before the first `## ` already carry a timestamp label."""
    for start, end in ranges:
        for index in range(start, end):
            line = doc.lines[index]
            if line.startswith("## "):
                return False
            if TIMESTAMP_KEYS.match(line):
                return True
    return False


def build(
    ctx: Context,
    kind: str,
    base: str,
    source: str,
    doc: md.Structure,
    title: Block,
    ranges: list[tuple[int, int]],
    date: str | None,
    extra: dict[str, str] | None = None,
) -> Doc:
    """One document: title, metadata, `Source:`, the copied ranges, and for a Task or Report
    each missing required section as `## Name` with NONE."""
    folder = FOLDERS[kind]
    ident = ctx.names.take(folder, base, f"{source}:{ranges}")
    dated = {"dated": "1"} if _has_timestamp(doc, ranges) else {}
    meta = _meta(ctx, kind, ident, date, {**(extra or {}), **dated})
    blocks = [title, *(add(line) for line in meta), add(f"Source: {source}")]
    for start, end in ranges:
        blocks += [add(""), copy(source, start, end)]
    required = {"task": TASK_SECTIONS, "report": REPORT_SECTIONS}.get(kind, ())
    present = {
        h.title for h in doc.headings if h.level == 2 and any(s <= h.row < e for s, e in ranges)
    }
    for name in required:
        if name not in present:
            blocks += [add(""), add(f"## {name}"), add(""), add(NONE_LINE)]
    return Doc(f"{folder}/{ident}.md", kind, (source,), tuple(blocks), date)


def ranges_without(
    doc: md.Structure, start: int, end: int, taken: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Lines [start, end) minus the TAKEN ranges, each trimmed, empty ones dropped."""
    out: list[tuple[int, int]] = []
    cursor = start
    for s, e in [*sorted(taken), (end, end)]:  # TAKEN ranges may nest: the cursor skips them
        if s > cursor:
            a, b = md.trimmed(doc.lines, cursor, min(s, end))
            if a < b:
                out.append((a, b))
        cursor = max(cursor, e)
    return out


def whole_file(
    ctx: Context, path: str, role: str, doc: md.Structure, taken: list[tuple[int, int]]
) -> Doc | None:
    """The file's document of its role's kind, without the TAKEN ranges (None when nothing
    but the title is left)."""
    kind = standing.kind(role, doc, ROLE_KIND[role])
    title_heading = md.title_heading(doc)
    skip = list(taken)
    if title_heading is not None:
        title: Block = copy(path, title_heading.row, title_heading.row + 1)
        skip.append((title_heading.row, title_heading.row + 1))
    else:
        title = add(f"# {md.front_matter_title(doc) or humanized(path)}")
    ranges = ranges_without(doc, 0, len(doc.lines), skip)
    if not any(md.has_content(doc, a, b) for a, b in ranges) and (taken or not ranges):
        return None
    extra = {"Task-Status": task_status(doc, 0, len(doc.lines))} if kind == "task" else {}
    if ROLE_KIND[role] == "history":  # a standing record keeps the date a history one has
        extra["date-line"] = "1"
    return build(
        ctx, kind, base_name(path, role), path, doc, title, ranges, ctx.file_dates.get(path), extra
    )


def base_name(path: str, role: str) -> str:
    parts = path.split("/")
    stem = slug(parts[-1].rsplit(".", 1)[0] if "." in parts[-1].lstrip(".") else parts[-1])
    if role == "decision":
        return stem if stem.startswith(("adr", "rfc")) else f"adr-{stem}"
    if role in ("spec-doc", "spec-tasks") and len(parts) >= 2:
        return f"spec-{slug(parts[-2])}" + ("" if role == "spec-tasks" else f"-{stem}")
    if role == "rules" and len(parts) > 1 and parts[0].startswith("."):
        return f"{slug(parts[0])}-{stem}"
    if role == "rules" and len(parts) > 1:  # a nested AGENTS.md: named by its folder
        return f"{slug('/'.join(p for p in parts[:-1] if p != '.github'))}-{stem}"
    if role == "todo-item":
        return f"todo-{stem}"
    return stem


def entry_report(ctx: Context, path: str, doc: md.Structure, section: md.Section, base: str) -> Doc:
    """A Report from one entry (a dated log section, a changelog release): its heading as
    the title, moved to level 1."""
    heading = section.heading
    title = copy(path, section.start, section.start + 1, 1 - heading.level)
    start, end = md.trimmed(doc.lines, section.start + 1, section.end)
    order = dates.slash_order([h.title for h in doc.headings])
    date = dates.find_date(heading.title, order) or ctx.file_dates.get(path)
    ranges = [(start, end)] if start < end else []
    return build(ctx, "report", base, path, doc, title, ranges, date)


def log_entries(doc: md.Structure) -> list[md.Section]:
    order = dates.slash_order([h.title for h in doc.headings])
    return [s for s in md.sections(doc) if dates.find_date(s.heading.title, order)]


def releases(doc: md.Structure) -> list[md.Section]:
    return [
        s
        for s in md.sections(doc)
        if VERSION_RE.search(s.heading.title) or md.normal_title(s.heading.title) == "unreleased"
    ]


def release_name(title: str) -> str:
    found = VERSION_RE.search(title)
    return f"changelog-{slug(found.group(1)) if found else 'unreleased'}"


def todo_tasks(
    ctx: Context, path: str, doc: md.Structure
) -> tuple[list[Doc], list[tuple[int, int]]]:
    """Tasks from a TODO index: one per main section, else one per top-level list item;
    with the line ranges they took."""
    found = md.sections(doc)
    pieces = [_section_task(doc, path, s) for s in found] or [
        _item_task(doc, path, start, end) for start, end in top_items(doc)
    ]
    date = ctx.file_dates.get(path)
    docs = [
        build(ctx, "task", base, path, doc, title, body, date, {"Task-Status": status})
        for base, title, body, status, _ in pieces
    ]
    return docs, [span for *_, span in pieces]


Piece = tuple[str, Block, list[tuple[int, int]], str, tuple[int, int]]


def _section_task(doc: md.Structure, path: str, section: md.Section) -> Piece:
    start, end = md.trimmed(doc.lines, section.start + 1, section.end)
    title = copy(path, section.start, section.start + 1, 1 - section.heading.level)
    body = [(start, end)] if start < end else []
    base = f"todo-{slug(section.heading.title)}"
    return base, title, body, task_status(doc, start, end), (section.start, section.end)


def _item_task(doc: md.Structure, path: str, start: int, end: int) -> Piece:
    text = ITEM_RE.match(doc.lines[start].lstrip())
    words = text.group(1).strip() if text else doc.lines[start].strip()
    title = add(f"# {words[:80]}")
    status = task_status(doc, start, start + 1)
    return f"todo-{slug(words[:40])}", title, [(start, end)], status, (start, end)


def top_items(doc: md.Structure) -> list[tuple[int, int]]:
    """Lines [start, end) of each top-level list item (with its indented lines)."""
    items: list[tuple[int, int]] = []
    for index in range(doc.front_matter, len(doc.lines)):
        line = doc.lines[index]
        if index in doc.fenced:
            continue
        if ITEM_RE.match(line):
            items.append((index, index + 1))
        elif items and items[-1][1] == index and line.startswith((" ", "\t")) and line.strip():
            items[-1] = (items[-1][0], index + 1)
    return items
