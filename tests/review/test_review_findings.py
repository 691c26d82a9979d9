"""Findings about the change itself (#35 item 10, #36 item 2): a widened policy, an open Task
deleted, a lint configuration changed — each at its line, each counting for `--fail-on WARN`
— and a pull request cannot silence its own review with its own lint configuration."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from project_corpus.doctor import CHECKS
from project_corpus.output.review import render_review
from project_corpus.review import memory_review
from tests.conftest import POLICY as POLICY_TEXT
from tests.conftest import Run
from tests.conftest import write_files
from tests.review.support import NOTES
from tests.review.support import POLICY
from tests.review.support import commit_all
from tests.review.support import init_repo
from tests.review.support import isolate_git

Cli = Callable[..., Run]
LINT = ".project-corpus/lint.yaml"
TASK = ".project-corpus/tasks/tune-eviction.md"
NEW_CLAIM = "\nThe canary is live right now.\n"
READ = '".project-corpus/history/**"]'


class Case(NamedTuple):
    """A change made in the working tree over the base commit, and where the code is
    expected ((path, line), or None: not reported)."""

    change: Callable[[Path], None]
    where: tuple[str, int] | None
    before: Callable[[Path], None] | None = None  # committed to the base first


def edit(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def change(repo: Path) -> None:
        text = (repo / rel).read_text(encoding="utf-8")
        assert old in text
        (repo / rel).write_text(text.replace(old, new), encoding="utf-8")

    return change


def delete(rel: str) -> Callable[[Path], None]:
    return lambda repo: (repo / rel).unlink()


def add(rel: str, text: str) -> Callable[[Path], None]:
    return lambda repo: write_files(repo, {rel: text})


def then(*changes: Callable[[Path], None]) -> Callable[[Path], None]:
    def change(repo: Path) -> None:
        for one in changes:
            one(repo)

    return change


CLOSE_TASK = edit(TASK, "Task-Status: OPEN", "Task-Status: DONE")
FAILING: dict[str, list[Case]] = {
    "REVIEW_POLICY_WIDENED": [
        Case(edit(POLICY, READ, '".project-corpus/history/**", "docs/**"]'), (POLICY, 7)),
        Case(edit(POLICY, "write = []", 'write = [".project-corpus/state/**"]'), (POLICY, 8)),
        Case(edit(POLICY, '"mcp.stdio"]', '"mcp.stdio", "state.update"]'), (POLICY, 5)),
        Case(edit(POLICY, "expected_hash = true", "expected_hash = false"), (POLICY, 10)),
        Case(edit(POLICY, "audit_receipt = true", ""), (POLICY, 1)),
        Case(edit(POLICY, 'profile = "SAFE_EDIT"', 'profile = "MAINTAINER"'), (POLICY, 3)),
    ],
    "REVIEW_OPEN_TASK_REMOVED": [Case(delete(TASK), (TASK, 5))],  # its Task-Status line
    "REVIEW_LINT_CONFIG_CHANGED": [
        Case(add(LINT, "ignore:\n  - paths: ['**']\n"), (LINT, 1)),
        Case(add(LINT, "rules:\n  VOLATILE_WITHOUT_FRESHNESS: off\n"), (LINT, 1)),
    ],
}
PASSING: dict[str, list[Case]] = {
    "REVIEW_POLICY_WIDENED": [
        Case(edit(POLICY, ', ".project-corpus/history/**"]', "]"), None),  # narrowed
        Case(edit(POLICY, '"corpus.context", ', ""), None),  # a capability dropped
        Case(edit(POLICY, 'profile = "SAFE_EDIT"', 'profile = "READ_ONLY"'), None),
    ],
    "REVIEW_OPEN_TASK_REMOVED": [
        Case(delete(TASK), None, before=CLOSE_TASK),  # a finished task may go
        Case(then(CLOSE_TASK, add(".project-corpus/tasks/another.md", "# Task\n")), None),
    ],
    "REVIEW_LINT_CONFIG_CHANGED": [Case(add(NOTES + ".txt", "not a config\n"), None)],
}


def _params(table: dict[str, list[Case]]) -> list[object]:
    return [
        pytest.param(code, case, id=f"{code}-{n}")
        for code, cases in table.items()
        for n, case in enumerate(cases)
    ]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    isolate_git(monkeypatch)
    repo = init_repo(tmp_path / "repo")
    commit_all(repo, "base")
    return repo


def located(report: dict[str, object], code: str) -> list[tuple[object, object]]:
    new = report["findings"]["new"]  # type: ignore[index]
    return [(i["path"], i["line"]) for i in new if i["code"] == code]


@pytest.mark.parametrize(("code", "case"), _params(FAILING))
def test_a_risky_change_is_a_warn_at_its_line(repo: Path, cli: Cli, code: str, case: Case) -> None:
    case.change(repo)
    assert case.where is not None
    report = memory_review(repo, "main")
    assert located(report, code) == [case.where]
    (entry,) = [i for i in report["findings"]["new"] if i["code"] == code]  # type: ignore[index]
    assert entry["severity"] == "WARN"
    assert not entry["suppressed"]
    run = cli("context", "review", repo, "--base", "main", "--fail-on", "WARN", "--format", "json")
    assert run.code == 1
    assert code in [i["code"] for i in run.json()["findings"]["new"]]


@pytest.mark.parametrize(("code", "case"), _params(PASSING))
def test_a_safe_change_is_not_reported(repo: Path, code: str, case: Case) -> None:
    if case.before is not None:
        case.before(repo)
        commit_all(repo, "the base first")
    case.change(repo)
    assert located(memory_review(repo, "main"), code) == []


def test_every_review_check_has_failing_and_passing_cases() -> None:
    review_checks = sorted(c.code for c in CHECKS if c.needs == "review")
    assert review_checks == sorted(FAILING) == sorted(PASSING)


def test_the_review_checks_never_run_in_a_doctor(repo: Path, cli: Cli) -> None:
    run = cli("context", "doctor", repo, "--format", "json")
    skipped = run.json()["checks_skipped"]
    assert {c.code for c in CHECKS if c.needs == "review"} <= set(skipped)


@pytest.mark.parametrize(
    "config",
    [
        "ignore:\n  - paths: ['**']\n",
        "rules:\n  VOLATILE_WITHOUT_FRESHNESS: off\n",
        "volatile_terms:\n  en: [nothing-volatile]\n  ru: [ничего]\n",
    ],
)
def test_the_pull_requests_lint_config_cannot_silence_its_review(
    repo: Path, cli: Cli, config: str
) -> None:
    notes = repo / NOTES
    notes.write_text(notes.read_text(encoding="utf-8") + NEW_CLAIM, encoding="utf-8")
    write_files(repo, {LINT: config})
    run = cli("context", "review", repo, "--base", "main", "--fail-on", "WARN", "--format", "json")
    assert run.code == 1
    new = {(i["code"], i["suppressed"]) for i in run.json()["findings"]["new"]}
    assert ("VOLATILE_WITHOUT_FRESHNESS", False) in new
    assert ("REVIEW_LINT_CONFIG_CHANGED", False) in new


def test_the_bases_lint_config_is_the_one_in_force(repo: Path) -> None:
    write_files(repo, {LINT: f"ignore:\n  - paths: ['{NOTES}']\n"})
    commit_all(repo, "the base ignores the notes")
    (repo / LINT).unlink()  # the pull request removes the configuration
    notes = repo / NOTES
    notes.write_text(notes.read_text(encoding="utf-8") + NEW_CLAIM, encoding="utf-8")
    report = memory_review(repo, "main")
    new = {(i["code"], i["suppressed"]) for i in report["findings"]["new"]}  # type: ignore[index]
    assert ("VOLATILE_WITHOUT_FRESHNESS", True) in new
    assert ("REVIEW_LINT_CONFIG_CHANGED", False) in new
    assert report["ok"] is True
    markdown = render_review(report, "markdown")
    row = next(line for line in markdown.splitlines() if "VOLATILE_WITHOUT_FRESHNESS" in line)
    assert row.startswith("| ~~WARN~~ suppressed | ")
    text = render_review(report, "text")
    assert "VOLATILE_WITHOUT_FRESHNESS" not in text  # text lists unsuppressed findings only


def test_an_invalid_base_lint_config_is_config_invalid(repo: Path, cli: Cli) -> None:
    write_files(repo, {LINT: "rules: [not, a, mapping]\n"})
    commit_all(repo, "a broken configuration")
    write_files(repo, {LINT: "rules: {}\n"})
    run = cli("context", "review", repo, "--base", "main", "--format", "json")
    assert run.code == 2
    assert run.error()["error"] == "CONFIG_INVALID"


def test_text_findings_are_doctor_lines(repo: Path, cli: Cli) -> None:
    write_files(repo, {POLICY: POLICY_TEXT.replace("write = []", 'write = ["docs/**"]')})
    run = cli("context", "review", repo, "--base", "main", "--format", "text")
    lines = [line for line in run.out.splitlines() if "REVIEW_POLICY_WIDENED" in line]
    assert lines == [
        f"{POLICY}:8:1: WARN REVIEW_POLICY_WIDENED The change widens the policy: a scope, a "
        "capability, the profile or a lowered requirement: scopes.write widened by docs/**; "
        "the policy's owner should review it."
    ]


def test_a_policy_widened_by_thousands_of_scopes_is_one_bounded_finding(repo: Path) -> None:
    scopes = "".join(f'"docs/part-{k}/**", ' for k in range(20_000))
    write_files(repo, {POLICY: POLICY_TEXT.replace("read = [", f"read = [{scopes}")})
    report = memory_review(repo, "main")
    (entry,) = [i for i in report["findings"]["new"] if i["code"] == "REVIEW_POLICY_WIDENED"]  # type: ignore[index]
    assert "and 19995 more" in str(entry["detail"])
    assert len(str(entry["detail"])) < 1000
    (change,) = report["policy_changes"]  # type: ignore[misc]
    assert len(change["added"]) == 20_000
