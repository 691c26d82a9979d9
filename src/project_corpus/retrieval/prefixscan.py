"""The words starting with a stem prefix in some documents' texts (`doctext.DocumentText`),
found by one regular-expression pass over their folded lines joined and one over their
context parts joined, and told apart by document (docs/performance.md).

A pass per document would cost a call per document and prefix (~2 µs each: 2,048 documents
and a dozen prefixes per cold query, +70 % on its search); joined, the regex engine skips
from one occurrence of the prefix to the next across documents.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import NamedTuple

from project_corpus.retrieval import text as textmod
from project_corpus.retrieval.doctext import DocHits
from project_corpus.retrieval.doctext import DocumentText
from project_corpus.retrieval.doctext import Parts
from project_corpus.retrieval.doctext import shifted

Words = tuple[dict[str, list[int]], set[int]]  # {stem: items}, the long items with a match
# Shared by every document with nothing of a kind (most of them: 14,600 documents with hits
# for two dozen prefixes kept ~4 MB of empty tables); read only.
NO_STEMS: dict[str, list[int]] = {}
NO_WORDS: Words = (NO_STEMS, set())
NO_PARTS: Parts = ([], [], [])
_ASCII_DIGITS = "0123456789"  # a version's parts (`text.TOKEN_RE`): not other Unicode digits


class Joined(NamedTuple):
    """Some documents' folded lines joined with `\\n` and their context parts with `\\0`
    (neither character is part of a word), with where each document starts in both."""

    texts: Sequence[DocumentText]
    bases: Sequence[int]  # the number of each document's first item
    blob: str
    blob_at: list[int]  # ends with the blob's length + 1
    context: str
    context_at: list[int]


def joined(texts: Sequence[DocumentText], bases: Sequence[int]) -> Joined:
    """The joined texts of TEXTS, whose first items are numbered BASES."""
    folded = [text.folded for text in texts]
    contexts = [text.context for text in texts]
    return Joined(
        texts,
        bases,
        "\n".join(folded),
        list(accumulate([len(t) + 1 for t in folded], initial=0)),
        "\0".join(contexts),
        list(accumulate([len(t) + 1 for t in contexts], initial=0)),
    )


def prefix_pattern(prefix: str) -> re.Pattern[str]:
    """The words (tokens as `text.TOKEN_RE` cuts them) that start with PREFIX."""
    escaped = re.escape(prefix)
    # Literal-led, so the regex engine skips ahead to each occurrence; the lookbehind
    # after the literal keeps word starts only.
    # A token as `text.TOKEN_RE` cuts it: not inside a version ("2" of "1.2.0", "0" of
    # "net10.0": only an ASCII digit follows a version's dot), and a version whole, with the
    # word it runs on into ("1.2.0rc1").
    inside = rf"(?<![^\W_]\.{escaped})" if prefix[:1] in _ASCII_DIGITS else ""
    return re.compile(rf"{escaped}(?<![^\W_]{escaped}){inside}[^\W_]*(?:\.[0-9]+[^\W_]*)*")


def scan(texts: Joined, prefix: str) -> dict[int, DocHits]:
    """{position in TEXTS: its hits} of the documents with words starting with PREFIX."""
    if not texts.texts:
        return {}
    pattern = prefix_pattern(prefix)
    words = _blob_words(texts, pattern)
    parts = _context_parts(texts, pattern)
    found: dict[int, DocHits] = {}
    for number in sorted(words.keys() | parts.keys()):
        own, long = words.get(number, NO_WORDS)
        base = texts.bases[number]
        cut = _cut_words(texts.texts[number], long, pattern, base) if long else NO_STEMS
        context = parts.get(number, NO_PARTS)
        if own or cut or any(context):
            found[number] = DocHits(base, own or NO_STEMS, cut, context)
    return found


def _blob_words(texts: Joined, pattern: re.Pattern[str]) -> dict[int, Words]:
    """{document: its words} of the matches of PATTERN in the lines of an item, except in
    items whose lines are longer than an item's text may be: those are returned beside.
    One loop, no call per match but the stem's (this is a query's hottest loop)."""
    blob, blob_at, stem = texts.blob, texts.blob_at, textmod.stem
    count = blob.count
    number, next_at, at, line, base = -1, 0, 0, 0, 0
    found: dict[int, Words] = {}
    text = texts.texts[0]
    starts, ends, _ = text.columns
    long: dict[int, bool] = text.long
    words: dict[str, list[int]] = {}
    cut: set[int] = set()
    for match in pattern.finditer(blob):
        offset = match.start()
        if offset >= next_at:  # the next document with a match: count its lines anew
            number = bisect_right(blob_at, offset) - 1
            next_at, at, line = blob_at[number + 1], blob_at[number], 1
            text, base = texts.texts[number], texts.bases[number]
            starts, ends, _ = text.columns
            long, words, cut = text.long, {}, set()
            found[number] = (words, cut)
        line += count("\n", at, offset)
        at = offset
        index = bisect_right(starts, line) - 1
        if index < 0 or line > ends[index]:
            continue  # a line of no item
        is_long = long.get(index)
        if is_long is None:
            is_long = long[index] = text.is_long(index)
        if is_long:
            cut.add(index)
        else:
            words.setdefault(stem(match.group()), []).append(base + index)
    return found


def _cut_words(
    text: DocumentText, long: set[int], pattern: re.Pattern[str], base: int
) -> dict[str, list[int]]:
    """{stem: items from BASE} of the matches of PATTERN in the own (cut) text of the LONG
    items (positions in TEXT)."""
    found: dict[str, list[int]] = {}
    for at in sorted(long):
        for word in pattern.findall(textmod.fold(text.doc.spans[at].text)):
            found.setdefault(textmod.stem(word), []).append(base + at)
    return found


def _context_parts(texts: Joined, pattern: re.Pattern[str]) -> dict[int, Parts]:
    """{document: (stem, part) of each word PATTERN finds in a context part of it, once per
    part, by kind of part}."""
    context_at = texts.context_at
    found: dict[int, Parts] = {}
    next_at = at = base = tables_at = lists_at = 0
    starts: Sequence[int] = ()
    parts: Parts = ([], [], [])
    seen: set[tuple[str, int]] = set()  # a word repeated in one part counts once
    for match in pattern.finditer(texts.context):
        offset = match.start()
        if offset >= next_at:
            number = bisect_right(context_at, offset) - 1
            at, next_at = context_at[number], context_at[number + 1]
            text, base = texts.texts[number], texts.bases[number]
            starts, (tables_at, lists_at) = text.starts, text.kinds
            parts = found[number] = ([], [], [])
            seen = set()
        part = bisect_right(starts, offset - at) - 1
        key = (textmod.stem(match.group()), part)
        if key not in seen:
            seen.add(key)
            items = shifted(text.part_items(part), base)
            parts[(part >= tables_at) + (part >= lists_at)].append((key[0], items))
    return found
