"""The incremental text scan (docs/performance.md, "The warm path"): a `TextMemo` kept across
snapshots gives, after an edit, a new file, a deletion or a rename, exactly what a fresh scan of
the new sources gives (the same stems, the same items in the same order, the same document
frequencies), while folding and scanning only the documents whose bytes it has not seen."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.records import Source
from project_corpus.corpus.items import LazyItems
from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.snapshot import collect
from project_corpus.retrieval import doctext
from project_corpus.retrieval import prefixscan
from project_corpus.retrieval.analysis import Analysis
from project_corpus.retrieval.doctext import TextMemo
from project_corpus.retrieval.rank import ask
from project_corpus.retrieval.rank import query_result
from project_corpus.retrieval.scan import TextScan
from tests.conftest import MakeCorpus
from tests.conftest import report
from tests.corpus.test_markdown_oracle import LINES
from tests.retrieval.test_scan import PREFIXES
from tests.retrieval.test_scan import WORDS

REPORTS = ".project-corpus/reports"
QUERIES = ("zebra failover drill", "staging cluster benchmark", "eviction policy latency")


def _source(path: str, text: str) -> Source:
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    doc = parse_document(text)
    return Source(path, sha, len(text), "report", "SCOPED_REPORT", "scoped", None, "p", False, doc)


def _items(files: dict[str, str]) -> LazyItems:
    return LazyItems([_source(path, files[path]) for path in sorted(files)])


def assert_same_scan(warm: TextScan, fresh: TextScan, prefixes: tuple[str, ...]) -> None:
    for prefix in prefixes:
        assert warm.stems(prefix) == fresh.stems(prefix), prefix  # lists: order included
    assert warm.written == fresh.written
    assert warm.table_heads == fresh.table_heads
    assert warm.list_context == fresh.list_context
    assert warm.columns == fresh.columns


TEXT = st.lists(st.sampled_from([*LINES, *WORDS]), max_size=25).map("\n".join)


@settings(max_examples=120, deadline=None)
@given(
    st.dictionaries(st.sampled_from("abcdefgh"), TEXT, max_size=6),
    st.lists(
        st.tuples(
            st.sampled_from(("edit", "new", "delete", "rename")), st.sampled_from("abcdefgh"), TEXT
        ),
        max_size=4,
    ),
    st.lists(st.sampled_from(PREFIXES), max_size=5),
)
def test_a_kept_memo_scans_as_a_fresh_scan_after_any_change(
    files: dict[str, str], changes: list[tuple[str, str, str]], asked: list[str]
) -> None:
    memo = TextMemo()
    current = {f"{REPORTS}/{name}.md": text for name, text in files.items()}
    first = TextScan(_items(current), memo)
    for prefix in asked:  # scanned before the changes: kept per document
        first.stems(prefix)
    for step, name, text in changes:
        path = f"{REPORTS}/{name}.md"
        if step in ("edit", "new"):
            current[path] = text
        elif step == "delete":
            current.pop(path, None)
        elif path in current:  # the same bytes under another name, so at another position
            current[f"{REPORTS}/z-{name}.md"] = current.pop(path)
        warm = TextScan(_items(current), memo)
        assert_same_scan(warm, TextScan(_items(current)), PREFIXES)
        held = {_source(path, text).sha256 for path, text in current.items()}
        assert set(memo.texts) == held  # only the current documents' pieces
        assert all(set(hits.hits) <= held for hits in memo.prefixes.values())


def test_only_unseen_documents_are_made_and_scanned(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus(
        {f"{REPORTS}/r-{n}.md": report(f"r-{n}", "2026-11-02", f"Run {n}.") for n in range(6)}
    )
    made: list[int] = []
    scanned: list[int] = []
    real_text, real_scan = doctext.DocumentText, prefixscan.scan

    def counting_text(*args: object) -> doctext.DocumentText:
        made.append(1)
        return real_text(*args)  # type: ignore[arg-type]

    def counting_scan(texts: prefixscan.Joined, prefix: str) -> object:
        scanned.append(len(texts.texts))
        return real_scan(texts, prefix)

    monkeypatch.setattr(doctext, "DocumentText", counting_text)
    monkeypatch.setattr(prefixscan, "scan", counting_scan)
    memo = TextMemo()
    corpus = collect(root)
    own = sum(1 for s in corpus.sources if s.project_id == corpus.project_id)
    query_result(corpus, ask("staging cluster", 5), Analysis(corpus, memo))
    assert len(made) == own
    assert set(scanned) == {own}  # each new prefix: one pass over every text
    made.clear()
    scanned.clear()
    (root / REPORTS / "r-3.md").write_text(report("r-3", "2026-11-02", "Zebra drill."), "utf-8")
    corpus = collect(root)
    query_result(corpus, ask("staging cluster", 5), Analysis(corpus, memo))
    assert made == [1]  # the edited report only
    assert set(scanned) == {1}  # its text only, for each known prefix


def test_warm_analyses_answer_as_fresh_ones_through_changes(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {f"{REPORTS}/r-{n}.md": report(f"r-{n}", "2026-11-02", f"Run {n}.") for n in range(4)}
    )
    memo = TextMemo()
    reports = root / REPORTS
    steps = {
        "edit": lambda: (reports / "r-1.md").write_text(
            report("r-1", "2026-11-02", "The zebra failover drill passed."), "utf-8"
        ),
        "new": lambda: (reports / "r-9.md").write_text(
            report("r-9", "2026-11-03", "A staging cluster benchmark."), "utf-8"
        ),
        "rename": lambda: (reports / "r-0.md").rename(reports / "r-8.md"),
        "delete": lambda: (reports / "r-2.md").unlink(),
    }
    for step in ("start", *steps):
        if step != "start":
            steps[step]()
        corpus = collect(root)
        warm, fresh = Analysis(corpus, memo), Analysis(corpus)
        for query in QUERIES:
            asked = ask(query, 10)
            assert query_result(corpus, asked, warm) == query_result(corpus, asked, fresh), step
        assert set(memo.texts) == {s.sha256 for s in warm.sources}, step


def test_a_scan_left_behind_by_its_memo_still_answers_for_its_own_sources() -> None:
    memo = TextMemo()
    before = {f"{REPORTS}/a.md": "# A\n\ncache latency\n", f"{REPORTS}/b.md": "# B\n\ncached\n"}
    old = TextScan(_items(before), memo)
    TextScan(_items({f"{REPORTS}/c.md": "# C\n\ncaching\n"}), memo).stems("cach")
    assert old.stems("cach") == TextScan(_items(before)).stems("cach")
    assert old.stems("lat") == TextScan(_items(before)).stems("lat")


def test_the_memo_keeps_a_bounded_number_of_prefixes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doctext, "PREFIX_CACHE", 2)
    files = {f"{REPORTS}/a.md": "# A\n\ncache latency eviction\n"}
    memo = TextMemo()
    scan = TextScan(_items(files), memo)
    for prefix in ("cach", "lat", "evi", "cach"):
        assert scan.stems(prefix) == TextScan(_items(files)).stems(prefix)
        assert len(memo.prefixes) <= 2


def test_no_documents_have_no_hits() -> None:
    assert prefixscan.scan(prefixscan.joined([], []), "cach") == {}
    assert TextScan(LazyItems([]), TextMemo()).stems("cach") == {}
