"""`Supersedes:` relations (docs/protocol.md), reported at the `Supersedes:` line.

Relations declared by a foreign document are not reported here: the document itself is
reported as PROJECT_ID_MISMATCH.
"""

from __future__ import annotations

from collections.abc import Iterator

from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check
from project_corpus.doctor.records import value_column
from project_corpus.retrieval.text import normalise


def _relations(view: DoctorView, code: str, validity: str) -> Iterator[Issue]:
    for rel in view.corpus.relations:
        source = view.corpus.by_path.get(rel.source)
        if rel.validity != validity or (source is not None and source.foreign):
            continue
        detail = f"Supersedes: {rel.target or '(empty)'}: {rel.detail}"
        column = value_column(source.doc, rel.line) if source is not None else 0
        anchor = normalise(f"Supersedes: {rel.target}")
        yield Issue(code, rel.source, rel.line, detail, anchor=anchor, column=column)


@check("INVALID_TEMPORAL_RELATION", "invalid-temporal-relation", severity="FAIL")
def invalid_temporal_relation(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A Supersedes: line is invalid, so it supersedes nothing.

    Detected by `project_corpus.corpus.supersession.relations`.

    ## Why it matters
    A valid target is a portable path under `.project-corpus/tasks/`, `reports/` or
    `history/` ending in `.md`, not the active task and not the document itself; state
    documents cannot supersede. An invalid line was meant to retire old evidence, which
    therefore still looks current to agents.

    ## Fix
    Write the exact portable path of the replaced Task, Report or History file, e.g.
    `Supersedes: .project-corpus/reports/bench-old.md`.
    """
    yield from _relations(view, this.code, "invalid")


@check("ORPHAN_SUPERSESSION", "orphan-supersession", severity="WARN")
def orphan_supersession(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A valid Supersedes: line points at a source that is missing or out of scope.

    Detected by `project_corpus.corpus.supersession.relations`.

    ## Why it matters
    The link implies nothing, so the old document (if it exists under another name) still
    looks current to agents.

    ## Fix
    Point the line at the exact portable path of an existing Task, Report or History file,
    or delete the line when the old document is gone.
    """
    yield from _relations(view, this.code, "orphan")


@check("TEMPORAL_CYCLE", "temporal-cycle", severity="FAIL")
def temporal_cycle(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A Supersedes: edge lies on a cycle, so none of the cycle's edges implies anything.

    Detected by `project_corpus.corpus.supersession.relations`.

    ## Why it matters
    When a supersedes b and b supersedes a, neither can be the current one; every edge of
    the cycle (found by strongly connected components) is ignored.

    ## Fix
    Remove the edge that points from the older document to the newer one.
    """
    yield from _relations(view, this.code, "cyclic")


# This family's checks, in the order of docs/checks.md (the registry concatenates them).
CHECKS: tuple[Check, ...] = (
    invalid_temporal_relation,
    orphan_supersession,
    temporal_cycle,
)
