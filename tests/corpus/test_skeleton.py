"""A document rebuilt from its skeleton and its text is the parsed document, exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.skeleton import rebuild
from project_corpus.corpus.skeleton import skeleton_of
from project_corpus.corpus.skeleton import span_columns
from project_corpus.corpus.skeleton import span_texts
from tests.conftest import REPO
from tests.corpus.test_markdown_oracle import LINES


def roundtrip(text: str) -> None:
    doc = parse_document(text)
    skeleton = skeleton_of(doc)
    rebuilt = rebuild(text, skeleton)
    assert rebuilt == doc
    assert skeleton_of(rebuilt) == skeleton  # a rebuild's skeleton: its stored span rows


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


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=80))
def test_span_texts_and_columns_are_those_of_the_spans(lines: list[str]) -> None:
    text = "\n".join(lines)
    doc = parse_document(text)
    rebuilt = rebuild(text, skeleton_of(doc))
    expected = [span.text for span in doc.spans]
    columns = ([s.line_start for s in doc.spans], [s.line_end for s in doc.spans])
    for spans in (doc.spans, rebuilt.spans):
        assert span_texts(spans) == expected
        assert [list(column) for column in span_columns(spans)[:2]] == list(columns)
    rebuilt.spans[0:1]  # a slice makes every span: their texts are then reused
    assert span_texts(rebuilt.spans) == expected


def test_rebuilt_spans_equal_and_hash_as_the_parsed_tuple() -> None:
    text = "# T\nKey: v\n\n## S\nbody line\n\n- item\n"
    doc = parse_document(text)
    rebuilt = rebuild(text, skeleton_of(doc))
    assert isinstance(doc.spans, tuple)
    assert rebuilt.spans == doc.spans
    assert doc.spans == rebuilt.spans
    assert hash(rebuilt) == hash(doc)
    assert {rebuilt, doc} == {doc}
    assert rebuilt.spans[-1] == doc.spans[-1]
    assert rebuilt.spans[1:3] == doc.spans[1:3]
    with pytest.raises(IndexError):
        rebuilt.spans[len(doc.spans)]
