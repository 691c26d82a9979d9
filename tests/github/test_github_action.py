"""The GitHub Action: its Python steps under fake GITHUB_* files, and its action.yml."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml
from jsonschema.validators import validator_for

from project_corpus.adapters.github import action
from project_corpus.adapters.github import views
from project_corpus.output.escape import markdown_cell
from tests.conftest import copy_fixture
from tests.conftest import valid_candidate

REPO = Path(__file__).resolve().parents[2]
ACTION_YML = REPO / "action" / "action.yml"
SARIF_SCHEMA = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"
EXAMPLE = REPO / "fixtures" / "example"
STATUS = ".project-corpus/state/STATUS.md"
SHA = "0123456789abcdef0123456789abcdef01234567"
VOLATILE_NOTE = "# Standup note\n\n## Notes\nThe canary pool is currently serving all reads.\n"


class Step(NamedTuple):
    code: int
    emitted: str
    outputs: dict[str, str]
    summary: str


def parse_outputs(text: str) -> dict[str, str]:
    """$GITHUB_OUTPUT records: `name=value` lines and `name<<DELIM` heredocs."""
    outputs: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body: list[str] = []
            for inner in lines:
                if inner == delimiter:
                    break
                body.append(inner)
            outputs[name] = "\n".join(body)
        else:
            name, _, value = line.partition("=")
            outputs[name] = value
    return outputs


class Runner(NamedTuple):
    workspace: Path
    temp: Path
    env: dict[str, str]

    def step(self, name: str, env: dict[str, str] | None = None, **inputs: str) -> Step:
        """Run step NAME with INPUTS as INPUT_* variables and ENV (e.g. DOCTOR_EXIT_CODE)."""
        out = self.temp / f"output-{name}"
        summary = self.temp / f"summary-{name}"
        for path in (out, summary):
            path.write_text("", encoding="utf-8")
        environ = {**self.env, **(env or {})}
        environ.update({"GITHUB_OUTPUT": str(out), "GITHUB_STEP_SUMMARY": str(summary)})
        environ.update({"INPUT_" + k.upper(): v for k, v in inputs.items()})
        chunks: list[str] = []
        code = action.main([name], env=environ, emit=chunks.append)
        outputs = parse_outputs(out.read_text(encoding="utf-8"))
        return Step(code, "".join(chunks), outputs, summary.read_text(encoding="utf-8"))


@pytest.fixture
def gha(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Runner:
    """A fake runner: a workspace (the cwd), RUNNER_TEMP, repository and commit."""
    workspace = tmp_path / "workspace"
    temp = tmp_path / "runner-temp"
    workspace.mkdir()
    temp.mkdir()
    monkeypatch.chdir(workspace)
    env = {
        "GITHUB_WORKSPACE": str(workspace),
        "RUNNER_TEMP": str(temp),
        "GITHUB_REPOSITORY": "octo/corpus",
        "GITHUB_SHA": SHA,
        "GITHUB_SERVER_URL": "https://github.com",
    }
    return Runner(workspace, temp, env)


def corpus(workspace: Path, variant: str, name: str = "corpus") -> Path:
    root = workspace / name if name != "." else workspace
    copy_fixture(EXAMPLE, root)
    if variant == "warn":
        (root / ".project-corpus/history/2026-standup.md").write_text(VOLATILE_NOTE)
    if variant == "fail":
        status = root / STATUS
        text = re.sub(r"Lifecycle-Status: \w+", "Lifecycle-Status: RUNNING", status.read_text())
        status.write_text(text, encoding="utf-8")
    return root


def sarif_errors(path: Path) -> list[str]:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    validator = validator_for(schema)(schema)
    log = json.loads(path.read_text(encoding="utf-8"))
    return [error.message for error in validator.iter_errors(log)]


def sarif_uris(path: Path) -> list[str]:
    log = json.loads(path.read_text(encoding="utf-8"))
    return [
        location["physicalLocation"]["artifactLocation"]["uri"]
        for run in log["runs"]
        for result in run["results"]
        for location in result.get("locations", [])
    ]


# --- doctor ---------------------------------------------------------------------------


def test_clean_corpus_passes(gha: Runner) -> None:
    corpus(gha.workspace, "clean")
    step = gha.step("doctor", root="corpus")
    assert step.code == 0
    assert step.outputs["doctor-exit-code"] == "0"
    assert step.outputs["findings"] == "0"
    assert "::error" not in step.emitted
    assert "::warning" not in step.emitted
    sarif = Path(step.outputs["sarif-file"])
    assert sarif == gha.temp / "project-corpus.sarif"
    assert sarif_errors(sarif) == []
    assert sarif_uris(sarif) == []
    assert "project-corpus doctor: passed" in step.summary
    assert "No findings." in step.summary
    finish = gha.step("fail", env={"DOCTOR_EXIT_CODE": "0"})
    assert finish.code == 0


def test_warning_only_corpus_passes_with_annotations(gha: Runner) -> None:
    corpus(gha.workspace, "warn")
    step = gha.step("doctor", root="corpus")
    assert step.outputs["doctor-exit-code"] == "0"
    assert int(step.outputs["findings"]) >= 1
    note = "file=corpus/.project-corpus/history/2026-standup.md"
    assert re.search(rf"^::warning {re.escape(note)},line=4\b", step.emitted, re.MULTILINE)
    assert "::error" not in step.emitted
    assert "VOLATILE_WITHOUT_FRESHNESS" in step.summary
    sarif = Path(step.outputs["sarif-file"])
    assert sarif_errors(sarif) == []
    assert sarif_uris(sarif) == ["corpus/.project-corpus/history/2026-standup.md"]


def test_warning_only_corpus_fails_with_fail_on_warn(gha: Runner) -> None:
    corpus(gha.workspace, "warn")
    step = gha.step("doctor", root="corpus", fail_on="WARN")
    assert step.outputs["doctor-exit-code"] == "1"
    assert "fail on WARN" in step.summary


def test_failing_corpus_fails_after_every_report(gha: Runner) -> None:
    corpus(gha.workspace, "fail")
    step = gha.step("doctor", root="corpus")
    assert step.code == 0, "the doctor step records the exit code; the last step fails"
    assert step.outputs["doctor-exit-code"] == "1"
    assert re.search(
        rf"^::error file=corpus/{re.escape(STATUS)},line=\d+.*INVALID_METADATA",
        step.emitted,
        re.MULTILINE,
    )
    sarif = Path(step.outputs["sarif-file"])
    assert sarif_errors(sarif) == []
    assert f"corpus/{STATUS}" in sarif_uris(sarif)
    link = f"https://github.com/octo/corpus/blob/{SHA}/corpus/{STATUS}#L"
    assert link in step.summary
    assert "| `INVALID_METADATA` | FAIL | 1 |" in step.summary
    result = gha.step("finish", env={"DOCTOR_EXIT_CODE": "1"})
    assert (result.code, result.outputs["exit-code"]) == (0, "1")
    final = gha.step("fail", env={"DOCTOR_EXIT_CODE": "1"})
    assert final.code == 1
    assert final.emitted.startswith("::error title=project-corpus::")


def test_root_is_the_workspace(gha: Runner) -> None:
    corpus(gha.workspace, "fail", name=".")
    step = gha.step("doctor")
    assert step.outputs["doctor-exit-code"] == "1"
    assert re.search(rf"^::error file={re.escape(STATUS)},", step.emitted, re.MULTILINE)
    assert STATUS in sarif_uris(Path(step.outputs["sarif-file"]))
    assert f"/blob/{SHA}/{STATUS}#L" in step.summary


def test_sarif_file_input_is_honoured(gha: Runner) -> None:
    corpus(gha.workspace, "clean")
    target = gha.temp / "reports" / "doctor.sarif"
    step = gha.step("doctor", root="corpus", sarif_file=str(target))
    assert step.outputs["sarif-file"] == str(target)
    assert sarif_errors(target) == []


def test_doctor_error_is_exit_2_with_an_annotation(gha: Runner) -> None:
    corpus(gha.workspace, "clean")
    (gha.workspace / "lint.yaml").write_text("no_such_key: 1\n", encoding="utf-8")
    step = gha.step("doctor", root="corpus", config="lint.yaml")
    assert step.outputs["doctor-exit-code"] == "2"
    assert step.outputs["sarif-file"] == ""
    assert step.emitted.startswith("::error title=project-corpus doctor CONFIG_INVALID::")
    assert "`CONFIG_INVALID`" in step.summary
    assert gha.step("fail", env={"DOCTOR_EXIT_CODE": "2"}).code == 2


@pytest.mark.parametrize("name", ["doctor", "candidates", "eval"])
def test_missing_root_is_an_error(gha: Runner, name: str) -> None:
    corpus(gha.workspace, "clean")
    inputs = {"candidates": ".project-corpus/candidates/*.json", "eval_dataset": "corpus/eval.json"}
    step = gha.step(name, root="corpsu", **inputs)  # a typo, not "no candidate files"
    assert step.outputs[f"{name}-exit-code"] == "2"
    assert "CONTEXT_ROOT" in step.emitted
    assert "No candidate files." not in step.summary


def test_the_doctor_runs_once_per_job(gha: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    """Annotations, SARIF and summary all come from one doctor run."""
    corpus(gha.workspace, "warn")
    calls: list[list[str]] = []
    real = action.run_cli

    def counting(args: list[str]) -> views.Completed:
        calls.append(list(args))
        return real(args)

    monkeypatch.setattr(action, "run_cli", counting)
    step = gha.step("doctor", root="corpus", fail_on="warn")  # option values: any case
    assert [args[:2] for args in calls] == [["context", "doctor"]]
    assert step.outputs["doctor-exit-code"] == "1"
    assert "::warning file=corpus/" in step.emitted
    assert sarif_uris(Path(step.outputs["sarif-file"])) == [
        "corpus/.project-corpus/history/2026-standup.md"
    ]


def test_exit_code_is_written_once(gha: Runner) -> None:
    env = {"DOCTOR_EXIT_CODE": "1"}
    output = gha.temp / "shared-output"
    output.write_text("", encoding="utf-8")
    for name in ("finish", "fail"):
        environ = {**gha.env, **env, "GITHUB_OUTPUT": str(output)}
        action.main([name], env=environ, emit=lambda text: None)
    assert output.read_text(encoding="utf-8") == "exit-code=1\n"


def test_pins_are_current_majors_with_the_version_in_a_comment() -> None:
    """Pinned by full SHA (looked up for the tag in each action's repository), version noted."""
    workflows = sorted((REPO / ".github" / "workflows").glob("*.yml"))
    files = [ACTION_YML, *workflows, REPO / "docs/github-action.md"]
    pins = {
        (m[1], m[2], m[3])
        for f in files
        for m in re.finditer(r"uses:\s*([\w.-]+/[\w./-]+)@(\S+)\s*#\s*(v\S+)", f.read_text())
    }
    assert pins == {
        ("actions/checkout", "3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
        ("actions/setup-python", "5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
        (
            "github/codeql-action/upload-sarif",
            "8aad20d150bbac5944a9f9d289da16a4b0d87c1e",
            "v4.36.2",
        ),
    }


def test_summary_is_capped_under_one_mebibyte(gha: Runner) -> None:
    root = corpus(gha.workspace, "clean")
    claim = "The shard {n} is currently serving all reads | <b>and</b> [link](x) " + "x" * 300
    for n in range(views.MAX_ROWS + 40):
        note = f"# Note {n}\n\n## Notes\n{claim.format(n=n)}\n"
        (root / f".project-corpus/history/2026-12-{n:04d}-note.md").write_text(
            note, encoding="utf-8"
        )
    step = gha.step("doctor", root="corpus")
    assert step.outputs["doctor-exit-code"] == "0"
    assert int(step.outputs["findings"]) >= views.MAX_ROWS + 40
    assert len(step.summary.encode("utf-8")) < 1024 * 1024
    assert f"Showing {views.MAX_ROWS} of" in step.summary
    assert "<b>" not in step.summary
    table_rows = [line for line in step.summary.splitlines() if line.startswith("| WARN |")]
    assert len(table_rows) == views.MAX_ROWS
    assert all(row.count(" | ") == 3 for row in table_rows), "a `|` escaped the cell"


# --- candidates and eval ----------------------------------------------------------------


def write_candidate(root: Path, name: str, **overrides: object) -> None:
    value = valid_candidate(root, **{"candidate_id": "c-action-001", **overrides})
    folder = root / ".project-corpus" / "candidates"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


def test_no_candidate_files(gha: Runner) -> None:
    corpus(gha.workspace, "clean")
    step = gha.step("candidates", root="corpus", candidates=".project-corpus/candidates/*.json")
    assert step.outputs["candidates-exit-code"] == "0"
    assert "No candidate files." in step.summary


def test_valid_candidates_pass(gha: Runner) -> None:
    root = corpus(gha.workspace, "clean")
    write_candidate(root, "c-action-001.json")
    step = gha.step("candidates", root="corpus", candidates=".project-corpus/candidates/*.json")
    assert step.outputs["candidates-exit-code"] == "0"
    assert "::error" not in step.emitted
    assert "1 file(s), 0 problem(s)" in step.summary


def test_invalid_candidate_fails_with_annotations(gha: Runner) -> None:
    root = corpus(gha.workspace, "clean")
    write_candidate(root, "c-action-001.json")
    write_candidate(root, "c-action-002.json", candidate_id="c-action-002", kind="rumour")
    step = gha.step("candidates", root="corpus", candidates=".project-corpus/candidates/*.json")
    assert step.outputs["candidates-exit-code"] == "1"
    bad = "corpus/.project-corpus/candidates/c-action-002.json"
    assert re.search(rf"^::error file={re.escape(bad)}", step.emitted, re.MULTILINE)
    assert "`CANDIDATE_KIND`" in step.summary
    assert gha.step("fail", env={"DOCTOR_EXIT_CODE": "0", "CANDIDATES_EXIT_CODE": "1"}).code == 1


def test_eval_writes_markdown_into_the_summary(gha: Runner) -> None:
    corpus(gha.workspace, "clean")
    step = gha.step("eval", root="corpus", eval_dataset="corpus/eval.json")
    assert step.outputs["eval-exit-code"] == "0", step.summary
    assert step.summary.startswith("## ✅ CorpusEval")
    assert "| case |" in step.summary


def test_eval_skipped_without_dataset(gha: Runner) -> None:
    corpus(gha.workspace, "clean")
    step = gha.step("eval", root="corpus")
    assert step.outputs["eval-exit-code"] == "0"
    assert step.summary == ""


def test_eval_error_is_recorded(gha: Runner) -> None:
    root = corpus(gha.workspace, "clean")
    (root / "bad-eval.json").write_text('{"schema_version": "1", "cases": 3}', encoding="utf-8")
    step = gha.step("eval", root="corpus", eval_dataset="corpus/bad-eval.json")
    assert step.outputs["eval-exit-code"] == "2"
    assert "EVAL_SCHEMA" in step.emitted


# --- pure helpers -----------------------------------------------------------------------


def test_combined_exit_code_is_the_worst() -> None:
    assert action.combined_exit_code({}) == 0
    assert action.combined_exit_code({"DOCTOR_EXIT_CODE": "0", "EVAL_EXIT_CODE": ""}) == 0
    assert action.combined_exit_code({"DOCTOR_EXIT_CODE": "1", "EVAL_EXIT_CODE": "2"}) == 2
    assert action.combined_exit_code({"CANDIDATES_EXIT_CODE": "garbage"}) == 3


def test_annotations_prefix_the_file_property_only() -> None:
    from project_corpus.output import github
    from project_corpus.output.text import TextOptions

    issue = {"code": "X", "severity": "FAIL", "path": "a,b.md", "line": 3, "message": "m, file=x"}
    report = {"issues": [issue], "summary": {"FAIL": 1, "WARN": 0, "suppressed": 0}}
    lines = github.render(report, TextOptions(prefix="sub dir/")).splitlines()
    assert lines[0] == "::error file=sub dir/a%2Cb.md,line=3,title=X::m, file=x"
    assert (
        github.render(report).splitlines()[0] == "::error file=a%2Cb.md,line=3,title=X::m, file=x"
    )


def test_prefix_sarif_rewrites_srcroot_uris() -> None:
    log = {
        "runs": [
            {
                "results": [
                    {
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {
                                        "uri": "a%20b.md",
                                        "uriBaseId": "%SRCROOT%",
                                    }
                                }
                            }
                        ]
                    }
                ],
                "artifacts": [{"location": {"uri": "x"}}],
            }
        ]
    }
    fixed = views.prefix_sarif(log, "my dir/")
    assert isinstance(fixed, dict)
    location = fixed["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "my%20dir/a%20b.md"


def test_write_output_uses_a_heredoc_for_multiline_values(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {"GITHUB_OUTPUT": str(out)}
    action.write_output(env, "one", "1")
    action.write_output(env, "two", "a\nb")
    action.write_output({}, "ignored", "x")
    assert parse_outputs(out.read_text()) == {"one": "1", "two": "a\nb"}


def test_summary_never_passes_one_mebibyte(tmp_path: Path) -> None:
    summary = tmp_path / "summary"
    summary.write_text("x" * (action.SUMMARY_LIMIT_BYTES - 2048), encoding="utf-8")
    env = {"GITHUB_STEP_SUMMARY": str(summary)}
    action.append_summary(env, "line\n" * 10_000)
    assert summary.stat().st_size < action.SUMMARY_LIMIT_BYTES
    action.append_summary({}, "ignored")


def test_cut_bytes_keeps_whole_lines() -> None:
    assert views.cut_bytes("short\n", 100) == "short\n"
    cut = views.cut_bytes("ab\n" * 100, 60, note="…\n")
    assert cut.endswith("ab\n…\n")
    assert len(cut.encode("utf-8")) <= 60


def test_md_cell_neutralises_markdown_and_html() -> None:
    cell = markdown_cell("a|b <script>x</script> [l](u) *e*\nnext")
    assert "|" not in cell.replace("\\|", "")
    assert "<" not in cell.replace("\\<", "")
    assert "\n" not in cell


def test_line_link_without_repository_is_plain_text() -> None:
    assert views.line_link({}, "a.md", 3) == "a.md:3"
    link = views.line_link({"GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": SHA}, "a b.md", 3)
    assert link == f"[a b.md:3](https://github.com/o/r/blob/{SHA}/a%20b.md#L3)"


def test_root_prefix(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert action.root_prefix(str(tmp_path / "a" / "b"), str(tmp_path)) == "a/b/"
    assert action.root_prefix(str(tmp_path), str(tmp_path)) == ""
    assert action.root_prefix(str(tmp_path), str(tmp_path / "a")) == ""


def test_unknown_step_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert action.main(["nope"], env={}) == 2
    assert action.main([], env={}) == 2
    assert "usage:" in capsys.readouterr().err


def test_module_runs_as_a_script(gha: Runner) -> None:
    corpus(gha.workspace, "clean")
    out = gha.temp / "out"
    env = {**os.environ, **gha.env, "GITHUB_OUTPUT": str(out), "DOCTOR_EXIT_CODE": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "project_corpus.adapters.github.action", "finish"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert parse_outputs(out.read_text()) == {"exit-code": "1"}


# --- action.yml -------------------------------------------------------------------------


def load_action() -> dict[str, object]:
    value = yaml.safe_load(ACTION_YML.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def steps() -> list[dict[str, object]]:
    runs = load_action()["runs"]
    assert isinstance(runs, dict)
    assert runs["using"] == "composite"
    result = runs["steps"]
    assert isinstance(result, list)
    return result


def check_jsonschema(schema: str, path: Path) -> subprocess.CompletedProcess[str]:
    """The real check-jsonschema CLI with a schema it ships (no network)."""
    args = [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, str(path)]
    return subprocess.run(args, capture_output=True, text=True, check=False)


def test_action_yml_matches_the_github_actions_schema() -> None:
    run = check_jsonschema("vendor.github-actions", ACTION_YML)
    assert run.returncode == 0, run.stdout + run.stderr


def test_workflow_matches_the_github_workflows_schema() -> None:
    workflow = REPO / ".github" / "workflows" / "ci.yml"
    run = check_jsonschema("vendor.github-workflows", workflow)
    assert run.returncode == 0, run.stdout + run.stderr
    text = workflow.read_text(encoding="utf-8")
    assert "uses: ./action" in text
    assert "bash .ci/run" in text


def test_every_run_step_has_a_shell_and_no_expression() -> None:
    run_steps = [step for step in steps() if "run" in step]
    assert len(run_steps) >= 5
    for step in run_steps:
        assert step.get("shell") == "bash", step.get("name")
        assert "${{" not in str(step["run"]), step.get("name")


def test_every_python_step_is_a_known_action_step() -> None:
    run = [str(step.get("run", "")) for step in steps()]
    named = {
        m
        for text in run
        for m in re.findall(r"-m project_corpus\.adapters\.github\.action (\w+)", text)
    }
    assert named == {"doctor", "review", "candidates", "eval", "finish", "fail"}
    for step in steps():
        found = re.findall(
            r"-m project_corpus\.adapters\.github\.action (\w+)", str(step.get("run", ""))
        )
        assert len(found) <= 1
        for name in found:
            assert name in action.STEPS


def test_every_uses_is_pinned_by_full_sha() -> None:
    files = [ACTION_YML, *sorted((REPO / ".github" / "workflows").glob("*.yml"))]
    assert len(files) >= 3  # the action, ci.yml, release.yml
    uses = [u for f in files for u in re.findall(r"uses:\s*(\S+)", f.read_text())]
    assert uses
    for ref in uses:
        if ref.startswith("./"):
            continue
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref), ref


def test_inputs_reach_steps_only_through_env_and_with() -> None:
    meta = load_action()
    inputs = meta["inputs"]
    assert isinstance(inputs, dict)
    assert set(inputs) == {
        "root",
        "config",
        "fail-on",
        "candidates",
        "eval-dataset",
        "sarif-file",
        "upload-sarif",
        "sarif-category",
        "review",
        "new-findings-only",
        "python-version",
    }
    text = ACTION_YML.read_text(encoding="utf-8")
    for name in inputs:
        assert f"inputs.{name}" in text, f"input {name} is never used"
    upload = next(s for s in steps() if "upload-sarif" in str(s.get("uses", "")))
    assert "inputs.upload-sarif == 'true'" in str(upload["if"])
    assert steps()[-1].get("name") == "Fail on findings", "failing must be the last step"


def test_outputs_come_from_existing_steps() -> None:
    meta = load_action()
    outputs = meta["outputs"]
    assert isinstance(outputs, dict)
    assert {"exit-code", "sarif-file", "findings"} <= set(outputs)
    ids = {step.get("id") for step in steps()}
    for output in outputs.values():
        assert isinstance(output, dict)
        step_id = re.search(r"steps\.([\w-]+)\.outputs", str(output["value"]))
        assert step_id
        assert step_id.group(1) in ids


def test_candidates_on_a_nonconformant_corpus_is_an_error(gha: Runner) -> None:
    root = corpus(gha.workspace, "fail")
    write_candidate(root, "c-action-001.json")
    step = gha.step("candidates", root="corpus", candidates=".project-corpus/candidates/*.json")
    assert step.outputs["candidates-exit-code"] == "2"
    assert step.emitted.startswith("::error title=project-corpus candidates PROTOCOL_NONCONFORMANT")


def test_eval_stops_when_the_build_fails(gha: Runner) -> None:
    corpus(gha.workspace, "fail")
    step = gha.step("eval", root="corpus", eval_dataset="corpus/eval.json")
    assert step.outputs["eval-exit-code"] == "2"
    assert "PROTOCOL_NONCONFORMANT" in step.summary


def test_empty_candidate_glob_skips() -> None:
    assert action.candidate_files(".", "") == []


def test_error_summary_without_an_envelope() -> None:
    markdown, note = views.error_summary("t", views.Completed(3, "", "Traceback: boom\n"))
    assert "`INTERNAL_ERROR`" in markdown
    assert note == "::error title=t INTERNAL_ERROR::Traceback: boom\n"


def test_default_emit_writes_stdout(gha: Runner, capsys: pytest.CaptureFixture[str]) -> None:
    env = {**gha.env, "DOCTOR_EXIT_CODE": "2"}
    assert action.main(["fail"], env=env) == 2
    assert capsys.readouterr().out.startswith("::error title=project-corpus::")


# --- review ---------------------------------------------------------------------------


class PullRequest(NamedTuple):
    base: str
    head: str
    event: Path


def pull_request(
    gha: Runner, monkeypatch: pytest.MonkeyPatch, *, event: str = "pull_request"
) -> PullRequest:
    """The workspace as a clone: the corpus in `corpus/`, a base commit, the head commit of
    issue #28's change, and the event payload naming both."""
    from tests.review.support import commit_all
    from tests.review.support import git
    from tests.review.support import init_repo
    from tests.review.support import isolate_git
    from tests.review.support import make_head_change

    isolate_git(monkeypatch)
    git(gha.workspace, "init", "-q", "-b", "main")
    init_repo(gha.workspace / "corpus", init=False)
    base = commit_all(gha.workspace, "base")
    git(gha.workspace, "checkout", "-q", "-b", "feature")
    make_head_change(gha.workspace / "corpus")
    head = commit_all(gha.workspace, "head")
    payload = (
        {"pull_request": {"base": {"sha": base}, "head": {"sha": head}}}
        if event != "push"
        else {"before": base, "after": head}
    )
    path = gha.temp / "event.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    gha.env.update({"GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": str(path)})
    return PullRequest(base, head, path)


NEW_NOTE = "corpus/.project-corpus/history/notes.md"


def test_review_writes_the_summary_and_annotates_only_new_findings(
    gha: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    pull_request(gha, monkeypatch)
    doctor = gha.step("doctor", root="corpus")
    assert doctor.outputs["doctor-exit-code"] == "0"
    assert "::warning" not in doctor.emitted  # on a pull request the review annotates
    step = gha.step("review", root="corpus")
    assert step.code == 0
    assert step.outputs["review-exit-code"] == "0"
    assert step.outputs["new-findings"] == "2"  # the new claim, the widened read scope
    warnings = [line for line in step.emitted.splitlines() if line.startswith("::warning")]
    assert warnings == [
        f"::warning file={NEW_NOTE},line=8,col=15,title=VOLATILE_WITHOUT_FRESHNESS::"
        "A Task, Report or History item states a volatile claim without a freshness label: "
        "volatile term 'live' without a date label or Freshness-Requirement.",
        "::warning file=corpus/.project-corpus/policy.toml,line=7,title=REVIEW_POLICY_WIDENED::"
        "The change widens the policy: a scope, a capability, the profile or a lowered "
        "requirement: scopes.read widened by docs/**; the policy's owner should review it.",
    ]
    assert step.summary.startswith("## ✅ project-corpus review: passed: 1 STATUS change(s)")
    assert step.summary.index("### STATUS") < step.summary.index("### Findings")
    assert "`corpus/.project-corpus/state/STATUS.md:21`" in step.summary
    assert "| `scopes.read` | +docs/\\*\\* | **needed** |" in step.summary


def test_new_findings_only_fails_on_the_review_alone(
    gha: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    pull_request(gha, monkeypatch)
    step = gha.step("review", root="corpus", fail_on="WARN")
    assert step.outputs["review-exit-code"] == "1"  # the new volatile claim
    codes = {"DOCTOR_EXIT_CODE": "1", "REVIEW_EXIT_CODE": "0"}
    assert gha.step("fail", env=codes).code == 1
    assert gha.step("fail", env=codes, new_findings_only="true").code == 0
    failing = {**codes, "REVIEW_EXIT_CODE": "1"}
    assert gha.step("fail", env=failing, new_findings_only="true").code == 1
    errors = {**codes, "DOCTOR_EXIT_CODE": "2"}
    assert gha.step("fail", env=errors, new_findings_only="true").code == 2
    no_review = {"DOCTOR_EXIT_CODE": "1", "REVIEW_EXIT_CODE": ""}
    assert gha.step("fail", env=no_review, new_findings_only="true").code == 1


def test_review_is_off_by_default_outside_pull_requests(
    gha: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    pull_request(gha, monkeypatch, event="push")
    doctor = gha.step("doctor", root="corpus")
    assert "::warning file=corpus/" in doctor.emitted  # no review: the doctor annotates
    step = gha.step("review", root="corpus")
    assert (step.outputs["review-exit-code"], step.summary) == ("", "")
    forced = gha.step("review", root="corpus", review="true")  # a push: before..after
    assert forced.outputs["review-exit-code"] == "0"
    assert "### STATUS" in forced.summary
    off = gha.step("review", root="corpus", review="false")
    assert off.outputs["review-exit-code"] == ""


def test_review_without_the_base_commit_warns_and_does_not_fail(
    gha: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    pr = pull_request(gha, monkeypatch)
    payload = {"pull_request": {"base": {"sha": "1" * 40}, "head": {"sha": pr.head}}}
    pr.event.write_text(json.dumps(payload), encoding="utf-8")
    step = gha.step("review", root="corpus")
    assert step.outputs["review-exit-code"] == ""
    assert step.emitted.startswith("::warning title=project-corpus review::")
    assert "fetch-depth: 0" in step.summary


def test_review_error_is_recorded(gha: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    pull_request(gha, monkeypatch)
    step = gha.step("review", root="corpsu")
    assert step.outputs["review-exit-code"] == "2"
    assert "CONTEXT_ROOT" in step.emitted
    assert gha.step("fail", env={"REVIEW_EXIT_CODE": "2"}).code == 2


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "not json",
        "[]",
        '{"pull_request": {"base": {"sha": "abc"}}}',
        '{"before": "0000000000000000000000000000000000000000", "after": "0000000000000000000000000000000000000000"}',
    ],
)
def test_event_without_commits_skips_the_review(gha: Runner, payload: str) -> None:
    event = gha.temp / "event.json"
    event.write_text(payload, encoding="utf-8")
    gha.env.update({"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event)})
    step = gha.step("review", root=".")
    assert step.outputs["review-exit-code"] == ""
    assert step.emitted.startswith("::notice title=project-corpus review::")
