"""Where a query's words are: the items whose words start with a stem prefix, found by one
scan of the folded text of every source (docs/performance.md).

An item's words are those of its text, of its section path and of its document's H1 title
(docs/retrieval.md). Instead of joining and folding 40,000 item texts, each with its section
path and title, the scan folds the sources' lines once (`blob`) and maps a word's offset to
its document (bisect), its line (newlines counted from the previous word) and the item whose
lines hold it (bisect over the items' first lines); section paths and titles
are folded once per heading and document (`context`), and a word found there counts for every
item of that section or document. An item whose lines are longer than its text may be (a
single line over 1,200 characters is cut) is scanned again in its own text, so a word cut off
or beyond the cut is never counted. The result is what scanning each item's text, section and
title would give; a property test compares both.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from project_corpus.core.records import Document
from project_corpus.corpus.items import LazyItems
from project_corpus.corpus.markdown import MAX_ITEM_CHARS
from project_corpus.corpus.markdown import MAX_PATH_TITLE
from project_corpus.corpus.markdown import section_path_map
from project_corpus.corpus.markdown import span_columns
from project_corpus.retrieval import lists
from project_corpus.retrieval import tables
from project_corpus.retrieval import text as textmod

_ASCII_DIGITS = "0123456789"  # a version's parts (`text.TOKEN_RE`): not other Unicode digits


class TextScan:
    """The folded text of some sources' items, scanned for word prefixes."""

    def __init__(self, items: LazyItems) -> None:
        self.items = items
        docs = [source.doc for source in items.sources]
        # Folded one document at a time: a document of ASCII text folds far faster alone.
        folded = [textmod.fold("\n".join(doc.lines)) for doc in docs]
        self.blob = "\n".join(folded)
        # Where each document starts in the blob (folding may lengthen a text: `ß` -> `ss`).
        self.doc_at = list(accumulate([len(text) + 1 for text in folded], initial=0))
        self.columns = [span_columns(doc.spans) for doc in docs]
        self._long: dict[int, bool] = {}
        self._paths: dict[int, dict[int, str]] = {}
        self._sections: dict[int, dict[int, Sequence[int]]] = {}  # see `_context_items`
        # (document, section line, or -1 for its title, -2 for a table header: see `rows`)
        self.contexts: list[tuple[int, int]] = []
        parts: list[str] = []
        for number, doc in enumerate(docs):
            _context(doc, number, parts, self.contexts)
        self.rows: dict[int, range] = {}  # context number: the data rows of a table header
        self.table_heads = self._table_headers(docs, parts)
        # {item index: its parent bullet's or list label's text}, also read as its context
        self.list_context: dict[int, str] = {}
        # {stem: in how many places it is written: the items whose own text holds it, plus the
        # documents whose headings, table headers or list labels hold it}: IDF's document
        # frequency, not inflated by a heading word spreading to every item of its section
        self.written: dict[str, int] = {}
        self._list_contexts(docs, parts)
        self.context, self.context_starts = textmod.fold_joined(parts)

    def section_paths(self, number: int) -> dict[int, str]:
        """{section line: section path} of document NUMBER (made once)."""
        paths = self._paths.get(number)
        if paths is None:
            paths = self._paths[number] = section_path_map(self.items.sources[number].doc)
        return paths

    def _table_headers(self, docs: list[Document], parts: list[str]) -> set[int]:
        """Append each table's header row to PARTS as the context of its data rows
        (docs/retrieval.md, "table header context"); the header rows' items."""
        heads: set[int] = set()
        for number, rows in tables.table_lines(self.blob, self.doc_at).items():
            doc, base = docs[number], self.items.bases[number]
            for table in tables.tables(doc.lines, rows, self.columns[number], number):
                self.rows[len(parts)] = range(base + table.first, base + table.last + 1)
                parts.append(doc.spans[table.head].text)  # cut to 1,200 characters
                self.contexts.append((number, -2))
                heads.add(base + table.head)
        return heads

    def _list_contexts(self, docs: list[Document], parts: list[str]) -> None:
        """Append each list item's parent bullet or list label to PARTS as its context
        (docs/retrieval.md, "List context")."""
        for number, doc in enumerate(docs):
            base = self.items.bases[number]
            for first, last, context in lists.list_contexts(doc):
                self.rows[len(parts)] = range(base + first, base + last + 1)
                for at in range(first, last + 1):
                    self.list_context[base + at] = context
                parts.append(context)
                self.contexts.append((number, -2))

    def stems(self, prefix: str) -> dict[str, list[int]]:
        """{stem: the items holding a word with that stem} for the words starting with PREFIX
        (an item may be listed more than once)."""
        escaped = re.escape(prefix)
        # Literal-led, so the regex engine skips ahead to each occurrence; the lookbehind
        # after the literal keeps word starts only.
        # A token as `text.TOKEN_RE` cuts it: not inside a version ("2" of "1.2.0", "0" of
        # "net10.0"; only a digit follows a version's dot), and a version whole.
        inside = rf"(?<![^\W_]\.{escaped})" if prefix[:1] in _ASCII_DIGITS else ""
        pattern = re.compile(rf"{escaped}(?<![^\W_]{escaped}){inside}[^\W_]*(?:\.[0-9]+[^\W_]*)*")
        found: dict[str, list[int]] = {}
        long = self._blob_words(pattern, found)
        for index in sorted(long):  # its text may be cut: scanned in its own text
            for word in pattern.findall(textmod.fold(self.items.span(index).text)):
                found.setdefault(textmod.stem(word), []).append(index)
        places = {stem: len(set(indexes)) for stem, indexes in found.items()}
        rows = self.rows
        contexts: dict[str, set[int]] = {}
        seen: set[tuple[str, int]] = set()  # a word repeated in one context adds its items once
        for match in pattern.finditer(self.context):
            at = bisect_right(self.context_starts, match.start()) - 1
            stem = textmod.stem(match.group())
            if (stem, at) in seen:
                continue
            seen.add((stem, at))
            words = found.setdefault(stem, [])
            words.extend(rows[at] if at in rows else self._context_items(*self.contexts[at]))
            contexts.setdefault(stem, set()).add(self.contexts[at][0])
        for stem in found:
            # Complete only for the stems whose every token starts with PREFIX.
            if textmod.stem_prefix(stem).startswith(prefix):
                self.written[stem] = places.get(stem, 0) + len(contexts.get(stem, ()))
        return found

    def _blob_words(self, pattern: re.Pattern[str], found: dict[str, list[int]]) -> set[int]:
        """Add each match of PATTERN in the lines of an item to FOUND ({stem: item indexes}),
        except in items whose lines are longer than an item's text may be: those are returned.
        One loop, no call per match but the stem's (this is a query's hottest loop)."""
        blob, doc_at, bases, stem, long = (
            self.blob,
            self.doc_at,
            self.items.bases,
            textmod.stem,
            self._long,
        )
        count = blob.count
        number, next_at, at, line, base = -1, 0, 0, 0, 0
        starts: Sequence[int] = ()
        ends: Sequence[int] = ()
        cut: set[int] = set()
        for match in pattern.finditer(blob):
            offset = match.start()
            if offset >= next_at:  # the next document with a match: count its lines anew
                number = bisect_right(doc_at, offset) - 1
                next_at, at, line, base = doc_at[number + 1], doc_at[number], 1, bases[number]
                starts, ends, _ = self.columns[number]
            line += count("\n", at, offset)
            at = offset
            index = bisect_right(starts, line) - 1
            if index < 0 or line > ends[index]:
                continue  # a line of no item
            index += base
            is_long = long.get(index)
            if is_long is None:
                is_long = long[index] = self._is_long(number, index - base)
            if is_long:
                cut.add(index)
            else:
                found.setdefault(stem(match.group()), []).append(index)
        return cut

    def _is_long(self, number: int, at: int) -> bool:
        """Whether the lines of item AT of document NUMBER are longer than an item's text may
        be."""
        starts, ends, _ = self.columns[number]
        first, last = starts[at], ends[at]
        lines = self.items.sources[number].doc.lines[first - 1 : last]
        return sum(map(len, lines)) + last - first > MAX_ITEM_CHARS

    def _context_items(self, number: int, section_line: int) -> Sequence[int]:
        """The items of document NUMBER in the section opened at SECTION_LINE (all of its
        items for -1, its title)."""
        base = self.items.bases[number]
        if section_line < 0:
            return range(base, self.items.bases[number + 1])
        sections = self._sections.get(number)
        if sections is None:
            sections = self._sections[number] = _section_items(self.columns[number][2], base)
        return sections.get(section_line, ())


def _section_items(section_lines: Sequence[int], base: int) -> dict[int, Sequence[int]]:
    """{section line: the items in that section} of a document whose first item is BASE and
    whose items lie in the sections SECTION_LINES; one pass (#26, R3-2: counting a
    section's items anew for each word found in its path was quadratic in headings)."""
    found: dict[int, list[int]] = {}
    for at, line in enumerate(section_lines, base):
        found.setdefault(line, []).append(at)
    # The section's items are a run, unless an H1 line (section line 0) interrupts it.
    return {
        line: range(ats[0], ats[-1] + 1) if ats[-1] - ats[0] + 1 == len(ats) else ats
        for line, ats in found.items()
    }


def _context(doc: Document, number: int, parts: list[str], where: list[tuple[int, int]]) -> None:
    """Append the H1 title and the section paths of DOC (document NUMBER) to PARTS, and what
    each one is to WHERE."""
    # Cut as a section path's titles are: a long title's words count for every item once.
    title = next((h.title for h in doc.headings if h.level == 1), "")[:MAX_PATH_TITLE]
    if title:
        parts.append(title)
        where.append((number, -1))
    for line, path in section_path_map(doc).items():
        if path:
            parts.append(path)
            where.append((number, line))
