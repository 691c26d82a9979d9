"""One library entry per retrieval view: the CLI, the MCP tools and the Python API build a
request and call `run_query` or `run_bundle` (docs/architecture.md).

Each entry validates its request once, before any source is read (`rank.ask`,
`bundle.bundle_ask`); loads the corpus, either verified against the stored index (the CLI:
the default index when `index_path` is None; `INDEX_*` when it is missing or stale) or as a fresh
snapshot when the request says `fresh` (the MCP server reads no index); then computes. The
doctor's one entry is `doctor.memory_doctor`, a candidate's `candidate.validate_candidate_at`.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.records import Corpus
from project_corpus.retrieval.rank import ask
from project_corpus.retrieval.rank import query_result


class QueryRequest(NamedTuple):
    """A `context query` as given: where to read and what to ask (checked by `run_query`)."""

    root: str | os.PathLike[str]
    query: object
    limit: object = BOUNDS.limit.default
    index_path: str | None = None  # the index file inside cache/ (None: the default one)
    fresh: bool = False  # read a fresh snapshot and no index (the MCP tools)


class BundleRequest(NamedTuple):
    """A `context bundle` as given: where to read, the query and the excerpt budget."""

    root: str | os.PathLike[str]
    query: object
    max_tokens: object = BOUNDS.max_tokens.default
    index_path: str | None = None
    fresh: bool = False


def load_corpus(root: str | os.PathLike[str], index: str | None, fresh: bool) -> Corpus:
    """ROOT's strict snapshot: fresh, or verified against its stored index at INDEX."""
    if fresh:
        from project_corpus.corpus.snapshot import collect

        return collect(root)
    from project_corpus.index.store import load_verified  # sqlite3 only when an index is read

    return load_verified(root, index)


def run_query(request: QueryRequest) -> dict[str, object]:
    """The `context query` document of REQUEST."""
    asked = ask(request.query, request.limit)
    return query_result(load_corpus(request.root, request.index_path, request.fresh), asked)


def run_bundle(request: BundleRequest) -> dict[str, object]:
    """The Context Bundle v1 of REQUEST."""
    # Imported here: a query does not load the bundle's modules (start-up, docs/performance.md).
    from project_corpus.retrieval.bundle import bundle_and_search
    from project_corpus.retrieval.bundle import bundle_ask

    asked = bundle_ask(request.query, request.max_tokens)
    corpus = load_corpus(request.root, request.index_path, request.fresh)
    return bundle_and_search(corpus, asked)[0]
