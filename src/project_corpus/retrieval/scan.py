"""Where a query's words are: the items whose words start with a stem prefix, found by one
scan of the folded text of every source (docs/performance.md).

An item's words are those of its text, of its section path and of its document's H1 title
(docs/retrieval.md). Instead of joining and folding 40,000 item texts, each with its section
path and title, the scan folds the sources' lines once (`blob`) and maps a word's offset to
the item whose lines hold it (bisect over the items' first offsets); section paths and titles
are folded once per heading and document (`context`), and a word found there counts for every
item of that section or document. An item whose lines are longer than its text may be (a
single line over 1,200 characters is cut) is scanned again in its own text, so a word cut off
or beyond the cut is never counted. The result is what scanning each item's text, section and
title would give; a property test compares both.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from collections.abc import Sequence
from itertools import accumulate
from itertools import chain

from project_corpus.corpus.items import LazyItems
from project_corpus.corpus.markdown import MAX_ITEM_CHARS
from project_corpus.corpus.skeleton import section_path_map
from project_corpus.corpus.skeleton import span_columns
from project_corpus.models import Document
from project_corpus.retrieval import text as textmod


class TextScan:
    """The folded text of some sources' items, scanned for word prefixes."""

    def __init__(self, items: LazyItems) -> None:
        self.items = items
        docs = [source.doc for source in items.sources]
        raw = "\n".join(chain.from_iterable(doc.lines for doc in docs))
        self.blob = textmod.fold(raw)
        if len(self.blob) == len(raw):
            sizes = [sum(map(len, doc.lines)) + len(doc.lines) for doc in docs]
        else:  # a character folded to several: the offsets of the folded lines
            sizes = [sum(map(len, map(textmod.fold, doc.lines))) + len(doc.lines) for doc in docs]
        self.doc_at = list(accumulate(sizes, initial=0))  # where each document starts
        self.columns = [span_columns(doc.spans) for doc in docs]
        self._long: dict[int, bool] = {}
        self.contexts: list[tuple[int, int]] = []  # (document, section line or -1 for its title)
        parts: list[str] = []
        for number, doc in enumerate(docs):
            _context(doc, number, parts, self.contexts)
        self.context, self.context_starts = textmod.fold_joined(parts)

    def stems(self, prefix: str) -> dict[str, list[int]]:
        """{stem: the items holding a word with that stem} for the words starting with PREFIX
        (an item may be listed more than once)."""
        escaped = re.escape(prefix)
        # Literal-led, so the regex engine skips ahead to each occurrence; the lookbehind
        # after the literal keeps word starts only.
        pattern = re.compile(rf"{escaped}(?<![^\W_]{escaped})[^\W_]*")
        found: dict[str, list[int]] = {}
        long: set[int] = set()
        for word, index in self._blob_words(pattern):
            if self._is_long(index):
                long.add(index)  # its text may be cut: scanned in its own text below
            else:
                found.setdefault(word, []).append(index)
        for index in sorted(long):
            for word in pattern.findall(textmod.fold(self.items.span(index).text)):
                found.setdefault(textmod.stem(word), []).append(index)
        for match in pattern.finditer(self.context):
            where = self.contexts[bisect_right(self.context_starts, match.start()) - 1]
            words = found.setdefault(textmod.stem(match.group()), [])
            words.extend(self._context_items(*where))
        return found

    def _blob_words(self, pattern: re.Pattern[str]) -> Iterator[tuple[str, int]]:
        """(stem, item index) of each match of PATTERN in the lines of an item."""
        blob, doc_at, bases, stem = self.blob, self.doc_at, self.items.bases, textmod.stem
        number, next_at, at, line = -1, 0, 0, 0
        starts: Sequence[int] = ()
        ends: Sequence[int] = ()
        for match in pattern.finditer(blob):
            offset = match.start()
            if offset >= next_at:  # the next document with a match: count its lines anew
                number = bisect_right(doc_at, offset) - 1
                next_at, at, line = doc_at[number + 1], doc_at[number], 1
                starts, ends, _ = self.columns[number]
            line += blob.count("\n", at, offset)
            at = offset
            index = bisect_right(starts, line) - 1
            if index >= 0 and line <= ends[index]:  # else a line of no item
                yield stem(match.group()), bases[number] + index

    def _is_long(self, index: int) -> bool:
        """Whether the lines of item INDEX are longer than an item's text may be."""
        long = self._long.get(index)
        if long is None:
            source, at = self.items.locate(index)
            starts, ends, _ = self.columns[bisect_right(self.items.bases, index) - 1]
            first, last = starts[at], ends[at]
            size = sum(map(len, source.doc.lines[first - 1 : last])) + last - first
            long = self._long[index] = size > MAX_ITEM_CHARS
        return long

    def _context_items(self, number: int, section_line: int) -> Sequence[int]:
        """The items of document NUMBER in the section opened at SECTION_LINE (all of its
        items for -1, its title)."""
        base = self.items.bases[number]
        spans = self.items.sources[number].doc.spans
        if section_line < 0:
            return range(base, base + len(spans))
        lines = span_columns(spans)[2]
        return [base + i for i, line in enumerate(lines) if line == section_line]


def _context(doc: Document, number: int, parts: list[str], where: list[tuple[int, int]]) -> None:
    """Append the H1 title and the section paths of DOC (document NUMBER) to PARTS, and what
    each one is to WHERE."""
    title = next((h.title for h in doc.headings if h.level == 1), "")
    if title:
        parts.append(title)
        where.append((number, -1))
    for line, path in section_path_map(doc).items():
        if path:
            parts.append(path)
            where.append((number, line))
