"""Volatile terms and date labels (pure functions)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from project_corpus.core.timeparse import parse_timestamp
from project_corpus.doctor._volatile import DEFAULT_TERMS
from project_corpus.doctor._volatile import compile_terms
from project_corpus.doctor._volatile import date_label_re
from project_corpus.doctor._volatile import effective_terms
from project_corpus.doctor._volatile import has_date_label
from project_corpus.doctor._volatile import volatile_term

DEFAULT = compile_terms(effective_terms({}))


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("We currently deploy.", "currently"),
        ("CURRENTLY green", "CURRENTLY"),
        ("Right\n  now it works", "Right now"),
        ("at the moment", "at the moment"),
        ("At present we wait", "At present"),
        ("as of now", "as of now"),
        ("today's run", "today"),
        ("the live pool", "live"),
        ("Сейчас всё работает", "Сейчас"),
        ("сегодня", "сегодня"),
        ("в данный момент", "в данный момент"),
        ("На данный момент", "На данный момент"),
        ("Текущее состояние", "Текущее"),
        ("текущих узлов", "текущих"),
    ],
)
def test_default_terms_match_whole_words(text: str, term: str) -> None:
    assert volatile_term(text, DEFAULT) == term


@pytest.mark.parametrize(
    "text",
    [
        "alive and delivered",
        "lives",
        "todays",
        "concurrently",
        "presently",
        "now",
        "моментально",
        "нетекущий",
        "atpresent",
    ],
)
def test_parts_of_words_do_not_match(text: str) -> None:
    assert volatile_term(text, DEFAULT) is None


@pytest.mark.parametrize(
    "text",
    [
        "as of 2026-11-01",
        "As of 2026-11-01T10:00:00Z",
        "verified 2026-11-01",
        "Verified on 2026-02-28",
        "по состоянию на 2026-11-01",
        "Проверено: 2026-11-01",
        "(verified 2024-02-29)",
    ],
)
def test_date_labels(text: str) -> None:
    assert has_date_label(text)


@pytest.mark.parametrize(
    "text",
    [
        "as of 2026-02-30",
        "verified 2026-13-01",
        "as of now",
        "verified yesterday",
        "2026-11-01",
        "asof 2026-11-01",
        "as of 2026-11-01T25:00:00Z",
        "verified 2026-11-012",
    ],
)
def test_not_date_labels(text: str) -> None:
    assert not has_date_label(text)


PIECES = ["as of ", "verified ", "по состоянию на ", "2026-11-01", "2024-02-30", "T10:00:00Z"]
PIECES += ["٢٠٢٦-١١-٠١", "12026-11-01", "-", "1", " ", "x", ":", "\n"]


@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_the_quick_tests_before_the_date_label_search_change_nothing(text: str) -> None:
    # has_date_label looks for a hyphen and a plain date before date_label_re().
    found = any(parse_timestamp(match.group(1)) for match in date_label_re().finditer(text))
    assert has_date_label(text) == found


def test_configured_terms_replace_one_language() -> None:
    terms = effective_terms({"en": ("nowadays",)})
    assert "currently" not in terms
    assert "nowadays" in terms
    assert set(DEFAULT_TERMS["ru"]) <= set(terms)
    assert compile_terms(()) is None
    assert volatile_term("anything", None) is None
