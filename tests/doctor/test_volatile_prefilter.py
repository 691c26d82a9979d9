"""The volatile-term pre-filter never hides a claim the full matcher would find."""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.doctor import _volatile as volatile

MATCHER = volatile.compile_terms(volatile.effective_terms({}))
WORDS = st.sampled_from(
    [
        "Currently",
        "right",
        "now",
        "RIGHT NOW",
        "at the\nmoment",
        "live",
        "deliver",
        "alive",
        "Сейчас",
        "текущее",
        "НЕТЕКУЩИЙ",
        "today",
        "x_today",
        "(today)",
        "ß",
        "İ",
        "word",
        "\n",
        " ",
        "-",
        "на данный\nмомент",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(WORDS, max_size=30))
def test_every_matching_text_touches_a_candidate_line(words: list[str]) -> None:
    text = " ".join(words)
    lines = tuple(text.split("\n"))
    folded = text.casefold()
    positions = volatile.key_positions(folded, MATCHER)
    candidates = {folded.count("\n", 0, position) + 1 for position in positions}
    if volatile.volatile_term(text, MATCHER):
        assert candidates
    for number, line in enumerate(lines, start=1):
        if volatile.volatile_term(line, MATCHER):
            assert number in candidates
