"""Where a query's words are: the items whose words start with a stem prefix, found by
scanning the folded text of every source (docs/performance.md).

An item's words are those of its text, of its section path and of its document's H1 title
(docs/retrieval.md), plus a table data row's header row and a list item's parent bullet or
list label. Instead of joining and folding 40,000 item texts with their contexts, each
document's lines are folded once and a word's offset is mapped to its line (newlines counted
from the previous word) and to the item whose lines hold it (bisect over the items' first
lines); section paths, titles and the other contexts are folded once per document, and a
word found there counts for every item they are the context of. An item whose lines are
longer than its text may be (a single line over 1,200 characters is cut) is scanned again in
its own text, so a word cut off or beyond the cut is never counted. The per-document pieces
and scans are `doctext`'s, kept by content in a `TextMemo`; this module assembles them into
item numbers over all sources. The result is what scanning each item's text and contexts
would give; a property test compares both.
"""

from __future__ import annotations

from functools import partial
from operator import itemgetter

from project_corpus.corpus.items import LazyItems
from project_corpus.retrieval import prefixscan
from project_corpus.retrieval import text as textmod
from project_corpus.retrieval.doctext import DocHits
from project_corpus.retrieval.doctext import TextMemo
from project_corpus.retrieval.doctext import shifted
from project_corpus.retrieval.prefixscan import Joined
from project_corpus.retrieval.prefixscan import joined


class TextScan:
    """The folded text of some sources' items, scanned for word prefixes. MEMO, when given, is
    a long-lived caller's (`Workspace`): the pieces of documents it has seen are reused."""

    def __init__(self, items: LazyItems, memo: TextMemo | None = None) -> None:
        self.items = items
        sources = items.sources
        if memo is None:  # one scan: its texts by position (sources may be made by hand)
            self.memo, self.keys = TextMemo(), [str(number) for number in range(len(sources))]
        else:  # the same bytes parse to the same document (`corpus.memo.SnapshotMemo`)
            self.memo, self.keys = memo, [source.sha256 for source in sources]
        self._all: Joined | None = None  # every text joined, made for the first scan of all
        self._attach()
        self._where: dict[str, list[int]] = {}  # {key: the numbers of its documents}
        for number, key in enumerate(self.keys):
            self._where.setdefault(key, []).append(number)
        self.columns = [text.columns for text in self.texts]
        starts = zip(items.bases, self.texts, strict=False)  # bases: one more, the end
        self.table_heads: set[int] = set()
        # {item index: its parent bullet's or list label's text}, also read as its context
        self.list_context: dict[int, str] = {}
        for base, text in starts:
            self.table_heads.update([base + at for at in text.table_heads])
            if text.list_context:
                self.list_context.update({base + at: c for at, c in text.list_context.items()})
        # {stem: in how many places it is written: the items whose own text holds it, plus the
        # documents whose headings, table headers or list labels hold it}: IDF's document
        # frequency, not inflated by a heading word spreading to every item of its section
        self.written: dict[str, int] = {}

    def _attach(self) -> None:
        """Take this scan's texts from the memo (made for the documents it has not seen)."""
        self.texts = self.memo.texts_of(self.keys, [source.doc for source in self.items.sources])
        self._generation = self.memo.generation
        self._all = None

    def section_paths(self, number: int) -> dict[int, str]:
        """{section line: section path} of document NUMBER."""
        return self.texts[number].paths

    def stems(self, prefix: str) -> dict[str, list[int]]:
        """{stem: the items holding a word with that stem} for the words starting with PREFIX
        (an item may be listed more than once), in the order one pass over all documents
        finds them (`doctext`)."""
        if self.memo.generation != self._generation:  # the memo moved on to another corpus
            self._attach()
        live = self._live(self.memo.hits(prefix, partial(self._scan, prefix)))
        found: dict[str, list[int]] = {}
        for _, base, got in live:  # the words in the items' lines
            _add(found, got.words, base - got.base)
        for _, base, got in live:  # the words of long items, in their own (cut) text
            _add(found, got.cut, base - got.base)
        places = {stem: len(set(indexes)) for stem, indexes in found.items()}
        contexts = self._add_contexts(found, live)
        for stem in found:
            # Complete only for the stems whose every token starts with PREFIX.
            if textmod.stem_prefix(stem).startswith(prefix):
                self.written[stem] = places.get(stem, 0) + len(contexts.get(stem, ()))
        return found

    def _add_contexts(
        self, found: dict[str, list[int]], live: list[tuple[int, int, DocHits]]
    ) -> dict[str, set[int]]:
        """Add the items of each context part holding a stem to FOUND, kind by kind (titles
        and section paths, table headers, list contexts); {stem: the documents of those parts}."""
        contexts: dict[str, set[int]] = {}
        for kind in range(3):
            for number, base, got in live:
                shift = base - got.base
                for stem, items in got.parts[kind]:
                    found.setdefault(stem, []).extend(shifted(items, shift) if shift else items)
                    contexts.setdefault(stem, set()).add(number)
        return contexts

    def _scan(self, prefix: str, keys: list[str]) -> dict[str, DocHits]:
        """{key: hits} of PREFIX in the texts of KEYS (and maybe others): one pass over every
        text when they are many, else over theirs."""
        if 4 * len(keys) >= len(self.keys):
            if self._all is None:
                self._all = joined(self.texts, self.items.bases)
            return {self.keys[n]: got for n, got in prefixscan.scan(self._all, prefix).items()}
        numbers = [self._where[key][0] for key in keys]
        texts = joined([self.texts[n] for n in numbers], [self.items.bases[n] for n in numbers])
        return {keys[n]: got for n, got in prefixscan.scan(texts, prefix).items()}

    def _live(self, hits: dict[str, DocHits]) -> list[tuple[int, int, DocHits]]:
        """(document number, its first item, its HITS) of the documents with hits, in order."""
        bases, where = self.items.bases, self._where
        live = [
            (number, bases[number], got)
            for key, got in hits.items()
            for number in where.get(key, ())
        ]
        live.sort(key=itemgetter(0))
        return live


def _add(found: dict[str, list[int]], words: dict[str, list[int]], shift: int) -> None:
    """Add WORDS ({stem: items}) to FOUND, each item number plus SHIFT."""
    for stem, ats in words.items():
        found.setdefault(stem, []).extend([shift + at for at in ats] if shift else ats)
