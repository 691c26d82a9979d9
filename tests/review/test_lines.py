"""Which head lines a change modified (`review.lines`): the answers a reviewer expects, in
linear time on any input (#36 item 5: difflib without autojunk was quadratic)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from project_corpus.review.lines import modified_lines

LINES = st.lists(st.sampled_from(["a", "b", "c", "", "- item", "## H"]), max_size=30)


def test_a_line_that_moved_down_is_not_modified() -> None:
    before = ["# Notes", "", "## Notes", "We deploy on Fridays."]
    after = ["# Notes", "", "## Notes", "", "We deploy on Fridays.", "", "New claim."]
    assert modified_lines(before, after) == {4, 6, 7}


def test_alternating_lines_rewritten_are_exactly_the_rewritten_ones() -> None:
    before = [f"keep {k}" if k % 2 else "same" for k in range(2000)]
    after = [f"keep {k}" if k % 2 else "changed" for k in range(2000)]
    assert modified_lines(before, after) == {k + 1 for k in range(0, 2000, 2)}


def test_a_reordered_document_keeps_the_longest_ordered_run() -> None:
    before = [f"line {k}" for k in range(10)]
    after = [*before[7:], *before[:7]]  # the last three lines moved to the top
    assert modified_lines(before, after) == {1, 2, 3}


def test_identical_and_empty_documents() -> None:
    assert modified_lines(["a", "a", "b"], ["a", "a", "b"]) == frozenset()
    assert modified_lines([], ["x", "y"]) == {1, 2}
    assert modified_lines(["x"], []) == frozenset()


@given(before=LINES, at=st.integers(min_value=0), new=st.text(min_size=1).map(lambda t: f"new {t}"))
def test_one_inserted_line_is_the_one_modified_line(before: list[str], at: int, new: str) -> None:
    at %= len(before) + 1
    after = [*before[:at], new, *before[at:]]
    assert modified_lines(before, after) == {at + 1}


@given(before=LINES, after=LINES)
def test_every_line_not_in_the_base_is_modified(before: list[str], after: list[str]) -> None:
    touched = modified_lines(before, after)
    assert touched <= set(range(1, len(after) + 1))
    assert {n for n, line in enumerate(after, start=1) if line not in before} <= touched
    unmatched = len(after) - len(touched)
    assert unmatched <= len(before)  # each matched head line stands for its own base line
