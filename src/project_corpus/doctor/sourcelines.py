"""The source lines a report's text view shows (docs/doctor.md, "Text output"): read once by
the library, carried by the report, so that no view reads a file (#32).

`with_source_lines(root, report)` adds `source_lines` ({path: {line: text}}) for the line
of every unsuppressed issue, read confined to ROOT as every input is. A file that cannot be
read or is not text (strict UTF-8 without NUL, so a corrupt index shows no "source line"),
or has no such line, gives none: the text view prints that finding without its source.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_SOURCE_BYTES
from project_corpus.corpus import fs

SourceLines = dict[str, dict[int, str]]


def text_lines(data: bytes) -> list[str]:
    """DATA's lines when it is text (strict UTF-8 without NUL); none for a binary file."""
    if b"\0" in data:
        return []
    try:
        return data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return []


def source_lines(root: str, wanted: Sequence[tuple[str, int]]) -> SourceLines:
    """{path: {line: text}} of each (path, line) in WANTED that ROOT holds as text."""
    files: dict[str, list[str]] = {}
    found: SourceLines = {}
    for path, line in sorted(set(wanted)):
        if path not in files:
            try:
                data = fs.read_relative(root, path, MAX_SOURCE_BYTES, code="SOURCE_LINK")
                files[path] = text_lines(data)
            except (ContextError, OSError):
                files[path] = []
        lines = files[path]
        if 0 < line <= len(lines):
            found.setdefault(path, {})[line] = lines[line - 1]
    return found


def with_source_lines(root: str, report: Mapping[str, object]) -> dict[str, object]:
    """REPORT (a copy) with the `source_lines` of its issues."""
    issues = report.get("issues")
    wanted = [
        (issue["path"], issue["line"])
        for issue in (issues if isinstance(issues, list) else [])
        if isinstance(issue, Mapping)
        and not issue.get("suppressed")  # the text view shows only these
        and isinstance(issue.get("path"), str)
        and isinstance(issue.get("line"), int)
    ]
    return {**report, "source_lines": source_lines(root, wanted)}
