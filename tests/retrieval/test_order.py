"""Table rows read under their header row, the lexical blend, and crowded sources yielding."""

from __future__ import annotations

import json
import math
import operator
from pathlib import Path
from typing import SupportsIndex

import pytest

from project_corpus.core.records import Item
from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.markdown import span_columns
from project_corpus.corpus.snapshot import collect
from project_corpus.retrieval import order
from project_corpus.retrieval.bundle import bundle_and_search
from project_corpus.retrieval.bundle import bundle_ask
from project_corpus.retrieval.bundle import compile_bundle
from project_corpus.retrieval.order import CROWDING_REASON
from project_corpus.retrieval.order import Result
from project_corpus.retrieval.rank import search
from project_corpus.retrieval.score import Query
from project_corpus.retrieval.score import lexical
from project_corpus.retrieval.tables import is_rule
from project_corpus.retrieval.tables import table_lines
from project_corpus.retrieval.tables import tables
from tests.conftest import MakeCorpus
from tests.conftest import report

R = ".project-corpus/reports/"
TABLE = """
| Row | Distance (m) | Packet loss |
|---|---:|---|
| Row 3 | 120 | 0 % |
| Row 14 (north wall) | 450 | 31 % |
"""


def test_a_data_row_answers_with_its_header_row_words(make_corpus: MakeCorpus) -> None:
    text = report("range-test", "2026-10-28", "The gateway reaches every row.", TABLE)
    root = make_corpus({f"{R}range-test.md": text})
    results = search(collect(root), "what was the packet loss on row 14")
    assert results[0].item.text == "| Row 14 (north wall) | 450 | 31 % |"
    assert results[0].reasons[0] == "lexical_terms:14,loss,packet,row"


def test_the_header_row_of_a_table_with_data_is_no_result(make_corpus: MakeCorpus) -> None:
    text = report("range-test", "2026-10-28", "The gateway reaches every row.", TABLE)
    root = make_corpus({f"{R}range-test.md": text})
    texts = [r.item.text for r in search(collect(root), "packet loss", 20)]
    assert "| Row | Distance (m) | Packet loss |" not in texts
    assert "| Row 3 | 120 | 0 % |" in texts


def _tables(text: str) -> list[tuple[str, list[str]]]:
    """(header row, data rows) of each table with data rows in TEXT."""
    doc = parse_document(text)
    blob = "\n".join(doc.lines)
    rows = table_lines(blob, [0, len(blob) + 1]).get(0, [])
    found = tables(doc.lines, rows, span_columns(doc.spans), 0)
    spans = doc.spans
    return [(spans[t.head].text, [s.text for s in spans[t.first : t.last + 1]]) for t in found]


def test_a_table_without_a_delimiter_row_has_no_header() -> None:
    assert _tables("# T\n\n| a | b |\n| c | d |\n\n| e | f |\n|---|---|\n") == []
    assert is_rule("|:--|--:|")
    assert is_rule("---|---")
    assert not is_rule("| - | x |")
    assert not is_rule("| | |")


def test_a_table_ends_at_a_blank_line_and_a_row_in_code_is_no_row() -> None:
    text = "# T\n\n| h |\n|---|\n| one |\n| two |\n\n| three |\n```\n| h |\n|---|\n| x |\n```\n"
    assert _tables(text) == [("| h |", ["| one |", "| two |"])]


def test_the_lexical_share_blends_idf_weight_and_the_share_of_terms_hit() -> None:
    weights = {"model": 1.0, "use": 1.0, "bee": 0.7, "wild": 0.7, "formula": 2.0}
    query = Query([], frozenset(weights), weights, math.fsum(weights.values()), False, {}, {})
    two_rare = frozenset({"model", "use"})  # IDF 2.0 of 5.4, 2 of 5 terms
    three_common = frozenset({"bee", "model", "wild"})  # IDF 2.4 of 5.4, 3 of 5 terms
    assert lexical(query, two_rare) == math.floor(600 * 2.0 / 5.4 + 400 * 2 / 5)
    assert lexical(query, three_common) > lexical(query, two_rare)
    assert lexical(query, frozenset(weights)) in (999, 1000)


def test_a_source_third_result_yields_to_a_comparable_other_source(
    make_corpus: MakeCorpus,
) -> None:
    lines = "\n".join(f"- Windows job {n} fails on include paths." for n in range(4))
    long = report("ci-matrix", "2026-11-25", "The Windows job fails.", f"\n## Runs\n{lines}\n")
    root = make_corpus({f"{R}ci-matrix.md": long})
    results = search(collect(root), "windows job fails", 20)
    own = [r for r in results if r.item.source_path == f"{R}ci-matrix.md"]
    assert all(CROWDING_REASON not in r.reasons for r in own[:2])
    assert all(r.reasons[-1] == CROWDING_REASON for r in own[2:])
    assert len(own) > 2
    scores = [r.score for r in results]
    assert scores == sorted(scores, reverse=True)
    plain = {r.item.line_start: r.score for r in search(collect(root), "windows job fails", 2)}
    assert own[0].score == plain[own[0].item.line_start]


def test_a_shorter_search_is_the_head_of_the_bundles_search(example: Path) -> None:
    """Eval takes a case's search from its bundle's (limit 100): for every query of the
    example's dataset and more, the first N results of that search are `search`'s with N."""
    corpus = collect(example)
    dataset = json.loads((example / "eval.json").read_text("utf-8"))
    queries = [case["query"] for case in dataset["cases"]]
    queries += ["eviction policy", "cache", "what changed in the report history", "статус"]
    for query in queries:
        bundle, found = bundle_and_search(corpus, bundle_ask(query, 1200))
        assert found == search(corpus, query, 100)
        assert bundle["items"] == compile_bundle(corpus, query, 1200)["items"]
        for limit in (1, 2, 3, 5, 10, 20, 50):
            assert search(corpus, query, limit) == found[:limit], (query, limit)


class _CountingBlob(str):
    """A blob that adds up how many characters `count` reads."""

    read = 0

    def count(
        self, sub: str, start: SupportsIndex | None = 0, end: SupportsIndex | None = None
    ) -> int:
        stop = len(self) if end is None else operator.index(end)
        _CountingBlob.read += stop - operator.index(start or 0)
        return super().count(sub, start, end)


def test_table_rows_are_found_in_one_pass_over_the_blob() -> None:
    """R3-5 (#26): each row's line was counted from its document's start (quadratic in rows)."""
    texts = ["# T\n\n| h |\n|---|\n" + "| row |\n" * 3000, "# U\n\n| h |\n|---|\n| x |\n"]
    blob = _CountingBlob("\n".join(texts))
    doc_at = [0, len(texts[0]) + 1, len(blob) + 1]
    _CountingBlob.read = 0
    found = table_lines(blob, doc_at)
    assert found == {0: list(range(3, 3005)), 1: [3, 4, 5]}
    assert _CountingBlob.read <= len(blob)


def test_duplicate_tests_stay_bounded_by_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """#26: every item of one long source (same score, distinct lines) was kept and tested
    against every kept item of its size: quadratic in items. Now a crowded item that cannot
    enter the results is passed over first, so each test compares with O(limit) kept sets."""
    calls = [0]
    near = order._near

    def counted(a: frozenset[str], b: frozenset[str]) -> bool:
        calls[0] += 1
        return near(a, b)

    monkeypatch.setattr(order, "_near", counted)
    item = Item(
        project_id="p",
        text="x",
        source_path="r.md",
        source_sha256="0" * 64,
        source_type="report",
        authority_class="SCOPED_REPORT",
        temporal_status="scoped",
        timestamp=None,
        section="",
        section_line=0,
        line_start=1,
        line_end=1,
        kind="paragraph",
    )
    scored = [(Result(item, 1000, ()), index) for index in range(4000)]
    identities = {n: (f"line {n}", frozenset({"a", "b", f"n{n}"})) for n in range(4000)}
    results = order.ordered(scored, identities.__getitem__, 20)
    assert len(results) == 20
    assert calls[0] <= 3 * 20 * 4000  # at most 3 × limit kept sets; before: ~8,000,000
