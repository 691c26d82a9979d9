"""Eval analyses the corpus once for all of its compiles; no query's state reaches another (#17).

Each case judged alone, on a corpus object of its own (so with an analysis of its own), is
the reference. Judged together with the other cases, in any order, and again on a corpus
object whose analysis earlier evaluations have already filled, every case must come out the
same, field for field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.adapters.mcp_server import tools as mcp_tools
from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.corpus.snapshot import collect
from project_corpus.evaluate import evaluate_dataset
from project_corpus.retrieval import analysis as analysis_module
from project_corpus.retrieval.analysis import Analysis
from project_corpus.retrieval.analysis import analyse
from project_corpus.retrieval.bundle import bundle_and_search
from project_corpus.retrieval.bundle import bundle_ask
from project_corpus.retrieval.bundle import compile_bundle
from project_corpus.retrieval.rank import query_corpus
from project_corpus.retrieval.rank import search
from project_corpus.workspace import Workspace
from tests.conftest import FIXTURES
from tests.conftest import copy_fixture

RETRIEVAL = ("bilingual", "editorial", "firmware", "ops", "research", "software")
CORPORA = {"example": FIXTURES / "example"} | {n: FIXTURES / "retrieval" / n for n in RETRIEVAL}
Case = dict[str, object]
Judged = dict[str, dict[str, object]]
NAMES = ("bundle", "query")


def _cases(root: Path) -> list[Case]:
    cases = json.loads((root / "eval.json").read_text(encoding="utf-8"))["cases"]
    assert isinstance(cases, list)
    assert len(cases) >= 15
    return cases


def _judged(corpus: Corpus, cases: list[Case]) -> Judged:
    """{case name: its result without its position in the dataset}."""
    results = evaluate_dataset(corpus, {"schema_version": "1", "cases": cases})["results"]
    assert isinstance(results, list)
    judged: Judged = {}
    for result in results:
        judged[str(result["name"])] = {k: v for k, v in result.items() if k != "case_index"}
    return judged


def _alone(root: Path, cases: list[Case]) -> Judged:
    """Each case judged by itself on a corpus collected for it alone."""
    judged: Judged = {}
    for case in cases:
        judged.update(_judged(collect(root), [case]))
    return judged


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_cases_judged_together_in_either_order_equal_each_judged_alone(
    name: str, tmp_path: Path
) -> None:
    root = copy_fixture(CORPORA[name], tmp_path / name)
    cases = _cases(root)
    alone = _alone(root, cases)
    corpus = collect(root)
    assert _judged(corpus, cases) == alone
    # The same corpus object again: its analysis holds every memo the first run made.
    assert _judged(corpus, cases[::-1]) == alone
    assert len({str(result["bundle_sha256"]) for result in alone.values()}) == len(cases)


@pytest.fixture(scope="module")
def example_reference(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Corpus, list[Case], Judged]:
    """The example corpus (one object for every Hypothesis example), its cases, each alone."""
    root = copy_fixture(CORPORA["example"], tmp_path_factory.mktemp("shared") / "example")
    cases = _cases(root)
    return collect(root), cases, _alone(root, cases)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_any_order_and_subset_of_cases_judges_each_as_alone(
    example_reference: tuple[Corpus, list[Case], Judged], data: st.DataObject
) -> None:
    corpus, cases, alone = example_reference
    order = data.draw(st.permutations(cases))
    chosen = order[: data.draw(st.integers(1, len(order)))]
    judged = _judged(corpus, chosen)
    assert judged == {name: alone[name] for name in judged}


def test_eval_analyses_its_corpus_once(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Corpus] = []

    class Counted(Analysis):
        def __init__(self, corpus: Corpus) -> None:
            made.append(corpus)
            super().__init__(corpus)

    monkeypatch.setattr(analysis_module, "Analysis", Counted)
    corpus = collect(example)
    judged = _judged(corpus, _cases(example))
    assert len(judged) == 20
    assert made == [corpus]


def test_an_analysis_of_another_corpus_is_refused(example: Path) -> None:
    first, second = collect(example), collect(example)
    foreign = analyse(first)
    with pytest.raises(ContextError) as refused:
        search(second, "what is the exact next action", analysis=foreign)
    assert refused.value.code == "USAGE_ERROR"
    with pytest.raises(ContextError):
        bundle_and_search(
            second, bundle_ask("what is the exact next action", 1200), analysis=foreign
        )
    assert search(first, "next action", analysis=foreign) == search(first, "next action")


def _without_time(document: Mapping[str, object]) -> dict[str, object]:
    return {key: value for key, value in document.items() if key != "created_at"}


def test_a_long_lived_server_answers_each_call_from_the_corpus_as_it_is_then(
    example: Path,
) -> None:
    """The MCP tools ask the session's warm workspace: an edit between two calls is seen, and
    each answer equals a fresh compile of the corpus as it was at that call."""
    bundle_tool, query_tool = (mcp_tools.TOOLS[f"corpus.context_{n}"].run for n in NAMES)
    space = Workspace(example, warm=True)
    args = {"query": "exact next action zebra drill", "max_tokens": 400}
    before = bundle_tool(space, args)
    assert _without_time(before) == _without_time(compile_bundle(collect(example), **args))
    status = example / ".project-corpus" / "state" / "STATUS.md"
    with status.open("a", encoding="utf-8") as file:
        file.write("Then run the zebra drill on cache-euw2-07 before the soak.\n")
    after = bundle_tool(space, args)
    assert _without_time(after) == _without_time(compile_bundle(collect(example), **args))
    assert after["bundle_sha256"] != before["bundle_sha256"]
    found = query_tool(space, {"query": "zebra drill", "limit": 3})
    assert found == query_corpus(collect(example), "zebra drill", 3)
    assert "zebra drill" in json.dumps(found)
