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
from bisect import bisect_right
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


class _ByCode(NamedTuple):
    """Where one code's directives apply: the first whole-file one, and the item ones by the
    first line of their item (items never overlap), each with its place in the order."""

    whole_file: tuple[int, Directive] | None
    firsts: list[int]
    items: list[tuple[int, Directive]]


class Directives(NamedTuple):
    """A source's well-formed directives, and the same by code and line: a finding is matched
    in O(log directives), not against every directive (#26, R3-6: 16,000 directives took
    12 s, 45,000 131 s). Made by `directives_of`."""

    directives: tuple[Directive, ...]
    by_code: dict[str, _ByCode]

    def covering(self, code: str, line: int) -> Directive | None:
        """The first directive (in `directives` order) that suppresses CODE at LINE."""
        found = self.by_code.get(code)
        if found is None:
            return None
        whole, firsts, items = found
        if whole is not None and not whole[1].first <= line <= WHOLE_FILE:
            whole = None
        at = bisect_right(firsts, line) - 1
        item = items[at] if at >= 0 and line <= items[at][1].last else None
        if whole is None or (item is not None and item[0] < whole[0]):
            return None if item is None else item[1]
        return whole[1]

    def suppresses(self, code: str, line: int) -> bool:
        return self.covering(code, line) is not None


def directives_of(directives: tuple[Directive, ...]) -> Directives:
    """DIRECTIVES (in source order) with their index by code and line."""
    wholes: dict[str, tuple[int, Directive]] = {}
    items: dict[str, dict[int, tuple[int, Directive]]] = {}
    for place, directive in enumerate(directives):
        for code in directive.codes:
            if directive.last == WHOLE_FILE:
                wholes.setdefault(code, (place, directive))
            elif directive.first <= directive.last:  # (0, -1): a directive before no item
                items.setdefault(code, {}).setdefault(directive.first, (place, directive))
    by_code = {}
    for code in wholes.keys() | items.keys():
        ordered = sorted(items.get(code, {}).items())
        by_code[code] = _ByCode(
            whole_file=wholes.get(code),
            firsts=[first for first, _ in ordered],
            items=[entry for _, entry in ordered],
        )
    return Directives(directives=directives, by_code=by_code)


NO_DIRECTIVES = directives_of(())
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
    return directives_of(tuple(directives))


class Ignores:
    """The `ignore` entries of a configuration, matched by code: each code's globs in one
    compiled pattern, each (code, path) decided once (#26, R3-6: every finding was matched
    against every glob of every entry, 3,000 × 3,000 in 12 s). Owns its memo table."""

    def __init__(self, config: LintConfig) -> None:
        every = [glob for rule in config.ignore if not rule.codes for glob in rule.paths]
        by_code: dict[str, list[str]] = {}
        for rule in config.ignore:
            for code in rule.codes:
                by_code.setdefault(code, []).extend(rule.paths)
        self._every = _globs(every)
        self._by_code = {code: _globs([*globs, *every]) for code, globs in by_code.items()}
        self._decided: dict[tuple[str, str], bool] = {}

    def __bool__(self) -> bool:
        return self._every is not None or bool(self._by_code)

    def covers(self, code: str, path: str) -> bool:
        """Whether an `ignore` entry covers CODE at PATH (`*` crosses `/`)."""
        key = (code, path)
        found = self._decided.get(key)
        if found is None:
            pattern = self._by_code.get(code, self._every)
            found = self._decided[key] = pattern is not None and pattern.match(path) is not None
        return found


def _globs(globs: list[str]) -> re.Pattern[str] | None:
    """One pattern matching what any of GLOBS matches (as `fnmatch.fnmatchcase`), or None."""
    if not globs:
        return None
    return re.compile("|".join(f"(?:{fnmatch.translate(glob)})" for glob in dict.fromkeys(globs)))
