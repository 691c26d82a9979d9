"""Cutting sources into items with provenance (SPEC §3). Pure functions."""

from __future__ import annotations

from project_corpus.models import Block
from project_corpus.models import Item
from project_corpus.models import Source

MAX_ITEM_CHARS = 1200


def make_item(source: Source, text: str, span: tuple[int, int], block: Block) -> Item:
    """An item of SOURCE: TEXT over the lines SPAN, in BLOCK's section, of BLOCK's kind."""
    return Item(
        source.project_id,
        text,
        source.path,
        source.sha256,
        source.source_type,
        source.authority_class,
        source.temporal_status,
        source.timestamp,
        block.section,
        block.section_line,
        span[0],
        span[1],
        block.kind,
    )


def source_items(source: Source) -> list[Item]:
    """The items of one source, in line order."""
    lines = source.doc.lines
    return [
        make_item(source, text, (start, end), block)
        for block in source.doc.blocks
        for start, end, text in _spans(block, lines)
    ]


def _spans(block: Block, lines: tuple[str, ...]) -> list[tuple[int, int, str]]:
    """Split a block at line boundaries so that no item exceeds 1,200 characters; a single
    longer line is one item whose text is cut to 1,200 characters."""
    if block.line_start == block.line_end or block.kind == "meta":
        text = lines[block.line_start - 1].strip()[:MAX_ITEM_CHARS]
        return [(block.line_start, block.line_end, text)] if text else []
    whole = _span(block.line_start, block.line_end, lines)
    if len(whole[2]) < MAX_ITEM_CHARS:
        return [whole]
    spans = []
    start = block.line_start
    length = 0
    for number in range(block.line_start, block.line_end + 1):
        added = len(lines[number - 1]) + (1 if number > start else 0)
        if number > start and length + added > MAX_ITEM_CHARS:
            spans.append(_span(start, number - 1, lines))
            start, length = number, len(lines[number - 1])
        else:
            length += added
    spans.append(_span(start, block.line_end, lines))
    return [span for span in spans if span[2]]


def _span(start: int, end: int, lines: tuple[str, ...]) -> tuple[int, int, str]:
    text = "\n".join(lines[start - 1 : end]).strip()
    return start, end, text[:MAX_ITEM_CHARS]
