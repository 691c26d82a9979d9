"""Memory integrity: references and states that make an agent act on a wrong memory
(docs/doctor.md).

Each finding is located at the line that holds the reference (STATUS metadata, the line of
a path, link or ID). References are found and resolved by `corpus.references`, the same
resolver classification uses for citations. Foreign documents are skipped (reported once,
as PROJECT_ID_MISMATCH). Only STATUS_AGE reads the clock, and only when asked to.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC
from datetime import date
from datetime import datetime
from datetime import timedelta

from project_corpus.core.records import Corpus
from project_corpus.core.records import Document
from project_corpus.core.records import MetaLine
from project_corpus.core.records import Source
from project_corpus.core.timeparse import parse_timestamp
from project_corpus.corpus import references
from project_corpus.corpus.layout import REPORTS_DIR
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.layout import inside
from project_corpus.corpus.policy import ID_RE
from project_corpus.corpus.protocol import has_next_action
from project_corpus.corpus.vocabulary import TASK_ID
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check
from project_corpus.doctor.records import value_column

FINISHED = frozenset({"done", "closed", "cancelled", "canceled", "complete", "completed"})
DATED_NAME_RE = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")
DATE_KEYS = ("Created-At", "Date")
DATE_PREFIX_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
KIND_NAMES = {
    "path": "path",
    "link": "Markdown link",
    "id": "Evidence Reference ID",
    "task": TASK_ID,
}


# The resolution table of a snapshot, built once for both checks that need it (it costs a
# third of their time on 2,048 sources); one entry, the last snapshot's (as `analysis.analyse`).
_TARGETS: dict[int, tuple[Corpus, references.Targets]] = {}


def _targets(corpus: Corpus) -> references.Targets:
    cached = _TARGETS.get(id(corpus))
    if cached is not None and cached[0] is corpus:
        return cached[1]
    table = references.targets((s.path, s.doc) for s in corpus.sources)
    _TARGETS.clear()
    _TARGETS[id(corpus)] = (corpus, table)
    return table


def _status(view: DoctorView) -> Document | None:
    source = view.corpus.by_path.get(STATUS_PATH)
    return source.doc if source is not None else None


def _active_line(view: DoctorView) -> tuple[Document, MetaLine] | None:
    """STATUS and its `Active-Task-ID` line when it names a task (a valid ID, not NONE)."""
    status = _status(view)
    entry = status.meta_line("Active-Task-ID") if status is not None else None
    if status is None or entry is None or not ID_RE.match(entry.value):
        return None
    return status, entry


REPORTS_PREFIX = inside(REPORTS_DIR)


@check("ACTIVE_TASK_MISSING", "active-task-missing", severity="FAIL")
def active_task_missing(view: DoctorView, this: Check) -> Iterator[Issue]:
    """STATUS Active-Task-ID names a task whose file is absent or out of read scope.

    ## Why it matters
    The active task is the agent's current assignment: its objective, scope and acceptance
    criteria. When `.project-corpus/tasks/<id>.md` is not a scoped source, the current state
    points at nothing and an agent works without its brief (or invents one).

    ## Fix
    Restore or rename the task file to `.project-corpus/tasks/<Active-Task-ID>.md`, widen
    the read scope if the policy denies it, or set `Active-Task-ID: NONE`.
    """
    found = _active_line(view)
    active = view.corpus.active_path
    if found is None or active is None or active in view.corpus.by_path:
        return
    status, entry = found
    why = references.unresolved_reason(view.corpus.root, view.corpus.policy.read, active)
    detail = f"Active-Task-ID: {entry.value}: {active} {why}"
    anchor = f"Active-Task-ID {active}"
    column = value_column(status, entry.line)
    yield this.issue(STATUS_PATH, entry.line, detail, anchor, column=column)


@check("ACTIVE_TASK_CLOSED", "active-task-closed", severity="WARN")
def active_task_closed(view: DoctorView, this: Check) -> Iterator[Issue]:
    """STATUS is ACTIVE but its active Task's Task-Status says the task is finished.

    ## Why it matters
    A `DONE`, `CLOSED`, `CANCELLED` or `COMPLETE` task (any case; `COMPLETED` and `CANCELED`
    too) cannot be the current work; an agent resumes a task that was finished, or STATUS
    forgot to move on to the next one.

    ## Fix
    Point `Active-Task-ID` at the task now in progress (or `NONE`), or reopen the task.
    """
    found = _active_line(view)
    task = view.corpus.by_path.get(view.corpus.active_path or "")
    if found is None or task is None or task.foreign:
        return
    status, entry = found
    state = task.doc.meta_line("Task-Status")
    if status.meta_value("Lifecycle-Status") != "ACTIVE" or state is None:
        return
    if state.value.casefold() in FINISHED:
        detail = f"{task.path}:{state.line} has Task-Status: {state.value}"
        column = value_column(status, entry.line)
        anchor = f"closed {task.path}"
        yield this.issue(STATUS_PATH, entry.line, detail, anchor, column=column)


@check("LIFECYCLE_MISMATCH", "lifecycle-mismatch", severity="WARN")
def lifecycle_mismatch(view: DoctorView, this: Check) -> Iterator[Issue]:
    """STATUS Lifecycle-Status contradicts its active task or its next action.

    ## Why it matters
    `COMPLETE` with an `Active-Task-ID` other than `NONE` says both "nothing left to do"
    and "this is the current task"; `ACTIVE` with `Active-Task-ID: NONE` and no real Exact
    Next Action leaves an agent with work to do and nothing to do it on.

    ## Fix
    For a finished project set `Active-Task-ID: NONE`; for an active one name the task, or
    write the Exact Next Action.
    """
    status = _status(view)
    if status is None:
        return
    lifecycle = status.meta_line("Lifecycle-Status")
    active = status.meta_line("Active-Task-ID")
    if lifecycle is None or active is None:
        return
    if lifecycle.value == "COMPLETE" and active.value != "NONE":
        detail = f"Lifecycle-Status: COMPLETE with Active-Task-ID: {active.value}"
        column = value_column(status, active.line)
        anchor = "COMPLETE with task"
        yield this.issue(STATUS_PATH, active.line, detail, anchor, column=column)
    if lifecycle.value == "ACTIVE" and active.value == "NONE" and not has_next_action(status):
        detail = "Lifecycle-Status: ACTIVE with Active-Task-ID: NONE and no Exact Next Action"
        column = value_column(status, lifecycle.line)
        anchor = "ACTIVE, no work"
        yield this.issue(STATUS_PATH, lifecycle.line, detail, anchor, column=column)


@check("BROKEN_REFERENCE", "broken-reference", severity="WARN")
def broken_reference(view: DoctorView) -> Iterator[Issue]:
    """A reference to a corpus document resolves to nothing in scope.

    ## Why it matters
    A portable path (`.project-corpus/…/x.md`) anywhere in a document, a bare Report-ID in
    STATUS `## Evidence References`, a Report's `Task-ID` or a relative Markdown link
    (`[x](../reports/x.md)`, anchor dropped, `%`-escapes decoded) is evidence an agent will
    look for. Renamed or deleted, it is evidence that is no longer there. A target that
    exists but that the policy denies is reported as outside the read scope (nothing about
    its content is read). `Supersedes:` lines are ORPHAN_SUPERSESSION's, not this check's.

    ## Fix
    Point the reference at the document's current path or ID, restore the document, or
    remove the reference.
    """
    corpus = view.corpus
    citing = _citing_paths(corpus)
    supersedes = {(rel.source, rel.line) for rel in corpus.relations}
    for source in corpus.sources:
        if source.foreign:
            continue
        for ref in _unresolved(corpus, source, supersedes):
            if source.path in citing and ref.target.startswith(REPORTS_PREFIX):
                continue  # a citation: CITED_REPORT_MISSING's
            yield _broken(view, source, ref)


def _unresolved(
    corpus: Corpus, source: Source, supersedes: set[tuple[str, int]]
) -> Iterator[references.Reference]:
    """SOURCE's references that resolve to no scoped source, each (line, text) once; the
    `Supersedes:` lines of SUPERSEDES (source, line) are ORPHAN_SUPERSESSION's."""
    table = _targets(corpus)
    seen: set[tuple[int, str]] = set()
    for ref in references.references(source.path, source.doc, table):
        key = (ref.line, ref.text)
        if ref.target in table.sources or key in seen or (source.path, ref.line) in supersedes:
            continue
        seen.add(key)
        yield ref


def _citing_paths(corpus: Corpus) -> frozenset[str]:
    """The documents whose report references are citations (docs/protocol.md): STATUS and
    the active Task."""
    return frozenset(p for p in (STATUS_PATH, corpus.active_path) if p is not None)


@check("CITED_REPORT_MISSING", "cited-report-missing", severity="FAIL")
def cited_report_missing(view: DoctorView, this: Check) -> Iterator[Issue]:
    """STATUS or the active Task cites a report that is absent or out of read scope.

    ## Why it matters
    A cited report is the evidence the current state rests on: a path or relative link to
    `.project-corpus/reports/…` in STATUS or the active Task, or a bare Report-ID in STATUS
    `## Evidence References`. Deleted or renamed, the current state claims evidence that is
    no longer there, and an agent acts on a baseline nobody can check. (Other documents'
    broken references are BROKEN_REFERENCE, a warning.)

    ## Fix
    Restore the report, point the citation at its current path or Report-ID, or remove the
    citation from STATUS (and update the baseline it supported).
    """
    corpus = view.corpus
    supersedes = {(rel.source, rel.line) for rel in corpus.relations}
    for path in sorted(_citing_paths(corpus)):
        source = corpus.by_path.get(path)
        if source is None or source.foreign:
            continue
        for ref in _unresolved(corpus, source, supersedes):
            if ref.target.startswith(REPORTS_PREFIX):
                issue = _broken(view, source, ref)
                yield issue._replace(code=this.code, anchor=f"cited {issue.anchor}")


def _broken(view: DoctorView, source: Source, ref: references.Reference) -> Issue:
    why = references.unresolved_reason(view.corpus.root, view.corpus.policy.read, ref.target)
    named = ref.text if ref.text == ref.target else f"{ref.text} ({ref.target})"
    if ref.kind == "id" and why == "does not exist":
        named, why = ref.text, "names no report or task"
    detail = f"{KIND_NAMES[ref.kind]} {named} {why}"
    anchor = f"{ref.kind}:{ref.text}"
    return Issue("BROKEN_REFERENCE", source.path, ref.line, detail, anchor, column=ref.column)


def document_date(source: Source, floor: str = "") -> tuple[str, int] | None:
    """A Report's or History's own date and the line holding it: its first `Created-At` or
    `Date` metadata that parses, else a `YYYY-MM-DD` in its file name (line 1).

    A value whose `YYYY-MM-DD` is before FLOOR gives None unparsed: no offset moves a time
    by a day, so it cannot be after the day following FLOOR (parsing is 80% of the check)."""
    for entry in source.doc.meta:
        if entry.key in DATE_KEYS:
            if entry.value[:10] < floor and DATE_PREFIX_RE.match(entry.value):
                return None
            parsed = parse_timestamp(entry.value)
            if parsed:
                return parsed, entry.line
    match = DATED_NAME_RE.search(source.path.rsplit("/", 1)[-1])
    parsed = parse_timestamp(match.group(1)) if match else None
    return (parsed, 1) if parsed else None


@check("STATUS_BEHIND_EVIDENCE", "status-behind-evidence", severity="WARN")
def status_behind_evidence(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A Report or History dated after STATUS Last-Verified-At is not cited by STATUS.

    ## Why it matters
    The document records something that happened after STATUS was last verified, and STATUS
    does not refer to it (by path, relative link, or Report-ID in `## Evidence References`):
    the current state may not reflect it. Deterministic: it compares the corpus's own dates
    (`Created-At`/`Date`, else a `YYYY-MM-DD` file name) with `Last-Verified-At`, never the
    clock. Superseded documents are skipped. Reported at the document's date line.

    ## Fix
    Review the document; update STATUS (cite it in `## Evidence References`) and move
    `Last-Verified-At` to the time of that review.
    """
    status = _status(view)
    verified = view.corpus.last_verified_at
    if status is None or verified is None:
        return
    cited = references.status_citations(status, _targets(view.corpus))
    floor = (date.fromisoformat(verified[:10]) - timedelta(days=1)).isoformat()
    for source in view.corpus.sources:
        if source.source_type not in ("report", "history") or source.foreign:
            continue
        if source.temporal_status == "superseded" or source.path in cited:
            continue
        dated = document_date(source, floor)
        if dated is not None and dated[0] > verified:
            detail = f"dated {dated[0]}, after STATUS Last-Verified-At {verified}"
            yield this.issue(source.path, dated[1], detail, "not in STATUS")


@check("UNVERIFIED_STATUS", "unverified-status", severity="WARN")
def unverified_status(view: DoctorView, this: Check) -> Iterator[Issue]:
    """STATUS is ACTIVE but says it is unverified.

    ## Why it matters
    `Last-Verified-At: UNVERIFIED` or `Evidence-Class: UNVERIFIED` on an `ACTIVE` project
    means the current state agents act on was never checked against evidence.

    ## Fix
    Verify the baseline, then record when (`Last-Verified-At: 2026-11-20T09:00:00Z`) and how
    (`Evidence-Class: OBSERVED`, `DOCUMENTED` or `INFERRED`).
    """
    status = _status(view)
    if status is None or status.meta_value("Lifecycle-Status") != "ACTIVE":
        return
    for key in ("Last-Verified-At", "Evidence-Class"):
        entry = status.meta_line(key)
        if entry is not None and entry.value == "UNVERIFIED":
            column = value_column(status, entry.line)
            detail = f"{key}: UNVERIFIED"
            yield this.issue(STATUS_PATH, entry.line, detail, key, column=column)


@check("STATUS_AGE", "status-age", severity="WARN", needs="clock")
def status_age(view: DoctorView, this: Check) -> Iterator[Issue]:
    """STATUS was last verified more days before today than status_max_age_days allows.

    ## Why it matters
    A state verified long ago may no longer be true. This is the only check that reads the
    clock, so it is off by default: the same corpus would pass today and fail next month.
    Turn it on with `status_max_age_days: N` in lint.yaml or `--max-status-age N`; it
    reports a `Last-Verified-At` more than N whole days before today (UTC).

    ## Fix
    Re-verify the current state and update `Last-Verified-At`.
    """
    status = _status(view)
    limit = view.config.status_max_age_days
    entry = status.meta_line("Last-Verified-At") if status is not None else None
    verified = parse_timestamp(entry.value) if entry is not None else None
    if status is None or entry is None or verified is None or limit is None:
        return
    today = view.today or datetime.now(UTC).date()
    age = (today - date.fromisoformat(verified[:10])).days
    if age > limit:
        detail = f"Last-Verified-At {entry.value} is {age} days old (limit {limit})"
        column = value_column(status, entry.line)
        yield this.issue(STATUS_PATH, entry.line, detail, "Last-Verified-At", column=column)


# This family's checks, in the order of docs/checks.md (the registry concatenates them).
CHECKS: tuple[Check, ...] = (
    active_task_missing,
    active_task_closed,
    lifecycle_mismatch,
    broken_reference,
    cited_report_missing,
    status_behind_evidence,
    unverified_status,
    status_age,
)
