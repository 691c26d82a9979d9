"""`--index PATH`: is the stored index usable, and does it match the fresh snapshot?

The doctor only reads the index (it never repairs or rebuilds it). Problems of the index
file itself are reported at the index path; a changed or superseded source at the source.
Findings are grouped per source so a broken index gives one finding per source, not one
per item.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from project_corpus.core.errors import ContextError
from project_corpus.corpus.layout import CACHE_DIR
from project_corpus.corpus.roots import Root
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check

if TYPE_CHECKING:  # the index module (and sqlite3) is imported only when an index is checked
    from project_corpus.index.schema import StoredIndex
    from project_corpus.index.schema import StoredItem

OPEN_CODES = ("INDEX_MISSING", "INDEX_CORRUPT", "INDEX_SCHEMA_MISMATCH", "INDEX_PATH")


def open_for_doctor(
    opened: Root, index: str | None
) -> tuple[StoredIndex | None, ContextError | None, str]:
    """(stored index, the error that made it unusable, portable index path). Only the
    INDEX_* opening errors become findings; anything else (CONTEXT_LIMIT) is raised."""
    from project_corpus.index.store import open_index
    from project_corpus.index.store import resolve_index_path

    root = opened.path
    try:
        rel = f"{CACHE_DIR}/{resolve_index_path(root, index)}"
    except ContextError as exc:
        return None, _without_paths(exc, root, index), CACHE_DIR
    try:
        return open_index(opened, index), None, rel
    except ContextError as exc:
        if exc.code not in OPEN_CODES:
            raise
        return None, _without_paths(exc, root, index), rel


def _without_paths(exc: ContextError, root: str, index: str | None) -> ContextError:
    """The error with the user's absolute paths reduced (reports hold no absolute path)."""
    detail = exc.detail.replace(str(root) + os.sep, "")
    if index and os.path.isabs(index):
        detail = detail.replace(index, os.path.basename(index))
    return ContextError(exc.code, detail, exc.hint)


def _open_error(view: DoctorView, code: str) -> Iterator[Issue]:
    error = view.index_error
    if error is not None and error.code == code:
        yield Issue(code, view.index_rel, 1, error.detail, anchor=code)


@check("INDEX_MISSING", "index-missing", severity="FAIL", needs="index")
def index_missing(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.index.open_index`.

    ## Why it matters
    `query`, `bundle` and `eval` need a current index.

    ## Fix
    Run `project-corpus context build ROOT` (the cache is disposable and git-ignored).
    """
    yield from _open_error(view, this.code)


@check("INDEX_CORRUPT", "index-corrupt", severity="FAIL", needs="index")
def index_corrupt(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.index.open_index`.

    ## Why it matters
    A torn or foreign file cannot be trusted for provenance.

    ## Fix
    Delete it and run `project-corpus context build ROOT`.
    """
    yield from _open_error(view, this.code)


@check("INDEX_SCHEMA_MISMATCH", "index-schema-mismatch", severity="FAIL", needs="index")
def index_schema_mismatch(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.index.open_index`.

    ## Why it matters
    Another tool version stored other tables or meanings.

    ## Fix
    Rebuild the index with this version: `project-corpus context build ROOT`.
    """
    yield from _open_error(view, this.code)


@check("INDEX_PATH", "index-path", severity="FAIL", needs="index")
def index_path(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.index.open_index`.

    ## Why it matters
    The index may live only in the disposable cache: a `..` component, another folder,
    another suffix, a link or a leftover staging file is refused so nothing outside the
    cache is ever read or written as an index.

    ## Fix
    Use the default `.project-corpus/cache/context.sqlite3` or another `*.sqlite3` there.
    """
    yield from _open_error(view, this.code)


@check("INDEX_PROJECT_MISMATCH", "index-project-mismatch", severity="FAIL", needs="stored")
def index_project_mismatch(view: DoctorView, this: Check) -> Iterator[Issue]:
    """## Why it matters
    An index of another project would answer queries with the wrong corpus.

    ## Fix
    Rebuild the index for this project.
    """
    stored = view.stored
    if stored is not None and stored.project_id != view.corpus.project_id:
        detail = f"index project {stored.project_id!r} != corpus project {view.corpus.project_id!r}"
        yield this.issue(view.index_rel, 1, detail, anchor=stored.project_id)


@check("MISSING_SOURCE", "missing-source", severity="FAIL", needs="stored")
def missing_source(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A source stored in the index no longer exists or has left the read scope.

    ## Why it matters
    The index would point agents at text that is gone or no longer allowed.

    ## Fix
    Rebuild the index.
    """
    assert view.stored is not None
    for path in view.stored.sources:
        if path not in view.corpus.by_path:
            yield this.issue(
                view.index_rel,
                1,
                f"{path} is stored but missing or out of scope now",
                anchor=path,
            )


@check("STALE_INDEX", "stale-index", severity="FAIL", needs="stored")
def stale_index(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A source changed since the index was built, or a new source is not in the index.

    ## Why it matters
    Stored line spans and hashes no longer describe the text; `query` and `bundle` refuse
    a stale index (`INDEX_STALE`).

    ## Fix
    Rebuild the index.
    """
    assert view.stored is not None
    for source in view.corpus.sources:
        stored = view.stored.sources.get(source.path)
        if stored is None:
            yield this.issue(source.path, 1, "new source, not in the index", anchor="new")
        elif stored.sha256 != source.sha256:
            yield this.issue(
                source.path,
                1,
                f"changed since the index was built (stored sha256 {stored.sha256[:12]}…)",
                anchor="changed",
            )


@check("BROKEN_PROVENANCE", "broken-provenance", severity="FAIL", needs="stored")
def broken_provenance(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A stored item points outside its source, or to text with another hash.

    ## Why it matters
    Provenance is the whole value of the index: an item whose source is not stored, whose
    lines fall outside the stored line count, or (for an unchanged source) whose item ID
    no longer matches the text at its lines, points agents at the wrong words.

    ## Fix
    Rebuild the index; if it happens again, report a bug.
    """
    from project_corpus.corpus.items import corpus_items  # only with --index

    assert view.stored is not None
    fresh: dict[str, set[tuple[str, int, int]]] = {}
    for own in corpus_items(view.corpus):
        fresh.setdefault(own.source_path, set()).add((own.item_id, own.line_start, own.line_end))
    broken: dict[str, list[StoredItem]] = {}
    for item in view.stored.items:
        if _item_problem(view, fresh, item):
            broken.setdefault(item.source_path, []).append(item)
    for path, items in broken.items():
        first = items[0]
        detail = (
            f"{len(items)} stored item(s) of {path} do not match it "
            f"(first: {first.item_id} lines {first.line_start}-{first.line_end})"
        )
        yield this.issue(view.index_rel, 1, detail, anchor=path)


def _item_problem(
    view: DoctorView, fresh: dict[str, set[tuple[str, int, int]]], item: StoredItem
) -> bool:
    assert view.stored is not None
    source = view.stored.sources.get(item.source_path)
    if source is None:
        return True
    if not 1 <= item.line_start <= item.line_end <= source.line_count:
        return True
    if not 0 <= item.section_line <= item.line_start:
        return True
    current = view.corpus.by_path.get(item.source_path)
    unchanged = current is not None and current.sha256 == source.sha256
    return unchanged and (item.item_id, item.line_start, item.line_end) not in fresh.get(
        item.source_path, set()
    )


@check("SUPERSEDED_RANKED_CURRENT", "superseded-ranked-current", severity="FAIL", needs="stored")
def superseded_ranked_current(view: DoctorView, this: Check) -> Iterator[Issue]:
    """The index ranks as current a source that a valid Supersedes: line now supersedes.

    ## Why it matters
    Retrieval from that index would boost replaced evidence over its replacement.

    ## Fix
    Rebuild the index.
    """
    assert view.stored is not None
    for source in view.corpus.sources:
        stored = view.stored.sources.get(source.path)
        if (
            source.temporal_status == "superseded"
            and stored
            and stored.temporal_status != "superseded"
        ):
            yield this.issue(
                source.path,
                1,
                f"stored as {stored.temporal_status!r}, now superseded",
                anchor="superseded",
            )


# This family's checks, in the order of docs/checks.md (the registry concatenates them).
CHECKS: tuple[Check, ...] = (
    index_missing,
    index_corrupt,
    index_schema_mismatch,
    index_path,
    index_project_mismatch,
    missing_source,
    stale_index,
    broken_provenance,
    superseded_ranked_current,
)
