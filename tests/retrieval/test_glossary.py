"""The closed bilingual Protocol glossary: translations, addressed concepts, section roles."""

from __future__ import annotations

import pytest

from project_corpus.retrieval import glossary
from project_corpus.retrieval.text import query_stems
from project_corpus.retrieval.text import stem


def terms(query: str) -> set[str]:
    return set(query_stems(query))


@pytest.mark.parametrize(
    ("english", "russian"),
    [
        ("next", "следующее"),
        ("action", "действие"),
        ("blockers", "блокеры"),
        ("blockers", "препятствия"),
        ("current", "текущее"),
        ("state", "состояние"),
        ("evidence", "доказательства"),
        ("constraints", "ограничения"),
        ("limitations", "ограничения"),
        ("acceptance", "приёмки"),
        ("criteria", "критерии"),
        ("scope", "границы"),
        ("scope", "область"),
        ("objective", "цель"),
        ("invariants", "инварианты"),
        ("task", "задача"),
        ("report", "отчёт"),
        ("project", "проекта"),
    ],
)
def test_each_protocol_word_translates_both_ways(english: str, russian: str) -> None:
    en, ru = stem(english), stem(russian.replace("ё", "е"))
    assert ru in glossary.variants(en)
    assert en in glossary.variants(ru)


@pytest.mark.parametrize("word", ["latency", "cache", "задержка", "кэш", "benchmark", "pandas"])
def test_nothing_outside_the_closed_vocabulary_is_translated(word: str) -> None:
    assert glossary.variants(stem(word)) == frozenset((stem(word),))


@pytest.mark.parametrize(
    ("query", "concept"),
    [
        ("what is the exact next action", "next_action"),
        ("какое следующее действие", "next_action"),
        ("what is blocking the release", "blockers"),
        ("какие есть блокеры", "blockers"),
        ("what are the non-goals", "non_goals"),
        ("какие не-цели у проекта", "non_goals"),
        ("what is the current state", "current_state"),
        ("какое текущее состояние", "current_state"),
        ("what are the acceptance criteria", "acceptance_criteria"),
        ("критерии приёмки", "acceptance_criteria"),
        ("what is out of scope", "scope"),
    ],
)
def test_questions_address_the_concept_they_name(query: str, concept: str) -> None:
    assert concept in glossary.addressed(terms(query))


@pytest.mark.parametrize(
    ("query", "concept"),
    [
        ("what is the current latency", "current_state"),  # "current" alone is a modifier
        ("какие ограничения у текущей задачи", "current_state"),
        ("что шлюз не должен принимать", "non_goals"),  # "не" alone is a negation
        ("which goals does the report state", "non_goals"),
    ],
)
def test_a_lone_modifier_does_not_address_a_concept(query: str, concept: str) -> None:
    assert concept not in glossary.addressed(terms(query))


def test_addressed_concepts_carry_the_query_terms_that_are_their_words() -> None:
    found = glossary.addressed(terms("what is the next research action"))
    assert found["next_action"] == {stem("next"), stem("action")}


@pytest.mark.parametrize(
    ("section", "concept"),
    [
        ("Exact Next Action", "next_action"),
        ("Blockers", "blockers"),
        ("Блокеры того времени", "blockers"),
        ("Current Verified Baseline", "current_state"),
        ("Evidence References", "evidence"),
        ("Limitations > Ограничения измерения", "limitations"),
        ("Durable Scope Boundaries", "scope"),
        ("Non-Goals", "non_goals"),
        ("Acceptance Criteria", "acceptance_criteria"),
    ],
)
def test_sections_are_recognised_in_either_language(section: str, concept: str) -> None:
    assert concept in glossary.section_concepts(section)


def test_the_objective_section_is_not_a_non_goals_section() -> None:
    assert "non_goals" not in glossary.section_concepts("Objective")
    assert "objective" not in glossary.section_concepts("Non-Goals")
