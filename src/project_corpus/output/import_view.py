"""The text view of `project-corpus import` (docs/import.md): the plan a person reads first.

Every source file with the documents it became, every file left out with its reason, the
documents kept because somebody edited them, stale documents, and one summary line.
"""

from __future__ import annotations

from collections.abc import Mapping

from project_corpus.output.escape import terminal

KEPT = {
    "kept-edited": "kept: edited since import wrote it",
    "kept-existing": "kept: exists and import did not write it",
    "stale": "stale: its source is gone (delete with --prune)",
    "stale-edited": "stale but edited: kept",
    "prune": "deleted (--prune)",
}


def _rows(value: object) -> list[Mapping[str, object]]:
    return [row for row in value if isinstance(row, Mapping)] if isinstance(value, list) else []


def import_view(result: Mapping[str, object]) -> str:
    dry = bool(result.get("dry_run"))
    lines = ["plan (dry run: nothing written):" if dry else "imported:"]
    for row in _rows(result.get("sources")):
        targets = row.get("documents")
        named = ", ".join(terminal(str(t)) for t in targets) if isinstance(targets, list) else ""
        lines.append(f"  {terminal(str(row['path']))} ({row['role']}) -> {named}")
    left = _rows(result.get("left_out"))
    if left:
        lines.append("left out:")
        lines += [
            f"  {terminal(str(r['path']))}: {r['reason']} ({terminal(str(r['detail']))})"
            for r in left
        ]
    notes = [*_rows(result.get("documents")), *_rows(result.get("files"))]
    kept = [r for r in notes if r.get("action") in KEPT]
    if kept:
        lines.append("attention:")
        lines += [f"  {terminal(str(r['path']))}: {KEPT[str(r['action'])]}" for r in kept]
    lines.append(_summary(result, dry))
    return "\n".join(lines) + "\n"


def _summary(result: Mapping[str, object], dry: bool) -> str:
    summary = result.get("summary")
    counts = summary if isinstance(summary, Mapping) else {}
    verb = "would write" if dry else "wrote"
    written = int(counts.get("create", 0)) + int(counts.get("update", 0))
    return (
        f"{counts.get('documents', 0)} documents from {counts.get('sources', 0)} files; "
        f"{verb} {written} files, {counts.get('unchanged', 0)} unchanged; "
        f"{counts.get('left_out', 0)} left out; AGENTS.md: {result.get('agents_md')}"
    )
