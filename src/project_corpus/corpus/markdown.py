"""Markdown parsing into metadata, headings and blocks (docs/protocol.md, docs/retrieval.md). Pure
functions.

Lines are split on `\\n` only (a trailing `\\r` is dropped) and numbered from 1. Headings are
ATX headings (`#{1,6}` + space) outside fenced code.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import partial
from operator import itemgetter

from project_corpus.core.records import Document
from project_corpus.core.records import Heading
from project_corpus.core.records import MetaLine
from project_corpus.core.records import Span

META_RE = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):(.*)$")
# An ATX heading: up to 3 spaces, 1-6 hashes, then the end or spaces and the title; an
# optional closing sequence (spaces, then hashes) is not part of the title. Possessive
# quantifiers: no regular expression here may backtrack over a long line (docs/performance.md).
HEADING_RE = re.compile(r" {0,3}(#{1,6})(?: ++(.*+))?$")
FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
LIST_RE = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?: |$)")
COMMENT_RE = re.compile(r"^\s*<!--.*-->\s*$")
CODE_CHUNK_LINES = 40
MAX_ITEM_CHARS = 1200
# A heading's title in a section path is cut to this: a path (at most five titles, levels 2
# to 6) stays under MAX_ITEM_CHARS + separators, whatever the headings' length.
MAX_PATH_TITLE = MAX_ITEM_CHARS // 5


def split_lines(text: str) -> tuple[str, ...]:
    """Split on `\\n`; drop one trailing `\\r` per line; a final newline ends the last line."""
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" not in text:
        return tuple(lines)
    return tuple(line[:-1] if line.endswith("\r") else line for line in lines)


def parse_document(text: str) -> Document:
    lines = split_lines(text)
    # One character per line says what the line can be (its first non-blank character, " "
    # for a blank line); regular expressions then run on the few candidate lines only, and
    # blocks are runs in the resolved signature, found by one regex scan (docs/retrieval.md).
    sig = "".join([(line.lstrip() or " ")[0] for line in lines])
    sig = _OTHER_RE.sub("p", sig).translate(_LIST_STARTS)
    fence_starts: list[int] = []
    fences: tuple[tuple[int, int], ...] = ()
    marked = sig
    if "`" in sig or "~" in sig:
        fence_starts = _positions(_FENCE_START_RE, sig)
        fences = tuple(_fences(lines, fence_starts))
        marked = _mark_code(sig, fences)
    kinds = list(marked)
    headings = tuple(_headings(lines, kinds, _positions(_HASH_RE, marked)))
    meta = _metadata(lines, sig, headings, fence_starts)
    for entry in meta:
        kinds[entry.line - 1] = "m"
    _resolve_lines(lines, kinds, marked)
    opened = _section_paths(headings)
    spans = _spans(lines, "".join(kinds), opened)
    nonblank = len(lines) - sig.count(" ")
    # The paths are kept: retrieval reads them per document up to twice (made once, #27).
    paths = tuple([(heading.line, path) for heading, path in opened if heading.level > 1])
    return _new(Document, (lines, meta, headings, fences, spans, nonblank, paths))


# Signature characters: " " blank, "p" paragraph, "#" heading?, "`" "~" fence?, "<" comment?,
# "|" table row, "l" list item?; resolved to "h" heading, "F" fence line opening code, "c"
# code, "m" metadata, "C" comment, "i" an indented paragraph line continuing a list item.
_OTHER_RE = re.compile(r"[^ #`~<|*+\-0-9]")
_LIST_STARTS = str.maketrans(dict.fromkeys("-*+0123456789", "l"))
_FENCE_START_RE = re.compile(r"[`~]")
_HASH_RE = re.compile("#")
_COMMENT_START_RE = re.compile("<")
_LIST_START_RE = re.compile("l")
_BLOCK_RE = re.compile(r"p+|li*|Fc*|[hmC|]")
_KIND_NAMES = {"p": "paragraph", "l": "list", "F": "code", "h": "heading", "m": "meta"}
_KIND_NAMES |= {"C": "comment", "|": "table"}


def fenced_line_numbers(doc: Document) -> set[int]:
    """1-based numbers of the lines inside fenced code (fence lines included)."""
    return {n for first, last in doc.fences for n in range(first, last + 1)}


def _positions(pattern: re.Pattern[str], sig: str) -> list[int]:
    """0-based indexes of the lines whose signature character PATTERN matches."""
    return list(map(_START, pattern.finditer(sig)))


_START = re.Match.start
_SPAN = re.Match.span


def _mark_code(sig: str, fences: tuple[tuple[int, int], ...]) -> str:
    """SIG with each fenced range as "F" and "c"s; other fence candidates are paragraphs."""
    pieces, done = [], 0
    for first, last in fences:
        pieces += [sig[done : first - 1], "F", "c" * (last - first)]
        done = last
    pieces.append(sig[done:])
    return "".join(pieces).replace("`", "p").replace("~", "p")


def _fences(lines: tuple[str, ...], candidates: list[int]) -> list[tuple[int, int]]:
    """(first, last) 1-based line numbers of each fenced code block, fences included.

    CANDIDATES are the 0-based indexes of lines that start with a backtick or tilde. An
    unclosed fence runs to the end of the document, as in CommonMark.
    """
    ranges = []
    fence, opened = "", 0
    for index in candidates:
        line = lines[index]
        match = FENCE_RE.match(line)
        if not match:
            continue
        marker = match.group(1)
        if fence:
            closing = not line.strip().strip(fence[0])
            if marker[0] == fence[0] and len(marker) >= len(fence) and closing:
                ranges.append((opened, index + 1))
                fence = ""
        elif not (marker[0] == "`" and "`" in line.strip()[len(marker) :]):
            fence, opened = marker, index + 1
    if fence:
        ranges.append((opened, len(lines)))
    return ranges


def _headings(lines: tuple[str, ...], kinds: list[str], candidates: list[int]) -> list[Heading]:
    """The ATX headings among the CANDIDATES ("#" lines outside code); each is resolved to
    "h" or "p" in KINDS."""
    result = []
    for index in candidates:
        match = HEADING_RE.match(lines[index])
        if match is None:
            kinds[index] = "p"
            continue
        hashes, raw = match.groups()
        if raw is not None and "#" in raw:  # else there is no closing sequence to cut
            raw = _without_closing_sequence(raw)
        title = "" if raw is None else raw.strip()
        result.append(_new(Heading, (len(hashes), title, index + 1)))
        kinds[index] = "h"
    return result


def _without_closing_sequence(raw: str) -> str:
    """RAW, the text after a heading's hashes, without an optional closing sequence: spaces,
    then hashes, to the end (a string scan, not the regex ` +#+$`, which is quadratic on a
    long run of spaces). The title is this stripped."""
    title = raw.rstrip(" ")
    before_hashes = title.rstrip("#")
    if before_hashes != title and before_hashes.endswith(" "):
        return before_hashes.rstrip(" ")
    return title


def _metadata(
    lines: tuple[str, ...], sig: str, headings: tuple[Heading, ...], fence_starts: list[int]
) -> tuple[MetaLine, ...]:
    """`Key: value` lines after the document's H1 (or from the top), up to the next heading.

    Other lines in that region (a prose sentence or a comment between the H1 and the keys, as
    real corpora have) are not metadata: they stay ordinary items (docs/protocol.md). A code
    fence ends the region, so nothing inside fenced code is ever metadata. SIG is the
    signature (" " for a blank line), FENCE_STARTS the lines that can be fences."""
    start = 0
    if headings and headings[0].level == 1 and not sig[: headings[0].line - 1].strip():
        start = headings[0].line
    following = 1 if start else 0
    end = headings[following].line - 1 if len(headings) > following else len(lines)
    for position in range(bisect_left(fence_starts, start), len(fence_starts)):
        index = fence_starts[position]
        if index >= end or FENCE_RE.match(lines[index]):
            end = min(end, index)
            break
    matches = map(META_RE.match, lines[start:end])
    return tuple(
        [
            _new(MetaLine, (match[1], match[2].strip(), number))
            for number, match in enumerate(matches, start + 1)
            if match
        ]
    )


def _resolve_lines(lines: tuple[str, ...], kinds: list[str], marked: str) -> None:
    """Resolve the comment and list candidates of MARKED in KINDS, then mark the indented
    paragraph lines that continue a list item ("i")."""
    if "<" in marked:
        for index in _positions(_COMMENT_START_RE, marked):
            kinds[index] = "C" if COMMENT_RE.match(lines[index]) else "p"
    if "l" not in marked:
        return
    items = []
    for index in _positions(_LIST_START_RE, marked):
        if LIST_RE.match(lines[index]):
            items.append(index)
        else:
            kinds[index] = "p"
    count = len(kinds)
    for index in items:
        index += 1
        while index < count and kinds[index] == "p" and lines[index][:1] in " \t":
            kinds[index] = "i"
            index += 1


def _spans(
    lines: tuple[str, ...], kinds: str, opened: list[tuple[Heading, str]]
) -> tuple[Span, ...]:
    """The items of a document: runs in its resolved signature KINDS, in their sections.

    Headings, metadata lines, table rows and comments are one line each; a paragraph runs
    over consecutive paragraph lines, a list item over its indented continuation lines;
    fenced code is cut every 40 lines, and any block longer than 1,200 characters at line
    boundaries (`_split`). Built column-wise: one comprehension per document, no per-block
    function calls except for those rare long blocks, found by C-level scans.
    """
    section, section_line = _sections(len(lines), opened)
    names = _KIND_NAMES
    rows = [
        (names[kinds[a]], a + 1, b, section[a], section_line[a], text)
        for a, b in map(_SPAN, _BLOCK_RE.finditer(kinds))
        # Most blocks are one line: no slice and join for them.
        for text in [lines[a].strip() if b - a == 1 else "\n".join(lines[a:b]).strip()]
    ]
    spans = list(map(_new_span, rows))
    if _LONG_CODE not in kinds and max(map(len, map(_TEXT, rows)), default=0) < MAX_ITEM_CHARS:
        return tuple(spans)
    for index in reversed(range(len(spans))):
        span = spans[index]
        code = span.kind == "code" and span.line_end - span.line_start >= CODE_CHUNK_LINES
        if code or len(span.text) >= MAX_ITEM_CHARS:
            spans[index : index + 1] = _long_block(lines, span)
    return tuple(spans)


_TEXT = itemgetter(5)
# A code block over 40 lines: its opening fence line, then 40 more.
_LONG_CODE = "F" + "c" * CODE_CHUNK_LINES
_new_span = partial(tuple.__new__, Span)
# Records of the hot loops are made like `NamedTuple._make` does, without its Python frame.
_new = tuple.__new__


def _sections(count: int, opened: list[tuple[Heading, str]]) -> tuple[list[str], list[int]]:
    """The section path and section line of each of COUNT lines (0-based), from OPENED (each
    heading with the path it opens, `_section_paths`). A heading of level 2 or deeper opens
    a section (its own line included); H1 is the title: its line has no section and it does
    not change the current one.
    """
    paths, numbers = [""] * count, [0] * count
    titles = []
    start, path, number = 0, "", 0
    for heading, heading_path in opened:
        if heading.level == 1:
            titles.append(heading.line - 1)
            continue
        end = heading.line - 1
        paths[start:end], numbers[start:end] = [path] * (end - start), [number] * (end - start)
        start, path, number = end, heading_path, heading.line
    paths[start:], numbers[start:] = [path] * (count - start), [number] * (count - start)
    for index in titles:
        paths[index], numbers[index] = "", 0
    return paths, numbers


def _section_paths(headings: tuple[Heading, ...]) -> list[tuple[Heading, str]]:
    """Every heading with the section path it opens ("" for an H1, which opens none): a
    heading of level 2 or deeper opens its title after the titles of the enclosing headings
    of lower levels, joined with " > ", each title cut to 240 characters (MAX_PATH_TITLE).

    Built incrementally: a path is its parent's path, " > " and the heading's own title, so
    each costs at most the five titles of its levels (2 to 6), each cut to MAX_PATH_TITLE:
    a long heading with thousands of subheadings is never copied into each of their paths
    (#26, R3-2: that was quadratic in time and memory)."""
    result: list[tuple[Heading, str]] = []
    stack: list[tuple[int, str]] = []  # (level, path) of the open headings, levels rising
    for heading in headings:
        level = heading.level
        if level == 1:
            result.append((heading, ""))
            continue
        while stack and stack[-1][0] >= level:
            stack.pop()
        title = heading.title[:MAX_PATH_TITLE]
        path = f"{stack[-1][1]} > {title}" if stack else title
        stack.append((level, path))
        result.append((heading, path))
    return result


def section_path_map(doc: Document) -> dict[int, str]:
    """{line of each heading of level 2 or deeper: the section path it opens} (made by the
    parser: `Document.section_paths`)."""
    return dict(doc.section_paths)


SpanColumns = tuple[list[int], list[int], list[int]]


def span_columns(spans: tuple[Span, ...]) -> SpanColumns:
    """(first lines, last lines, section lines) of SPANS."""
    # `map` over item getters: no Python frame per span (a third of the list comprehensions').
    return list(map(_FIRST, spans)), list(map(_LAST, spans)), list(map(_SECTION_LINE, spans))


_FIRST, _LAST, _SECTION_LINE = itemgetter(1), itemgetter(2), itemgetter(4)


def _long_block(lines: tuple[str, ...], span: Span) -> list[Span]:
    """The items of a block that is code over 40 lines or text over 1,200 characters."""
    step = CODE_CHUNK_LINES if span.kind == "code" else span.line_end - span.line_start + 1
    where = (span.kind, span.section, span.section_line)
    return [
        item
        for first in range(span.line_start - 1, span.line_end, step)
        for item in _split(lines, first, min(first + step, span.line_end), where)
    ]


def _split(
    lines: tuple[str, ...], first: int, last: int, where: tuple[str, str, int]
) -> list[Span]:
    """The items of lines[FIRST:LAST] (a block, or a 40-line chunk of code): one item, or
    cuts at line boundaries so that no item exceeds 1,200 characters (a single longer line
    is one item cut to 1,200 characters). Blank items are dropped."""
    kind, section, section_line = where
    whole = "\n".join(lines[first:last]).strip()
    if len(whole) < MAX_ITEM_CHARS:
        return [Span(kind, first + 1, last, section, section_line, whole)] if whole else []
    cuts = []
    start, length = first, 0
    for index in range(first, last):
        added = len(lines[index]) + (1 if index > start else 0)
        if index > start and length + added > MAX_ITEM_CHARS:
            cuts.append((start, index))
            start, length = index, len(lines[index])
        else:
            length += added
    cuts.append((start, last))
    spans = []
    for a, b in cuts:
        text = "\n".join(lines[a:b]).strip()[:MAX_ITEM_CHARS]
        if text:
            spans.append(Span(kind, a + 1, b, section, section_line, text))
    return spans
