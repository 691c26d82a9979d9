"""The doctor's linter conventions (SPEC §8): --select/--ignore, --statistics, --quiet,
--no-show-source, case-insensitive values, lint.yaml names and `explain`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.doctor import CHECKS
from project_corpus.doctor import CHECKS_BY_CODE
from tests.conftest import MakeCorpus
from tests.conftest import Run

Cli = Callable[..., Run]
HISTORY = ".project-corpus/history/notes.md"
NOTES = (
    "# Notes\nOwner: ops\nCreated-At: soon\n\n## Notes\n"
    "We currently deploy on Fridays.\n\n"
    "Supersedes: .project-corpus/reports/gone.md\n"
)


@pytest.fixture
def root(make_corpus: MakeCorpus) -> Path:
    return make_corpus({HISTORY: NOTES})


def found(run: Run) -> list[str]:
    return sorted(issue["code"] for issue in json.loads(run.out)["issues"])


def test_select_and_ignore_take_codes_or_names_in_any_case(root: Path, cli: Cli) -> None:
    everything = found(cli("context", "doctor", root))
    assert everything == ["INVALID_TIMESTAMP", "ORPHAN_SUPERSESSION", "VOLATILE_WITHOUT_FRESHNESS"]
    selected = cli(
        "context", "doctor", root, "--select", "volatile-without-freshness,Invalid_Timestamp"
    )
    assert found(selected) == ["INVALID_TIMESTAMP", "VOLATILE_WITHOUT_FRESHNESS"]
    narrowed = cli(
        "context", "doctor", root, "--select", "INVALID_TIMESTAMP", "--select",
        "ORPHAN_SUPERSESSION", "--ignore", "invalid-timestamp",
    )  # fmt: skip
    assert found(narrowed) == ["ORPHAN_SUPERSESSION"]
    assert "INVALID_TIMESTAMP" in json.loads(narrowed.out)["checks_skipped"]


def test_select_narrows_the_configured_set(root: Path, cli: Cli) -> None:
    (root / ".project-corpus/lint.yaml").write_text(
        "rules:\n  volatile-without-freshness: off\n  invalid-timestamp: FAIL\n"
        "ignore:\n  - paths: ['.project-corpus/history/*']\n    codes: [orphan-supersession]\n",
        encoding="utf-8",
    )
    run = cli("context", "doctor", root, "--select", "VOLATILE_WITHOUT_FRESHNESS,INVALID_TIMESTAMP")
    report = json.loads(run.out)
    assert [(i["code"], i["severity"]) for i in report["issues"]] == [("INVALID_TIMESTAMP", "FAIL")]
    assert run.code == 1


def test_unknown_check_is_a_usage_error_with_a_guess(root: Path, cli: Cli) -> None:
    run = cli("context", "doctor", root, "--ignore", "VOLATILE_WITHOUT_FRESHNES")
    envelope = run.error()
    assert (run.code, envelope["error"]) == (2, "USAGE_ERROR")
    assert "VOLATILE_WITHOUT_FRESHNESS" in str(envelope["hint"])


def test_fail_on_is_case_insensitive(root: Path, cli: Cli) -> None:
    assert cli("context", "doctor", root, "--fail-on", "warn").code == 1
    assert cli("context", "doctor", root, "--fail-on", "Fail").code == 0
    assert cli("context", "doctor", root, "--format", "TEXT").out.startswith(f"{root}/{HISTORY}")


def test_text_statistics_quiet_and_source(
    root: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(root)
    full = cli("context", "doctor", "--format", "text", "--statistics").out.splitlines()
    # the column of the value, the caret under it, the check's fix
    assert full[0].startswith(f"{HISTORY}:3:13: WARN INVALID_TIMESTAMP ")
    assert full[1:3] == ["    Created-At: soon", "                ^"]
    assert full[3] == "    help: Write `2026-09-17` or `2026-09-17T08:30:00Z`."
    # as flake8's: the count, then (severity,) code and message: the check's summary
    summary = CHECKS_BY_CODE["VOLATILE_WITHOUT_FRESHNESS"].summary
    assert f"1      WARN VOLATILE_WITHOUT_FRESHNESS {summary}" in full
    assert full[-1].startswith("project-corpus: 0 FAIL, 3 WARN")
    quiet = cli("context", "doctor", root, "--format", "text", "-q", "--no-show-source").out
    assert [line.split(":")[1] for line in quiet.splitlines()] == ["3", "6", "8"]


def test_lint_yaml_names_are_accepted_once(root: Path, cli: Cli) -> None:
    config = root / ".project-corpus/lint.yaml"
    config.write_text("rules:\n  invalid-timestamp: off\n", encoding="utf-8")
    assert "INVALID_TIMESTAMP" not in found(cli("context", "doctor", root))
    config.write_text("rules:\n  invalid-timestamp: off\n  INVALID_TIMESTAMP: WARN\n")
    assert cli("context", "doctor", root).error()["error"] == "CONFIG_INVALID"


@pytest.mark.parametrize("item", CHECKS[::9], ids=lambda c: c.code)
def test_explain_prints_the_registry_documentation(cli: Cli, item: object) -> None:
    code, name, doc = item.code, item.name, item.doc  # type: ignore[attr-defined]
    for given in (code, name, code.lower()):
        run = cli("explain", given, "--format", "text")
        assert run.code == 0
        assert run.out.startswith(f"{code} ({name})")
        assert doc in run.out
    assert json.loads(cli("explain", code).out)["doc"] == doc


def test_explain_guesses_and_lists(cli: Cli) -> None:
    run = cli("explain", "ORPHAN_SUPERSESION")
    assert (run.code, run.error()["error"]) == (2, "USAGE_ERROR")
    assert "ORPHAN_SUPERSESSION" in str(run.error()["hint"])
    listing = json.loads(cli("explain").out)["checks"]
    assert [row["code"] for row in listing] == [c.code for c in CHECKS]
