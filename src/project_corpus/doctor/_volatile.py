"""Volatile claims and freshness labels (docs/doctor.md). Pure functions.

A term matches as a whole word or phrase, case-insensitively; the words of a phrase may be
separated by any whitespace (items span lines). A term ending in `*` is a prefix: `текущ*`
matches `текущий`, `текущее`, `текущих`... A claim is labelled by a date label: one of
`as of`, `verified`, `verified on`, `по состоянию на`, `проверено` (optionally followed by
`:`) and then a real calendar date `YYYY-MM-DD` or an RFC 3339 date-time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from functools import lru_cache
from typing import NamedTuple

from project_corpus.core.timeparse import parse_timestamp

DEFAULT_TERMS: dict[str, tuple[str, ...]] = {
    "en": ("currently", "right now", "at the moment", "at present", "as of now", "today", "live"),
    "ru": ("сейчас", "сегодня", "в данный момент", "на данный момент", "текущ*"),
}
# The date every date label ends with (a cheap test before `date_label_re`).
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


@cache
def date_label_re() -> re.Pattern[str]:
    """A date label and its date (group 1). Compiled on first use: only a claim holding a
    volatile term and a date needs it, and compiling it costs a doctor run ~0.4 ms of its
    start. Possessive runs of spaces: a plain `\\s*:?\\s+` backtracks quadratically over a
    long run of spaces."""
    return re.compile(
        r"(?<!\w)(?:as\s++of|verified(?:\s++on)?|по\s++состоянию\s++на|проверено)(?:\s*+:)?+"
        r"\s++(\d{4}-\d{2}-\d{2}(?:[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2}))?)"
        r"(?![\w:])",
        re.IGNORECASE,
    )


def effective_terms(overrides: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The terms in use: each language's configured list replaces that language's defaults."""
    return tuple(
        term
        for language in DEFAULT_TERMS
        for term in overrides.get(language, DEFAULT_TERMS[language])
    )


class Matcher(NamedTuple):
    """A compiled term list: one regex, plus the casefolded longest word of each term as a
    cheap substring pre-filter (most items contain none of them)."""

    regex: re.Pattern[str]
    keys: tuple[str, ...]


def _term_pattern(term: str) -> str:
    words = term.rstrip("*").split()
    body = r"\s+".join(re.escape(word) for word in words)
    return body + r"\w*" if term.endswith("*") else body + r"(?!\w)"


@lru_cache(maxsize=8)
def compile_terms(terms: tuple[str, ...]) -> Matcher | None:
    """One alternation of every term (longest first), or None when there are no terms."""
    usable = sorted({t for t in terms if t.strip("*").strip()}, key=lambda t: (-len(t), t))
    if not usable:
        return None
    body = "|".join(_term_pattern(t) for t in usable)
    keys = tuple(sorted({max(t.rstrip("*").split(), key=len).casefold() for t in usable}))
    return Matcher(re.compile(rf"(?<!\w)(?:{body})", re.IGNORECASE), keys)


def has_date_label(text: str) -> bool:
    """True when TEXT carries a date label with a real date (e.g. `as of 2026-11-01`)."""
    # Every date holds an ASCII hyphen (a character without case): most claims have none;
    # of the others, most hold no date at all, which a plain search tells quicker.
    if "-" not in text or not DATE_RE.search(text):
        return False
    return any(parse_timestamp(match.group(1)) for match in date_label_re().finditer(text))


def may_contain_term(text: str, matcher: Matcher | None) -> bool:
    """False when TEXT certainly holds no term (a cheap substring pre-filter)."""
    if matcher is None:
        return False
    folded = text.casefold()
    return any(key in folded for key in matcher.keys)


def key_positions(folded: str, matcher: Matcher | None) -> list[int]:
    """Positions in FOLDED (casefolded text) where a term's key word starts a word: a term
    can only match around one of them."""
    if matcher is None:
        return []
    found = []
    for key in matcher.keys:
        position = folded.find(key)
        while position != -1:
            before = folded[position - 1] if position else " "
            if not (before.isalnum() or before == "_"):
                found.append(position)
            position = folded.find(key, position + 1)
    return found


def volatile_term(text: str, matcher: Matcher | None) -> str | None:
    """The first volatile term in TEXT, or None."""
    if matcher is None or not may_contain_term(text, matcher):
        return None
    return first_term(text, matcher)


def first_term(text: str, matcher: Matcher) -> str | None:
    """The first volatile term in TEXT, known to pass the pre-filter, or None."""
    match = first_match(text, matcher)
    return " ".join(match.group(0).split()) if match else None


def first_match(text: str, matcher: Matcher) -> re.Match[str] | None:
    """Where the first volatile term in TEXT (known to pass the pre-filter) is, or None."""
    return matcher.regex.search(text)
