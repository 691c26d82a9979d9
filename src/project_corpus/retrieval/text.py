"""Tokens, Snowball stems and stopwords (docs/retrieval.md). One stem cache per process.

Stopwords are function words only: negations and modals (`not`, `no`, `never`, `must`,
`without`, `не`, `нет`, `нельзя`, `без`, `должен`) carry meaning in constraints ("what must
the draft not include") and are terms; `NEGATIONS_AND_MODALS` pins them (a test checks).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterable
from functools import lru_cache
from itertools import accumulate
from typing import Any

# A run of letters/digits; a version or a decimal number stays whole ("1.2.0", "v2.1", "3.11",
# "net10.0"), and so does an identifier that goes on after it ("1.2.0rc1", "1.59s"): its parts
# alone ("1", "2", "0") would match every number (docs/retrieval.md).
TOKEN_RE = re.compile(r"[^\W_]+(?:\.[0-9]+[^\W_]*)*")
# Literal-led (the engine skips to each "v"), then the word-start and version checks.
_VERSION_V_RE = re.compile(r"v(?<![^\W_]v)(?=[0-9]+\.[0-9])")
CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")
LATIN_RE = re.compile(r"[a-z]")

STOPWORDS = frozenset(
    """a an the is are was were be been being am do does did what which who whom whose when where
    why how of to in on at by for from with about as into onto over under and or but nor so
    if then than that this these those it its there here i we you he she they me us them my our
    your his her their can could should would will shall may might has have had any some all
    something anything everything someone anyone everyone somebody anybody everybody somewhere
    anywhere else also just very too quite really actually even ever only such each every both
    either
    и в во что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне
    было вот от меня еще о из ему теперь когда даже ну вдруг ли если уже или ни быть был него
    до вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для
    мы тебя их чем была сам чтоб будто чего раз тоже себе под будет ж тогда кто этот того
    потому этого какой совсем ним здесь этом один почти мой тем чтобы нее были куда зачем
    всех никогда можно при наконец два об другой хоть после над больше тот через эти нас про всего
    них какая много разве три эту моя впрочем хорошо свою этой перед иногда лучше чуть том
    такой им более всегда конечно всю между это каков какое какие
    s t d ll re ve m""".split()  # what an apostrophe leaves of "it's", "don't", "we'll"…
)
NEGATIONS_AND_MODALS = frozenset("not no never must without не нет нельзя без должен".split())
# One negation, many spellings: a question's "not" finds a constraint written "No …", "Never …"
# or "… without …", and back (docs/retrieval.md, "Negations"). Per language; never translated.
NEGATION_CLASSES = (
    # with what an apostrophe leaves of the contractions: "don't" is "don" and "t"
    (
        "not",
        "no",
        "never",
        "without",
        "cannot",
        "don",
        "doesn",
        "didn",
        "isn",
        "aren",
        "wasn",
        "weren",
        "won",
        "shouldn",
        "wouldn",
        "couldn",
        "hasn",
        "haven",
        "hadn",
        "mustn",
    ),
    ("не", "нет", "никогда", "без", "нельзя"),
)

HISTORICAL_PREFIXES = (
    "old",
    "previous",
    "past",
    "histor",
    "supersed",
    "стар",
    "истор",
    "прошл",
    "предыдущ",
    "устар",
    "замещ",
)


@lru_cache(maxsize=1)
def _stemmers() -> tuple[object, object]:
    """The English and Russian Snowball stemmers, imported on first use (lazy: --version
    and the doctor do not need them).

    PyStemmer's compiled ones when it is installed (the `fast` extra), as
    `snowballstemmer.stemmer()` itself does: the same Snowball algorithms, the same stems,
    about ten times faster (docs/decisions.md). Else the pure-Python ones.
    """
    try:
        import Stemmer
    except ImportError:
        english = _stemmer_module("english_stemmer").EnglishStemmer()
        russian = _stemmer_module("russian_stemmer").RussianStemmer()
        return english, russian
    return Stemmer.Stemmer("english"), Stemmer.Stemmer("russian")


def _stemmer_module(name: str) -> Any:
    """The module `snowballstemmer.NAME`, without running the package's `__init__` when
    the package is not imported yet: that imports all 36 stemmers (about 8 ms a process).
    The package entry is removed afterwards, so a later `import snowballstemmer` runs its
    `__init__` as usual (and reuses the stemmer modules already loaded)."""
    full = f"snowballstemmer.{name}"
    if full in sys.modules or "snowballstemmer" in sys.modules:
        return importlib.import_module(full)
    from importlib.util import find_spec
    from importlib.util import module_from_spec

    spec = find_spec("snowballstemmer")
    if spec is None:
        raise ModuleNotFoundError("No module named 'snowballstemmer'", name="snowballstemmer")
    sys.modules["snowballstemmer"] = module_from_spec(spec)
    try:
        return importlib.import_module(full)
    finally:
        del sys.modules["snowballstemmer"]


_STEMS: dict[str, str] = {}


@lru_cache(maxsize=4096)
def negation_forms(term: str) -> frozenset[str]:
    """The stems of TERM's negation class (empty when TERM is not a negation).

    Only the class words that can have the stem TERM (those starting with its `stem_prefix`)
    are stemmed to find the class, so a query that holds no negation stems none of them.
    """
    prefix = stem_prefix(term)
    found: frozenset[str] = frozenset()
    for words in NEGATION_CLASSES:  # the last class holding TERM, as one table would keep
        if any(word.startswith(prefix) and stem(word) == term for word in words):
            found = frozenset(stem(word) for word in words)
    return found


def stem(token: str) -> str:
    """The Snowball stem of one casefolded token (Russian for Cyrillic, English for Latin)."""
    cached = _STEMS.get(token)
    if cached is not None:
        return cached
    english, russian = _stemmers()
    if CYRILLIC_RE.search(token):
        result = str(russian.stemWord(token))  # type: ignore[attr-defined]
    elif LATIN_RE.search(token):
        result = str(english.stemWord(token))  # type: ignore[attr-defined]
    else:
        result = token
    _STEMS[token] = result
    return result


def fold(text: str) -> str:
    """Casefolded text with `ё` → `е` and the `v` of a version written as a space ("v1.2.0"
    is the version "1.2.0"; the length stays, so offsets into folded text stay valid): the
    form tokens are taken from."""
    folded = text.casefold().replace("ё", "е")
    return _VERSION_V_RE.sub(" ", folded) if "v" in folded else folded


def fold_joined(parts: list[str]) -> tuple[str, list[int]]:
    """`"\\0".join(fold(p) for p in PARTS)` and where each folded part starts in it.

    Folding maps each character on its own, so the joined text is folded in one call; when
    no character folds to several (`ß` → `ss`), the parts start where they did before
    (one casefold over 3 MB instead of 40,000 calls and offsets).
    """
    raw = "\0".join(parts)
    folded = fold(raw)
    if len(folded) != len(raw):
        parts = [fold(part) for part in parts]
    starts = [0, *accumulate(len(part) + 1 for part in parts)]
    starts.pop()
    return folded, starts


def raw_tokens(text: str) -> list[str]:
    """Maximal runs of Unicode letters/digits, casefolded, `ё` → `е`."""
    return TOKEN_RE.findall(fold(text))


def stem_prefix(stem_text: str) -> str:
    """A prefix that every token with this stem starts with.

    Russian Snowball stems and unchanged tokens are prefixes of their tokens; English steps
    rewrite at most the last two characters of a stem (`happy` → `happi`, `ability` →
    `abl`), never the first one.
    """
    if LATIN_RE.search(stem_text) and not CYRILLIC_RE.search(stem_text):
        return stem_text[: max(1, len(stem_text) - 2)]
    return stem_text


def stems(text: str) -> list[str]:
    return [stem(token) for token in raw_tokens(text)]


def query_stems(text: str) -> list[str]:
    """Query stems in order, stopwords removed (all tokens if nothing is left)."""
    tokens = raw_tokens(text)
    kept = [t for t in tokens if t not in STOPWORDS] or tokens
    return [stem(t) for t in kept]


def content_stems(text: str, wanted: Iterable[str] = ()) -> list[str]:
    """Item stems in order without stopwords (for phrase matching).

    With WANTED (a query's stems), a token that cannot have one of them is not stemmed (a
    Snowball stem costs more than the rest of a phrase check): a token with a stem starts with
    that stem's `stem_prefix`, so a token that starts with none of WANTED's gets "\0" instead,
    which no stem is (stems are made of word characters).
    """
    tokens = [t for t in raw_tokens(text) if t not in STOPWORDS]
    prefixes = tuple({stem_prefix(s) for s in wanted})
    if not prefixes:
        return [stem(t) for t in tokens]
    return [stem(t) if t.startswith(prefixes) else "\0" for t in tokens]


def has_historical_intent(terms: Iterable[str]) -> bool:
    return any(term.startswith(HISTORICAL_PREFIXES) for term in terms)


def normalise(text: str) -> str:
    """Casefolded text with collapsed whitespace (exact-duplicate identity)."""
    return collapse_whitespace(text.casefold())


def collapse_whitespace(text: str) -> str:
    """TEXT with each run of whitespace as one space and none at either end."""
    return collapse_all([text])[0]


def collapse_all(texts: list[str]) -> list[str]:
    """Each text with each run of whitespace as one space and none at either end.

    Most item texts are nearly so: every whitespace character but the ASCII space is
    unprintable, so once newlines are spaces, a printable text without a double space (or
    an edge space) is kept as it is, without splitting it into words. One comprehension,
    no call per text.
    """
    return [
        text
        if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " "
        else " ".join(text.split())
        for text in [text.replace("\n", " ") for text in texts]
    ]
