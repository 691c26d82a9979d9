"""The doctor folds each document once: keys from folded lines equal the normalised text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.doctor.content import _normalised
from project_corpus.markdown import parse_document
from project_corpus.text import normalise

# Letters whose casefolding changes length or needs care (ß, ſ, İ, ﬁ, final sigma, Kelvin),
# Cyrillic, whitespace of several kinds, carriage returns and Markdown structure.
ALPHABET = [*list("aAßẞſİıﬁςΣσKkЁёЯя \t\r\n\xa0\u2003-|#`~*1."), "\n\n", "- ", "| x |"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=300), st.booleans())
def test_keys_from_the_folded_document_equal_normalised_item_text(
    chars: list[str], bom: bool
) -> None:
    text = ("\ufeff" if bom else "") + "".join(chars)
    doc = parse_document(text)
    folded_lines = doc.text.casefold().split("\n")
    for span in doc.spans:
        assert _normalised(span, folded_lines) == normalise(span.text)


def test_cut_items_are_normalised_from_their_own_text() -> None:
    doc = parse_document("ẞ" * 1500 + "\n")
    (span,) = doc.spans
    assert len(span.text) == 1200
    assert _normalised(span, doc.text.casefold().split("\n")) == "ss" * 1200
