"""`context review` on real git repositories: issue #28's scenario, end to end."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from project_corpus.core.schemas import load_schema
from project_corpus.doctor import memory_doctor
from project_corpus.output import render_report
from project_corpus.output.review import render_review
from project_corpus.review import memory_review
from tests.conftest import Run
from tests.review.support import CANDIDATE
from tests.review.support import NEW_ACTION
from tests.review.support import NEW_TASK
from tests.review.support import NOTES
from tests.review.support import OLD_ACTION
from tests.review.support import STATUS
from tests.review.support import commit_all
from tests.review.support import init_repo
from tests.review.support import isolate_git
from tests.review.support import make_head_change
from tests.review.support import status_line

Cli = Callable[..., Run]


class Scenario:
    def __init__(self, repo: Path, base: str, base_report: Path) -> None:
        self.repo, self.base, self.base_report = repo, base, base_report


@pytest.fixture
def scenario(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Scenario:
    """A repository whose base commit has the demo corpus with one volatile claim, the
    base's doctor report saved outside it, and the head change in the working tree."""
    isolate_git(monkeypatch)
    repo = init_repo(tmp_path / "repo")
    base = commit_all(repo, "base")
    base_report = tmp_path / "base-report.json"
    base_report.write_text(render_report(memory_doctor(repo), "json"), encoding="utf-8")
    make_head_change(repo)
    return Scenario(repo, base, base_report)


def schema_errors(document: object) -> list[str]:
    validator = Draft202012Validator(load_schema("review"))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def check_scenario(report: dict[str, object], action_line: int) -> None:
    """Every change of the scenario, as the JSON review reports it."""
    assert schema_errors(report) == []
    (status,) = report["status_changes"]
    assert status == {
        "field": "Exact Next Action",
        "kind": "section",
        "change": "changed",
        "before": OLD_ACTION,
        "after": NEW_ACTION,
        "line": action_line,
    }
    tasks = report["tasks"]
    assert isinstance(tasks, dict)
    assert [(t["path"], t["id"], t["state"]) for t in tasks["added"]] == [
        (NEW_TASK, "ship-review", "OPEN")
    ]
    assert tasks["removed"] == tasks["changed"] == tasks["newly_superseded"] == []
    (policy,) = report["policy_changes"]
    assert (policy["field"], policy["added"], policy["removed"]) == ("scopes.read", ["docs/**"], [])
    assert policy["needs_owner_review"] is True
    (candidate,) = report["candidates"]
    assert (candidate["path"], candidate["change"], candidate["valid"]) == (
        CANDIDATE,
        "added",
        True,
    )
    assert candidate["refs"] == [
        {
            "pointer": "/source_refs/0",
            "source_path": STATUS,
            "line_start": action_line,
            "modified_in_change": True,
        }
    ]
    findings = report["findings"]
    assert isinstance(findings, dict)
    assert [(i["code"], i["path"], i["line"]) for i in findings["new"]] == [
        ("VOLATILE_WITHOUT_FRESHNESS", NOTES, 8)
    ]
    # The old claim moved from line 5 to line 6: the same finding, not a new one.
    assert [(i["code"], i["line"]) for i in findings["unchanged"]] == [
        ("VOLATILE_WITHOUT_FRESHNESS", 6)
    ]
    assert findings["fixed"] == []
    assert report["ok"] is True  # a new WARN does not fail with --fail-on FAIL


def test_review_reports_every_change_of_the_scenario(scenario: Scenario) -> None:
    report = memory_review(scenario.repo, "main")
    check_scenario(report, status_line(scenario.repo, NEW_ACTION))
    base = report["base"]
    assert isinstance(base, dict)
    assert (base["revision"], base["commit"], base["working_tree"]) == (
        "main",
        scenario.base,
        False,
    )
    assert report["head"]["working_tree"] is True


def test_review_between_two_commits_gives_the_same_changes(scenario: Scenario) -> None:
    line = status_line(scenario.repo, NEW_ACTION)
    head = commit_all(scenario.repo, "head")
    (scenario.repo / STATUS).write_text("# changed after the head commit\n", encoding="utf-8")
    report = memory_review(scenario.repo, scenario.base, head)
    check_scenario(report, line)
    assert report["head"]["commit"] == head


def test_markdown_leads_with_status_and_names_each_change(scenario: Scenario) -> None:
    markdown = render_review(memory_review(scenario.repo, "main"), "markdown")
    sections = [line for line in markdown.splitlines() if line.startswith("### ")]
    assert sections == ["### STATUS", "### Tasks", "### Policy", "### Candidates", "### Findings"]
    assert f"| **Exact Next Action** | {OLD_ACTION} | {NEW_ACTION} |" in markdown
    assert f"- added `{NEW_TASK}` (ship-review, OPEN)" in markdown
    assert "| `scopes.read` | +docs/\\*\\* | **needed** |" in markdown
    line = status_line(scenario.repo, NEW_ACTION)
    assert f"`{STATUS}:{line}` **modified in this change**" in markdown
    assert "**1 new**, 0 fixed, 1 unchanged" in markdown
    assert f"`{NOTES}:8`" in markdown
    assert f"`{NOTES}:6`" not in markdown  # unchanged findings are counted, not listed


def test_github_format_annotates_only_the_new_finding(scenario: Scenario) -> None:
    text = render_review(memory_review(scenario.repo, "main"), "github")
    annotations = [line for line in text.splitlines() if line.startswith("::warning")]
    assert annotations == [
        f"::warning file={NOTES},line=8,col=15,title=VOLATILE_WITHOUT_FRESHNESS::"
        "A Task, Report or History item states a volatile claim without a freshness label: "
        "volatile term 'live' without a date label or Freshness-Requirement."
    ]


def test_doctor_baseline_with_the_base_report_lists_only_the_new_finding(
    scenario: Scenario,
) -> None:
    report = memory_doctor(scenario.repo, baseline=str(scenario.base_report))
    assert [(i["code"], i["path"], i["line"]) for i in report["issues"]] == [
        ("VOLATILE_WITHOUT_FRESHNESS", NOTES, 8)
    ]
    review = memory_review(scenario.repo, "main")
    new = review["findings"]["new"]
    assert [i["fingerprint"] for i in report["issues"]] == [i["fingerprint"] for i in new]


def test_cli_exit_codes_follow_fail_on(scenario: Scenario, cli: Cli) -> None:
    run = cli("context", "review", scenario.repo, "--base", "main", "--format", "json")
    assert run.code == 0, run.err
    assert schema_errors(run.json()) == []
    run = cli("context", "review", scenario.repo, "--base", "main", "--fail-on", "warn")
    assert run.code == 1
    assert json.loads(run.out)["summary"]["failing_new_findings"] == 1
    run = cli(
        "context", "review", scenario.repo, "--base", "main", "--fail-on", "WARN", "--exit-zero"
    )
    assert run.code == 0
    text = cli("context", "review", scenario.repo, "--base", "main", "--format", "text")
    assert text.out.splitlines()[0].startswith("project-corpus review: passed: 1 STATUS change(s)")
    assert f"new {NOTES}:8: VOLATILE_WITHOUT_FRESHNESS" in text.out


def test_a_new_fail_finding_fails_the_review(scenario: Scenario, cli: Cli) -> None:
    notes = scenario.repo / NOTES
    notes.write_text(notes.read_text() + "\nSupersedes: ../elsewhere.md\n", encoding="utf-8")
    run = cli("context", "review", scenario.repo, "--base", "main", "--format", "json")
    assert run.code == 1
    codes = [i["code"] for i in run.json()["findings"]["new"]]
    assert "INVALID_TEMPORAL_RELATION" in codes


def test_fixed_finding_and_task_changes(scenario: Scenario) -> None:
    """The head closes the active task, supersedes a report and drops the old claim."""
    repo = scenario.repo
    task = repo / ".project-corpus/tasks/tune-eviction.md"
    task.write_text(task.read_text().replace("Task-Status: OPEN", "Task-Status: DONE"))
    (repo / NOTES).write_text("# Notes\nOwner: ops\n\n## Notes\nWe deploy on Fridays.\n")
    path = repo / ".project-corpus/reports/bench-path.md"
    path.write_text(
        path.read_text().replace(
            "Result: PASS\n", "Result: PASS\nSupersedes: .project-corpus/reports/old-uncited.md\n"
        )
    )
    report = memory_review(repo, "main")
    assert schema_errors(report) == []
    (changed,) = report["tasks"]["changed"]
    assert changed["path"] == ".project-corpus/tasks/tune-eviction.md"
    assert [(f["field"], f["before"], f["after"]) for f in changed["fields"]] == [
        ("Task-Status", "OPEN", "DONE")
    ]
    reports = report["reports"]
    assert isinstance(reports, dict)
    assert [(r["path"], r["superseded_by"]) for r in reports["newly_superseded"]] == [
        (".project-corpus/reports/old-uncited.md", [".project-corpus/reports/bench-path.md"])
    ]
    changed_paths = {r["path"]: r for r in reports["changed"]}
    fields = {f["field"] for f in changed_paths[".project-corpus/reports/old-uncited.md"]["fields"]}
    assert fields == {"temporal_status"}
    fixed = report["findings"]["fixed"]
    assert [(i["code"], i["line"]) for i in fixed] == [("VOLATILE_WITHOUT_FRESHNESS", 5)]
