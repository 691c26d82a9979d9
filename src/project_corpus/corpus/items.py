"""Items with provenance (docs/retrieval.md): a document's spans plus the facts of its source."""

from __future__ import annotations

from collections.abc import Iterable

from project_corpus.corpus.markdown import MAX_ITEM_CHARS
from project_corpus.models import Corpus
from project_corpus.models import Item
from project_corpus.models import Source
from project_corpus.models import Span

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

    A query over a maximum corpus ranks 40,000 items and returns a hundred: it reads the
    spans (`spans`, one flat list) and makes `Item`s only for its results (saves ~10 % of a
    query's time). Owns its memo of made items.
    """

    def __init__(self, sources: Iterable[Source]) -> None:
        self.owners: list[Source] = []
        self.spans: list[Span] = []
        for source in sources:
            self.owners += [source] * len(source.doc.spans)
            self.spans += source.doc.spans
        self._made: dict[int, Item] = {}

    def __len__(self) -> int:
        return len(self.spans)

    def __getitem__(self, index: int) -> Item:
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = _items(self.owners[index], (self.spans[index],))[0]
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
