"""The curated general glossary (docs/retrieval.md, "The general glossary"): software and
project vocabulary in English and Russian, shipped as the data file `general_glossary.json`
beside this module and read on the first query that needs it (never by build or doctor).

Each class of the file lists words or phrases that mean the same thing ("package manager",
"пакетный менеджер"; "shut down", "shutdown", "выключить"). A question's word also hits the
other single words of its classes (`word_forms`); a question's phrase, all its words in
order, also hits the single words of its class and, word by word, the phrases of the same
length (`phrase_forms`: "операционная система" hits "operating" and "system"). A single word
is never widened to a phrase's words: "данные" is no "database".

Lookups stem only the words that can have the stems asked about (those starting with the
stems' `stem_prefix`, found by bisection in the sorted words), as the Protocol glossary does:
a query stems a few glossary words, not two thousand (a Snowball stem costs 25-50 µs).
"""

from __future__ import annotations

import json
import os
from bisect import bisect_left
from functools import lru_cache
from typing import NamedTuple

from project_corpus.retrieval import text as textmod

DATA_FILE = "general_glossary.json"
# A form whose stem prefix is this short would make the scan read most words of a corpus
# ("step": `st`); such a form is not added (the question's own word is always scanned).
MIN_FORM_PREFIX = 2


class Table(NamedTuple):
    """The glossary's members as tokens, unstemmed."""

    classes: tuple[tuple[tuple[str, ...], ...], ...]  # class: its members, each its tokens
    words: list[str]  # every single-word member, sorted and unique (bisect by prefix)
    word_classes: dict[str, tuple[int, ...]]  # {single word: the classes holding it}
    firsts: list[str]  # the first tokens of the phrase members, sorted and unique
    phrases: dict[str, tuple[tuple[int, tuple[str, ...]], ...]]  # {first token: (class, tokens)}


def load_topics() -> tuple[dict[str, list[list[str]]], list[str]]:
    """The data file's topics ({name: its classes, as written}) and the active ones' names."""
    # Read beside this module, not through importlib.resources: that would add zipfile,
    # tempfile, pathlib and a dozen more modules to every query's start-up (test_imports).
    with open(os.path.join(os.path.dirname(__file__), DATA_FILE), encoding="utf-8") as file:
        data = json.load(file)
    return data["topics"], data["active"]


def load_classes() -> list[list[str]]:
    """The classes of the active topics, topic by topic, as written."""
    topics, active = load_topics()
    return [list(members) for name in active for members in topics[name]]


@lru_cache(maxsize=1)
def table() -> Table:
    """The data file's classes as tokens (read once per process)."""
    classes = tuple(tuple(_member_tokens(m) for m in members) for members in load_classes())
    word_classes: dict[str, list[int]] = {}
    phrases: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for number, members in enumerate(classes):
        for tokens in members:
            if len(tokens) == 1:
                word_classes.setdefault(tokens[0], []).append(number)
            elif tokens:
                phrases.setdefault(tokens[0], []).append((number, tokens))
    return Table(
        classes,
        sorted(word_classes),
        {word: tuple(found) for word, found in word_classes.items()},
        sorted(phrases),
        {first: tuple(found) for first, found in phrases.items()},
    )


def _member_tokens(member: str) -> tuple[str, ...]:
    """A member's tokens as a query's are kept, stopwords out ("out of scope" is "out
    scope"); none for a phrase that would be left with one word ("turn off" is no "turn")."""
    tokens = textmod.raw_tokens(member)
    kept = tuple(t for t in tokens if t not in textmod.STOPWORDS)
    if len(tokens) == 1:
        return tuple(tokens)
    return kept if len(kept) >= 2 else ()


def _with_stem(tokens: list[str], one: str) -> list[str]:
    """The TOKENS (sorted) whose stem is ONE."""
    prefix = textmod.stem_prefix(one)
    at = bisect_left(tokens, prefix)
    found: list[str] = []
    while at < len(tokens) and tokens[at].startswith(prefix):
        if textmod.stem(tokens[at]) == one:
            found.append(tokens[at])
        at += 1
    return found


def _forms_of(tokens: tuple[str, ...]) -> frozenset[str]:
    """The stems of single-word TOKENS that may be forms (not too short a scan prefix)."""
    stems = (textmod.stem(token) for token in tokens)
    return frozenset(s for s in stems if len(textmod.stem_prefix(s)) >= MIN_FORM_PREFIX)


@lru_cache(maxsize=4096)
def word_forms(term: str) -> frozenset[str]:
    """The stems of the single words that share a class with a word whose stem is TERM
    (TERM itself left out; empty when no glossary word has that stem)."""
    data = table()
    classes = {n for word in _with_stem(data.words, term) for n in data.word_classes[word]}
    singles = (m[0] for n in sorted(classes) for m in data.classes[n] if len(m) == 1)
    return _forms_of(tuple(singles)) - {term}


def phrase_forms(seq: list[str]) -> dict[str, frozenset[str]]:
    """{query term: its forms} for the glossary phrases written in the query stems SEQ."""
    data = table()
    found: dict[str, set[str]] = {}
    for at, first in enumerate(seq):
        for token in _with_stem(data.firsts, first):
            for number, tokens in data.phrases[token]:
                if _phrase_at(seq, at, tokens):
                    _add_siblings(found, seq[at : at + len(tokens)], data.classes[number])
    return {term: frozenset(forms - {term}) for term, forms in found.items() if forms - {term}}


def _phrase_at(seq: list[str], at: int, tokens: tuple[str, ...]) -> bool:
    """Whether the stems of TOKENS are written in SEQ from position AT."""
    width = len(tokens)
    return seq[at : at + width] == [textmod.stem(token) for token in tokens]


def _add_siblings(
    found: dict[str, set[str]], terms: list[str], members: tuple[tuple[str, ...], ...]
) -> None:
    """Add to each of TERMS (a phrase of the query) the single words of its class MEMBERS
    and the word at its place in each phrase of the same length."""
    singles = _forms_of(tuple(m[0] for m in members if len(m) == 1))
    for place, term in enumerate(terms):
        aligned = tuple(m[place] for m in members if len(m) == len(terms))
        found.setdefault(term, set()).update(singles | _forms_of(aligned))
