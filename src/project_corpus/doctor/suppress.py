"""Inline suppression directives and configured ignores (SPEC §8).

In a source:
    <!-- project-corpus: disable CODE[,CODE] -->       the next item (consecutive directive
                                                       lines all apply to the same next item)
    <!-- project-corpus: disable-file CODE[,CODE] -->  the whole file
A directive is a full line of its own (the parser makes it an item of kind "comment").
A metadata line cannot be preceded by a directive without ending the metadata block, so
use `disable-file` for findings on metadata lines. Gate codes are never suppressed.
"""

from __future__ import annotations

import fnmatch
import re
from typing import NamedTuple

from project_corpus.doctor.config import LintConfig
from project_corpus.models import Document

DIRECTIVE_RE = re.compile(
    r"^\s*<!--\s*project-corpus:\s*(disable-file|disable)\s+"
    r"([A-Z][A-Z0-9_]*(?:\s*,\s*[A-Z][A-Z0-9_]*)*)\s*-->\s*$"
)


class Directives(NamedTuple):
    file_codes: frozenset[str]
    spans: tuple[tuple[int, int, frozenset[str]], ...]  # (first line, last line, codes)

    def suppresses(self, code: str, line: int) -> bool:
        if code in self.file_codes:
            return True
        return any(start <= line <= end and code in codes for start, end, codes in self.spans)


NO_DIRECTIVES = Directives(frozenset(), ())


def parse_directives(doc: Document) -> Directives:
    """The directives of one parsed source."""
    file_codes: set[str] = set()
    pending: set[str] = set()
    spans = []
    for span in doc.spans:
        if span.kind == "comment":
            match = DIRECTIVE_RE.match(span.text)
            if match:
                codes = {code.strip() for code in match.group(2).split(",")}
                (file_codes if match.group(1) == "disable-file" else pending).update(codes)
            continue
        if pending:
            spans.append((span.line_start, span.line_end, frozenset(pending)))
            pending = set()
    return Directives(frozenset(file_codes), tuple(spans))


def ignored_by_config(config: LintConfig, code: str, path: str) -> bool:
    """Whether an `ignore` entry of CONFIG covers CODE at PATH (`*` crosses `/`)."""
    return any(
        (not rule.codes or code in rule.codes)
        and any(fnmatch.fnmatchcase(path, glob) for glob in rule.paths)
        for rule in config.ignore
    )
