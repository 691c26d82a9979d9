"""`context eval` end to end (SPEC §9, §10): the example dataset, failures, inputs, isolation."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from project_corpus.core.schemas import load_schema
from tests.conftest import FIXTURES
from tests.conftest import Run

CliRun = Callable[..., Run]
DATASET = "eval.json"
FOREIGN = FIXTURES / "foreign" / ".project-corpus"


def _dataset() -> dict[str, object]:
    value = json.loads((FIXTURES / "example" / DATASET).read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def _cases(dataset: dict[str, object]) -> list[dict[str, object]]:
    cases = dataset["cases"]
    assert isinstance(cases, list)
    return cases


def _results(run: Run) -> list[dict[str, object]]:
    value = run.json()
    assert isinstance(value, dict)
    results = value["results"]
    assert isinstance(results, list)
    return results


@pytest.fixture
def built(example: Path, cli: CliRun) -> Path:
    """The example corpus (tmp copy) with a freshly built index."""
    assert cli("context", "build", example).code == 0
    return example


def _write(root: Path, name: str, dataset: object) -> Path:
    path = root / name
    path.write_text(json.dumps(dataset, ensure_ascii=False), encoding="utf-8")
    return path


def test_example_dataset_passes_every_case(built: Path, cli: CliRun) -> None:
    run = cli("context", "eval", built, "--dataset", built / DATASET)
    assert run.code == 0, run.out + run.err
    report = run.json()
    assert isinstance(report, dict)
    assert report["ok"] is True
    assert report["pass_rate"] == 1.0
    assert report["case_count"] == len(_cases(_dataset())) >= 15
    assert all(r["pass"] and r["failed_metrics"] == [] for r in _results(run))
    assert report["project_policy_isolation_pass_rate"] == 1.0
    assert report["non_authoritative"] is True
    jsonschema.Draft202012Validator(load_schema("eval-result")).validate(report)


def test_example_output_never_mentions_denied_or_foreign_content(built: Path, cli: CliRun) -> None:
    for fmt in ("json", "markdown"):
        run = cli("context", "eval", built, "--dataset", built / DATASET, "--format", fmt)
        assert run.code == 0
        for marker in ("ZEBRAFISH-DENIED", "private-notes", "FOREIGN-MARKER-7Q"):
            assert marker not in run.out


def test_example_dataset_covers_the_promised_ground() -> None:
    cases = _cases(_dataset())
    queries = " ".join(str(c["query"]) for c in cases)
    assert any("\u0400" <= ch <= "\u04ff" for ch in queries)
    assert any("previous" in str(c["query"]) for c in cases)
    assert any("старый" in str(c["query"]) for c in cases)
    assert any(c.get("max_tokens", 1200) < 200 for c in cases)  # type: ignore[operator]
    scopes = [p for c in cases for p in c.get("forbidden_scope_paths", [])]  # type: ignore[attr-defined]
    assert ".project-corpus/history/private-notes.md" in scopes
    assert any(c.get("expected_project_id") for c in cases)
    banned = {s for c in cases for s in c.get("must_not_contain", [])}  # type: ignore[attr-defined]
    assert {"ZEBRAFISH-DENIED", "FOREIGN-MARKER-7Q"} <= banned
    temporal = {c.get("expected_temporal_status") for c in cases}
    assert {"current", "historical", "superseded"} <= temporal


def test_output_is_deterministic(built: Path, cli: CliRun) -> None:
    first = cli("context", "eval", built, "--dataset", built / DATASET)
    second = cli("context", "eval", built, "--dataset", built / DATASET)
    assert first.out == second.out
    assert "created_at" not in first.out


def test_changed_expectation_fails_that_case_and_names_the_metric(built: Path, cli: CliRun) -> None:
    dataset = _dataset()
    case = _cases(dataset)[0]
    case["expected_top_source_path"] = ".project-corpus/state/PROJECT.md"
    path = _write(built, "changed.json", dataset)
    run = cli("context", "eval", built, "--dataset", path)
    assert run.code == 1
    results = _results(run)
    failing = [r for r in results if not r["pass"]]
    assert [r["name"] for r in failing] == [case["name"]]
    assert failing[0]["failed_metrics"] == ["top_source_correct"]
    assert failing[0]["top_source_correct"] is False
    assert any("PROJECT.md" in str(p) for p in failing[0]["problems"])  # type: ignore[attr-defined]
    report = run.json()
    assert isinstance(report, dict)
    assert report["ok"] is False
    assert report["metric_pass_rates"]["top_source_correct"] < 1.0
    assert cli("context", "eval", built, "--dataset", path, "--exit-zero").code == 0


def test_markdown_report_shows_the_failing_case(built: Path, cli: CliRun) -> None:
    dataset = _dataset()
    _cases(dataset)[2]["must_contain"] = ["no such | text"]
    path = _write(built, "changed.json", dataset)
    run = cli("context", "eval", built, "--dataset", path, "--format", "markdown")
    assert run.code == 1
    assert run.out.startswith("## ❌ CorpusEval: orbit-cache:")
    row = next(line for line in run.out.splitlines() if line.startswith("| 2 |"))
    assert "❌" in row
    assert "must_contain_ok" in row
    assert "no such \\| text" in run.out


def test_markdown_report_of_the_example(built: Path, cli: CliRun) -> None:
    run = cli("context", "eval", built, "--dataset", built / DATASET, "--format", "markdown")
    assert run.code == 0
    count = len(_cases(_dataset()))
    assert f"{count}/{count} cases passed (100.0%)" in run.out
    rows = [line for line in run.out.splitlines() if line.startswith("| ") and "✅" in line]
    assert len(rows) == count


def _link(root: Path) -> str:
    os.symlink(root / DATASET, root / "linked.json")
    return str(root / "linked.json")


def _outside(root: Path) -> str:
    outside = root.parent / "outside.json"
    shutil.copy(root / DATASET, outside)
    return str(outside)


def _big(root: Path) -> str:
    (root / "big.json").write_text(json.dumps({"pad": "x" * (1024 * 1024)}), encoding="utf-8")
    return str(root / "big.json")


def _latin1(root: Path) -> str:
    (root / "latin1.json").write_bytes('{"name": "caf\xe9"}'.encode("latin-1"))
    return str(root / "latin1.json")


def _not_json(root: Path) -> str:
    (root / "broken.json").write_text('{"schema_version": "1", "cases": [', encoding="utf-8")
    return str(root / "broken.json")


def _nan(root: Path) -> str:
    (root / "nan.json").write_text('{"schema_version": "1", "cases": NaN}', encoding="utf-8")
    return str(root / "nan.json")


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (_outside, "CONTEXT_INPUT_PATH"),
        (_link, "CONTEXT_INPUT_PATH"),
        (_big, "CONTEXT_INPUT_PATH"),
        (lambda root: str(root / "missing.json"), "CONTEXT_INPUT_PATH"),
        (lambda root: str(root / ".project-corpus"), "CONTEXT_INPUT_PATH"),
        (lambda root: str(root / ".." / root.name / DATASET), "CONTEXT_INPUT_PATH"),
        (_latin1, "CONTEXT_INPUT_JSON"),
        (_not_json, "CONTEXT_INPUT_JSON"),
        (_nan, "CONTEXT_INPUT_JSON"),
    ],
)
def test_bad_dataset_files_are_stable_errors(
    built: Path, cli: CliRun, make: Callable[[Path], str], code: str
) -> None:
    run = cli("context", "eval", built, "--dataset", make(built))
    assert run.code == 2
    assert run.error()["error"] == code
    assert run.out == ""


def test_wrong_type_is_eval_schema_naming_case_and_key(built: Path, cli: CliRun) -> None:
    dataset = _dataset()
    case = _cases(dataset)[1]
    case["max_tokens"] = True
    run = cli("context", "eval", built, "--dataset", _write(built, "typed.json", dataset))
    assert run.code == 2
    error = run.error()
    assert error["error"] == "EVAL_SCHEMA"
    assert f'cases[1] ("{case["name"]}")' in str(error["detail"])
    assert '"max_tokens"' in str(error["detail"])


def test_unknown_key_is_eval_schema_naming_case_and_key(built: Path, cli: CliRun) -> None:
    dataset = _dataset()
    _cases(dataset)[3]["expected_top_path"] = "x"
    run = cli("context", "eval", built, "--dataset", _write(built, "typed.json", dataset))
    assert run.code == 2
    assert run.error()["error"] == "EVAL_SCHEMA"
    assert "cases[3]" in str(run.error()["detail"])
    assert "expected_top_path" in str(run.error()["detail"])


def test_schema_errors_come_before_the_index_is_read(example: Path, cli: CliRun) -> None:
    path = _write(example, "bad.json", {"schema_version": "1", "cases": []})
    run = cli("context", "eval", example, "--dataset", path)
    assert run.code == 2
    assert run.error()["error"] == "EVAL_SCHEMA"


def test_missing_index_is_index_missing(example: Path, cli: CliRun) -> None:
    run = cli("context", "eval", example, "--dataset", example / DATASET)
    assert run.code == 2
    assert run.error()["error"] == "INDEX_MISSING"


def test_stale_index_is_index_stale(built: Path, cli: CliRun) -> None:
    status = built / ".project-corpus/state/STATUS.md"
    status.write_text(status.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    run = cli("context", "eval", built, "--dataset", built / DATASET)
    assert run.code == 2
    assert run.error()["error"] == "INDEX_STALE"


def test_index_path_outside_cache_is_index_path(built: Path, cli: CliRun) -> None:
    run = cli(
        "context", "eval", built, "--dataset", built / DATASET, "--index", built / "x.sqlite3"
    )
    assert run.code == 2
    assert run.error()["error"] == "INDEX_PATH"


# --- isolation against a foreign project's files and a widened policy ----------------------------

FOREIGN_REPORT = ".project-corpus/reports/q-2026-11-12-rebalance-shadow.md"
FOREIGN_CASES = [
    {
        "name": "foreign next action",
        "query": "exact next action broker enforcing mode",
        "expected_project_id": "orbit-cache",
        "expected_top_source_path": ".project-corpus/state/STATUS.md",
        "forbidden_retrieval_source_paths": [FOREIGN_REPORT],
        "forbidden_source_paths": [FOREIGN_REPORT],
        "must_not_contain": ["FOREIGN-MARKER-7Q", "nimbus"],
    },
    {
        "name": "foreign latency",
        "query": "FOREIGN-MARKER-7Q latency benchmark enqueue",
        "expected_project_id": "orbit-cache",
        "must_not_contain": ["FOREIGN-MARKER-7Q", "enqueue"],
    },
    {
        "name": "foreign task",
        "query": "automatic partition rebalancing disk throughput",
        "expected_project_id": "orbit-cache",
        "must_not_contain": ["FOREIGN-MARKER-7Q", "partition"],
    },
]


def _drop_foreign(root: Path) -> None:
    for rel in ("reports/q-2026-10-02-latency-bench.md", f"{FOREIGN_REPORT.split('/', 1)[1]}"):
        shutil.copy(FOREIGN / rel, root / ".project-corpus" / rel)
    shutil.copy(FOREIGN / "tasks/q-007-rebalance.md", root / ".project-corpus/tasks")


def test_foreign_files_inside_the_corpus_never_reach_results_or_bundles(
    example: Path, cli: CliRun
) -> None:
    _drop_foreign(example)
    assert cli("context", "build", example).code == 0
    path = _write(example, "foreign.json", {"schema_version": "1", "cases": FOREIGN_CASES})
    run = cli("context", "eval", example, "--dataset", path)
    assert run.code == 0, run.out
    assert all(r["project_policy_isolation"] is True for r in _results(run))
    assert "FOREIGN-MARKER-7Q" not in run.out.replace('"query": "FOREIGN-MARKER-7Q', "")


def test_foreign_source_in_the_snapshot_fails_a_forbidden_scope_path(
    example: Path, cli: CliRun
) -> None:
    """Foreign sources stay in the snapshot (SPEC §2.5), so naming one as a forbidden scope
    path is a failed isolation expectation: the metric really looks at the snapshot."""
    _drop_foreign(example)
    assert cli("context", "build", example).code == 0
    case = {"query": "exact next action", "forbidden_scope_paths": [FOREIGN_REPORT]}
    path = _write(example, "foreign.json", {"schema_version": "1", "cases": [case]})
    run = cli("context", "eval", example, "--dataset", path)
    assert run.code == 1
    (result,) = _results(run)
    assert result["failed_metrics"] == ["project_policy_isolation"]
    assert result["problems"] == [
        f"project_policy_isolation: forbidden scope path {FOREIGN_REPORT} is in the snapshot"
    ]


def test_widened_policy_makes_the_denied_file_cases_fail(built: Path, cli: CliRun) -> None:
    """The example's isolation cases are not vacuous: with the denied file in scope they fail."""
    policy = built / ".project-corpus/policy.toml"
    text = policy.read_text(encoding="utf-8")
    policy.write_text(text.replace("history/2026-*.md", "history/**"), encoding="utf-8")
    assert cli("context", "build", built).code == 0
    run = cli("context", "eval", built, "--dataset", built / DATASET)
    assert run.code == 1
    failing = {str(r["name"]): r["failed_metrics"] for r in _results(run) if not r["pass"]}
    denied = [n for n in failing if "policy-denied" in n]
    assert len(denied) == 2
    for name in denied:
        assert "project_policy_isolation" in failing[name]  # type: ignore[operator]
