"""The closed bilingual Protocol glossary (docs/retrieval.md, "Protocol vocabulary across
languages").

The Protocol's own words — its section names and roles — are the same concepts in English
and in Russian. Each `Concept` lists its notions; a notion is one word in its English and
Russian forms, which translate into each other for query terms. Nothing outside this table is
translated: a cross-language question about anything else honestly finds nothing.

A concept is *addressed* by a query that holds all the words of one of its cues ("next",
"blockers", "non goals", "критерии"...). Items whose section heading path holds one of the
concept's words are then in the role the question asks about (see `rank.py`): "what is the
exact next action" lifts the line under `## Exact Next Action`, "какие блокеры" the lines
under `## Blockers` or `## Блокеры`.

Words are written as people write them and stemmed on first use, so the table reads as a
dictionary and follows the stemmer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from project_corpus.retrieval.text import raw_tokens
from project_corpus.retrieval.text import stem


class Concept(NamedTuple):
    """One Protocol concept: its notions (each a tuple of equivalent EN/RU words) and cues."""

    name: str
    notions: tuple[tuple[str, ...], ...]
    cues: tuple[str, ...]  # each cue: space-separated words that must all be in the query


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "next_action",
        (
            ("next", "следующий", "следующее", "следующая", "следующие"),
            ("action", "actions", "действие", "действия"),
        ),
        ("next", "следующий"),
    ),
    Concept(
        "blockers",
        (
            (
                "blocker",
                "blockers",
                "blocked",
                "blocking",
                "block",
                "blocks",
                "obstacle",
                "obstacles",
                "блокер",
                "блокеры",
                "блокирует",
                "заблокирован",
                "заблокировано",
                "препятствие",
                "препятствия",
            ),
        ),
        (
            "blocker",
            "blocked",
            "blocking",
            "blocks",
            "obstacle",
            "блокер",
            "блокирует",
            "заблокирован",
            "препятствие",
        ),
    ),
    Concept(
        "current_state",
        (
            ("current", "currently", "текущий", "текущее", "текущая", "сейчас"),
            ("state", "baseline", "состояние"),
        ),
        ("current state", "baseline", "state", "текущее состояние", "состояние"),
    ),
    Concept(
        "evidence",
        (("evidence", "proof", "доказательство", "доказательства", "свидетельство"),),
        ("evidence", "proof", "доказательство", "свидетельство"),
    ),
    Concept(
        "objective",
        (("objective", "цель", "цели"),),  # not "goal": Non-Goals is another section
        ("objective", "цель"),
    ),
    Concept(
        "non_goals",
        (("non", "не"), ("goal", "goals", "цель", "цели")),
        ("non goal", "не цель"),
    ),
    Concept(
        "scope",
        (
            ("scope", "boundary", "boundaries", "граница", "границы", "область", "рамки"),
            ("out", "outside", "вне"),  # "out of scope" = "вне границ"
        ),
        ("scope", "boundary", "граница", "область", "рамки"),
    ),
    Concept(
        "constraints",
        (("constraint", "constraints", "restriction", "ограничение", "ограничения"),),
        ("constraint", "restriction", "ограничение"),
    ),
    Concept(
        "limitations",
        (("limitation", "limitations", "caveat", "caveats", "ограничение", "ограничения"),),
        ("limitation", "caveat", "ограничение"),
    ),
    Concept(
        "acceptance_criteria",
        (
            ("acceptance", "приёмка", "приёмки", "приемка"),
            ("criteria", "criterion", "критерий", "критерии"),
        ),
        ("acceptance", "criteria", "criterion", "приёмка", "критерий"),
    ),
    Concept(
        "invariants",
        (("invariant", "invariants", "инвариант", "инварианты"),),
        ("invariant", "инвариант"),
    ),
    Concept(
        "summary",
        (("summary", "итог", "итоги", "резюме"),),
        ("summary", "итог", "резюме"),
    ),
    Concept("task", (("task", "tasks", "задача", "задачи"),), ()),
    Concept("report", (("report", "reports", "отчёт", "отчёты", "отчет"),), ()),
    Concept("status", (("status", "статус"),), ()),
    Concept("project", (("project", "проект", "проекта"),), ()),
)


class Glossary(NamedTuple):
    """The stemmed glossary: translations of each stem, each concept's stems and cue sets."""

    translations: dict[str, frozenset[str]]
    concept_stems: dict[str, frozenset[str]]
    cues: dict[str, tuple[frozenset[str], ...]]


def _stems_of(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(stem(token) for word in words for token in raw_tokens(word))


@lru_cache(maxsize=1)
def glossary() -> Glossary:
    """The glossary with every word stemmed (built once per process)."""
    translations: dict[str, set[str]] = {}
    concept_stems: dict[str, frozenset[str]] = {}
    cues: dict[str, tuple[frozenset[str], ...]] = {}
    for concept in CONCEPTS:
        notions = [_stems_of(notion) for notion in concept.notions]
        for notion in notions:
            for one in notion:
                translations.setdefault(one, set()).update(notion)
        concept_stems[concept.name] = frozenset().union(*notions)
        cues[concept.name] = tuple(_stems_of(tuple(cue.split())) for cue in concept.cues)
    frozen = {key: frozenset(value) for key, value in translations.items()}
    return Glossary(frozen, concept_stems, cues)


def variants(term: str) -> frozenset[str]:
    """TERM and its translations (only TERM itself when it is outside the glossary)."""
    return glossary().translations.get(term, frozenset((term,)))


def addressed(terms: set[str]) -> dict[str, frozenset[str]]:
    """{concept: the query terms that are its words} for each concept the query addresses."""
    table = glossary()
    found: dict[str, frozenset[str]] = {}
    for name, cue_sets in table.cues.items():
        if any(cue <= terms for cue in cue_sets):
            found[name] = frozenset(terms & table.concept_stems[name])
    return found


def section_concepts(section: str) -> frozenset[str]:
    """The concepts whose words occur in a section heading path (its role)."""
    own = {stem(token) for token in raw_tokens(section)}
    table = glossary()
    return frozenset(name for name, stems in table.concept_stems.items() if own & stems)
