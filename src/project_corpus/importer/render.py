"""Documents to text, and the verbatim check every run makes (docs/import.md, "Verbatim").

`render` writes a document's blocks as LF lines and records where each line came from: added
(`None`) or (source path, 0-based line, heading shift). `check_verbatim` then reads the text
back and holds every line to that record: a copied line equals its source line byte for byte
(an ATX heading outside fenced code may move levels, nothing else), the copied lines of a
block follow their source in order, and every added line is one of the kinds the Protocol
needs: blank, an H1, a `Key: value` metadata line, a Protocol `## ` heading, or `NONE`.
Headings are recognised by the corpus's own parser (`corpus/markdown.py`), the one the doctor
reads the result with.
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
PROTOCOL_HEADINGS = frozenset(
    f"## {name}" for name in PROJECT_SECTIONS + STATUS_SECTIONS + TASK_SECTIONS + REPORT_SECTIONS
)
ADDED_META_RE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*: \S.*\Z")
HASHES_RE = re.compile(r"^ {0,3}(#{1,6})")


class Rendered(NamedTuple):
    text: str
    origins: tuple[Origin, ...]
    copied: int  # non-blank lines copied from sources
    added: int  # non-blank lines added


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
    origins: list[Origin] = []
    for block in doc.blocks:
        if not block.path:
            lines.append(block.text)
            origins.append(None)
            continue
        source = sources[block.path]
        if not block.shift:
            lines.extend(source[block.start : block.end])
            origins.extend((block.path, index, 0) for index in range(block.start, block.end))
            continue
        heads = levels[block.path]
        for index in range(block.start, block.end):
            shift = block.shift if index in heads else 0
            lines.append(shifted(source[index], shift))
            origins.append((block.path, index, shift))
    while lines and not lines[-1].strip():
        lines.pop()
        origins.pop()
    copied = sum(1 for line, o in zip(lines, origins, strict=True) if o and line.strip())
    added = sum(1 for line, o in zip(lines, origins, strict=True) if not o and line.strip())
    return Rendered("\n".join(lines) + "\n", tuple(origins), copied, added)


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
    """IMPORT_VERBATIM unless every line of the rendered text keeps the rules above."""
    lines = rendered.text.split("\n")[:-1]
    if len(lines) != len(rendered.origins):
        _fail(target, 0, "the text has a different number of lines than were rendered")
    previous: tuple[str, int] | None = None
    for number, (line, origin) in enumerate(zip(lines, rendered.origins, strict=True), 1):
        if origin is None:
            if not added_line_ok(line):
                _fail(target, number, "an added line is not a Protocol line")
            previous = None
            continue
        path, index, shift = origin
        if shift and index not in levels[path]:
            _fail(target, number, f"a level shift on a line of {path} that is not a heading")
        if line != (shifted(sources[path][index], shift) if shift else sources[path][index]):
            _fail(target, number, f"differs from {path}:{index + 1}")
        if previous is not None and previous[0] == path and index != previous[1] + 1:
            _fail(target, number, f"lines of {path} out of order")
        previous = (path, index)


def _fail(target: str, number: int, why: str) -> None:
    raise ContextError(
        "IMPORT_VERBATIM",
        f"{target}:{number}: {why}; nothing was written",
        hint="this is a bug in import: please report it with the source file",
    )
