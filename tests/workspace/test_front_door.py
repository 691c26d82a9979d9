"""The one front door (`workspace/door.py`, SPEC §12): each call validates once, loads (from
the checked index or, with `fresh`, the sources), computes; the CLI and the MCP tools call it
alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.core.errors import ContextError
from project_corpus.corpus.snapshot import collect
from project_corpus.index.store import build_index
from project_corpus.retrieval import bundle as bundle_mod
from project_corpus.retrieval import rank
from project_corpus.retrieval.analysis import analyse
from project_corpus.retrieval.bundle import Mandatory
from project_corpus.retrieval.bundle import bundle_and_search
from project_corpus.retrieval.bundle import bundle_ask
from project_corpus.workspace import Workspace


def counting(
    monkeypatch: pytest.MonkeyPatch, calls: Counter[str], module: object, name: str
) -> None:
    real: Callable[[object], object] = getattr(module, name)

    def counted(value: object) -> object:
        calls[name] += 1
        return real(value)

    monkeypatch.setattr(module, name, counted)


@pytest.mark.parametrize("fresh", [True, False])
def test_each_request_is_validated_once(
    example: Path, monkeypatch: pytest.MonkeyPatch, fresh: bool
) -> None:
    build_index(collect(example))
    calls: Counter[str] = Counter()
    for module, name in ((rank, "check_query"), (rank, "check_limit")):
        counting(monkeypatch, calls, module, name)
    for name in ("check_query", "check_budget"):
        counting(monkeypatch, calls, bundle_mod, name)
    Workspace(example).query("next action", "5", fresh=fresh)
    assert calls == {"check_query": 1, "check_limit": 1}
    calls.clear()
    Workspace(example).bundle("next action", fresh=fresh)
    assert calls == {"check_query": 1, "check_budget": 1}


def test_a_bad_request_is_refused_before_any_source_is_read(tmp_path: Path) -> None:
    space = Workspace(tmp_path)  # no corpus here: the arguments are refused first
    for call, code in (
        (lambda: space.query("x", "0"), "QUERY_LIMIT"),
        (lambda: space.query("!!"), "QUERY_EMPTY"),
        (lambda: space.bundle("x", 79), "BUDGET_INVALID"),
    ):
        with pytest.raises(ContextError) as refused:
            call()
        assert refused.value.code == code


def test_the_index_is_read_only_when_asked(example: Path) -> None:
    """A stale index stops a query; a fresh one never reads it."""
    build_index(collect(example))
    status = example / ".project-corpus" / "state" / "STATUS.md"
    status.write_text(status.read_text(encoding="utf-8") + "\nA new line.\n", encoding="utf-8")
    with pytest.raises(ContextError) as stale:
        Workspace(example).query("next action")
    assert stale.value.code == "INDEX_STALE"
    assert Workspace(example).query("next action", fresh=True)["results"]


def test_the_mandatory_memo_is_the_callers(example: Path) -> None:
    """The bundle's mandatory part is kept in the caller's memo, never in the analysis."""
    corpus = collect(example)
    analysis = analyse(corpus)
    memo: Mandatory = {}
    first = bundle_and_search(corpus, bundle_ask("next action", 300), mandatory=memo)[0]
    assert list(memo) == [300]
    again = bundle_and_search(corpus, bundle_ask("next action", 300), mandatory=memo)[0]
    assert again["bundle_sha256"] == first["bundle_sha256"]
    assert not hasattr(analysis, "mandatory")
