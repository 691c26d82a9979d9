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
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from functools import partial
from typing import overload

from project_corpus.core.records import Document
from project_corpus.core.records import Heading
from project_corpus.core.records import MetaLine
from project_corpus.core.records import Span
from project_corpus.corpus.markdown import MAX_ITEM_CHARS
from project_corpus.corpus.markdown import section_paths
from project_corpus.corpus.markdown import split_lines
from project_corpus.corpus.markdown import title_span

# Bumped whenever the parser may cut the same text differently, or the format changes: an
# index written with another skeleton version (or tool version) is not trusted for skeletons.
KINDS = ("paragraph", "list", "code", "heading", "meta", "comment", "table")
_CODES = {kind: code for code, kind in enumerate(KINDS)}
_HEADER = 5

Skeletons = Mapping[str, tuple[str, bytes]]
"""{source path: (the SHA-256 of the text its skeleton was taken from, the skeleton)}"""


def skeleton_of(doc: Document) -> bytes:
    """The skeleton of a parsed (or rebuilt) document."""
    packed = array(
        "i", [doc.nonblank_lines, len(doc.spans), len(doc.headings), len(doc.fences), len(doc.meta)]
    )
    if isinstance(doc.spans, SkeletonSpans):  # a rebuild: its span rows, no span made
        packed += doc.spans.rows()
    else:
        rows: list[int] = []
        for span in doc.spans:
            rows += (_CODES[span.kind], span.line_start, span.line_end, span.section_line)
        packed.extend(rows)
    numbers: list[int] = []
    for heading in doc.headings:
        numbers += (heading.level, heading.line, *title_span(doc.lines[heading.line - 1]))
    for first, last in doc.fences:
        numbers += (first, last)
    numbers += [entry.line for entry in doc.meta]
    packed.extend(numbers)
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


class SkeletonSpans(Sequence[Span]):
    """A rebuilt document's spans, each made when read (a query reads a few thousand of a
    corpus's 40,000: their texts are never joined otherwise). Equal to the tuple of the same
    spans; `columns` gives the line numbers without making any span."""

    __slots__ = ("_all", "_lines", "_numbers", "_paths")

    def __init__(self, lines: tuple[str, ...], numbers: array[int], paths: dict[int, str]) -> None:
        self._lines, self._numbers, self._paths = lines, numbers, paths
        self._all: tuple[Span, ...] | None = None

    def __len__(self) -> int:
        return len(self._numbers) // 4

    @overload
    def __getitem__(self, index: int) -> Span: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Span, ...]: ...

    def __getitem__(self, index: int | slice) -> Span | tuple[Span, ...]:
        if isinstance(index, slice) or self._all is not None:
            return self.spans()[index]
        at = 4 * range(len(self._numbers) // 4)[index]  # IndexError as a tuple's, negatives too
        return self._span(*self._numbers[at : at + 4])

    def __iter__(self) -> Iterator[Span]:
        return iter(self.spans())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, SkeletonSpans)):
            return self.spans() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:  # the tuple's: a rebuilt document hashes as the parsed one
        return hash(self.spans())

    def __repr__(self) -> str:
        return repr(self.spans())

    def spans(self) -> tuple[Span, ...]:
        """Every span, made once."""
        if self._all is None:
            it = iter(self._numbers)
            self._all = tuple([self._span(*row) for row in zip(it, it, it, it, strict=True)])
        return self._all

    def _span(self, kind: int, start: int, end: int, section_line: int) -> Span:
        text = "\n".join(self._lines[start - 1 : end]).strip()[:MAX_ITEM_CHARS]
        return _new_span((KINDS[kind], start, end, self._paths[section_line], section_line, text))

    def texts(self) -> list[str]:
        """The spans' texts, without making the spans (those made already are reused)."""
        if self._all is not None:
            return [span.text for span in self._all]
        lines, join, numbers = self._lines, "\n".join, self._numbers
        bounds = zip(numbers[1::4], numbers[2::4], strict=True)
        return [join(lines[a - 1 : b]).strip()[:MAX_ITEM_CHARS] for a, b in bounds]

    @property
    def paths(self) -> dict[int, str]:
        """{section line: section path} of the document (0: "")."""
        return self._paths

    def rows(self) -> array[int]:
        """(kind, first line, last line, section line) of every span, as the skeleton has
        them."""
        return self._numbers

    def columns(self) -> SpanColumns:
        """(first lines, last lines, section lines) of the spans."""
        numbers = self._numbers
        return numbers[1::4], numbers[2::4], numbers[3::4]


SpanColumns = tuple[Sequence[int], Sequence[int], Sequence[int]]


def span_columns(spans: Sequence[Span]) -> SpanColumns:
    """(first lines, last lines, section lines) of SPANS, without making a lazy span."""
    if isinstance(spans, SkeletonSpans):
        return spans.columns()
    return [s[1] for s in spans], [s[2] for s in spans], [s[4] for s in spans]


def span_texts(spans: Sequence[Span]) -> list[str]:
    """The texts of SPANS, without making a lazy span."""
    if isinstance(spans, SkeletonSpans):
        return spans.texts()
    return [s[5] for s in spans]


def section_path_map(doc: Document) -> dict[int, str]:
    """{line of each heading of level 2 or deeper: the section path it opens} (and maybe
    0: "")."""
    if isinstance(doc.spans, SkeletonSpans):
        return doc.spans.paths
    return {heading.line: path for heading, path in section_paths(doc.headings)}


def rebuild(text: str, skeleton: bytes) -> Document:
    """The document of TEXT, whose skeleton is LAYOUT: `parse_document(text)` without parsing.

    An item's text is its lines joined and stripped, cut to 1,200 characters (only a single
    longer line is ever cut), made when the span is read (`SkeletonSpans`); a metadata line is
    split at its first colon. A skeleton that does not fit TEXT raises ValueError, IndexError
    or KeyError, here and not when a span is read.
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
    spans = numbers[_HEADER:headings_at]
    _check_spans(spans, len(lines), paths)
    it = iter(numbers[fences_at:meta_at])
    fences = tuple(zip(it, it, strict=True))
    meta = tuple(
        [  # `Key: value` split at the first colon, without a call per line
            _new(MetaLine, (key, value.strip(), line))
            for line in numbers[meta_at:]
            for key, _, value in (lines[line - 1].partition(":"),)
        ]
    )
    return Document(lines, meta, headings, fences, SkeletonSpans(lines, spans, paths), nonblank)


def _check_spans(spans: array[int], n_lines: int, paths: dict[int, str]) -> None:
    """What making any of SPANS could raise, raised now: a kind, a line or a section that the
    text does not have."""
    if not spans:
        return
    kinds, starts, ends = spans[0::4], spans[1::4], spans[2::4]
    if min(kinds) < 0 or max(kinds) >= len(KINDS):
        raise KeyError("a span kind out of range")
    if min(starts) < 1 or max(ends) > n_lines:
        raise IndexError("a span's lines out of range")
    if not paths.keys() >= set(spans[3::4]):
        raise KeyError("a span's section line is not a heading's")


def _headings(lines: tuple[str, ...], numbers: array[int]) -> tuple[Heading, ...]:
    it = iter(numbers)
    return tuple(
        [
            _new(Heading, (level, lines[line - 1][start:end], line))
            for level, line, start, end in zip(it, it, it, it, strict=True)
        ]
    )
