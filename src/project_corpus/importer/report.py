"""The result of an import as plain data (the `import-result` JSON Schema, docs/import.md)."""

from __future__ import annotations

from project_corpus.importer.records import Doc
from project_corpus.importer.records import ImportOptions
from project_corpus.importer.records import Left
from project_corpus.importer.records import Source
from project_corpus.importer.render import Rendered
from project_corpus.importer.write import Action

WRITTEN = ("create", "update", "prune")
KEPT = ("kept-edited", "kept-existing", "stale-edited")


def result(
    root: str,
    opts: ImportOptions,
    project_id: str,
    sources: list[Source],
    docs: list[Doc],
    rendered: dict[str, Rendered],
    left: list[Left],
    actions: list[Action],
    pointer: str,
) -> dict[str, object]:
    by_path = {a.path: a.action for a in actions}
    made: dict[str, list[str]] = {s.path: [] for s in sources}
    for doc in docs:
        for path in doc.sources:
            made.setdefault(path, []).append(doc.target)
    planned = {d.target for d in docs}
    files = [{"path": a.path, "action": a.action} for a in actions if a.path not in planned]
    agents_action = by_path.get("AGENTS.md", pointer)
    left_out = _left(left, sources, made)
    return {
        "ok": True,
        "root": root,
        "dry_run": opts.dry_run,
        "project_id": project_id,
        "sources": _sources(sources, made),
        "documents": [
            _document(d, by_path, rendered) for d in sorted(docs, key=lambda d: d.target)
        ],
        "files": sorted(files, key=lambda f: f["path"]),
        "left_out": [{"path": x.path, "reason": x.reason, "detail": x.detail} for x in left_out],
        "agents_md": agents_action if agents_action != "none" else "unchanged",
        "summary": {
            "sources": sum(1 for s in sources if made[s.path]),
            "documents": len(docs),
            "left_out": len(left_out),
            **_counts(docs, rendered, actions),
        },
    }


def _sources(sources: list[Source], made: dict[str, list[str]]) -> list[dict[str, object]]:
    return [
        {"path": s.path, "role": s.role, "documents": sorted(set(made[s.path]))}
        for s in sorted(sources, key=lambda s: s.path)
        if made[s.path]
    ]


def _counts(
    docs: list[Doc], rendered: dict[str, Rendered], actions: list[Action]
) -> dict[str, int]:
    return {
        "copied_lines": sum(rendered[d.target].copied for d in docs),
        "added_lines": sum(rendered[d.target].added for d in docs),
        **{name: sum(1 for a in actions if a.action == name) for name in _ACTIONS},
    }


def _document(
    doc: Doc, by_path: dict[str, str], rendered: dict[str, Rendered]
) -> dict[str, object]:
    return {
        "path": doc.target,
        "kind": doc.kind,
        "sources": sorted(set(doc.sources)),
        "action": by_path.get(doc.target, "unchanged"),
        "copied_lines": rendered[doc.target].copied,
        "added_lines": rendered[doc.target].added,
    }


_ACTIONS = (
    "create",
    "update",
    "unchanged",
    "kept-edited",
    "kept-existing",
    "prune",
    "stale",
    "stale-edited",
)


def _left(left: list[Left], sources: list[Source], made: dict[str, list[str]]) -> list[Left]:
    """LEFT plus every source that became no document, once per (path, reason)."""
    named = {x.path for x in left}
    unused = [
        Left(s.path, "empty", "nothing to import after its title")
        for s in sources
        if not made[s.path] and s.path not in named
    ]
    return sorted(set(left) | set(unused))
