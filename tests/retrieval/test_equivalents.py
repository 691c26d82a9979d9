"""The curated general glossary (SPEC §5 rev. 4, docs/retrieval.md "The general glossary"): a
data file shipped in the package, read lazily, written from general knowledge and kept free
of every fixture corpus's own identifiers."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from project_corpus.retrieval import equivalents
from project_corpus.retrieval import text as textmod
from tests.conftest import REPO

# Where the corpora of the datasets live: their identifiers must not be glossary words.
CORPORA = (REPO / "fixtures", REPO / "benchmarks" / "realworld" / "corpora")
# A code identifier: camelCase, snake_case, or letters and digits mixed ("net10", "v78").
CODE_RE = re.compile(
    r"\b(?:[a-z]{2,}[A-Z][A-Za-z0-9]*|[A-Za-z0-9]+_[A-Za-z0-9_]+|[A-Za-z]+[0-9][A-Za-z0-9]*)\b"
)
# A proper noun: a capitalised word inside a sentence ("uses Revolut", "in Backstage").
CAPITALISED_RE = re.compile(r"(?<=[a-zа-яё,] )[A-ZА-ЯЁ][a-zа-яё]{2,}\b")
WORD_RE = re.compile(r"\b[^\W\d_]{3,}\b")
PROJECT_ID_RE = re.compile(r"^Project-ID:\s*(\S+)", re.MULTILINE)


def _texts() -> list[tuple[Path, str]]:
    return [
        (path, path.read_text(encoding="utf-8", errors="replace"))
        for root in CORPORA
        for path in sorted(root.rglob("*.md"))
    ]


def fixture_identifiers() -> set[str]:
    """Project IDs, file stems, code identifiers and proper nouns (words the corpora write
    only capitalised) of every corpus under fixtures/ and benchmarks/realworld/, folded."""
    found: set[str] = set()
    lowercase: set[str] = set()
    capitalised: set[str] = set()
    for path, text in _texts():
        if re.search(r"[-_0-9]", path.stem):  # "adr014-use-fetch"; not "alternatives"
            found.add(textmod.fold(path.stem))
        found.update(textmod.fold(m) for m in PROJECT_ID_RE.findall(text))
        found.update(textmod.fold(m) for m in CODE_RE.findall(text))
        capitalised.update(CAPITALISED_RE.findall(text))
        lowercase.update(w for w in WORD_RE.findall(text) if w.islower())
    found.update(textmod.fold(w) for w in capitalised if w.lower() not in lowercase)
    return found


def _members() -> set[str]:
    topics, _ = equivalents.load_topics()
    return {
        textmod.fold(member) for classes in topics.values() for words in classes for member in words
    }


def test_no_fixture_corpus_identifier_is_a_glossary_word() -> None:
    identifiers = fixture_identifiers()
    assert {"ledgerline", "roof-pollinators", "backstage"} <= identifiers  # the test can fail
    members = _members()
    words = {token for member in members for token in textmod.raw_tokens(member)}
    assert sorted((members | words) & identifiers) == []


def test_the_glossary_is_a_curated_table_of_hundreds_of_classes_in_both_languages() -> None:
    topics, active = equivalents.load_topics()
    classes = [words for found in topics.values() for words in found]
    assert len(classes) >= 300
    assert set(active) <= set(topics)
    for words in classes:
        assert len(words) >= 2, words
        assert len(set(words)) == len(words), words
        assert all(w == w.strip() and w == w.lower() for w in words), words
    russian = sum(1 for words in classes if any(textmod.CYRILLIC_RE.search(w) for w in words))
    assert russian >= 200


def test_a_word_hits_the_single_words_of_its_active_classes() -> None:
    config = equivalents.word_forms(textmod.stem("config"))
    assert textmod.stem("configuration") in config
    assert textmod.stem("config") not in config
    assert equivalents.word_forms(textmod.stem("hledger")) == frozenset()


def test_a_phrase_maps_word_by_word_and_a_word_never_widens_to_a_phrase() -> None:
    topics = {"t": [["package manager", "пакетный менеджер", "pm"], ["db", "база данных"]]}
    table = _table_of(topics)
    seq = textmod.query_stems("какой пакетный менеджер")
    forms = _phrase_forms(table, seq)
    assert forms[textmod.stem("пакетный")] >= {textmod.stem("package")}
    assert textmod.stem("manager") in forms[textmod.stem("менеджер")]
    assert textmod.stem("manager") not in forms[textmod.stem("пакетный")]
    assert _phrase_forms(table, textmod.query_stems("какие данные")) == {}


def _table_of(topics: dict[str, list[list[str]]]) -> equivalents.Table:
    original = equivalents.load_topics
    equivalents.table.cache_clear()
    equivalents.load_topics = lambda: (topics, list(topics))  # type: ignore[assignment]
    try:
        return equivalents.table()
    finally:
        equivalents.load_topics = original  # type: ignore[assignment]
        equivalents.table.cache_clear()


def _phrase_forms(table: equivalents.Table, seq: list[str]) -> dict[str, frozenset[str]]:
    original = equivalents.table
    equivalents.table = lambda: table  # type: ignore[assignment]
    try:
        return equivalents.phrase_forms(seq)
    finally:
        equivalents.table = original  # type: ignore[assignment]


def test_the_data_file_is_read_only_by_a_query_and_ships_in_the_wheel(tmp_path: Path) -> None:
    code = (
        "import sys; from project_corpus.retrieval import rank, vocabulary; "
        "from project_corpus.retrieval import equivalents as e; "
        "assert e.table.cache_info().currsize == 0; "
        "vocabulary.equivalent_forms('config'); assert e.table.cache_info().currsize == 1"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    packaged = REPO / "src" / "project_corpus" / "retrieval" / equivalents.DATA_FILE
    assert packaged.is_file()
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert 'packages = ["src/project_corpus"]' in pyproject  # hatch ships every file in it
