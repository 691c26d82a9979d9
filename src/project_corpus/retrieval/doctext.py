"""The per-document half of the text scan (docs/performance.md, "The warm path"): a document's
folded lines, its context parts (H1 title, section paths, table header rows, list contexts,
folded) and the words a stem prefix finds in them, made from its parsed document alone and
kept by content (SHA-256) in a `TextMemo`.

`scan.TextScan` assembles the corpus-wide view from these pieces: an item's number is its
position in its document shifted by the number of the document's first item, and the pieces
are visited in the order one scan of every document would take (the words in the items'
lines document by document, then those of the cut items, then the contexts: every
document's titles and section paths, then every table header, then every list context), so
the result is that scan's. A long-lived caller (`Workspace`) keeps one memo across snapshots:
after an edit only the changed documents are folded, split into contexts and scanned for a
prefix again. The memo holds the documents of the last analysis only, in memory, never on
disk.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from collections.abc import Container
from collections.abc import Sequence
from typing import NamedTuple

from project_corpus.core.records import Document
from project_corpus.corpus.markdown import MAX_ITEM_CHARS
from project_corpus.corpus.markdown import MAX_PATH_TITLE
from project_corpus.corpus.markdown import section_path_map
from project_corpus.corpus.markdown import span_columns
from project_corpus.retrieval import lists
from project_corpus.retrieval import tables
from project_corpus.retrieval import text as textmod

PREFIX_CACHE = 256  # stem prefixes whose per-document scans a memo keeps
TITLE = -1  # the target of a document's H1 title: every item of the document


Part = tuple[str, Sequence[int]]  # a stem and the items of a context part that holds it
Parts = tuple[list[Part], list[Part], list[Part]]


class DocHits(NamedTuple):
    """What the words starting with one prefix are in one document (`prefixscan` finds them):
    item numbers of the document's items numbered from BASE (shift them by the difference
    when the document's first item has another number)."""

    base: int
    words: dict[str, list[int]]  # {stem: the items whose lines hold it}, in text order
    cut: dict[str, list[int]]  # {stem: the long items whose own (cut) text holds it}
    # (stem, the part's items) the first time the stem is found in a context part, per kind
    # of part (titles and section paths, table headers, list contexts), in text order
    parts: Parts


class DocumentText:
    """What scanning one document needs, made from the document alone (so one serves every
    source with its bytes). Owns its memos (long items, section items)."""

    def __init__(self, doc: Document, serial: int) -> None:
        self.doc = doc
        self.serial = serial  # its memo's count of texts made before it (`TextMemo.hits`)
        # Folded alone: a document of ASCII text folds far faster than a mixed blob.
        self.folded = textmod.fold("\n".join(doc.lines))
        self.columns = span_columns(doc.spans)
        self.paths = section_path_map(doc)  # {section line: section path}
        parts: list[str] = []
        # What each part is the context of: TITLE, a section line, or a run of items.
        self.targets: list[int | range] = []
        self._section_parts(parts)
        tables_at = len(parts)
        self.table_heads = self._table_parts(parts)
        lists_at = len(parts)
        self.list_context = self._list_parts(parts)  # {item: its parent bullet or label}
        self.kinds = (tables_at, lists_at)  # where the table and list parts start
        self.context, self.starts = textmod.fold_joined(parts)
        self.long: dict[int, bool] = {}  # {item: `is_long(item)`}, filled by the scans
        self._sections: dict[int, Sequence[int]] | None = None

    def _section_parts(self, parts: list[str]) -> None:
        """Append the H1 title and the section paths to PARTS."""
        # Cut as a section path's titles are: a long title's words count for every item once.
        heads = self.doc.headings
        title = next((h.title for h in heads if h.level == 1), "")[:MAX_PATH_TITLE]
        if title:
            parts.append(title)
            self.targets.append(TITLE)
        for line, path in self.paths.items():
            if path:
                parts.append(path)
                self.targets.append(line)

    def _table_parts(self, parts: list[str]) -> frozenset[int]:
        """Append each table's header row to PARTS as the context of its data rows
        (docs/retrieval.md, "table header context"); the header rows' items."""
        if "|" not in self.folded:  # no table row (most documents): no call
            return frozenset()
        rows = tables.table_lines(self.folded, (0, len(self.folded) + 1)).get(0, [])
        heads: set[int] = set()
        for table in tables.tables(self.doc.lines, rows, self.columns, 0):
            self.targets.append(range(table.first, table.last + 1))
            parts.append(self.doc.spans[table.head].text)  # cut to 1,200 characters
            heads.add(table.head)
        return frozenset(heads)

    def _list_parts(self, parts: list[str]) -> dict[int, str]:
        """Append each list item's parent bullet or list label to PARTS as its context
        (docs/retrieval.md, "List context"); {item: that context}."""
        found: dict[int, str] = {}
        for first, last, context in lists.list_contexts(self.doc):
            self.targets.append(range(first, last + 1))
            found.update(dict.fromkeys(range(first, last + 1), context))
            parts.append(context)
        return found

    def part_items(self, part: int) -> Sequence[int]:
        """The items context part PART counts for."""
        target = self.targets[part]
        if isinstance(target, range):
            return target
        if target == TITLE:
            return range(len(self.doc.spans))
        if self._sections is None:
            self._sections = _section_items(self.columns[2])
        return self._sections.get(target, ())

    def is_long(self, at: int) -> bool:
        """Whether the lines of item AT are longer than an item's text may be."""
        starts, ends, _ = self.columns
        first, last = starts[at], ends[at]
        lines = self.doc.lines[first - 1 : last]
        return sum(map(len, lines)) + last - first > MAX_ITEM_CHARS


def _section_items(section_lines: Sequence[int]) -> dict[int, Sequence[int]]:
    """{section line: the items in that section} of a document whose items lie in the
    sections SECTION_LINES; one pass (#26, R3-2: counting a section's items anew for each
    word found in its path was quadratic in headings)."""
    found: dict[int, list[int]] = {}
    for at, line in enumerate(section_lines):
        found.setdefault(line, []).append(at)
    # The section's items are a run, unless an H1 line (section line 0) interrupts it.
    return {
        line: range(ats[0], ats[-1] + 1) if ats[-1] - ats[0] + 1 == len(ats) else ats
        for line, ats in found.items()
    }


def shifted(items: Sequence[int], shift: int) -> Sequence[int]:
    """ITEMS, each item number plus SHIFT."""
    if isinstance(items, range):
        return range(items.start + shift, items.stop + shift)
    return [shift + at for at in items]


class PrefixHits(NamedTuple):
    """The documents with words starting with one prefix, scanned up to a memo's serial."""

    upto: int  # every text with a lower serial has been scanned
    hits: dict[str, DocHits]  # {key: its hits}, documents without any left out


class TextMemo:
    """The `DocumentText` of the sources of the last analysis by key (SHA-256 for a long-lived
    caller's memo), and their scans for the last PREFIX_CACHE prefixes (documents with hits
    only). Owns its tables; not thread-safe (a caller serialises its calls, as `Workspace`
    does)."""

    def __init__(self) -> None:
        self.texts: dict[str, DocumentText] = {}
        self.prefixes: dict[str, PrefixHits] = {}
        self._serial = 0
        self.generation = 0  # changed whenever a text is dropped or made (`scan.TextScan`)
        self._made: list[tuple[int, str]] = []  # (serial, key) of the texts, by serial

    def texts_of(self, keys: Sequence[str], docs: Sequence[Document]) -> list[DocumentText]:
        """The texts of DOCS (one per key of KEYS, the same key for the same document), made
        for the keys not seen before; those of other keys are dropped."""
        kept: dict[str, DocumentText] = {}
        for key, doc in zip(keys, docs, strict=True):
            if key not in kept:
                text = self.texts.get(key)
                if text is None:
                    text = DocumentText(doc, self._serial)
                    self._serial += 1
                kept[key] = text
        self.prune(kept)
        if len(kept) != len(self.texts):
            self.generation += 1
        self.texts = kept
        self._made = sorted((text.serial, key) for key, text in kept.items())
        return [kept[key] for key in keys]

    def prune(self, keys: Container[str]) -> None:
        """Keep the texts and scans of KEYS only (the current sources' digests)."""
        gone = [key for key in self.texts if key not in keys]
        for key in gone:
            del self.texts[key]
            for prefix in self.prefixes.values():
                prefix.hits.pop(key, None)
        if gone:
            self.generation += 1
            self._made = [(serial, key) for serial, key in self._made if key in self.texts]

    def hits(
        self, prefix: str, scan: Callable[[list[str]], dict[str, DocHits]]
    ) -> dict[str, DocHits]:
        """{key: hits} of PREFIX in the texts with words starting with it; SCAN gives those of
        the texts of some keys (the others may be left out), asked only for the texts made
        since PREFIX was last scanned."""
        known = self.prefixes.get(prefix)
        if known is None:
            if len(self.prefixes) >= PREFIX_CACHE:
                self.prefixes.clear()
            known = PrefixHits(0, {})
        found, made = known.hits, self._made
        new = made[bisect_left(made, (known.upto, "")) :]
        if new:
            texts = self.texts
            found.update((k, got) for k, got in scan([k for _, k in new]).items() if k in texts)
        self.prefixes[prefix] = PrefixHits(self._serial, found)
        return found
