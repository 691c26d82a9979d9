"""Mistakes people make, caught (SPEC §8, rev. 4): a Task-Status no reader knows, and guidance
text that `init` or `new` wrote and nobody replaced.

The placeholders are read from the shipped templates (`project_corpus/scaffold/templates`,
English and Russian), never retyped here: a template edit changes what is caught.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import cache

from project_corpus.core.records import Source
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.protocol import section_text
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check
from project_corpus.doctor.records import value_column
from project_corpus.retrieval.text import normalise

# The protocol's Task-Status values (SPEC §8), compared in any case; `COMPLETED` and `CANCELED`
# are the spellings ACTIVE_TASK_CLOSED also reads as finished.
TASK_STATES = ("OPEN", "IN_PROGRESS", "BLOCKED", "DONE", "CLOSED", "CANCELLED", "COMPLETE")
SPELLINGS = ("COMPLETED", "CANCELED")
SEPARATORS_RE = re.compile(r"[\s-]+")
# The templates whose section text is guidance to replace, by the document they make.
# STATUS's template states facts that hold for a new corpus (no work recorded yet, the next
# action is to fill PROJECT), so it is not a placeholder (docs/decisions.md).
GUIDANCE = {"project": "PROJECT.md", "task": "task.md", "report": "report.md"}
WRITERS = {
    "project": "project-corpus init",
    "task": "project-corpus new",
    "report": "project-corpus new",
}
TEMPLATE_LANGUAGES = ("en", "ru")
# The package's own template files, read as files: `importlib.resources` would add a dozen
# modules (zipfile, pathlib...) to every doctor run's start-up (tests/cli/test_imports.py).
TEMPLATES_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scaffold", "templates")
HEADING_RE = re.compile(r"## (.+)")
VARIABLE_RE = re.compile(r"\$\{?(\w+)\}?")
ID_PATTERN = r"[a-z0-9][a-z0-9._-]{2,63}"  # the ID grammar (corpus.policy.ID_RE), bounded


def state_key(value: str) -> str:
    """A Task-Status value as compared: casefolded, runs of spaces and hyphens as `_`."""
    return SEPARATORS_RE.sub("_", value.strip()).casefold()


@check("UNKNOWN_TASK_STATUS", "unknown-task-status", severity="WARN")
def unknown_task_status(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A Task's `Task-Status` is not a state the protocol or the configuration knows.

    ## Why it matters
    Agents and `context review` decide from `Task-Status` whether a task is open or finished
    (ACTIVE_TASK_CLOSED reads it); `in progress maybe` or a typo such as `DOEN` is neither,
    so the task's state is silently unknown. Known: `OPEN`, `IN_PROGRESS`, `BLOCKED`, `DONE`,
    `CLOSED`, `CANCELLED`, `COMPLETE` (any case; spaces or hyphens for `_`; `COMPLETED` and
    `CANCELED` too), plus the values listed under `task_states:` in lint.yaml. Reported at
    the value.

    ## Fix
    Write one of the known states, or add the project's own state to `task_states:` in
    `.project-corpus/lint.yaml`.
    """
    known = {state_key(s) for s in (*TASK_STATES, *SPELLINGS, *view.config.task_states)}
    for source in view.corpus.sources:
        if source.source_type != "task" or source.foreign:
            continue
        for entry in source.doc.meta:
            if entry.key == "Task-Status" and state_key(entry.value) not in known:
                yield this.issue(
                    source.path,
                    entry.line,
                    f"Task-Status {entry.value!r} is not a known state",
                    anchor=f"Task-Status:{normalise(entry.value)}",
                    column=value_column(source.doc, entry.line),
                )


@check("SCAFFOLD_PLACEHOLDER", "scaffold-placeholder", severity="WARN")
def scaffold_placeholder(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A section still holds the guidance text that `init` or `new` wrote.

    ## Why it matters
    `init` fills PROJECT's sections, and `new task|report` a Task's or Report's, with a line
    saying what belongs there ("What this project exists to achieve..."). Left unchanged,
    the corpus conforms but tells agents nothing: the objective, the scope or the evidence
    they read is the template's. The guidance lines are those of the shipped English and
    Russian templates (any ID in their place); each one left is reported at its line.

    ## Fix
    Replace the line with the project's own facts (`NONE` where a section has nothing).
    """
    for source in view.corpus.sources:
        kind = _kind(source)
        if kind is None or source.foreign:
            continue
        for title, patterns in placeholders()[kind].items():
            for line, text in section_text(source.doc, title):
                if any(p.fullmatch(text.strip()) for p in patterns):
                    detail = f"`## {title}` is unchanged since `{WRITERS[kind]}`"
                    column = len(text) - len(text.lstrip()) + 1
                    anchor = f"{title}:{normalise(text)}"
                    yield this.issue(source.path, line, detail, anchor, column=column)


def _kind(source: Source) -> str | None:
    if source.path == PROJECT_PATH:
        return "project"
    return source.source_type if source.source_type in ("task", "report") else None


@cache
def placeholders() -> dict[str, dict[str, tuple[re.Pattern[str], ...]]]:
    """{document kind: {section title: patterns of its template lines}}, every language's."""
    found: dict[str, dict[str, tuple[re.Pattern[str], ...]]] = {}
    for kind, name in GUIDANCE.items():
        sections: dict[str, tuple[re.Pattern[str], ...]] = {}
        for language in TEMPLATE_LANGUAGES:
            with open(os.path.join(TEMPLATES_DIR, language, name), encoding="utf-8") as file:
                text = file.read()
            for title, line in template_lines(text):
                sections[title] = (*sections.get(title, ()), line_pattern(line))
        found[kind] = sections
    return found


def template_lines(text: str) -> Iterator[tuple[str, str]]:
    """(H2 title, line) of each non-blank line of a template's sections, but `NONE`."""
    title = None
    for line in text.splitlines():
        heading = HEADING_RE.fullmatch(line)
        if heading:
            title = heading.group(1).strip()
        elif title is not None and line.strip() and line.strip() != "NONE":
            yield title, line.strip()


def line_pattern(line: str) -> re.Pattern[str]:
    """LINE of a template as a pattern: its text verbatim, each `$variable` any value of its
    kind (an ID for `*_id`, else a bounded run of text)."""
    parts = VARIABLE_RE.split(line)
    body = "".join(
        re.escape(part)
        if index % 2 == 0
        else (ID_PATTERN if part.endswith("_id") else r"[^\n]{1,200}?")
        for index, part in enumerate(parts)
    )
    return re.compile(body)


CHECKS: tuple[Check, ...] = (unknown_task_status, scaffold_placeholder)
