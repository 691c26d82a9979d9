"""project-corpus: Context Intelligence for a Project Corpus (Protocol V2).

The public API is imported lazily (PEP 562) so that `project-corpus --version` and the
linters stay fast: nothing below is loaded until it is first used.
"""

from __future__ import annotations

from project_corpus.core.about import __version__

# Not `typing.TYPE_CHECKING`: importing typing (with re, enum, collections) would cost
# `--version` about 5 ms, a third of its time.
TYPE_CHECKING = False

_API = {
    "ContextError": "project_corpus.core.errors",
    "collect": "project_corpus.corpus.snapshot",
    "build_index": "project_corpus.index.store",
    "open_index": "project_corpus.index.store",
    "query_corpus": "project_corpus.retrieval.rank",
    "query_index": "project_corpus.retrieval.rank",  # deprecated alias (0.3): query_corpus
    "compile_bundle": "project_corpus.retrieval.bundle",
    "make_receipt": "project_corpus.retrieval.receipt",
    "memory_doctor": "project_corpus.doctor",
    "evaluate_dataset": "project_corpus.evaluate",
    "validate_candidate": "project_corpus.corpus.candidate",
    "Workspace": "project_corpus.workspace.door",
}

__all__ = [
    "ContextError",
    "Workspace",
    "__version__",
    "build_index",
    "collect",
    "compile_bundle",
    "evaluate_dataset",
    "make_receipt",
    "memory_doctor",
    "open_index",
    "query_corpus",
    "query_index",
    "validate_candidate",
]

if TYPE_CHECKING:
    from project_corpus.core.errors import ContextError
    from project_corpus.corpus.candidate import validate_candidate
    from project_corpus.corpus.snapshot import collect
    from project_corpus.doctor import memory_doctor
    from project_corpus.evaluate import evaluate_dataset
    from project_corpus.index.store import build_index
    from project_corpus.index.store import open_index
    from project_corpus.retrieval.bundle import compile_bundle
    from project_corpus.retrieval.rank import query_corpus
    from project_corpus.retrieval.rank import query_index
    from project_corpus.retrieval.receipt import make_receipt
    from project_corpus.workspace.door import Workspace


def __getattr__(name: str) -> object:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'project_corpus' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
