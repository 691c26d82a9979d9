"""Items with provenance (SPEC §3): a document's spans plus the facts of its source."""

from __future__ import annotations

from collections.abc import Iterable

from project_corpus.corpus.markdown import MAX_ITEM_CHARS
from project_corpus.models import Corpus
from project_corpus.models import Item
from project_corpus.models import Source
from project_corpus.models import Span

__all__ = ["MAX_ITEM_CHARS", "corpus_items", "make_item", "source_items"]


def make_item(source: Source, span: Span) -> Item:
    """The item of SOURCE at SPAN."""
    return _items(source, (span,))[0]


def corpus_items(corpus: Corpus) -> list[Item]:
    """The items of every source of CORPUS (foreign included: retrieval filters by project)."""
    return [item for src in corpus.sources for item in source_items(src)]


def source_items(source: Source) -> list[Item]:
    """The items of one source, in line order."""
    return _items(source, source.doc.spans)


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
