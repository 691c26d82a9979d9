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

Words are written as people write them and stemmed when a lookup needs them, so the table
reads as a dictionary and follows the stemmer: a lookup stems only the glossary words that
can have the stems it is asked about (those starting with the stems' `stem_prefix`), not
the whole table (a Snowball stem costs 25-50 µs, the table holds about 150 words).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from project_corpus.retrieval.text import raw_tokens
from project_corpus.retrieval.text import stem
from project_corpus.retrieval.text import stem_prefix


class Concept(NamedTuple):
    """One Protocol concept: its notions (each a tuple of equivalent EN/RU words) and cues."""

    name: str
    notions: tuple[tuple[str, ...], ...]
    cues: tuple[str, ...]  # each cue: space-separated words that must all be in the query


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "next_action",
        (
            ("next", "следующий", "следующее", "следующая", "следующие", "дальше", "далее"),
            ("action", "actions", "действие", "действия"),
        ),
        ("next", "следующий", "дальше", "далее"),
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


# Section headings that hold a Protocol concept under another name, as memory banks and work
# logs write them ("## Known Issues" holds blockers): a section whose heading path has all the
# words of one of these plays that role. They only place sections; nothing is translated.
SECTION_ALIASES: dict[str, tuple[str, ...]] = {
    "next_action": (
        "next steps",
        "next step",
        "todo",
        "to do",
        "upcoming",
        "what's left",
        "remaining work",
        "дальнейшие шаги",
        "следующие шаги",
        "что дальше",
    ),
    "blockers": (
        "known issues",
        "open issues",
        "risks",
        "challenges",
        "известные проблемы",
        "риски",
    ),
    "current_state": (
        "current focus",
        "current status",
        "what works",
        "recent changes",
        "in progress",
        "текущий статус",
        "текущее состояние",
    ),
}


class _Words(NamedTuple):
    """The glossary's raw tokens, unstemmed: what the lookups stem on demand."""

    tokens: list[str]  # every notion and cue token, sorted and unique (bisect by prefix)
    notions: dict[str, tuple[frozenset[str], ...]]  # {token: the notions holding it}
    concepts: dict[str, frozenset[str]]  # {concept: its notions' tokens}
    cues: dict[str, tuple[frozenset[str], ...]]  # {concept: the tokens of each cue}


def _tokens_of(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(raw_tokens(" ".join(words)))  # no token spans a space


@lru_cache(maxsize=1)
def _words() -> _Words:
    """The glossary's tokens (built once per process; nothing stemmed)."""
    notions: dict[str, list[frozenset[str]]] = {}
    concepts: dict[str, frozenset[str]] = {}
    cues: dict[str, tuple[frozenset[str], ...]] = {}
    for concept in CONCEPTS:
        own = [_tokens_of(notion) for notion in concept.notions]
        for notion in own:
            for token in notion:
                notions.setdefault(token, []).append(notion)
        concepts[concept.name] = frozenset().union(*own)
        cues[concept.name] = tuple(_tokens_of(tuple(cue.split())) for cue in concept.cues)
    every = set(notions).union(*(cue for sets in cues.values() for cue in sets))
    held = {token: tuple(found) for token, found in notions.items()}
    return _Words(sorted(every), held, concepts, cues)


def _with_stems(wanted: Iterable[str]) -> frozenset[str]:
    """The glossary tokens whose stem is one of WANTED."""
    return frozenset().union(*(_with_stem(one) for one in wanted))


@lru_cache(maxsize=4096)
def _with_stem(one: str) -> frozenset[str]:
    """The glossary tokens whose stem is ONE (cached: eval's questions share their terms).

    A token with stem S starts with `stem_prefix(S)` (a test checks it for every glossary
    token), so only the tokens starting with it are stemmed: a query stems a few glossary
    words, not all of them.
    """
    tokens = _words().tokens
    prefix = stem_prefix(one)
    at = bisect_left(tokens, prefix)
    found: list[str] = []
    while at < len(tokens) and tokens[at].startswith(prefix):
        if stem(tokens[at]) == one:
            found.append(tokens[at])
        at += 1
    return frozenset(found)


def variants(term: str) -> frozenset[str]:
    """TERM and its translations (only TERM itself when it is outside the glossary): the
    stems of every notion with a word whose stem is TERM."""
    notions = _words().notions
    held = [notion for token in _with_stems((term,)) for notion in notions.get(token, ())]
    if not held:
        return frozenset((term,))
    return frozenset(stem(token) for notion in held for token in notion)


def addressed(terms: set[str]) -> dict[str, frozenset[str]]:
    """{concept: the query terms that are its words} for each concept the query addresses
    (holds every word of one of its cues)."""
    words = _words()
    mine = _with_stems(terms)
    found: dict[str, frozenset[str]] = {}
    for name, cue_sets in words.cues.items():
        if any(cue <= mine for cue in cue_sets):
            found[name] = frozenset(stem(token) for token in words.concepts[name] & mine)
    return found


def section_concepts(section: str) -> frozenset[str]:
    """The concepts whose words occur in a section heading path (its role), or one of whose
    `SECTION_ALIASES` it holds."""
    stems = {stem(token) for token in raw_tokens(section)}
    mine = _with_stems(stems)
    named = {name for name, tokens in _words().concepts.items() if tokens & mine}
    return frozenset(named | {name for name, alias in _aliases() if alias <= stems})


@lru_cache(maxsize=1)
def _aliases() -> tuple[tuple[str, frozenset[str]], ...]:
    """(concept, the stems of one alias) for each of `SECTION_ALIASES`."""
    return tuple(
        (name, frozenset(stem(token) for token in raw_tokens(alias)))
        for name, aliases in SECTION_ALIASES.items()
        for alias in aliases
    )
