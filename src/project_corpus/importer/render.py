"""Documents to text, and the verbatim check every run makes (docs/import.md, "Verbatim").

`render` writes a document's blocks as LF lines and records where they came from, a run per
block: an added line, or source lines [start, end) with their heading shift. `check_verbatim`
then reads the text back and holds every line to that record: a copied line equals its
source line byte for byte (an ATX heading outside fenced code may move levels, nothing else),
the copied lines of a block follow their source in order, and every added line is one of the
kinds the Protocol needs: blank, an H1, a `Key: value` metadata line, a Protocol `## `
heading, or `NONE`. Headings are recognised by the corpus's own parser (`corpus/markdown.py`),
the one the doctor reads the result with.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.vocabulary import PROJECT_SECTIONS
from project_corpus.corpus.vocabulary import REPORT_SECTIONS
from project_corpus.corpus.vocabulary import STATUS_SECTIONS
from project_corpus.corpus.vocabulary import TASK_SECTIONS
from project_corpus.importer.records import Doc

Origin = tuple[str, int, int] | None
Run = tuple[str, int, int, int]  # (source path, first line, end, heading shift); "" added
PROTOCOL_HEADINGS = frozenset(
    f"## {name}" for name in PROJECT_SECTIONS + STATUS_SECTIONS + TASK_SECTIONS + REPORT_SECTIONS
)
ADDED_META_RE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*: \S.*\Z")
HASHES_RE = re.compile(r"^ {0,3}(#{1,6})")


class Rendered(NamedTuple):
    text: str
    runs: tuple[Run, ...]  # where the lines come from, in order: an added line is a run of one
    copied: int  # non-blank lines copied from sources
    added: int  # non-blank lines added
    data: bytes  # the text as UTF-8, what is written

    @property
    def origins(self) -> tuple[Origin, ...]:
        """Each line's origin: None (added) or (path, 0-based line, the run's heading shift)."""
        out: list[Origin] = []
        for path, start, end, shift in self.runs:
            if path:
                out.extend((path, i, shift) for i in range(start, end))
            else:
                out.append(None)
        return tuple(out)


def heading_levels(lines: tuple[str, ...]) -> dict[int, int]:
    """{0-based line: level} of the ATX headings the corpus parser sees."""
    doc = parse_document("\n".join(lines))
    return {h.line - 1: h.level for h in doc.headings}


def shifted(line: str, shift: int) -> str:
    match = HASHES_RE.match(line)
    if not match or not shift:
        return line
    level = max(1, min(6, len(match.group(1)) + shift))
    return "#" * level + line[match.end() :]


def render(
    doc: Doc, sources: dict[str, tuple[str, ...]], levels: dict[str, dict[int, int]]
) -> Rendered:
    lines: list[str] = []
    runs: list[Run] = []
    added = 0  # non-blank added lines (the trailing blanks dropped below are none of them)
    for block in doc.blocks:
        if not block.path:
            lines.append(block.text)
            runs.append(("", 0, 1, 0))
            added += bool(block.text.strip())
        elif not block.shift:
            lines.extend(sources[block.path][block.start : block.end])
            runs.append((block.path, block.start, block.end, 0))
        else:
            source, heads = sources[block.path], levels[block.path]
            lines += [
                shifted(source[i], block.shift) if i in heads else source[i]
                for i in range(block.start, block.end)
            ]
            runs.append((block.path, block.start, block.end, block.shift))
    while lines and not lines[-1].strip():
        lines.pop()
        path, first, end, shift = runs.pop()
        if end - 1 > first:
            runs.append((path, first, end - 1, shift))
    nonblank = sum(map(bool, map(str.strip, lines)))
    text = "\n".join(lines) + "\n"
    return Rendered(text, tuple(runs), nonblank - added, added, text.encode("utf-8"))


def added_line_ok(line: str) -> bool:
    return (
        not line.strip()
        or line.startswith("# ")
        or line in PROTOCOL_HEADINGS
        or line == "NONE"
        or bool(ADDED_META_RE.match(line))
    )


def check_verbatim(
    target: str,
    rendered: Rendered,
    sources: dict[str, tuple[str, ...]],
    levels: dict[str, dict[int, int]],
) -> None:
    """IMPORT_VERBATIM unless every line of the rendered text keeps the rules above. A run of
    copied lines is compared with its source lines at once (a slice), heading shifts applied
    to the lines the parser reads as headings only."""
    lines = rendered.text.split("\n")[:-1]
    if len(lines) != sum(end - start for _, start, end, _ in rendered.runs):
        _fail(target, 0, "the text has a different number of lines than were rendered")
    at = 0
    previous: tuple[str, int] | None = None
    for path, start, end, shift in rendered.runs:
        if not path:
            if not added_line_ok(lines[at]):
                _fail(target, at + 1, "an added line is not a Protocol line")
            previous = None
            at += 1
            continue
        expected = _expected(sources[path], start, end, shift, levels.get(path, {}))
        if tuple(lines[at : at + end - start]) != expected:
            wrong = next(i for i, line in enumerate(expected) if lines[at + i] != line)
            _fail(target, at + wrong + 1, f"differs from {path}:{start + wrong + 1}")
        if previous is not None and previous[0] == path and start != previous[1]:
            _fail(target, at + 1, f"lines of {path} out of order")
        previous = (path, end)
        at += end - start


def _expected(
    source: tuple[str, ...], start: int, end: int, shift: int, heads: dict[int, int]
) -> tuple[str, ...]:
    """Source lines [start, end) as they must read: headings moved by SHIFT levels."""
    if not shift:
        return source[start:end]
    return tuple(shifted(source[i], shift) if i in heads else source[i] for i in range(start, end))


def _fail(target: str, number: int, why: str) -> None:
    raise ContextError(
        "IMPORT_VERBATIM",
        f"{target}:{number}: {why}; nothing was written",
        hint="this is a bug in import: please report it with the source file",
    )
