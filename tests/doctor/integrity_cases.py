"""Failing and passing fixtures of the memory integrity checks (merged into test_checks).

Each failing case changes the base corpus of `tests/conftest.py` in one way; the line is the
line that holds the reference. STATUS lines of the base corpus: 4 Lifecycle-Status,
5 Active-Task-ID, 6 Last-Verified-At, 7 Evidence-Class, 17-18 Evidence References.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from tests.conftest import POLICY
from tests.conftest import STATUS
from tests.conftest import TASK
from tests.conftest import report
from tests.doctor.support import STATUS_PATH
from tests.doctor.support import Case
from tests.doctor.support import Setup
from tests.doctor.support import write_json

POLICY_PATH = ".project-corpus/policy.toml"
TASK_PATH = ".project-corpus/tasks/tune-eviction.md"
OTHER_TASK = ".project-corpus/tasks/t-other.md"
OLD = ".project-corpus/reports/bench-old.md"
LATE = ".project-corpus/reports/bench-late.md"
HISTORY = ".project-corpus/history/notes.md"
DATED_HISTORY = ".project-corpus/history/2026-11-30-retro.md"


def history(body: str) -> str:
    return f"# Notes\nDate: 2026-02-01\n\n## Notes\n{body}\n"


def status(old: str, new: str) -> dict[str, str | bytes | None]:
    assert old in STATUS
    return {STATUS_PATH: STATUS.replace(old, new)}


def scope(old: str, new: str) -> dict[str, str | bytes | None]:
    assert old in POLICY
    return {POLICY_PATH: POLICY.replace(old, new)}


def aged(days: int, today: date) -> Setup:
    return lambda root: {"max_status_age": days, "today": today}


def aged_by_config(days: int, today: date) -> Setup:
    def setup(root: Path) -> dict[str, object]:
        config = write_json(root, "lint.yaml", {"status_max_age_days": days})
        return {"config": config, "today": today}

    return setup


LATE_REPORT = report("bench-late", "2026-11-25", "Latency rose to 5 ms under the new load.")
EVIDENCE = "- bench-new\n"

INTEGRITY_FAILING: dict[str, list[Case]] = {
    "ACTIVE_TASK_MISSING": [
        Case({TASK_PATH: None}, STATUS_PATH, 5),
        Case(status("Active-Task-ID: tune-eviction", "Active-Task-ID: t-404"), STATUS_PATH, 5),
        # The file exists, but the policy does not let it be read.
        Case(scope(".project-corpus/tasks/**", ".project-corpus/tasks/t-*.md"), STATUS_PATH, 5),
    ],
    "ACTIVE_TASK_CLOSED": [
        Case({TASK_PATH: TASK.replace("Task-Status: OPEN", "Task-Status: DONE")}, STATUS_PATH, 5),
        Case(
            {TASK_PATH: TASK.replace("Task-Status: OPEN", "Task-Status: cancelled")}, STATUS_PATH, 5
        ),
    ],
    "LIFECYCLE_MISMATCH": [
        Case(status("Lifecycle-Status: ACTIVE", "Lifecycle-Status: COMPLETE"), STATUS_PATH, 5),
        Case(
            {
                STATUS_PATH: STATUS.replace(
                    "Active-Task-ID: tune-eviction", "Active-Task-ID: NONE"
                ).replace("Tune the eviction policy for large catalogue pages.", "NONE")
            },
            STATUS_PATH,
            4,
        ),
    ],
    "BROKEN_REFERENCE": [
        Case({HISTORY: history("See .project-corpus/reports/gone.md for the run.")}, HISTORY, 5),
        Case({OLD: report("bench-old", "2026-10-01", "Old.", "Task-ID: gone-task\n")}, OLD, 7),
        Case({HISTORY: history("Read [the run](../reports/bench%20gone.md#results).")}, HISTORY, 5),
        Case({HISTORY: history("[run]: ../reports/gone.md")}, HISTORY, 5),
        Case(
            {
                **scope(".project-corpus/reports/**", ".project-corpus/reports/bench-*.md"),
                HISTORY: history("See .project-corpus/reports/old-uncited.md."),
            },
            HISTORY,
            5,
        ),
    ],
    "CITED_REPORT_MISSING": [
        Case(status(EVIDENCE, EVIDENCE + "- bench-gone — the removed run\n"), STATUS_PATH, 18),
        Case(status(EVIDENCE, EVIDENCE + "- see `bench-gone` too\n"), STATUS_PATH, 18),
        # The cited report deleted: cited by path in STATUS, by ID in STATUS.
        Case({".project-corpus/reports/bench-path.md": None}, STATUS_PATH, 18),
        Case({".project-corpus/reports/bench-new.md": None}, STATUS_PATH, 17),
        # The active Task cites a report by a relative link.
        Case({TASK_PATH: TASK + "\nSee [the run](../reports/gone.md).\n"}, TASK_PATH, 20),
    ],
    "STATUS_BEHIND_EVIDENCE": [
        Case({LATE: LATE_REPORT}, LATE, 6),
        Case({DATED_HISTORY: "# Retro\n\n## Notes\nWe moved the canary.\n"}, DATED_HISTORY, 1),
        Case({HISTORY: history("x").replace("2026-02-01", "2026-11-21")}, HISTORY, 2),
    ],
    "UNVERIFIED_STATUS": [
        Case(
            status("Last-Verified-At: 2026-11-20T09:00:00Z", "Last-Verified-At: UNVERIFIED"),
            STATUS_PATH,
            6,
        ),
        Case(status("Evidence-Class: OBSERVED", "Evidence-Class: UNVERIFIED"), STATUS_PATH, 7),
    ],
    "STATUS_AGE": [
        Case({}, STATUS_PATH, 6, aged(30, date(2027, 1, 1))),
        Case({}, STATUS_PATH, 6, aged_by_config(0, date(2026, 11, 21))),
    ],
}

INTEGRITY_PASSING: dict[str, list[Case]] = {
    "ACTIVE_TASK_MISSING": [
        Case({}),
        Case(status("Active-Task-ID: tune-eviction", "Active-Task-ID: NONE")),
    ],
    "ACTIVE_TASK_CLOSED": [
        Case({}),
        Case(
            {
                TASK_PATH: TASK.replace("Task-Status: OPEN", "Task-Status: DONE"),
                **status("Lifecycle-Status: ACTIVE", "Lifecycle-Status: PAUSED"),
            }
        ),
    ],
    "LIFECYCLE_MISMATCH": [
        Case({}),
        Case(
            status(
                "Lifecycle-Status: ACTIVE\nActive-Task-ID: tune-eviction",
                "Lifecycle-Status: COMPLETE\nActive-Task-ID: NONE",
            )
        ),
        Case(status("Active-Task-ID: tune-eviction", "Active-Task-ID: NONE")),
    ],
    "BROKEN_REFERENCE": [
        Case({}),
        Case(
            {
                HISTORY: history(
                    "Read [the old run](../reports/bench-old.md#summary), "
                    "[the spec](https://example.org/spec.md), [top](#notes), "
                    "[readme](../../README.md) and [same](.project-corpus/reports/bench-old.md).\n\n"
                    "```\nSee .project-corpus/reports/gone.md and [x](../reports/gone.md)\n```\n\n"
                    "Supersedes: .project-corpus/reports/gone-too.md"
                )
            }
        ),
        Case(status(EVIDENCE, EVIDENCE + "- none yet: the follow-up run is pending\n")),
        Case(
            {
                ".project-corpus/reports/bench old.md": report(
                    "bench old", "2026-10-04", "Spaced."
                ),
                HISTORY: history("[spaced](../reports/bench%20old.md)"),
            }
        ),
    ],
    "CITED_REPORT_MISSING": [
        Case({}),
        # Another task's missing report is BROKEN_REFERENCE's, not a citation.
        Case({OTHER_TASK: TASK.replace("tune-eviction", "t-other") + "\n[r](../reports/x.md)\n"}),
        Case(status(EVIDENCE, EVIDENCE + "- none yet: the follow-up run is pending\n")),
    ],
    "STATUS_BEHIND_EVIDENCE": [
        Case({}),
        Case({LATE: LATE_REPORT, **status(EVIDENCE, EVIDENCE + "- bench-late\n")}),
        Case(
            {
                LATE: LATE_REPORT,
                **status(EVIDENCE, EVIDENCE + "- [late run](../reports/bench-late.md)\n"),
            }
        ),
        Case(
            {
                LATE: LATE_REPORT,
                HISTORY: history(f"Supersedes: {LATE}").replace("2026-02-01", "2026-11-26"),
                **status(EVIDENCE, EVIDENCE + f"- {HISTORY}\n"),
            }
        ),
        Case({HISTORY: history("x").replace("2026-02-01", "2026-11-20")}),
    ],
    "UNVERIFIED_STATUS": [
        Case({}),
        Case(
            {
                STATUS_PATH: STATUS.replace(
                    "Lifecycle-Status: ACTIVE", "Lifecycle-Status: PAUSED"
                ).replace("Last-Verified-At: 2026-11-20T09:00:00Z", "Last-Verified-At: UNVERIFIED")
            }
        ),
    ],
    "STATUS_AGE": [
        Case({}, setup=aged(30, date(2026, 12, 20))),
        Case({}, setup=aged_by_config(0, date(2026, 11, 20))),
    ],
}
