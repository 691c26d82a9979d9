"""The structure of one owner's Markdown file, as `import` needs it (docs/import.md). Pure.

A file is a tuple of lines (split on `\\n`, a trailing `\\r` dropped, as everywhere). Front
matter (`---` … `---` at the top) and fenced code are never read for headings; headings are ATX
(`#{1,6}` + space). A *section* is a heading line up to the next heading of the same or a
higher level. Titles are matched against the English and Russian words of `layouts.py`
after `normal_title` folds case, emoji, numbering and punctuation away.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from project_corpus.corpus.markdown import FENCE_RE

# Possessive: no backtracking over a long run of spaces (tests/test_regex_linearity.py).
HEADING_RE = re.compile(r"^ {0,3}(#{1,6})(?: ++(.*+))?$")
MAX_FRONT_MATTER = 200  # lines; a `---` further down is a thematic break, not front matter
_NOT_WORD_RE = re.compile(r"[^\w\s/&+-]+", re.UNICODE)
_NUMBERING_RE = re.compile(r"^(?:\d+[.)]?|[ivx]+[.)])\s+")
_SPACES_RE = re.compile(r"\s+")


class Heading(NamedTuple):
    """An ATX heading: 0-based line index, level, title as written."""

    row: int
    level: int
    title: str


class Section(NamedTuple):
    """Lines [start, end) of a file: the heading at `start` and its content."""

    heading: Heading
    start: int
    end: int


class Structure(NamedTuple):
    lines: tuple[str, ...]
    front_matter: int  # lines of front matter at the top (0 when none)
    headings: tuple[Heading, ...]
    fenced: frozenset[int]  # 0-based indexes of lines inside (or opening/closing) a fence


def split(text: str) -> tuple[str, ...]:
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" not in text:
        return tuple(lines)
    return tuple(line[:-1] if line.endswith("\r") else line for line in lines)


def front_matter_end(lines: tuple[str, ...]) -> int:
    """The number of lines of a `---` front matter block at the top, else 0."""
    if not lines or lines[0].rstrip() != "---":
        return 0
    for index in range(1, min(len(lines), MAX_FRONT_MATTER)):
        if lines[index].rstrip() in ("---", "..."):
            return index + 1
    return 0


def structure(lines: tuple[str, ...]) -> Structure:
    top = front_matter_end(lines)
    headings: list[Heading] = []
    fenced: set[int] = set()
    fence: str | None = None
    for index in range(top, len(lines)):
        line = lines[index]
        match = FENCE_RE.match(line)
        if match and (fence is None or _closes(match.group(1), fence, line)):
            fence = match.group(1) if fence is None else None
            fenced.add(index)
            continue
        if fence is not None:
            fenced.add(index)
            continue
        heading = HEADING_RE.match(line) if "#" in line[:4] else None
        if heading:
            title = (heading.group(2) or "").rstrip("#").strip()
            headings.append(Heading(index, len(heading.group(1)), title))
    return Structure(lines, top, tuple(headings), frozenset(fenced))


def _closes(marker: str, fence: str, line: str) -> bool:
    """A closing fence: the same character, at least as long, nothing after it."""
    return marker[0] == fence[0] and len(marker) >= len(fence) and line.strip() == marker


FM_TITLE_RE = re.compile(r"^title:(.*)$")


def front_matter_title(doc: Structure) -> str | None:
    """The `title:` of the front matter, unquoted, or None."""
    for index in range(1, max(0, doc.front_matter - 1)):
        match = FM_TITLE_RE.match(doc.lines[index])
        if match:
            title = match.group(1).strip().strip("'\"").strip()
            return title or None
    return None


def title_heading(doc: Structure) -> Heading | None:
    """The document's H1 when it is the first non-blank line after the front matter and no
    other H1 follows (a file of several H1s has no title: each H1 is a section)."""
    first = next((i for i in range(doc.front_matter, len(doc.lines)) if doc.lines[i].strip()), None)
    h1s = [h for h in doc.headings if h.level == 1]
    if first is None or len(h1s) != 1 or h1s[0].row != first:
        return None
    return h1s[0]


def sections(doc: Structure) -> list[Section]:
    """The file's main sections: headings of the smallest level below the title."""
    title = title_heading(doc)
    candidates = [h for h in doc.headings if title is None or h.row != title.row]
    if not candidates:
        return []
    level = min(h.level for h in candidates)
    return [Section(h, h.row, _section_end(doc, h)) for h in candidates if h.level == level]


def all_sections(doc: Structure) -> list[Section]:
    """Every heading's section but the title's, in line order."""
    title = title_heading(doc)
    return [
        Section(h, h.row, _section_end(doc, h))
        for h in doc.headings
        if title is None or h.row != title.row
    ]


def overlaps(start: int, end: int, ranges: set[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in ranges)


def _section_end(doc: Structure, heading: Heading) -> int:
    for other in doc.headings:
        if other.row > heading.row and other.level <= heading.level:
            return other.row
    return len(doc.lines)


def lead(doc: Structure) -> tuple[int, int]:
    """Lines [start, end) after the title (and front matter) up to the first section."""
    title = title_heading(doc)
    start = title.row + 1 if title else doc.front_matter
    found = sections(doc)
    return start, found[0].start if found else len(doc.lines)


def has_content(doc: Structure, start: int, end: int) -> bool:
    """Whether lines [start, end) hold a non-blank line that is not a heading."""
    heads = {h.row for h in doc.headings}
    return any(doc.lines[i].strip() and i not in heads for i in range(start, end))


def normal_title(title: str) -> str:
    """TITLE folded for matching: lower case, no emoji or punctuation, no numbering."""
    text = _NOT_WORD_RE.sub(" ", title.casefold().replace("ё", "е"))
    text = _SPACES_RE.sub(" ", text).strip()
    return _NUMBERING_RE.sub("", text).strip()


def matches(title: str, words: tuple[str, ...]) -> bool:
    """Whether the folded TITLE starts with one of WORDS (whole words) or equals it."""
    folded = normal_title(title)
    return any(folded == w or folded.startswith(w + " ") for w in words)


def trimmed(lines: tuple[str, ...], start: int, end: int) -> tuple[int, int]:
    """[start, end) without blank lines at either end."""
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end
