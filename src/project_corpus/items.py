"""Items with provenance (SPEC §3): a document's spans plus the facts of its source."""

from __future__ import annotations

from project_corpus.markdown import MAX_ITEM_CHARS
from project_corpus.models import Item
from project_corpus.models import Source
from project_corpus.models import Span

__all__ = ["MAX_ITEM_CHARS", "make_item", "source_items"]


def make_item(source: Source, span: Span) -> Item:
    """The item of SOURCE at SPAN."""
    return Item(
        source.project_id,
        span.text,
        source.path,
        source.sha256,
        source.source_type,
        source.authority_class,
        source.temporal_status,
        source.timestamp,
        span.section,
        span.section_line,
        span.line_start,
        span.line_end,
        span.kind,
    )


def source_items(source: Source) -> list[Item]:
    """The items of one source, in line order."""
    return [make_item(source, span) for span in source.doc.spans]
