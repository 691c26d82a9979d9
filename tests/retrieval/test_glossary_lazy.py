"""The glossary and negation lookups stem on demand and answer as the eager tables did.

`variants`, `addressed`, `section_concepts` and `negation_forms` stem only the words that can
have the stems they are asked about (those starting with the stems' `stem_prefix`). The
reference here is the eager table they replaced, built from `CONCEPTS` and
`NEGATION_CLASSES` by stemming every word: the lookups must agree with it on every input.
They do when every glossary and negation word starts with its own stem's `stem_prefix` (the
first test, over all of them), and the property tests compare them on the glossary's own
words, their inflections, random Latin, Cyrillic and mixed tokens and section paths.
"""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.retrieval import glossary
from project_corpus.retrieval.text import NEGATION_CLASSES
from project_corpus.retrieval.text import negation_forms
from project_corpus.retrieval.text import raw_tokens
from project_corpus.retrieval.text import stem
from project_corpus.retrieval.text import stem_prefix


class Eager(NamedTuple):
    translations: dict[str, frozenset[str]]
    concept_stems: dict[str, frozenset[str]]
    cues: dict[str, tuple[frozenset[str], ...]]
    negations: dict[str, frozenset[str]]


def stems_of(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(stem(token) for word in words for token in raw_tokens(word))


def eager() -> Eager:
    """Every glossary and negation word stemmed up front (the tables before #17)."""
    translations: dict[str, set[str]] = {}
    concept_stems: dict[str, frozenset[str]] = {}
    cues: dict[str, tuple[frozenset[str], ...]] = {}
    for concept in glossary.CONCEPTS:
        notions = [stems_of(notion) for notion in concept.notions]
        for notion in notions:
            for one in notion:
                translations.setdefault(one, set()).update(notion)
        concept_stems[concept.name] = frozenset().union(*notions)
        cues[concept.name] = tuple(stems_of(tuple(cue.split())) for cue in concept.cues)
    negations: dict[str, frozenset[str]] = {}
    for words in NEGATION_CLASSES:
        forms = frozenset(stem(word) for word in words)
        negations.update(dict.fromkeys(forms, forms))
    frozen = {key: frozenset(value) for key, value in translations.items()}
    return Eager(frozen, concept_stems, cues, negations)


TABLE = eager()
GLOSSARY_WORDS = sorted(
    {
        token
        for concept in glossary.CONCEPTS
        for text in (*(word for notion in concept.notions for word in notion), *concept.cues)
        for token in raw_tokens(text)
    }
)
NEGATION_WORDS = sorted({word for words in NEGATION_CLASSES for word in words})
ENDINGS = (
    *("", "s", "es", "ed", "ing", "er", "ly", "y", "ies", "ied", "ness", "ation", "ity", "al"),
    *("а", "ы", "ов", "ами", "ой", "ого", "ую", "ие", "ия", "ий", "ях", "ем", "ь", "ться"),
)
LETTERS = "abcdefgilnorstuvxyzабвгдежиклмнопрстуцыьяё"

own_word = st.sampled_from(GLOSSARY_WORDS + NEGATION_WORDS)
inflection = st.builds(
    lambda word, cut, ending: word[: max(1, len(word) - cut)] + ending,
    own_word,
    st.integers(0, 4),
    st.sampled_from(ENDINGS),
)
random_token = st.text(alphabet=LETTERS, min_size=1, max_size=12)
token = st.one_of(own_word, inflection, random_token)
section = st.lists(
    st.lists(token, min_size=1, max_size=4).map(" ".join), min_size=1, max_size=4
).map(" > ".join)


def eager_variants(term: str) -> frozenset[str]:
    return TABLE.translations.get(term, frozenset((term,)))


def eager_addressed(terms: set[str]) -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = {}
    for name, cue_sets in TABLE.cues.items():
        if any(cue <= terms for cue in cue_sets):
            found[name] = frozenset(terms & TABLE.concept_stems[name])
    return found


def eager_section_concepts(text: str) -> frozenset[str]:
    own = {stem(one) for one in raw_tokens(text)}
    named = {name for name, stems in TABLE.concept_stems.items() if own & stems}
    aliased = {  # a heading with all the words of a section alias ("todo": next action)
        name
        for name, aliases in glossary.SECTION_ALIASES.items()
        for alias in aliases
        if stems_of((alias,)) <= own
    }
    return frozenset(named | aliased)


def test_every_glossary_and_negation_word_starts_with_its_stem_prefix() -> None:
    # The one fact the lookups rely on: a word with stem S is among those starting with
    # stem_prefix(S), so looking there finds every word with that stem.
    for word in GLOSSARY_WORDS + NEGATION_WORDS:
        assert word.startswith(stem_prefix(stem(word))), (word, stem(word))


def test_the_concept_names_are_unique_and_cues_use_their_concept_words() -> None:
    assert len({concept.name for concept in glossary.CONCEPTS}) == len(glossary.CONCEPTS)
    for concept in glossary.CONCEPTS:
        assert all(word for notion in concept.notions for word in notion)
        for cue in TABLE.cues[concept.name]:
            assert cue <= TABLE.concept_stems[concept.name], (concept.name, cue)


def test_every_glossary_stem_translates_as_the_eager_table() -> None:
    for term, forms in TABLE.translations.items():
        assert glossary.variants(term) == forms, term
    for term, forms in TABLE.negations.items():
        assert negation_forms(term) == forms, term


@settings(max_examples=300, deadline=None)
@given(token)
def test_variants_and_negations_are_the_eager_tables(word: str) -> None:
    for term in {word, stem(word)}:
        assert glossary.variants(term) == eager_variants(term)
        assert negation_forms(term) == TABLE.negations.get(term, frozenset())


@settings(max_examples=300, deadline=None)
@given(st.lists(token, max_size=6))
def test_addressed_concepts_are_the_eager_ones(words: list[str]) -> None:
    terms = {stem(word) for word in words} | set(words[:1])
    found = glossary.addressed(terms)
    expected = eager_addressed(terms)
    assert found == expected
    assert list(found) == list(expected)  # and in the same order


@settings(max_examples=300, deadline=None)
@given(section)
def test_section_roles_are_the_eager_ones(text: str) -> None:
    assert glossary.section_concepts(text) == eager_section_concepts(text)


def test_a_question_with_every_cue_addresses_every_concept_as_before() -> None:
    every = {stem(word) for word in GLOSSARY_WORDS}
    assert glossary.addressed(every) == eager_addressed(every)
    assert set(glossary.addressed(every)) == {c.name for c in glossary.CONCEPTS if c.cues}
    paths = " > ".join(GLOSSARY_WORDS)
    assert glossary.section_concepts(paths) == {c.name for c in glossary.CONCEPTS}
