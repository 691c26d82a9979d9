"""Inline suppression directives and configured ignores (docs/doctor.md).

In a source:
    <!-- project-corpus: disable CODE[,CODE] -->       the next item (consecutive directive
                                                       lines all apply to the same next item)
    <!-- project-corpus: disable-file CODE[,CODE] -->  the whole file
A directive is a full line of its own (the parser makes it an item of kind "comment").
A metadata line cannot be preceded by a directive without ending the metadata block, so
use `disable-file` for findings on metadata lines. Gate codes are never suppressed.

A comment that mentions `project-corpus` in any spelling but is not a well-formed directive
(wrong case, a missing colon, an unknown verb) is malformed: `INVALID_SUPPRESSION` reports it
and it suppresses nothing, as does a directive's unknown code. Which directives suppressed a
finding is recorded, so that one that suppressed nothing is `UNUSED_SUPPRESSION`.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator
from functools import cache
from operator import attrgetter
from typing import NamedTuple

from project_corpus.core.records import Document
from project_corpus.doctor._config import LintConfig


# Both patterns are compiled on first use: most sources hold no comment at all, and compiling
# them costs every doctor run ~0.4 ms of its start (docs/performance.md).
@cache
def directive_re() -> re.Pattern[str]:
    """A well-formed directive line."""
    return re.compile(
        r"^\s*<!--\s*project-corpus:\s*(disable-file|disable)\s+"
        r"([A-Z][A-Z0-9_]*+(?:\s*+,\s*+[A-Z][A-Z0-9_]*+)*+)\s*+-->\s*+$"
    )


@cache
def mention_re() -> re.Pattern[str]:
    """What a person means as a directive: a full-line comment naming the tool in any
    spelling."""
    return re.compile(r"^\s*<!--\s*project[-_ ]?corpus\b", re.IGNORECASE)


WHOLE_FILE = 1 << 62


class Directive(NamedTuple):
    """One well-formed directive: its own line, its codes, the lines it covers."""

    line: int
    codes: tuple[str, ...]
    first: int
    last: int


class Directives(NamedTuple):
    directives: tuple[Directive, ...]

    def covering(self, code: str, line: int) -> Directive | None:
        """The first directive that suppresses CODE at LINE."""
        return next(
            (d for d in self.directives if code in d.codes and d.first <= line <= d.last), None
        )

    def suppresses(self, code: str, line: int) -> bool:
        return self.covering(code, line) is not None


NO_DIRECTIVES = Directives(())
_KIND = attrgetter("kind")


def comment_lines(doc: Document) -> Iterator[tuple[int, str]]:
    """(line, text) of every one-line comment item of DOC."""
    for span in doc.spans:
        if span.kind == "comment" and span.line_start == span.line_end:
            yield span.line_start, span.text


def parse_directives(doc: Document) -> Directives:
    """The well-formed directives of one parsed source."""
    if "comment" not in map(_KIND, doc.spans):  # most sources: no loop in Python
        return NO_DIRECTIVES
    directives: list[Directive] = []
    pending: list[tuple[int, tuple[str, ...]]] = []
    for span in doc.spans:
        if span.kind == "comment":
            match = directive_re().match(span.text) if span.line_start == span.line_end else None
            if match:
                codes = tuple(code.strip() for code in match.group(2).split(","))
                if match.group(1) == "disable-file":
                    directives.append(Directive(span.line_start, codes, 1, WHOLE_FILE))
                else:
                    pending.append((span.line_start, codes))
            continue
        directives.extend(
            Directive(at, codes, span.line_start, span.line_end) for at, codes in pending
        )
        pending = []
    directives.extend(Directive(at, codes, 0, -1) for at, codes in pending)  # covers nothing
    return Directives(tuple(directives))


def ignored_by_config(config: LintConfig, code: str, path: str) -> bool:
    """Whether an `ignore` entry of CONFIG covers CODE at PATH (`*` crosses `/`)."""
    return any(
        (not rule.codes or code in rule.codes)
        and any(fnmatch.fnmatchcase(path, glob) for glob in rule.paths)
        for rule in config.ignore
    )
