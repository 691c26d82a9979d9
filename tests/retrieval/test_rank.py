"""Retrieval: the scoring formula, selection reasons, de-duplication, determinism."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.corpus.items import corpus_items
from project_corpus.corpus.snapshot import collect
from project_corpus.retrieval import documents
from project_corpus.retrieval import score
from project_corpus.retrieval.order import _KeptSets
from project_corpus.retrieval.order import _near
from project_corpus.retrieval.rank import candidates
from project_corpus.retrieval.rank import check_limit
from project_corpus.retrieval.rank import parse_int
from project_corpus.retrieval.rank import search
from project_corpus.retrieval.text import NEGATIONS_AND_MODALS
from project_corpus.retrieval.text import STOPWORDS
from project_corpus.retrieval.text import query_stems
from project_corpus.retrieval.text import stem
from project_corpus.retrieval.text import stem_prefix
from project_corpus.retrieval.text import stems
from tests.conftest import TASK
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.conftest import report

R = ".project-corpus/reports/"
STATUS = ".project-corpus/state/STATUS.md"


def top(root: Path, query: str, limit: int = 20) -> list[tuple[str, str, int]]:
    return [(r.item.source_path, r.item.text, r.score) for r in search(collect(root), query, limit)]


def test_status_is_top_for_the_exact_next_action(example: Path) -> None:
    assert top(example, "what is the exact next action")[0][0] == STATUS


def test_status_is_top_for_a_russian_question_about_the_current_state(example: Path) -> None:
    assert top(example, "какое текущее состояние проекта")[0][0] == STATUS


def test_superseded_report_still_appears_marked_superseded(example: Path) -> None:
    results = search(collect(example), "eviction benchmark", 100)
    superseded = [r for r in results if r.item.source_path.endswith("eviction-bench-v1.md")]
    assert superseded
    assert all(r.item.temporal_status == "superseded" for r in superseded)


def test_policy_denied_file_never_appears(example: Path, cli: object) -> None:
    assert cli("context", "build", example).code == 0  # type: ignore[operator]
    run: Run = cli("context", "query", example, "ZEBRAFISH-DENIED private notes", "--limit", "100")  # type: ignore[operator]
    assert run.code == 0
    doc = run.json()
    assert isinstance(doc, dict)
    assert "ZEBRAFISH" not in str(doc["results"])
    assert "private-notes" not in str(doc["results"])


def _idf_by_hand(corpus: Corpus, query: str) -> dict[str, float]:
    """IDF of each query term over every item's text, section path and document title."""
    items = corpus_items(corpus)
    titles = {
        s.path: next((h.title for h in s.doc.headings if h.level == 1), "") for s in corpus.sources
    }
    own = [
        set(stems(i.text)) | set(stems(i.section)) | set(stems(titles[i.source_path]))
        for i in items
    ]
    terms = set(query_stems(query))
    df = {t: sum(1 for stems_of in own if t in stems_of) for t in terms}
    return {t: math.log(1 + (len(items) - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}


def _document_by_hand(corpus: Corpus, query: str, path: str) -> int:
    """The document points of PATH (docs/retrieval.md, "Document score"): per term, the items
    holding it (text, section path, title) plus 2 for a file-name word, saturated by
    n / (n + 1.5 × items / mean items), IDF-weighted, as a share of 250."""
    items = [i for i in corpus_items(corpus) if i.source_path == path]
    title = next(h.title for s in corpus.sources if s.path == path for h in s.doc.headings)
    idf = candidates(corpus, query).ctx.idf  # the written-places IDF of rank
    mean = sum(len(s.doc.spans) for s in corpus.sources) / len(corpus.sources)
    k = documents.SATURATION * len(items) / mean
    name = set(stems(Path(path).stem))
    weights = []
    for term, weight in idf.items():
        held = sum(1 for i in items if term in {*stems(i.text), *stems(i.section), *stems(title)})
        held += documents.FILE_NAME_COUNT if term in name else 0
        weights.append(weight * held / (held + k))
    return math.floor(documents.DOCUMENT_WEIGHT * math.fsum(weights) / math.fsum(idf.values()))


def test_score_is_the_sum_of_the_documented_parts(make_corpus: MakeCorpus) -> None:
    corpus = collect(make_corpus())
    query = "weekly benchmark"
    result = next(r for r in search(corpus, query) if r.item.text.startswith("Hit ratio"))
    idf = _idf_by_hand(corpus, query)
    lexical = math.floor(score.LEXICAL_WEIGHT * sum(idf.values()) / sum(idf.values()))
    stamps = sorted({s.timestamp for s in corpus.sources if s.timestamp})
    recency = (10 * (stamps.index(result.item.timestamp) + 1)) // len(stamps)
    # every term hits; one adjacent pair; phrase; document; ACTIVE_TASK; current; recency; section
    adjacent = score.ADJACENT_WEIGHT
    document = _document_by_hand(corpus, query, result.item.source_path)
    parts = lexical + adjacent + score.PHRASE_WEIGHT + document + 65 + 20 + recency + 3
    assert result.score == parts
    assert result.reasons == (
        "lexical_terms:benchmark,week",
        "adjacent_terms:week+benchmark",
        "exact_phrase",
        "document_score",
        "authority:ACTIVE_TASK",
        "temporal:current",
        "exact_project_scope",
        "explicit_timestamp",
        "section_provenance",
    )


def test_partial_matches_score_by_idf_and_count_share(make_corpus: MakeCorpus) -> None:
    corpus = collect(make_corpus())
    full = next(
        r for r in search(corpus, "weekly xylophone") if r.item.text.startswith("Hit ratio")
    )
    assert full.reasons[0] == "lexical_terms:week"
    assert "exact_phrase" not in full.reasons
    idf = _idf_by_hand(corpus, "weekly xylophone")
    share = math.floor(600 * idf["week"] / sum(idf.values()) + 400 * 1 / 2)
    document = _document_by_hand(corpus, "weekly xylophone", full.item.source_path)
    assert full.score - (share + document + 65 + 20 + 3) in range(11)  # the rest is recency


def test_historical_intent_lifts_old_sources(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    plain = {p: s for p, _, s in top(root, "latency")}
    old = {p: s for p, _, s in top(root, "previous latency")}
    new, prev = R + "bench-new.md", R + "bench-old.md"
    assert plain[new] > plain[prev]
    assert old[prev] > old[new]
    lift = score.HISTORICAL_INTENT_WEIGHT["superseded"]
    corpus = collect(root)

    def doc(query: str, path: str) -> int:  # the document points differ with the terms
        return _document_by_hand(corpus, query, path)

    gap_old = old[prev] - doc("previous latency", prev) - old[new] + doc("previous latency", new)
    gap_plain = plain[prev] - doc("latency", prev) - plain[new] + doc("latency", new)
    assert gap_old == gap_plain + lift
    reasons = next(
        r.reasons
        for r in search(collect(root), "previous latency")
        if r.item.source_path == R + "bench-old.md"
    )
    assert "historical_query_intent" in reasons
    assert "temporal:superseded" in reasons


def test_historical_item_never_outranks_a_current_one_of_comparable_match(
    make_corpus: MakeCorpus,
) -> None:
    same = "The warm pool keeps catalogue pages resident."
    root = make_corpus(
        {
            ".project-corpus/history/2026-01.md": f"# Old\nDate: 2026-01-01\n\n## Notes\n{same}\n",
            ".project-corpus/reports/warm.md": report("warm", "2026-11-25", same + " Still."),
        }
    )
    paths = [p for p, _, _ in top(root, "warm pool catalogue pages resident")]
    assert paths.index(R + "warm.md") < paths.index(".project-corpus/history/2026-01.md")


def test_role_bonus_lifts_only_the_lines_of_the_named_section(make_corpus: MakeCorpus) -> None:
    results = search(collect(make_corpus()), "what is the next action")
    assert results[0].item.text == "Tune the eviction policy for large catalogue pages."
    assert "canonical_current_state_role" in results[0].reasons
    roled = [r for r in results if "canonical_current_state_role" in r.reasons]
    assert {r.item.section for r in roled} == {"Exact Next Action"}


def test_role_bonus_applies_to_project_for_identity_words(make_corpus: MakeCorpus) -> None:
    results = search(collect(make_corpus()), "objective")
    assert results[0].item.source_path == ".project-corpus/state/PROJECT.md"
    assert "canonical_identity_role" in results[0].reasons


def test_a_heading_is_never_a_result_when_its_section_has_content(
    make_corpus: MakeCorpus,
) -> None:
    history = "# Notes\nDate: 2026-02-01\n\n## Exact Next Action\n\n## Plain\nSomething else.\n"
    root = make_corpus({".project-corpus/history/2026-02.md": history})
    results = search(collect(root), "exact next action", 100)
    headings = [r.item for r in results if r.item.kind == "heading"]
    assert [(h.source_path, h.text) for h in headings] == [
        (".project-corpus/history/2026-02.md", "## Exact Next Action")
    ]  # only the heading of an empty section; STATUS's answers its question with its line
    assert results[0].item.text == "Tune the eviction policy for large catalogue pages."


def test_a_metadata_line_answers_only_a_question_about_its_key(make_corpus: MakeCorpus) -> None:
    corpus = collect(make_corpus())
    by_value = search(corpus, "tune eviction", 100)
    assert not any(r.item.text.startswith("Active-Task-ID:") for r in by_value)
    by_key = search(corpus, "what is the lifecycle status", 100)
    assert by_key[0].item.text == "Lifecycle-Status: ACTIVE"
    named = search(corpus, "bench-new", 100)
    assert any(r.item.text == "Report-ID: bench-new" for r in named)  # names its own report


def test_negations_and_modals_are_terms(make_corpus: MakeCorpus) -> None:
    constraint = "- The exporter must not add a label per key."
    task = TASK.replace("Memory stays under 2 GiB.", f"Memory stays under 2 GiB.\n{constraint}")
    root = make_corpus({".project-corpus/tasks/tune-eviction.md": task})
    results = search(collect(root), "what must the exporter not add")
    assert results[0].item.text == constraint
    assert results[0].reasons[0] == "lexical_terms:add,export,must,not"
    assert NEGATIONS_AND_MODALS.isdisjoint(STOPWORDS)


def test_a_russian_question_finds_an_english_section_through_the_glossary(
    make_corpus: MakeCorpus,
) -> None:
    results = search(collect(make_corpus()), "какое следующее действие")
    assert results[0].item.text == "Tune the eviction policy for large catalogue pages."
    assert "glossary_terms:действ,след" in results[0].reasons
    assert search(collect(make_corpus()), "какая латентность") == []  # outside the glossary


def test_items_without_a_hit_are_not_results(make_corpus: MakeCorpus) -> None:
    assert search(collect(make_corpus()), "xylophone") == []


def test_only_token_starts_are_scanned_and_repeated_queries_agree(
    make_corpus: MakeCorpus,
) -> None:
    note = "# N\nDate: 2026-02-01\n\n## N\nThe pre_fetch list grew.\n\n## M\nA prefetch page.\n"
    corpus = collect(make_corpus({".project-corpus/history/2026-02.md": note}))
    first = search(corpus, "fetch")
    # "_" separates tokens ("pre_fetch" holds "fetch"); "prefetch" is one token, not "fetch".
    assert [r.item.text for r in first] == ["The pre_fetch list grew."]
    # The second query reuses the analysis's scans of "fetch", "list" and "grew" prefixes.
    assert search(corpus, "fetch list") == search(corpus, "fetch list")
    assert search(corpus, "fetch") == first


def test_exact_and_near_duplicates_are_dropped(make_corpus: MakeCorpus) -> None:
    text = "The warm cache keeps catalogue pages resident for ten minutes."
    root = make_corpus(
        {
            ".project-corpus/history/2026-02.md": f"# A\nDate: 2026-02-01\n\n## N\n{text}\n",
            ".project-corpus/history/2026-03.md": f"# B\nDate: 2026-03-01\n\n## N\n{text.upper()}\n",
            ".project-corpus/history/2026-04.md": f"# C\nDate: 2026-04-01\n\n## N\n{text} Really.\n",
        }
    )
    texts = [t for _, t, _ in top(root, "warm cache catalogue pages resident")]
    assert sum(1 for t in texts if "resident" in t.lower()) == 1


stem_sets = st.frozensets(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), max_size=26)


@settings(max_examples=400, deadline=None)
@given(a=stem_sets, b=stem_sets)
@example(a=frozenset("abcdefghi"), b=frozenset("abcdefghij"))  # exactly 0.9: near
@example(a=frozenset("abcdefghij"), b=frozenset("abcdefghijk"))  # 10/11
@example(a=frozenset("abcdefgh"), b=frozenset("abcdefghij"))  # 0.8
def test_near_duplicate_rule_is_the_jaccard_formula(a: frozenset[str], b: frozenset[str]) -> None:
    """The size shortcut and the union counted from sizes decide exactly as the formula."""
    expected = a == b and bool(a) if min(len(a), len(b)) < 3 else len(a & b) / len(a | b) >= 0.9
    assert _near(a, b) is expected
    assert _near(b, a) is expected


# Sets of up to 80 stems: many kept sizes, so the range of possible sizes is exercised.
wide_sets = st.frozensets(st.integers(0, 90).map(str), min_size=3, max_size=80)


@settings(max_examples=300, deadline=None)
@given(kept=st.lists(stem_sets | wide_sets, max_size=20), own=stem_sets | wide_sets)
@example(kept=[frozenset("abcdefghij")], own=frozenset("abcdefghi"))  # exactly 0.9
@example(kept=[frozenset("ab"), frozenset()], own=frozenset("ab"))
@example(kept=[frozenset()], own=frozenset())  # empty sets are never near
@example(kept=[frozenset("abcdefghijklmnopqr")], own=frozenset("abcdefghijklmnopqrst"))  # 0.9
@example(kept=[frozenset("abcdefghijklmnopq")], own=frozenset("abcdefghijklmnopqrst"))  # 0.85
def test_kept_sets_by_size_find_a_near_duplicate_exactly_when_any_pair_is_near(
    kept: list[frozenset[str]], own: frozenset[str]
) -> None:
    """Comparing only with the kept sets of a possible size (found in the sorted kept sizes)
    decides as comparing with all, for OWN, for each kept set and for it less one stem."""
    sets = _KeptSets()
    for one in kept:
        sets.add(one)
    assert sets.sizes == sorted({len(one) for one in kept if len(one) >= 3})
    for probe in [own, *kept, *(one - {min(one)} for one in kept if one)]:
        assert sets.has_near(probe) is any(_near(probe, other) for other in kept)


def test_foreign_items_are_never_results(make_corpus: MakeCorpus) -> None:
    alien = report("alien", "2026-11-01", "Alien latency of 1 ms.").replace(
        "Project-ID: demo-project", "Project-ID: other-project"
    )
    root = make_corpus({R + "alien.md": alien})
    assert all(p != R + "alien.md" for p, _, _ in top(root, "alien latency", 100))


def test_order_is_score_then_path_then_line(make_corpus: MakeCorpus) -> None:
    results = search(collect(make_corpus()), "benchmark run", 100)
    keys = [(-r.score, r.item.source_path, r.item.line_start) for r in results]
    assert keys == sorted(keys)


@pytest.mark.parametrize("limit", ["0", "101", "abc", "-1", "1.5"])
def test_bad_limits_are_query_limit(make_corpus: MakeCorpus, cli: object, limit: str) -> None:
    root = make_corpus()
    run: Run = cli("context", "query", root, "latency", "--limit", limit)  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "QUERY_LIMIT"


@pytest.mark.parametrize("query", ["", "   ", "?!...", "___"])
def test_queries_without_word_characters_are_query_empty(
    make_corpus: MakeCorpus, cli: object, query: str
) -> None:
    run: Run = cli("context", "query", make_corpus(), query)  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "QUERY_EMPTY"


def test_limit_caps_results_and_output_is_deterministic(
    make_corpus: MakeCorpus, cli: object
) -> None:
    root = make_corpus()
    cli("context", "build", root)  # type: ignore[operator]
    first = cli("context", "query", root, "benchmark latency", "--limit", "3")  # type: ignore[operator]
    second = cli("context", "query", root, "benchmark latency", "--limit", "3")  # type: ignore[operator]
    assert first.code == 0
    assert first.out == second.out
    doc = first.json()
    assert isinstance(doc, dict)
    assert len(doc["results"]) == 3
    assert doc["non_authoritative"] is True
    assert doc["schema_version"] == "1"
    assert all(
        r["freshness_requirement"] == "READ_PRIMARY_SOURCE_BEFORE_AUTHORITY_CLAIM"
        for r in doc["results"]
    )


def test_library_rejects_bad_arguments_with_codes(make_corpus: MakeCorpus) -> None:
    corpus = collect(make_corpus())
    for query, limit, code in (
        ("", 5, "QUERY_EMPTY"),
        ("x", 0, "QUERY_LIMIT"),
        ("x", True, "QUERY_LIMIT"),
    ):
        with pytest.raises(ContextError) as info:
            search(corpus, query, limit)
        assert info.value.code == code


LETTERS = st.sampled_from(
    list("abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщъыьэюя0123456789")
)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=LETTERS, min_size=1, max_size=16))
def test_every_token_starts_with_the_stem_prefix_of_its_stem(token: str) -> None:
    folded = token.casefold().replace("ё", "е")
    assert folded.startswith(stem_prefix(stem(folded)))


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from(list("abc кот")), min_size=1, max_size=30),
        min_size=1,
        max_size=6,
    ),
    st.text(alphabet=st.sampled_from(list("abc кот")), min_size=1, max_size=12),
)
def test_ranking_is_deterministic_and_well_formed(
    tmp_path_factory: pytest.TempPathFactory, paragraphs: list[str], query: str
) -> None:
    from tests.conftest import BASE_FILES
    from tests.conftest import write_files

    root = tmp_path_factory.mktemp("c")
    for folder in ("tasks", "reports", "history"):
        (root / ".project-corpus" / folder).mkdir(parents=True)
    body = "\n\n".join(paragraphs)
    write_files(
        root, {**BASE_FILES, ".project-corpus/history/2026-05.md": f"# H\n\n## S\n{body}\n"}
    )
    corpus = collect(root)
    if not any(ch.isalnum() for ch in query):
        with pytest.raises(ContextError, match="QUERY_EMPTY"):
            search(corpus, query, 100)
        return
    first = search(corpus, query, 100)
    again = search(collect(root), query, 100)
    assert [r.as_dict() for r in first] == [r.as_dict() for r in again]
    assert len({r.item.item_id for r in first}) == len(first)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(5, 5), ("5", 5), (" 007 ", 7), ("0" * 40 + "12", 12), ("9" * 10, None), ("9" * 5000, None)],
)
def test_parse_int_reads_decimal_strings_without_overflowing(
    value: object, expected: int | None
) -> None:
    assert parse_int(value) == expected


@pytest.mark.parametrize("value", [True, "٣", "²", "1e3", "-1", "", "0", "101", "9" * 5000])
def test_check_limit_refuses_non_integers_and_out_of_range(value: object) -> None:
    with pytest.raises(ContextError) as caught:
        check_limit(value)
    assert caught.value.code == "QUERY_LIMIT"
