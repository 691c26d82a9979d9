"""The search's early stop (retrieval/prune.py) returns exactly what scoring every candidate
returns: random queries from each corpus's own words, the glossary and the negations, random
limits, on every fixture corpus and a generated one."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.corpus.snapshot import collect
from project_corpus.retrieval import rank
from project_corpus.retrieval.glossary import CONCEPTS
from project_corpus.retrieval.prune import lazy_order
from project_corpus.retrieval.rank import candidates
from project_corpus.retrieval.rank import full_search
from project_corpus.retrieval.rank import search
from project_corpus.retrieval.text import NEGATIONS_AND_MODALS
from project_corpus.retrieval.text import raw_tokens
from tests.conftest import REPO


def _collects(root: Path) -> bool:
    try:
        collect(root)
    except ContextError:  # fixtures/invalid: no corpus to search
        return False
    return True


FIXTURES = sorted(
    str(path.parent.relative_to(REPO))
    for path in [
        *REPO.glob("fixtures/*/.project-corpus"),
        *REPO.glob("fixtures/*/*/.project-corpus"),
    ]
    if _collects(path.parent)
)
GLOSSARY = sorted({word for c in CONCEPTS for notion in c.notions for word in notion})
GENERATED = "generated"
GENERATE = ("--sources", "60", "--lines", "2500", "--seed", "17")
_TMP = tempfile.TemporaryDirectory()


@cache
def corpus(name: str) -> Corpus:
    if name != GENERATED:
        return collect(REPO / name)
    root = Path(_TMP.name) / GENERATED
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "generate.py"), str(root), *GENERATE],
        check=True,
        capture_output=True,
    )
    return collect(root)


@cache
def words(name: str) -> list[str]:
    own = {t for s in corpus(name).sources for line in s.doc.lines for t in raw_tokens(line)}
    return sorted(own)


def same(name: str, query: str, limit: int) -> None:
    pruned = [r.as_dict() for r in search(corpus(name), query, limit)]
    assert pruned == [r.as_dict() for r in full_search(corpus(name), query, limit)]


@st.composite
def queries(draw: st.DrawFn, name: str) -> str:
    pool = st.one_of(
        st.sampled_from(words(name)),
        st.sampled_from(GLOSSARY),
        st.sampled_from(sorted(NEGATIONS_AND_MODALS)),
    )
    return " ".join(draw(st.lists(pool, min_size=1, max_size=6)))


@pytest.mark.parametrize("name", [*FIXTURES, GENERATED])
@settings(max_examples=60, deadline=None)
@given(data=st.data(), limit=st.integers(1, 100))
def test_the_early_stop_returns_what_scoring_every_candidate_returns(
    name: str, data: st.DataObject, limit: int
) -> None:
    query = data.draw(queries(name))
    if not any(t.isalnum() for t in query):
        return
    same(name, query, limit)


def test_every_fixture_and_the_retrieval_fixtures_are_covered() -> None:
    assert "fixtures/example" in FIXTURES
    assert sum(name.startswith("fixtures/retrieval/") for name in FIXTURES) >= 6
    assert sum(name.startswith("fixtures/integrity/") for name in FIXTURES) >= 6


@pytest.mark.parametrize("name", [*FIXTURES, GENERATED])
@pytest.mark.parametrize(
    "query",
    [
        "what is the exact next action",
        "cache eviction policy latency",
        "old superseded decision history",
        "what must not change",
        "evidence references report",
        "текущее состояние задачи",
    ],
)
def test_no_candidate_scores_above_its_bound(name: str, query: str) -> None:
    found = candidates(corpus(name), query)
    owners = found.analysis.owners(found.matched)
    bounds = dict(rank._bounds(found, owners))
    assert bounds.keys() == found.matched.keys()
    for index in found.matched:
        made = found.scored(index)
        if made is not None:
            assert made[1] <= bounds[index], (index, made)
    for limit in (1, 20, 100):
        same(name, query, limit)


def test_the_lazy_order_is_the_sorted_order_and_makes_only_what_could_come_next() -> None:
    scores = {i: (i * 37) % 11 for i in range(30)}
    made: list[int] = []

    def make(index: int) -> tuple[str, int] | None:
        made.append(index)
        return (f"r{index}", scores[index]) if index % 7 else None

    bounds = [(-(scores[i] + 1), i) for i in range(1, 30)]
    stream = lazy_order([("r0", scores[0], 0)], bounds, make)
    first = [next(stream) for _ in range(3)]
    expected = sorted(
        ((f"r{i}", i) for i in range(30) if i == 0 or i % 7), key=lambda r: (-scores[r[1]], r[1])
    )
    assert first == expected[:3]
    assert len(made) < 29  # the low bounds were never made
    assert [*first, *stream] == expected
