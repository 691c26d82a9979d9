"""A document's skeleton: where its items, headings and fences lie, and no text
(docs/architecture.md).

The index stores the skeleton of every source. A query re-reads and re-hashes every source
anyway (the staleness check); for a source whose hash is the one its skeleton was stored
with, `rebuild` makes its `Document` from the fresh text and the skeleton, equal to what
`parse_document` returns (property-tested), for a fraction of the cost: no per-line
classification and no regular expression, only the items' lines joined and the headings'
titles cut out of their lines.

A skeleton is a run of little-endian 32-bit integers (one BLOB per source in the index, read
in one piece, no per-item rows): a header (non-blank lines, then the numbers of spans,
headings, fences and metadata lines), then per span (kind, first line, last line, section
line), per heading (level, line, title start, title end), per fence (first line, last line)
and the line of each metadata line.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Mapping
from functools import partial

from project_corpus.corpus.markdown import MAX_ITEM_CHARS
from project_corpus.corpus.markdown import section_paths
from project_corpus.corpus.markdown import split_lines
from project_corpus.corpus.markdown import title_span
from project_corpus.models import Document
from project_corpus.models import Heading
from project_corpus.models import MetaLine
from project_corpus.models import Span

# Bumped whenever the parser may cut the same text differently, or the format changes: an
# index written with another skeleton version (or tool version) is not trusted for skeletons.
SKELETON_VERSION = "1"
KINDS = ("paragraph", "list", "code", "heading", "meta", "comment", "table")
_CODES = {kind: code for code, kind in enumerate(KINDS)}
_HEADER = 5

Skeletons = Mapping[str, tuple[str, bytes]]
"""{source path: (the SHA-256 of the text its skeleton was taken from, the skeleton)}"""


def skeleton_of(doc: Document) -> bytes:
    """The skeleton of a parsed document."""
    numbers = [
        doc.nonblank_lines,
        len(doc.spans),
        len(doc.headings),
        len(doc.fences),
        len(doc.meta),
    ]
    for span in doc.spans:
        numbers += (_CODES[span.kind], span.line_start, span.line_end, span.section_line)
    for heading in doc.headings:
        numbers += (heading.level, heading.line, *title_span(doc.lines[heading.line - 1]))
    for first, last in doc.fences:
        numbers += (first, last)
    numbers += [entry.line for entry in doc.meta]
    packed = array("i", numbers)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def _numbers(skeleton: bytes) -> array[int]:
    numbers = array("i")
    numbers.frombytes(skeleton)
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers


_new = tuple.__new__
_new_span = partial(tuple.__new__, Span)


def rebuild(text: str, skeleton: bytes) -> Document:
    """The document of TEXT, whose skeleton is LAYOUT: `parse_document(text)` without parsing.

    An item's text is its lines joined and stripped, cut to 1,200 characters (only a single
    longer line is ever cut); a metadata line is split at its first colon. A skeleton that
    does not fit TEXT raises ValueError, IndexError or KeyError.
    """
    lines = split_lines(text)
    numbers = _numbers(skeleton)
    nonblank, n_spans, n_headings, n_fences, n_meta = numbers[:_HEADER]
    headings_at = _HEADER + 4 * n_spans
    fences_at = headings_at + 4 * n_headings
    meta_at = fences_at + 2 * n_fences
    if len(numbers) != meta_at + n_meta:
        raise ValueError("the skeleton's counts do not match its length")
    headings = _headings(lines, numbers[headings_at:fences_at])
    paths = {heading.line: path for heading, path in section_paths(headings)}
    paths[0] = ""
    it = iter(numbers[_HEADER:headings_at])
    spans = tuple(
        [
            _new_span(
                (
                    KINDS[kind],
                    start,
                    end,
                    paths[section_line],
                    section_line,
                    "\n".join(lines[start - 1 : end]).strip()[:MAX_ITEM_CHARS],
                )
            )
            for kind, start, end, section_line in zip(it, it, it, it, strict=True)
        ]
    )
    it = iter(numbers[fences_at:meta_at])
    fences = tuple(zip(it, it, strict=True))
    meta = tuple([_meta_line(lines[line - 1], line) for line in numbers[meta_at:]])
    return Document(lines, meta, headings, fences, spans, nonblank)


def _headings(lines: tuple[str, ...], numbers: array[int]) -> tuple[Heading, ...]:
    it = iter(numbers)
    return tuple(
        [
            _new(Heading, (level, lines[line - 1][start:end], line))
            for level, line, start, end in zip(it, it, it, it, strict=True)
        ]
    )


def _meta_line(line: str, number: int) -> MetaLine:
    key, _, value = line.partition(":")
    return _new(MetaLine, (key, value.strip(), number))
