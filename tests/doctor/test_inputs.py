"""JSON pointer lines of input files."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from project_corpus.doctor._inputs import line_of
from project_corpus.doctor._inputs import pointer_lines

TEXT = """{
  "a": 1,
  "b/c": [
    {"x": "}{,:\\"["},
    {
      "y": null
    }
  ],
  "~": {}
}"""


def test_pointer_lines_of_nested_values() -> None:
    lines = pointer_lines(TEXT)
    assert lines[""] == 1
    assert lines["/a"] == 2
    assert lines["/b~1c"] == 3
    assert lines["/b~1c/0"] == 4
    assert lines["/b~1c/0/x"] == 4
    assert lines["/b~1c/1"] == 5
    assert lines["/b~1c/1/y"] == 6
    assert lines["/~0"] == 9


def test_missing_pointer_falls_back_to_its_parent() -> None:
    lines = pointer_lines(TEXT)
    assert line_of(lines, "/b~1c/1/missing") == 5
    assert line_of(lines, "/nothing/deeper") == 1


def test_depth_is_bounded() -> None:
    lines = pointer_lines("[[[[[[1]]]]]]", max_depth=2)
    assert "/0/0" in lines
    assert "/0/0/0" not in lines


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(JSON, st.sampled_from([None, 1, 2]))
def test_every_value_of_any_document_has_a_line(value: object, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    lines = pointer_lines(text, max_depth=10)
    assert lines[""] == 1
    assert all(1 <= n <= text.count("\n") + 1 for n in lines.values())
