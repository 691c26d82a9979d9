"""Suppression hygiene: directives that are malformed or suppress nothing (docs/doctor.md).

Like ruff's RUF100, a suppression must earn its place: a misspelt directive silently keeps
the finding it was meant to hide, and a stale one hides the next finding of its code.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator

from project_corpus.core.records import Corpus
from project_corpus.doctor._suppress import comment_lines
from project_corpus.doctor._suppress import directive_re
from project_corpus.doctor._suppress import mention_re
from project_corpus.doctor._suppress import parse_directives
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check

FORM = "<!-- project-corpus: disable CODE[,CODE] --> or disable-file"


def _problems(text: str, gates: dict[str, bool]) -> Iterator[str]:
    match = directive_re().match(text)
    if not match:
        yield f"not a directive: {text.strip()[:120]!r}; the form is {FORM} (lower case, a colon)"
        return
    for code in (c.strip() for c in match.group(2).split(",")):
        if code not in gates:
            yield f"unknown check code {code!r}"
        elif gates[code]:
            yield f"{code} is a conformance gate code; it is never suppressed"


@check("INVALID_SUPPRESSION", "invalid-suppression", severity="WARN")
def invalid_suppression(view: DoctorView, this: Check) -> Iterator[Issue]:
    """An inline suppression directive is malformed or names a code it cannot suppress.

    ## Why it matters
    A directive with a wrong case (`Project-Corpus:`, `DISABLE`), a missing colon or an
    unknown code suppresses nothing, so the finding it was written to hide stays — and the
    author believes it was handled. Gate codes are never suppressed.

    ## Fix
    Write `<!-- project-corpus: disable CODE[,CODE] -->` on its own line before the item (or
    `disable-file CODE` anywhere in the file) with registered, non-gate codes
    (`project-corpus explain CODE`), or delete the comment.
    """
    gates = view.gates
    for source in view.corpus.sources:
        for line, text in comment_lines(source.doc):
            if mention_re().match(text):
                for detail in _problems(text, gates):
                    yield this.issue(source.path, line, detail, detail)


@check("UNUSED_SUPPRESSION", "unused-suppression", severity="WARN")
def unused_suppression(view: DoctorView) -> Iterator[Issue]:
    """An inline suppression directive suppressed no finding in this run.

    ## Why it matters
    A stale directive hides nothing today but will silently hide the next finding of its
    code at that place (ruff's RUF100 reports the same). A directive for a check that did
    not run (turned off, not selected, or needing `--index`/`--bundle`/`--candidate`) is not
    judged.

    ## Fix
    Delete the directive, or the code from its list, when the finding it hid is gone.

    The detector is `unused_directives` in this module, called by `memory_doctor` after every
    other finding was matched against the directives.
    """
    return iter(())


def unused_directives(
    corpus: Corpus, used: set[tuple[str, int, str]], ran: Iterable[str], gates: dict[str, bool]
) -> list[Issue]:
    """UNUSED_SUPPRESSION issues: (path, directive line, code) of a code that ran but was not
    in USED (recorded while findings were suppressed)."""
    judged = {code for code in ran if code in gates and not gates[code]}
    issues = []
    for source in corpus.sources:
        for directive in parse_directives(source.doc).directives:
            for code in directive.codes:
                if code in judged and (source.path, directive.line, code) not in used:
                    detail = f"`{code}` suppressed nothing"
                    anchor = f"{code}:{source.doc.lines[directive.line - 1].strip()}"
                    issues.append(
                        Issue("UNUSED_SUPPRESSION", source.path, directive.line, detail, anchor)
                    )
    return issues


# This family's checks, in the order of docs/checks.md (the registry concatenates them).
CHECKS: tuple[Check, ...] = (
    invalid_suppression,
    unused_suppression,
)
