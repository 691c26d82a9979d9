"""The straightforward line-by-line parser, frozen as an oracle for the fast one.

`project_corpus.corpus.markdown` classifies lines with C-level string operations and regular
expressions over a one-character-per-line signature; this module is the plain version it
replaced (a loop over lines). `test_markdown_oracle.py` checks that both agree on generated
Markdown, on every fixture and on the benchmark corpus generator's documents. Fence pairing
was not rewritten, so the oracle imports that function; the metadata block is the plain
line loop the fast parser had before it read the region from the signature.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from project_corpus.core.records import Heading
from project_corpus.core.records import MetaLine
from project_corpus.core.records import Span
from project_corpus.corpus.markdown import _fences
from project_corpus.corpus.markdown import split_lines

MAX_ITEM_CHARS = 1200
MAX_PATH_TITLE = 240  # a heading's title in a section path is cut to this


class Block(NamedTuple):
    """A contiguous span of non-blank lines that becomes one or more items."""

    kind: str
    line_start: int
    line_end: int
    section: str
    section_line: int


META_RE = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):(.*)$")
FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING_RE = re.compile(r"^ {0,3}(#{1,6}) +(.*?)(?: +#+)? *$|^ {0,3}(#{1,6})$")
LIST_RE = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?: |$)")
COMMENT_RE = re.compile(r"^\s*<!--.*-->\s*$")
CODE_CHUNK_LINES = 40


def parse_document(
    text: str,
) -> tuple[
    tuple[str, ...],
    tuple[MetaLine, ...],
    tuple[Heading, ...],
    tuple[tuple[int, int], ...],
    tuple[Block, ...],
]:
    lines = split_lines(text)
    # The first non-blank character of each line decides almost everything; one pass of
    # C-level slicing here spares the per-line regular expressions below.
    firsts = [line.lstrip()[:1] for line in lines]
    fences = _fences(lines, [i for i, first in enumerate(firsts) if first in _FENCE_CHARS])
    code = {n for start, end in fences for n in range(start, end + 1)}
    hashes = [i for i, first in enumerate(firsts) if first == "#"]
    headings = tuple(_headings(lines, hashes, code))
    meta = tuple(_metadata(lines, headings))
    blocks = tuple(_blocks(lines, firsts, fences, headings, {m.line for m in meta}))
    return lines, meta, headings, tuple(fences), blocks


_FENCE_CHARS = frozenset("`~")


def _headings(lines: tuple[str, ...], candidates: list[int], code: set[int]) -> list[Heading]:
    result = []
    for index in candidates:
        if index + 1 in code:
            continue
        match = HEADING_RE.match(lines[index])
        if match:
            hashes = match.group(1) or match.group(3)
            result.append(Heading(len(hashes), (match.group(2) or "").strip(), index + 1))
    return result


def _metadata(lines: tuple[str, ...], headings: tuple[Heading, ...]) -> list[MetaLine]:
    """`Key: value` lines after the document's H1 (or from the top), up to the next heading
    or the first code fence."""
    start = 0
    first = headings[0] if headings else None
    if first and first.level == 1 and not any(x.strip() for x in lines[: first.line - 1]):
        start = first.line
    end = next((h.line - 1 for h in headings if h.line > start), len(lines))
    result = []
    for index in range(start, end):
        line = lines[index]
        if FENCE_RE.match(line):
            break
        match = META_RE.match(line)
        if match:
            result.append(MetaLine(match.group(1), match.group(2).strip(), index + 1))
    return result


_KIND_STARTS = frozenset("<|-*+0123456789")


def _line_kind(line: str, first: str) -> str:
    """comment, table, list or paragraph for a non-blank, non-special line."""
    if first not in _KIND_STARTS:
        return "paragraph"
    if first == "<":
        return "comment" if COMMENT_RE.match(line) else "paragraph"
    if first == "|":
        return "table"
    return "list" if LIST_RE.match(line) else "paragraph"


class _Sections:
    """The heading path while walking a document (H1 is the title, not a section)."""

    def __init__(self) -> None:
        self.stack: list[Heading] = []
        self.path, self.line = "", 0

    def enter(self, heading: Heading) -> None:
        if heading.level >= 2:
            self.stack = [h for h in self.stack if h.level < heading.level] + [heading]
            titles = (h.title[:MAX_PATH_TITLE] for h in self.stack)
            self.path, self.line = " > ".join(titles), heading.line


def _blocks(
    lines: tuple[str, ...],
    firsts: list[str],
    fences: list[tuple[int, int]],
    headings: tuple[Heading, ...],
    meta_lines: set[int],
) -> list[Block]:
    heading_at = {h.line: h for h in headings}
    fence_end = dict(fences)
    special = heading_at.keys() | fence_end.keys() | meta_lines
    sections = _Sections()
    blocks: list[Block] = []
    open_kind, open_start, open_end = "", 0, 0
    skip_to = 0
    for number, first in enumerate(firsts, start=1):
        if number <= skip_to:
            continue
        kind = "" if not first or number in special else _line_kind(lines[number - 1], first)
        if open_kind:
            if kind == "paragraph" and (
                open_kind == "paragraph" or (open_kind == "list" and lines[number - 1][:1] in " \t")
            ):
                open_end = number
                continue
            blocks.append(Block(open_kind, open_start, open_end, sections.path, sections.line))
            open_kind = ""
        if kind:
            open_kind, open_start, open_end = kind, number, number
        elif first:
            skip_to = _special_block(number, heading_at, fence_end, sections, blocks)
    if open_kind:
        blocks.append(Block(open_kind, open_start, open_end, sections.path, sections.line))
    return blocks


def _special_block(
    number: int,
    heading_at: dict[int, Heading],
    fence_end: dict[int, int],
    sections: _Sections,
    blocks: list[Block],
) -> int:
    """Append the heading, code or metadata block starting at NUMBER; returns its last line."""
    if number in heading_at:
        heading = heading_at[number]
        sections.enter(heading)
        titled = heading.level >= 2
        path, line = (sections.path, sections.line) if titled else ("", 0)
        blocks.append(Block("heading", number, number, path, line))
        return number
    if number in fence_end:
        blocks.extend(_code_chunks(number, fence_end[number], sections))
        return fence_end[number]
    blocks.append(Block("meta", number, number, sections.path, sections.line))
    return number


def _code_chunks(first: int, last: int, sections: _Sections) -> list[Block]:
    return [
        Block("code", start, min(start + CODE_CHUNK_LINES - 1, last), sections.path, sections.line)
        for start in range(first, last + 1, CODE_CHUNK_LINES)
    ]


def item_spans(lines: tuple[str, ...], blocks: tuple[Block, ...]) -> list[Span]:
    """The span of every item, in line order. (The one change from the replaced code: a
    code chunk of blank lines makes no item with empty text.)"""
    return [
        Span(block.kind, start, end, block.section, block.section_line, text)
        for block in blocks
        for start, end, text in _spans(block, lines)
        if text
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
