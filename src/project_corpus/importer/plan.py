"""The mapping: every owner's file to the documents it becomes (docs/import.md, "Mapping").

`plan_documents` is pure: sources and their dates in, documents out (PROJECT and STATUS
first), each a list of blocks that `render.py` turns into text.
"""

from __future__ import annotations

import posixpath

from project_corpus.core.versions import PROTOCOL_VERSION
from project_corpus.corpus import vocabulary as V
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.layout import STATE_DIR
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.vocabulary import PROJECT_SECTIONS
from project_corpus.corpus.vocabulary import STATUS_SECTIONS
from project_corpus.importer import artifacts
from project_corpus.importer import canon
from project_corpus.importer import sections as md
from project_corpus.importer import standing
from project_corpus.importer.artifacts import Context
from project_corpus.importer.layouts import STATUS_PRIORITY
from project_corpus.importer.names import Names
from project_corpus.importer.names import slug
from project_corpus.importer.records import Block
from project_corpus.importer.records import Doc
from project_corpus.importer.records import Source
from project_corpus.importer.records import add
from project_corpus.importer.records import copy

Taken = dict[str, set[tuple[int, int]]]  # path -> line ranges PROJECT or STATUS took


def plan_documents(
    sources: list[Source], project_id: str, name: str, file_dates: dict[str, str]
) -> list[Doc]:
    docs = {s.path: md.structure(s.lines) for s in sources}
    roles = {s.path: s.role for s in sources}
    names = Names()
    names.taken.update({f"{STATE_DIR}/project", f"{STATE_DIR}/status"})
    ctx = Context(project_id, file_dates, names)
    taken: Taken = {}
    brief = _brief(roles)
    project = _project(ctx, name, brief, docs, taken)
    status = _status(ctx, name, roles, docs, taken, brief)
    others = _files(ctx, roles, docs, taken, brief, skip_status=False)
    return [project, status, *_supersessions(others, roles, docs)]


def _supersessions(
    planned: list[Doc], roles: dict[str, str], docs: dict[str, md.Structure]
) -> list[Doc]:
    """`Supersedes:` in the successor a superseded decision record links to, when both are
    History (the Protocol reads the line in no `state/` document): one line, the first."""
    history = [d for d in planned if d.kind == "history"]
    records = {d.sources[0]: d for d in history if roles[d.sources[0]] == "decision"}
    heirs: dict[str, str] = {}
    for path, doc in sorted(records.items()):
        target = standing.successor(docs[path])
        if target is None:
            continue
        heir = records.get(posixpath.normpath(posixpath.join(posixpath.dirname(path), target)))
        if heir is not None and heir is not doc:
            heirs.setdefault(heir.target, doc.target)
    return [_supersedes(d, heirs[d.target]) if d.target in heirs else d for d in planned]


def _supersedes(doc: Doc, target: str) -> Doc:
    at = next(i for i, b in enumerate(doc.blocks) if not b.path and b.text.startswith("Source: "))
    blocks = (*doc.blocks[:at], add(f"Supersedes: {target}"), *doc.blocks[at:])
    return doc._replace(blocks=blocks)


def _brief(roles: dict[str, str]) -> str | None:
    for wanted in ("brief", "overview", "readme"):
        found = sorted(p for p, r in roles.items() if r == wanted)
        if found:
            return min(found, key=lambda p: (p.count("/"), p))  # the shallowest: the live one
    return None


def _project(
    ctx: Context, name: str, brief: str | None, docs: dict[str, md.Structure], taken: Taken
) -> Doc:
    parts: dict[str, list[Block]] = {n: [] for n in PROJECT_SECTIONS}
    title: Block = add(f"# {name} — Project")
    if brief is not None:
        doc = docs[brief]
        whole = not brief.lower().endswith("readme.md")
        picked = canon.project_sections(brief, doc, taken.setdefault(brief, set()), whole)
        parts = picked
        heading = md.title_heading(doc)
        if heading is not None and whole:
            title = copy(brief, heading.row, heading.row + 1)
    meta = [
        ("Protocol-Version", PROTOCOL_VERSION),
        ("Project-ID", ctx.project_id),
        ("Logical-Name", name),
    ]
    meta += [("Source", brief)] if brief else []
    blocks = canon.document(title, meta, parts)
    return Doc(PROJECT_PATH, "project", (brief,) if brief else (), tuple(blocks))


def _status(
    ctx: Context,
    name: str,
    roles: dict[str, str],
    docs: dict[str, md.Structure],
    taken: Taken,
    brief: str | None,
) -> Doc:
    ordered = sorted(
        (p for p, r in roles.items() if r in STATUS_PRIORITY),
        key=lambda p: (STATUS_PRIORITY[roles[p]], p.count("/"), p),
    )
    picked = canon.status_sections([(p, docs[p]) for p in ordered], taken)
    if V.EXACT_NEXT_ACTION not in picked:
        fallback = _next_action(ctx, roles, docs, taken, brief)
        if fallback is not None:
            picked[V.EXACT_NEXT_ACTION] = fallback
    paths = sorted({p for pick in picked.values() for p in pick.paths})
    verified = max((ctx.file_dates[p] for p in paths if p in ctx.file_dates), default=None)
    meta = [
        ("Protocol-Version", PROTOCOL_VERSION),
        ("Project-ID", ctx.project_id),
        ("Lifecycle-Status", "ACTIVE" if V.EXACT_NEXT_ACTION in picked else "PAUSED"),
        ("Active-Task-ID", "NONE"),
        ("Last-Verified-At", f"{verified}T00:00:00Z" if verified else "UNVERIFIED"),
        ("Evidence-Class", "DOCUMENTED" if picked else "UNVERIFIED"),
    ]
    meta += [("Source", ", ".join(paths))] if paths else []
    parts = {n: picked[n].blocks if n in picked else [] for n in STATUS_SECTIONS}
    blocks = canon.document(add(f"# {name} — Status"), meta, parts)
    return Doc(STATUS_PATH, "status", tuple(paths), tuple(blocks), verified)


def _next_action(
    ctx: Context,
    roles: dict[str, str],
    docs: dict[str, md.Structure],
    taken: Taken,
    brief: str | None,
) -> canon.Pick | None:
    """The TODO index's first open item, else the latest log entry's next steps (the log's
    entries are planned here only for this, with throw-away names)."""
    for path in sorted(p for p, r in roles.items() if r == "todo-file"):
        found = canon.first_open_item(path, docs[path])
        if found is not None:
            return found
    entries = _files(ctx, roles, docs, taken, brief, skip_status=True)
    reports = [d for d in entries if d.kind == "report" and d.date]
    for report in sorted(reports, key=lambda d: (d.date or "", d.target), reverse=True)[:1]:
        path = report.sources[0]
        doc = docs[path]
        span = [b for b in report.blocks if b.path and b.end - b.start > 1]
        for section in canon.matching(doc, V.EXACT_NEXT_ACTION, set()):
            if any(b.start <= section.start < b.end for b in span):
                return canon.Pick([canon.section_block(path, section, doc)], [path])
    return None


def _files(
    ctx: Context,
    roles: dict[str, str],
    docs: dict[str, md.Structure],
    taken: Taken,
    brief: str | None,
    skip_status: bool,
) -> list[Doc]:
    """The documents of every file but the brief (a README that PROJECT quoted keeps the rest
    of its lines as a state reference). With SKIP_STATUS only the entries of logs
    (which STATUS may quote) are planned, with throw-away names."""
    out: list[Doc] = []
    scratch = ctx._replace(names=Names()) if skip_status else ctx
    for path in sorted(roles):
        role = roles[path]
        if (path == brief and role != "readme") or (
            skip_status and role not in ("log-file", "log-entry")
        ):
            continue
        out += _file_docs(scratch, path, role, docs[path], taken.get(path, set()))
    return out


def _file_docs(
    ctx: Context, path: str, role: str, doc: md.Structure, taken: set[tuple[int, int]]
) -> list[Doc]:
    skip = sorted(taken)
    out: list[Doc] = []
    if role == "log-file" or role == "changelog":
        entries = artifacts.log_entries(doc) if role == "log-file" else artifacts.releases(doc)
        for section in entries:
            if md.overlaps(section.start, section.end, taken):
                continue
            base = (
                artifacts.release_name(section.heading.title)
                if role == "changelog"
                else f"{artifacts.base_name(path, role)}-{slug(section.heading.title)}"
            )
            out.append(artifacts.entry_report(ctx, path, doc, section, base))
            skip.append((section.start, section.end))
    elif role == "todo-file":
        tasks, used = artifacts.todo_tasks(ctx, path, doc)
        out += tasks
        skip += used
    rest = artifacts.whole_file(ctx, path, role, doc, skip)
    return out + ([rest] if rest is not None else [])
