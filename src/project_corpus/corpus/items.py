"""Items with provenance (docs/retrieval.md): a document's spans plus the facts of its source."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from functools import partial
from itertools import accumulate
from itertools import groupby

from project_corpus.core.records import Corpus
from project_corpus.core.records import Item
from project_corpus.core.records import Source
from project_corpus.core.records import Span
from project_corpus.corpus.markdown import MAX_ITEM_CHARS

__all__ = ["MAX_ITEM_CHARS", "LazyItems", "corpus_items", "make_item", "source_items"]


def make_item(source: Source, span: Span) -> Item:
    """The item of SOURCE at SPAN."""
    return _items(source, (span,))[0]


def corpus_items(corpus: Corpus) -> list[Item]:
    """The items of every source of CORPUS (foreign included: retrieval filters by project)."""
    return [item for src in corpus.sources for item in source_items(src)]


def source_items(source: Source) -> list[Item]:
    """The items of one source, in line order."""
    return _items(source, source.doc.spans)


class LazyItems:
    """The items of some sources in order, each made when first asked for.

    A query over a maximum corpus ranks 40,000 items and returns a hundred: it reads a few
    spans (`span`) and makes `Item`s only for its results. `bases[k]` is the index of the
    first item of `sources[k]`. Owns its memo of made items.
    """

    def __init__(self, sources: Iterable[Source]) -> None:
        self.sources = list(sources)
        self.bases = list(accumulate((len(s.doc.spans) for s in self.sources), initial=0))
        self._made: dict[int, Item] = {}

    def __len__(self) -> int:
        return self.bases[-1]

    def locate(self, index: int) -> tuple[Source, int]:
        """The source of item INDEX and the item's index among the source's spans."""
        if not 0 <= index < self.bases[-1]:
            raise IndexError("item index out of range")
        number = bisect_right(self.bases, index) - 1
        return self.sources[number], index - self.bases[number]

    def owner(self, index: int) -> Source:
        return self.locate(index)[0]

    def span(self, index: int) -> Span:
        source, at = self.locate(index)
        return source.doc.spans[at]

    def prefetch(self, indexes: Iterable[int]) -> None:
        """Make the items of INDEXES now, a source at a time (a query's candidates: thousands
        of them, without a call per item)."""
        made, bases, sources = self._made, self.bases, self.sources
        todo = sorted(index for index in indexes if index not in made)
        if todo and not 0 <= todo[0] <= todo[-1] < bases[-1]:
            raise IndexError("item index out of range")
        for number, group in groupby(todo, key=partial(bisect_right, bases)):
            source, base = sources[number - 1], bases[number - 1]
            wanted = list(group)
            spans = source.doc.spans
            made.update(zip(wanted, _items(source, [spans[i - base] for i in wanted]), strict=True))

    def __getitem__(self, index: int) -> Item:
        made = self._made.get(index)
        if made is None:
            source, at = self.locate(index)
            made = self._made[index] = _items(source, (source.doc.spans[at],))[0]
        return made


def _items(source: Source, spans: Iterable[Span]) -> list[Item]:
    # Made like `Item._make`, without its Python frame: this runs once per item of a corpus.
    new = tuple.__new__
    pid, path, sha = source.project_id, source.path, source.sha256
    type_, authority, temporal = source.source_type, source.authority_class, source.temporal_status
    stamp = source.timestamp
    return [
        new(
            Item,
            (
                pid,
                text,
                path,
                sha,
                type_,
                authority,
                temporal,
                stamp,
                section,
                section_line,
                start,
                end,
                kind,
            ),
        )
        for kind, start, end, section, section_line, text in spans
    ]
