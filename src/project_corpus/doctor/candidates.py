"""`--candidate FILE` checks: Candidate v1 problems as located findings (docs/doctor.md).

A file holds one candidate object or a JSON array of them. Each problem is reported at the
candidate file, on the line where the value its JSON pointer names starts (the nearest
existing parent for a missing key), with the keys `pointer` and, for a source ref,
`source_path` and `source_line`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Sequence
from typing import TYPE_CHECKING

from project_corpus.core.records import Corpus
from project_corpus.corpus.required import require_corpus
from project_corpus.corpus.roots import open_root
from project_corpus.corpus.snapshot import collect
from project_corpus.doctor._inputs import candidate_dir_files
from project_corpus.doctor._inputs import line_of
from project_corpus.doctor._inputs import load_input
from project_corpus.doctor._inputs import pointer_lines
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import LoadedJSON
from project_corpus.doctor.records import check
from project_corpus.doctor.report import candidate_count
from project_corpus.doctor.report import lint_report

if TYPE_CHECKING:
    from project_corpus.corpus.candidate import Problem


def file_candidates(value: object) -> list[tuple[str, object]]:
    """(pointer prefix, candidate) for each candidate a file holds."""
    if isinstance(value, list):
        return [(f"/{number}", entry) for number, entry in enumerate(value)]
    return [("", value)]


def file_issues(loaded: LoadedJSON, corpus: Corpus) -> list[Issue]:
    """Every problem of every candidate in LOADED as an Issue at the candidate file."""
    from project_corpus.corpus.candidate import candidate_problems  # only when there are candidates

    issues: list[Issue] = []
    lines: dict[str, int] | None = None
    for prefix, candidate in file_candidates(loaded.value):
        for problem in candidate_problems(corpus, candidate):
            lines = pointer_lines(loaded.text) if lines is None else lines
            issues.append(_issue(loaded.path, prefix + problem.pointer, problem, lines))
    return issues


def _issue(path: str, pointer: str, problem: Problem, lines: dict[str, int]) -> Issue:
    extra: list[tuple[str, str | int]] = [("pointer", pointer)]
    if problem.source_path is not None:
        extra.append(("source_path", problem.source_path))
    if problem.source_line is not None:
        extra.append(("source_line", problem.source_line))
    shown = pointer or "/"
    return Issue(
        problem.code,
        path,
        line_of(lines, pointer),
        f"{shown}: {problem.detail}",
        anchor=f"{problem.code}:{pointer}:{problem.detail}",
        extra=tuple(extra),
    )


@check("CANDIDATE_SCHEMA", "candidate-schema", severity="FAIL", needs="candidates")
def candidate_schema(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.candidate.candidate_problems`.

    ## Why it matters
    Candidate v1 has exactly the keys `schema_version` ("1"), `candidate_id`, `project_id`,
    `kind`, `statement`, `source_refs`, `created_at` and `status` ("candidate"). A reviewer
    and every tool must be able to read it without guessing.

    ## Fix
    Add the missing keys, remove the others (the finding's `pointer` names the key).
    """
    yield from this.from_candidates(view)


@check("CANDIDATE_PROJECT", "candidate-project", severity="FAIL", needs="candidates")
def candidate_project(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.candidate.candidate_problems`.

    ## Why it matters
    A candidate proposes memory for one project; accepting another project's candidate
    would leak its claims into this corpus.

    ## Fix
    Set `project_id` to the `Project-ID` of `.project-corpus/state/PROJECT.md`, or move
    the candidate to the project it belongs to.
    """
    yield from this.from_candidates(view)


@check("CANDIDATE_ID", "candidate-id", severity="FAIL", needs="candidates")
def candidate_id(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.candidate.candidate_problems`.

    ## Why it matters
    The ID names the candidate in reviews, receipts and file names.

    ## Fix
    Use 3 to 64 lowercase letters, digits, `.`, `_` or `-`, starting with a letter or digit.
    """
    yield from this.from_candidates(view)


@check("CANDIDATE_KIND", "candidate-kind", severity="FAIL", needs="candidates")
def candidate_kind(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.candidate.candidate_problems`.

    ## Why it matters
    The kind tells the reviewer what sort of memory is proposed and where it would go.

    ## Fix
    Use one of `semantic_fact`, `episodic_evidence`, `procedural_knowledge`,
    `environment_gotcha`, `premise`, `resource_reference` (a string, not a list).
    """
    yield from this.from_candidates(view)


@check("CANDIDATE_STATEMENT", "candidate-statement", severity="FAIL", needs="candidates")
def candidate_statement(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.candidate.candidate_problems`.

    ## Why it matters
    The statement is the claim under review; an empty one says nothing and a huge one
    cannot be reviewed or delivered within an agent's budget.

    ## Fix
    State one claim in at most 4,000 characters; split longer material into candidates.
    """
    yield from this.from_candidates(view)


@check("CANDIDATE_TIME", "candidate-time", severity="FAIL", needs="candidates")
def candidate_time(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.candidate.candidate_problems`.

    ## Why it matters
    Reviewers order and expire candidates by this time; `2026-02-30T00:00:00Z` or a local
    time with an offset would be guessed at.

    ## Fix
    Write the creation time in UTC with seconds and a `Z`, e.g. `2026-11-20T09:00:00Z`.
    """
    yield from this.from_candidates(view)


@check("CANDIDATE_EVIDENCE", "candidate-evidence", severity="FAIL", needs="candidates")
def candidate_evidence(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.candidate.validate_candidate`.

    ## Why it matters
    Evidence must point at the exact current text: a stale SHA-256, a line past the end, a
    path outside `state/`, `tasks/`, `reports/` and `history/`, a policy-denied file or
    another project's document is not evidence. `source_refs` holds 1 to 32 objects with
    exactly `source_path`, `source_sha256` and `line_start` (an integer ≥ 1).

    ## Fix
    Re-read the source, then copy its current path, SHA-256 and line into the ref. The
    finding's `source_path` and `source_line` name the referenced source.
    """
    yield from this.from_candidates(view)


@check(
    "CANDIDATE_WITHOUT_EVIDENCE", "candidate-without-evidence", severity="FAIL", needs="candidates"
)
def candidate_without_evidence(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A candidate has an empty source_refs list: a claim without evidence.

    Detected by `project_corpus.corpus.candidate.validate_candidate`.

    ## Why it matters
    Memory without evidence cannot be verified by the reviewer or re-checked later. (The
    library `validate_candidate` raises this case as `CANDIDATE_EVIDENCE`.)

    ## Fix
    Add at least one source ref to the Task, Report, History or state line it rests on.
    """
    yield from this.from_candidates(view)


def lint_candidates(root: str | os.PathLike[str], files: Sequence[str]) -> dict[str, object]:
    """The `context candidate-validate` report: every problem of every candidate in FILES
    (default: every `*.json` in .project-corpus/candidates/), against the strict snapshot.
    With no candidate there is nothing to validate: a corpus that does not conform is the
    doctor's finding, not this report's (one red pre-commit hook per cause)."""
    opened = open_root(root)
    path = opened.path
    loaded = [load_input(path, f) for f in files] if files else candidate_dir_files(path)
    require_corpus(path, opened)
    corpus = collect(opened, strict=bool(loaded))
    issues = [issue for entry in loaded for issue in file_issues(entry, corpus)]
    return lint_report(corpus, issues, candidate_count(loaded), {c.code: c for c in CHECKS})


# This family's checks, in the order of docs/checks.md (the registry concatenates them, and
# `lint_candidates` reports their codes).
CHECKS: tuple[Check, ...] = (
    candidate_schema,
    candidate_project,
    candidate_id,
    candidate_kind,
    candidate_statement,
    candidate_time,
    candidate_evidence,
    candidate_without_evidence,
)
