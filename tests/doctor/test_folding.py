"""The doctor folds each content span once; the volatile pre-filter maps hits to claims."""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.records import Document
from project_corpus.core.records import Source
from project_corpus.corpus.markdown import parse_document
from project_corpus.doctor import _volatile as volatile
from project_corpus.doctor.content import CLAIM_KINDS
from project_corpus.doctor.content import DUPLICATE_KINDS
from project_corpus.doctor.content import MIN_DUPLICATE_CHARS
from project_corpus.doctor.content import _duplicates
from project_corpus.doctor.content import _is_table_header
from project_corpus.doctor.content import content_scan
from project_corpus.doctor.content import term_candidates
from project_corpus.retrieval.text import collapse_all
from project_corpus.retrieval.text import collapse_whitespace
from project_corpus.retrieval.text import normalise

MATCHER = volatile.compile_terms(volatile.effective_terms({}))
# Claims as paragraphs, list items and table rows, with terms at their start, middle and end,
# inside words, across lines, in other cases, and non-claims (headings, metadata, code).
LINES = [
    "Currently fine.",
    "it works today",
    "- live now",
    "| сейчас | x |",
    "Сегодня всё",
    "at the",
    "moment it is",
    "deliver alive",
    "текущая версия",
    "нетекущий",
    "## Today",
    "Key: today",
    "```",
    "code today",
    "plain words",
    "x_today",
    "Straße today",
    "ǅİ ﬃ сейчас",
    "",
    "",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=40))
def test_every_claim_with_a_term_is_a_candidate(lines: list[str]) -> None:
    doc = parse_document("\n".join(lines) + "\n")
    folded = [(span, span.text.casefold()) for span in doc.spans]
    found = [span for span, _ in term_candidates(folded, MATCHER)]
    assert all(text == span.text.casefold() for span, text in term_candidates(folded, MATCHER))
    assert found == sorted(set(found), key=doc.spans.index)
    for span in doc.spans:
        if span.kind in CLAIM_KINDS and volatile.volatile_term(span.text, MATCHER):
            assert span in found
        if span.kind not in CLAIM_KINDS:
            assert span not in found


def test_equal_hashes_of_different_texts_are_not_duplicates() -> None:
    # The duplicate check counts hashes of the normalised texts, then groups by the texts.
    doc = parse_document(
        "An item that is long enough to count.\n\nAnother item, long enough too.\n"
    )
    source = Source("a.md", "0" * 64, 1, "report", "HISTORY", "historical", None, "p", False, doc)
    spans = list(doc.spans)
    assert list(_duplicates(spans, [7, 7], [0], [source])) == []
    same = [
        spans[0],
        spans[0]._replace(line_start=3, text="AN ITEM that is  long enough to count."),
    ]
    found = list(_duplicates(same, [7, 7], [0], [source]))
    assert [(issue.path, issue.line, issue.detail) for issue in found] == [
        ("a.md", 3, "same text as a.md:1")
    ]


def test_no_terms_means_no_candidates() -> None:
    doc = parse_document("today is here\n")
    assert term_candidates([(s, s.text.casefold()) for s in doc.spans], None) == []


def test_every_whitespace_character_but_the_space_is_unprintable() -> None:
    # collapse_whitespace's fast path relies on it.
    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    assert len(spaces) > 20
    assert [c for c in spaces if c.isprintable()] == [" "]


@settings(max_examples=500, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("ab я\t\n\r\u00a0\u2003\u2028\x1c\x85  ")), max_size=40)
)
def test_collapse_whitespace_equals_split_and_join(text: str) -> None:
    assert collapse_whitespace(text) == " ".join(text.split())


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from(list("ab я\t\n\r\u00a0\u2003\x00  ")), max_size=12),
        max_size=8,
    )
)
def test_collapse_all_equals_collapsing_each_text(texts: list[str]) -> None:
    assert collapse_all(texts) == [collapse_whitespace(text) for text in texts]


def test_casefolding_is_idempotent_and_keeps_whitespace_apart() -> None:
    # So `normalise` is idempotent: a check may hand the report an anchor it has normalised
    # already (`Issue.normalised`), and the fingerprint is that of the raw text.
    for code in range(0x110000):
        char = chr(code)
        folded = char.casefold()
        assert folded.casefold() == folded, hex(code)
        assert (folded.isspace() or folded == "") == char.isspace(), hex(code)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aBßİıſK Я\t\n\u00a0\u2028ǅ")), max_size=30))
def test_normalise_is_idempotent(text: str) -> None:
    assert normalise(normalise(text)) == normalise(text)


def _scan_item_by_item(doc: Document, matcher: volatile.Matcher | None) -> tuple[object, ...]:
    """What content_scan finds, from each span alone: the counted spans, the hash of each
    one's normalised text, and each claim holding a key word with its normalised text."""
    spans = [span for span in doc.spans if span.kind in DUPLICATE_KINDS]
    counted = [
        span
        for span in spans
        if len(span.text) >= MIN_DUPLICATE_CHARS
        and not (span.kind == "table" and _is_table_header(doc.lines, span))
    ]
    candidates = [
        (span, normalise(span.text))
        for span in spans
        if span.kind in CLAIM_KINDS and volatile.key_positions(span.text.casefold(), matcher)
    ]
    return counted, [hash(normalise(span.text)) for span in counted], candidates


LONG = "A claim that is currently long enough to count as a duplicate"
DOC_LINES = [
    *LINES,
    LONG,
    LONG.upper().replace(" ", "  "),
    "- " + LONG,
    "  continued  today",
    f"| {LONG} | x |",
    "|---|---|",
    "Straße\u2028today\x1cnow\x85live, a long claim of more than 30 characters",
    "ﬁne\x1f\u00a0right now  ",
    "İ today\x00",
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(DOC_LINES), max_size=30), st.booleans())
def test_the_scan_equals_scanning_each_item(lines: list[str], with_terms: bool) -> None:
    # Counted or not (short claims, table header rows), a candidate's anchor is its
    # normalised text; a counted one's is the text whose hash is counted.
    doc = parse_document("\n".join(lines) + "\n")
    matcher = MATCHER if with_terms else None
    assert tuple(content_scan(doc, matcher)) == _scan_item_by_item(doc, matcher)
