"""One scan of the folded sources finds, for every word prefix, exactly the stems each item
would show if its own text, section path and document title (and a table data row's header
row) were folded and scanned alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.records import Document
from project_corpus.core.records import Source
from project_corpus.corpus.items import LazyItems
from project_corpus.corpus.markdown import parse_document
from project_corpus.retrieval import text as textmod
from project_corpus.retrieval.lists import list_contexts
from project_corpus.retrieval.scan import TextScan
from tests.conftest import REPO
from tests.corpus.test_markdown_oracle import LINES

LONG = "word " * 239 + "cutting cutoff " + "tail " * 30  # one line, cut inside `cutting`
WORDS = [
    "Cache latency is 3 ms.",
    "- Eviction policy: LRU, cached",
    "Straße STRASSE strasse ß",  # folds to more characters: offsets move
    "Ёлка ёж ЕЛКА текущее состояние",
    "Kelvin \u212a ſtate µs",
    "  indented cache continuation",
    LONG,
    "x" * 1199 + " cutoff",
    "cutoff " + "y" * 1300,
    "Build 1.59s, rc.1 a.5 1.s v1.2.0rc1 net10.0 3.11x ٣.5",  # versions run on into a word
]
PREFIXES = (
    "a",
    "ti",
    "se",
    "de",
    "ca",
    "cach",
    "cut",
    "e",
    "ev",
    "l",
    "st",
    "str",
    "ss",
    "ел",
    "еж",
    "тек",
    "k",
    "s",
    "µ",
    "3",
    "1",
    "5",
    "r",
    "x",
    "٣",
)


def _source(number: int, doc: Document) -> Source:
    path = f".project-corpus/reports/r{number:03d}.md"
    return Source(path, "0" * 64, 0, "report", "SCOPED_REPORT", "scoped", None, "p", False, doc)


def naive(items: LazyItems, prefix: str) -> dict[str, set[int]]:
    """Each item's text, section path, title and list context (its parent bullet or list label)
    folded and scanned on their own, cut into tokens by `text.TOKEN_RE`."""
    found: dict[str, set[int]] = {}
    contexts = {
        items.bases[number] + at: context
        for number, source in enumerate(items.sources)
        for first, last, context in list_contexts(source.doc)
        for at in range(first, last + 1)
    }
    for index in range(len(items)):
        source, _ = items.locate(index)
        span = items.span(index)
        title = next((h.title for h in source.doc.headings if h.level == 1), "")[:240]
        context = contexts.get(index, "")
        text = f"{span.text}\n{span.section}\n{title}\n{_header(items, index)}\n{context}"
        part = textmod.fold(text)
        words = [w for w in textmod.TOKEN_RE.findall(part) if w.startswith(prefix)]
        for word in words:
            found.setdefault(textmod.stem(word), set()).add(index)
    return found


def _header(items: LazyItems, index: int) -> str:
    """The header row of the table whose data row is item INDEX, else "" (a run of
    line-adjacent one-line table items: header, delimiter row, data rows)."""
    source, at = items.locate(index)
    spans = source.doc.spans
    first = at
    while first > 0 and spans[first - 1].kind == "table" and spans[first].kind == "table":
        if spans[first - 1].line_end + 1 != spans[first].line_start:
            break
        first -= 1
    rule_ok = at - first >= 2 and set(spans[first + 1].text) <= set("|-: \t")
    return spans[first].text if rule_ok and "-" in spans[first + 1].text else ""


def scanned(items: LazyItems, prefix: str) -> dict[str, set[int]]:
    return {stem: set(found) for stem, found in TextScan(items).stems(prefix).items()}


def check(texts: list[str]) -> None:
    items = LazyItems([_source(n, parse_document(text)) for n, text in enumerate(texts)])
    for prefix in PREFIXES:
        assert scanned(items, prefix) == naive(items, prefix), prefix


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from([*LINES, *WORDS]), max_size=40), max_size=6))
def test_the_scan_finds_what_scanning_each_item_finds_on_generated_documents(
    documents: list[list[str]],
) -> None:
    check(["\n".join(lines) for lines in documents])


def test_the_scan_finds_what_scanning_each_item_finds_on_every_fixture() -> None:
    paths = sorted((REPO / "fixtures").rglob("*.md"))
    texts = [path.read_bytes().decode("utf-8", "replace") for path in paths]
    assert len(texts) > 50
    check(texts)


def test_a_word_beyond_the_cut_of_a_long_line_is_not_found() -> None:
    text = f"# T\n\n## Notes\n\n{LONG}\n\nCutoff here.\n"
    items = LazyItems([_source(0, parse_document(text))])
    found = scanned(items, "cut")
    cut = next(i for i in range(len(items)) if items.span(i).text.startswith("word"))
    assert found[textmod.stem("cutti")] == {cut}  # the item's text ends inside `cutting`
    assert textmod.stem("cutting") not in found
    assert found[textmod.stem("cutoff")] == {len(items) - 1}  # "Cutoff here.", not the cut line


def test_long_titles_and_table_headers_count_as_far_as_their_cut() -> None:
    """A title counts for its items up to 240 characters (a section path's cut), a table
    header row up to 1,200 (its item's text), as scanning each item alone finds; a word
    beyond, or repeated many times, adds no work per item (#26)."""
    head = "| " + "cache | " * 200 + "latency |"  # `latency` beyond 1,200 characters
    text = (
        f"# {'tail ' * 47}cache{' late' * 300}\n\n## {'x ' * 130}policy\n\n- eviction\n\n"
        f"{head}\n|---|\n| 1 |\n| 2 |\n"
    )
    check([text])
    items = LazyItems([_source(0, parse_document(text))])
    assert scanned(items, "lat")[textmod.stem("late")] == {0}  # the H1 item's own text
    assert scanned(items, "pol")[textmod.stem("policy")] == {1}  # the H2 item's own text
    assert scanned(items, "cach")[textmod.stem("cache")] == set(range(len(items)))


PHRASE_WORDS = (
    "cache caching cached latency late eviction evicts policy policies не нет кэш кэша".split()
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*PHRASE_WORDS, "the", "of", "ſtate", "x"]), max_size=12),
    st.lists(st.sampled_from(PHRASE_WORDS), min_size=1, max_size=3),
)
def test_a_phrase_check_stems_only_what_could_be_a_query_stem(
    words: list[str], query: list[str]
) -> None:
    text = " ".join(words)
    seq = [textmod.stem(textmod.fold(word)) for word in query]
    full = textmod.content_stems(text)
    only = textmod.content_stems(text, seq)
    assert len(only) == len(full)
    for mine, theirs in zip(only, full, strict=True):
        assert mine == theirs or (mine == "\0" and theirs not in seq)


def test_prefetched_items_are_the_items_made_one_at_a_time() -> None:
    texts = [f"# T{n}\n\nKey: v\n\n## S\n\n- cache {n}\n- latency\n\ntext {n}\n" for n in range(4)]
    sources = [_source(n, parse_document(text)) for n, text in enumerate(texts)]
    one_by_one = LazyItems(sources)
    expected = [one_by_one[index] for index in range(len(one_by_one))]
    batched = LazyItems(sources)
    batched.prefetch([len(batched) - 1, 0, 3, 3, *range(len(batched))])
    assert [batched[index] for index in range(len(batched))] == expected
    with pytest.raises(IndexError):
        batched.prefetch([len(batched)])
