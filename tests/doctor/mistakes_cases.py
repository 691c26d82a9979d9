"""Failing and passing fixtures of SPEC §8's "mistakes people make" (merged into test_checks):
a Task or Report of another protocol version, an unknown Task-Status, guidance text left as
`init`/`new` wrote it, a dated log entry's claims, and where bad UTF-8 starts.

Lines of the base corpus (`tests/conftest.py`): the Task's `Task-Status` is line 5; a
Report's `Protocol-Version` line 2.
"""

from __future__ import annotations

from tests.conftest import PROJECT
from tests.conftest import TASK
from tests.conftest import report
from tests.doctor.support import Case

TASK_PATH = ".project-corpus/tasks/tune-eviction.md"
PROJECT_PATH = ".project-corpus/state/PROJECT.md"
NEW = ".project-corpus/reports/bench-new.md"
HISTORY = ".project-corpus/history/notes.md"
LINT = ".project-corpus/lint.yaml"
OBJECTIVE = "Build a small, fast read-through cache for the catalogue service."
# The guidance lines of the shipped templates (scaffold/templates/{en,ru}), as `new` fills them.
TASK_GUIDANCE = "The outcome task tune-eviction must produce."
RU_SCOPE = "Файлы, компоненты или вопросы, которые задача tune-eviction может затрагивать."
REPORT_GUIDANCE = "Commands, runs, commits or documents a reader can check for bench-new."


def task_status(value: str) -> dict[str, str | bytes | None]:
    return {TASK_PATH: TASK.replace("Task-Status: OPEN", f"Task-Status: {value}")}


def dated(path: str, meta: str, body: str) -> dict[str, str | bytes | None]:
    return {path: f"# Notes\n{meta}\n\n## Notes\n{body}\n"}


MISTAKES_FAILING: dict[str, list[Case]] = {
    "UNKNOWN_TASK_STATUS": [
        Case(task_status("in progress maybe"), TASK_PATH, 5),
        Case(task_status("DOEN"), TASK_PATH, 5),
        Case(task_status(""), TASK_PATH, 5),
        # a state the configuration adds is known only by its own spelling
        Case({**task_status("WAITING"), LINT: "task_states: [REVIEW]\n"}, TASK_PATH, 5),
    ],
    "SCAFFOLD_PLACEHOLDER": [
        Case(
            {
                PROJECT_PATH: PROJECT.replace(
                    OBJECTIVE, "What this project exists to achieve, in one or two sentences."
                )
            },
            PROJECT_PATH,
            7,
        ),
        Case(
            {TASK_PATH: TASK.replace("Reduce evictions of hot catalogue pages.", TASK_GUIDANCE)},
            TASK_PATH,
            9,
        ),
        Case(
            {TASK_PATH: TASK.replace("The eviction policy module.", f"  {RU_SCOPE}")}, TASK_PATH, 12
        ),
        Case(
            {
                NEW: report("bench-new", "2026-11-21", "Fine.").replace(
                    "Benchmark run bench-new on the staging cluster.", REPORT_GUIDANCE
                )
            },
            NEW,
            12,
        ),
    ],
}

MISTAKES_PASSING: dict[str, list[Case]] = {
    "UNKNOWN_TASK_STATUS": [
        Case(task_status(state))
        for state in (
            "in_progress",
            "In Progress",
            "blocked",
            "Done",
            "closed",
            "CANCELLED",
            "complete",
            "COMPLETED",
        )
    ]
    + [Case({**task_status("waiting"), LINT: "task_states: [WAITING, review]\n"})],
    "SCAFFOLD_PLACEHOLDER": [
        # edited guidance is the project's own text
        Case(
            {
                TASK_PATH: TASK.replace(
                    "Reduce evictions of hot catalogue pages.",
                    TASK_GUIDANCE + " Also: fewer misses.",
                )
            }
        ),
        # a guidance line under another section, or in History, is not the template's
        Case({TASK_PATH: TASK.replace("The eviction policy module.", TASK_GUIDANCE)}),
        Case(
            dated(
                HISTORY,
                "Owner: ops",
                "What this project exists to achieve, in one or two sentences.",
            )
        ),
    ],
}
