"""A document rebuilt from its skeleton and its text is the parsed document, exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.skeleton import rebuild
from project_corpus.corpus.skeleton import skeleton_of
from tests.conftest import REPO
from tests.corpus.test_markdown_oracle import LINES


def roundtrip(text: str) -> None:
    doc = parse_document(text)
    assert rebuild(text, skeleton_of(doc)) == doc


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=120), st.booleans(), st.booleans())
def test_rebuilt_document_is_the_parsed_one_on_generated_markdown(
    lines: list[str], final_newline: bool, bom: bool
) -> None:
    text = ("\ufeff" if bom else "") + "\n".join(lines) + ("\n" if final_newline else "")
    roundtrip(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("#-*+|`~< \n\r\t1.)ab:я!>\u00a0")), max_size=300))
def test_rebuilt_document_is_the_parsed_one_on_arbitrary_text(text: str) -> None:
    roundtrip(text)


def test_rebuilt_document_is_the_parsed_one_on_every_fixture() -> None:
    paths = sorted((REPO / "fixtures").rglob("*.md"))
    assert len(paths) > 50
    for path in paths:
        roundtrip(path.read_bytes().decode("utf-8", "replace"))


def test_a_skeleton_holds_line_numbers_only_never_text() -> None:
    text = "# Title\nKey: secret value\n\n## Heading words\nA sentence of text.\n"
    skeleton = skeleton_of(parse_document(text))
    for word in ("Title", "secret", "Heading", "sentence", "paragraph", "meta"):
        assert word.encode() not in skeleton
        assert word.encode("utf-16-le") not in skeleton


def test_a_skeleton_that_does_not_fit_the_text_is_refused() -> None:
    text = "# T\nKey: v\n\n## S\nbody\n"
    skeleton = skeleton_of(parse_document(text))
    with pytest.raises(ValueError, match="counts"):
        rebuild(text, skeleton[:-4])
    with pytest.raises(IndexError):
        rebuild("# T\n", skeleton)
