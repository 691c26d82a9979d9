"""Text findings a person can click: paths from the current folder, the severity on every
line, the line and column of the token; ROOT defaults to `.`; a folder without a corpus
points to `init` (issue #25)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.output.text import FINDING_LINE
from tests.conftest import MakeCorpus
from tests.conftest import Run

Cli = Callable[..., Run]
NOTE = ".project-corpus/history/notes.md"
STATUS = ".project-corpus/state/STATUS.md"
# A volatile term on the second line of a paragraph; a broken link in the middle of a line.
BODY = (
    "# Notes\nOwner: ops\n\n## Notes\n"
    "The canary pool takes ten percent of reads\nand is currently serving them.\n\n"
    "The first run is in [the old report](../reports/gone.md) for reference.\n"
)


@pytest.fixture
def parent(make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder above a corpus called `corpus`, as the current folder."""
    root = make_corpus({NOTE: BODY})
    monkeypatch.chdir(root.parent)
    return root


def finding_lines(out: str) -> list[re.Match[str]]:
    return [m for m in (re.match(FINDING_LINE, line) for line in out.splitlines()) if m]


def test_text_paths_start_from_the_current_folder(parent: Path, cli: Cli) -> None:
    run = cli("context", "doctor", parent.name, "--format", "text")
    found = {(m["path"], m["code"]) for m in finding_lines(run.out)}
    assert (f"{parent.name}/{NOTE}", "VOLATILE_WITHOUT_FRESHNESS") in found
    for match in finding_lines(run.out):
        assert Path(match["path"]).is_file()  # the shell opens it from here
    # ./corpus/ and corpus/ name the same folder the same way
    again = cli("context", "doctor", f"./{parent.name}/", "--format", "text")
    assert again.out == run.out
    # JSON and SARIF stay ROOT-relative
    report = json.loads(cli("context", "doctor", parent.name, "--format", "json").out)
    assert {issue["path"] for issue in report["issues"]} >= {NOTE}
    sarif = json.loads(cli("context", "doctor", parent.name, "--format", "sarif").out)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in sarif["runs"][0]["results"]
    }
    assert NOTE in uris


def test_github_annotations_name_the_file_from_the_current_folder(parent: Path, cli: Cli) -> None:
    out = cli("context", "doctor", parent.name, "--format", "github").out
    assert f"::warning file={parent.name}/{NOTE},line=6,col=8," in out


def test_every_finding_line_carries_its_severity(parent: Path, cli: Cli) -> None:
    (parent / STATUS).write_text(
        (parent / STATUS).read_text().replace("Lifecycle-Status: ACTIVE", "Lifecycle-Status: ON")
    )
    run = cli("context", "doctor", parent.name, "--format", "text", "--no-show-source")
    report = json.loads(cli("context", "doctor", parent.name, "--format", "json").out)
    expected = [(i["code"], i["severity"]) for i in report["issues"] if not i["suppressed"]]
    assert [(m["code"], m["severity"]) for m in finding_lines(run.out)] == expected
    assert {severity for _, severity in expected} == {"FAIL", "WARN"}


def test_line_and_column_of_the_token(parent: Path, cli: Cli) -> None:
    report = json.loads(cli("context", "doctor", parent.name, "--format", "json").out)
    where = {i["code"]: (i["line"], i.get("column")) for i in report["issues"]}
    assert where["VOLATILE_WITHOUT_FRESHNESS"] == (6, 8)  # `currently`, 2nd line of its item
    assert where["BROKEN_REFERENCE"] == (8, 38)  # the link's target
    text = cli("context", "doctor", parent.name, "--format", "text").out.splitlines()
    head = text.index(next(t for t in text if "VOLATILE_WITHOUT_FRESHNESS" in t))
    assert text[head].startswith(f"{parent.name}/{NOTE}:6:8: WARN VOLATILE_WITHOUT_FRESHNESS ")
    assert text[head + 1 : head + 3] == ["    and is currently serving them.", "           ^"]
    assert text[head + 3].startswith("    help: Date the claim in the item")


def test_the_caret_follows_tabs(make_corpus: MakeCorpus, cli: Cli) -> None:
    body = "# Notes\nOwner: ops\n\n## Notes\n-\tIt is\tcurrently up.\n"
    root = make_corpus({NOTE: body})
    text = cli("context", "doctor", root, "--format", "text").out.splitlines()
    head = text.index(next(t for t in text if "VOLATILE_WITHOUT_FRESHNESS" in t))
    assert f"{NOTE}:5:9: WARN" in text[head]  # characters, as JSON and SARIF count them
    assert text[head + 1 : head + 3] == ["    -   It is   currently up.", "                ^"]


def test_doctor_root_defaults_to_the_current_folder(
    make_corpus: MakeCorpus, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus({NOTE: BODY})
    monkeypatch.chdir(root)
    run = cli("context", "doctor", "--format", "json")
    assert json.loads(run.out) == json.loads(cli("context", "doctor", root).out)
    assert cli("context", "build").code == 0  # the other commands whose only argument is ROOT
    assert cli("context", "eval", "--dataset", "nothing.json").error()["error"] == (
        "CONTEXT_INPUT_PATH"
    )


@pytest.mark.parametrize(
    "args",
    [
        ("context", "doctor"),
        ("context", "build"),
        ("context", "query", ".", "next action"),
        ("new", "task", "t-001"),
        ("new", "report", "r-001"),
    ],
)
def test_a_folder_without_a_corpus_is_exit_2_with_the_init_hint(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    monkeypatch.chdir(tmp_path)
    run = cli(*args, "--format", "json")
    assert run.code == 2
    error = run.error()
    assert error["error"] == "CONTEXT_ROOT"
    assert error["detail"] == ". is not a Project Corpus: it has no .project-corpus/ folder"
    assert str(error["hint"]).startswith("start one with `project-corpus init`")
    assert not list(tmp_path.iterdir())  # nothing written


def test_a_folder_inside_a_project_names_the_project(
    make_corpus: MakeCorpus, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    (root / "src").mkdir()
    monkeypatch.chdir(root.parent)
    error = cli("context", "doctor", f"{root.name}/src").error()
    assert (error["error"], error["hint"]) == (
        "CONTEXT_ROOT",
        f"{root.name}/src is inside the project at {root.name}: pass that folder as ROOT",
    )
    inner = cli("context", "doctor", f"{root.name}/.project-corpus/state").error()
    assert inner["hint"] == f"use the project root instead: {root.name}"


def test_ruff_names_of_the_format_and_output_options(
    make_corpus: MakeCorpus, cli: Cli, tmp_path: Path
) -> None:
    root = make_corpus({NOTE: BODY})
    out = tmp_path / "report.json"
    run = cli("context", "doctor", root, "--output-format", "json", "--output-file", out)
    assert (run.code, run.out) == (0, "")
    assert json.loads(out.read_text())["summary"]["WARN"] >= 1
    assert cli("context", "doctor", root, "--output-format=text").out.startswith(f"{root}/")
    # an error follows the format asked for under either name
    bad = cli("context", "doctor", root, "--output-format", "text", "--config", "none.yaml")
    assert bad.err.startswith("error[CONFIG_INVALID]: none.yaml: no such file")


def test_query_and_bundle_text_name_sources_from_the_current_folder(parent: Path, cli: Cli) -> None:
    assert cli("context", "build", parent.name).code == 0
    query = cli("context", "query", parent.name, "canary pool", "--format", "text").out
    assert f" {parent.name}/{NOTE}:5-6 " in query
    bundle = cli("context", "bundle", parent.name, "canary pool", "--format", "text").out
    assert f"  - {parent.name}/{STATUS} (" in bundle
    assert f" {parent.name}/{NOTE}:5-6 " in bundle
    as_json = json.loads(cli("context", "query", parent.name, "canary pool").out)
    assert as_json["results"][0]["source_path"] == NOTE


def test_query_text_from_inside_the_root_names_root_relative_paths(
    parent: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("context", "build", parent.name).code == 0
    monkeypatch.chdir(parent)
    here = cli("context", "query", ".", "canary pool", "--format", "text").out
    assert f" {NOTE}:5-6 " in here
