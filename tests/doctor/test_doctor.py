"""Memory Doctor as a whole: fixtures, report shape, exit codes, fingerprints, no writes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.core.schemas import load_schema
from project_corpus.doctor import CHECKS
from project_corpus.output import render_report
from tests.conftest import FIXTURES
from tests.conftest import STATUS
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.conftest import copy_fixture
from tests.conftest import tree_digest
from tests.doctor.support import INDEX_REL
from tests.doctor.support import STATUS_PATH
from tests.doctor.support import build
from tests.doctor.support import doctor
from tests.doctor.support import issues
from tests.doctor.support import loads
from tests.doctor.support import located
from tests.doctor.support import sql
from tests.doctor.support import valid_candidate
from tests.doctor.support import write_bundle
from tests.doctor.support import write_json

Cli = Callable[..., Run]
HISTORY = ".project-corpus/history/notes.md"
INVALID = sorted(p.name for p in (FIXTURES / "invalid").iterdir() if p.is_dir())
WARNING_ONLY = {HISTORY: "# Notes\nOwner: ops\n\n## Notes\nWe currently deploy on Fridays.\n"}
FAILING = {HISTORY: "# Notes\nOwner: ops\n\n## Notes\nSupersedes: ../elsewhere.md\n"}


def private_copy(name: str, tmp_path: Path) -> Path:
    return copy_fixture(FIXTURES / name, tmp_path / name)


def test_invalid_fixture_directories_exist() -> None:
    assert len(INVALID) >= 20


@pytest.mark.parametrize("code", INVALID)
def test_each_invalid_fixture_fails_with_exactly_its_code(code: str, tmp_path: Path) -> None:
    root = private_copy(f"invalid/{code}", tmp_path)
    result = doctor(root)
    fails = {i["code"] for i in issues(result) if i["severity"] == "FAIL"}
    assert fails == {code}
    assert result["ok"] is False


def test_example_is_clean_and_untouched(example: Path) -> None:
    before = tree_digest(example)
    result = doctor(example, check_index=True)
    assert [i["code"] for i in issues(result)] == ["INDEX_MISSING"]
    result = doctor(example)
    assert result["issues"] == []
    assert result["ok"] is True
    assert result["summary"] == {"FAIL": 0, "WARN": 0, "suppressed": 0}
    assert tree_digest(example) == before


def test_report_shape(make_corpus: MakeCorpus) -> None:
    root = make_corpus({**WARNING_ONLY, ".project-corpus/reports/x.md": "# x\n"})
    result = doctor(
        root, candidates=[write_json(root, "c.json", valid_candidate(root, kind="rumour"))]
    )
    jsonschema.validate(result, load_schema("doctor-report"))
    assert result["project_id"] == "demo-project"
    assert result["source_count"] == 10
    assert result["candidate_count"] == 1
    assert result["non_authoritative"] is True
    keys = [(i["path"], i["line"], i["code"]) for i in result["issues"]]  # type: ignore[attr-defined]
    assert keys == sorted(keys)
    assert {"ARTIFACT_SHAPE", "VOLATILE_WITHOUT_FRESHNESS", "CANDIDATE_KIND"} <= {
        k[2] for k in keys
    }


def test_checks_skipped_lists_checks_without_their_input(make_corpus: MakeCorpus) -> None:
    skipped = set(doctor(make_corpus())["checks_skipped"])  # type: ignore[arg-type]
    expected = {c.code for c in CHECKS if c.needs}
    assert skipped == expected
    assert "INDEX_MISSING" in skipped
    assert "DUPLICATE_MEMORY_ITEM" not in skipped


def test_unusable_index_skips_the_comparisons(make_corpus: MakeCorpus) -> None:
    result = doctor(make_corpus(), check_index=True)
    assert located(result) == {("INDEX_MISSING", INDEX_REL, 1)}
    assert "STALE_INDEX" in result["checks_skipped"]  # type: ignore[operator]
    assert "INDEX_MISSING" not in result["checks_skipped"]  # type: ignore[operator]


def test_index_path_outside_the_cache_reports_no_absolute_path(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere" / "x.sqlite3"
    result = doctor(make_corpus(), index=str(outside))
    [issue] = issues(result)
    assert issue["code"] == "INDEX_PATH"
    assert issue["path"] == ".project-corpus/cache"
    assert str(tmp_path) not in str(result)


def test_missing_project_does_not_flood_foreign_mismatches(make_corpus: MakeCorpus) -> None:
    result = doctor(make_corpus({".project-corpus/state/PROJECT.md": None}))
    assert result["project_id"] is None
    assert {i["code"] for i in issues(result)} == {"MISSING_REQUIRED_PATH"}


def test_ok_follows_fail_on(make_corpus: MakeCorpus) -> None:
    root = make_corpus(WARNING_ONLY)
    assert doctor(root)["ok"] is True
    assert doctor(root, fail_on="WARN")["ok"] is False
    with pytest.raises(ContextError) as err:
        doctor(root, fail_on="NOTE")
    assert err.value.code == "USAGE_ERROR"


def test_limits_still_raise(make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("project_corpus.corpus.snapshot.MAX_SOURCES", 2)
    with pytest.raises(ContextError) as err:
        doctor(make_corpus())
    assert err.value.code == "CONTEXT_LIMIT"


# --- fingerprints --------------------------------------------------------------------------------


def test_fingerprint_survives_moved_lines(make_corpus: MakeCorpus) -> None:
    first = issues(doctor(make_corpus(WARNING_ONLY, name="a")))
    moved = {
        HISTORY: WARNING_ONLY[HISTORY].replace("## Notes\n", "## Notes\nAn unrelated line.\n\n")
    }
    second = issues(doctor(make_corpus(moved, name="b")))
    assert first[0]["line"] != second[0]["line"]
    assert first[0]["fingerprint"] == second[0]["fingerprint"]


def test_identical_findings_have_distinct_fingerprints(make_corpus: MakeCorpus) -> None:
    body = "We currently deploy.\n\nWe currently deploy.\n"
    found = issues(doctor(make_corpus({HISTORY: f"# Notes\n\n## Notes\n{body}"})))
    volatile = [i["fingerprint"] for i in found if i["code"] == "VOLATILE_WITHOUT_FRESHNESS"]
    assert len(volatile) == 2
    assert len(set(volatile)) == 2


# --- the CLI -------------------------------------------------------------------------------------


def test_cli_exit_codes(make_corpus: MakeCorpus, cli: Cli) -> None:
    clean, warn, fail = (
        make_corpus(name="a"),
        make_corpus(WARNING_ONLY, name="b"),
        make_corpus(FAILING, name="c"),
    )
    assert cli("context", "doctor", clean).code == 0
    assert cli("context", "doctor", warn).code == 0
    assert cli("context", "doctor", warn, "--fail-on", "WARN").code == 1
    assert cli("context", "doctor", fail).code == 1
    assert cli("context", "doctor", fail, "--exit-zero").code == 0
    assert cli("context", "doctor", warn, "--fail-on", "WARN", "--exit-zero").code == 0


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"{not json", "CONTEXT_INPUT_JSON"),
        (b"\xff\xfe{}", "CONTEXT_INPUT_JSON"),
        (b" " * (1024 * 1024 + 1), "CONTEXT_INPUT_PATH"),
    ],
)
def test_cli_bad_bundle_file_exits_2(
    make_corpus: MakeCorpus, cli: Cli, content: bytes, code: str
) -> None:
    root = make_corpus()
    (root / "bundle.json").write_bytes(content)
    run = cli("context", "doctor", root, "--bundle", root / "bundle.json")
    assert run.code == 2
    assert run.error()["error"] == code


def test_cli_bundle_outside_root_or_linked_exits_2(
    make_corpus: MakeCorpus, cli: Cli, tmp_path: Path
) -> None:
    root = make_corpus()
    outside = tmp_path / "outside.json"
    outside.write_text("{}", encoding="utf-8")
    (root / "linked.json").symlink_to(outside)
    for path in (outside, root / "linked.json", root / "missing.json"):
        run = cli("context", "doctor", root, "--bundle", path)
        assert run.code == 2, path
        assert run.error()["error"] == "CONTEXT_INPUT_PATH", path


def test_cli_non_object_bundle_is_a_hash_finding(make_corpus: MakeCorpus, cli: Cli) -> None:
    root = make_corpus()
    write_json(root, "bundle.json", [1, 2])
    run = cli("context", "doctor", root, "--bundle", root / "bundle.json")
    assert run.code == 1
    assert [i["code"] for i in loads(run.out)["issues"]] == ["BUNDLE_HASH"]  # type: ignore[union-attr]


def test_cli_valid_bundle_and_candidate_are_clean(make_corpus: MakeCorpus, cli: Cli) -> None:
    root = make_corpus()
    bundle = write_bundle(root)
    candidate = write_json(
        root, "c.json", [valid_candidate(root), valid_candidate(root, candidate_id="c-2")]
    )
    run = cli("context", "doctor", root, "--bundle", bundle, "--candidate", candidate)
    assert run.code == 0, run.out
    assert loads(run.out)["candidate_count"] == 2


def test_cli_bad_config_exits_2(make_corpus: MakeCorpus, cli: Cli) -> None:
    root = make_corpus({".project-corpus/lint.yaml": "rules: {NOT_A_CODE: off}\n"})
    run = cli("context", "doctor", root)
    assert run.code == 2
    assert run.error()["error"] == "CONFIG_INVALID"


def test_cli_output_file(make_corpus: MakeCorpus, cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "report.txt"
    run = cli("context", "doctor", make_corpus(FAILING), "--format", "text", "--output", out)
    assert run.code == 1
    assert run.out == ""
    text = out.read_text(encoding="utf-8")
    root = tmp_path / "corpus"  # make_corpus's folder, named as given
    # column 13: the value of `Supersedes: ...`
    assert text.startswith(f"{root}/{HISTORY}:5:13: FAIL INVALID_TEMPORAL_RELATION ")
    assert "\x1b[" not in text  # never colour into a file


def test_cli_status_line_of_text_output(
    make_corpus: MakeCorpus, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = STATUS.replace("ACTIVE", "RUNNING")
    monkeypatch.chdir(make_corpus({STATUS_PATH: broken}))
    run = cli("context", "doctor", "--format", "text")  # ROOT defaults to "."
    lines = run.out.splitlines()
    assert lines[0].startswith(f"{STATUS_PATH}:4:19: FAIL INVALID_METADATA ")  # the value
    assert lines[1:3] == ["    Lifecycle-Status: RUNNING", "                      ^"]
    assert lines[3].startswith("    help: ")  # the check's fix
    assert lines[-1] == "project-corpus: 1 FAIL, 0 WARN, 0 suppressed in 8 sources; failed"


def test_doctor_imports_no_yaml_or_jsonschema_without_a_config(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    code = (
        "import sys; from project_corpus.doctor import memory_doctor; memory_doctor(sys.argv[1]);"
        "from project_corpus.output import render_report;"
        "bad = {'yaml', 'jsonschema', 'mcp'} & set(sys.modules); assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code, str(root)], check=True)


LINES = st.sampled_from(
    [
        "",
        "## Notes",
        "We currently deploy.",
        "As of 2026-11-01 it is live.",
        "Supersedes: ../x.md",
        "Supersedes: .project-corpus/reports/bench-old.md",
        "Supersedes: .project-corpus/history/h.md",
        "<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->",
        "<!-- project-corpus: disable-file DUPLICATE_MEMORY_ITEM,INVALID_TIMESTAMP -->",
        "Build a small, fast read-through cache for the catalogue service.",
        "Created-At: 2026-02-30",
        "Date: nope",
        "```",
        "- Сейчас всё работает",
        "| a | b |",
        "|---|---|",
        "Project-ID: other-project",
    ]
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(LINES | st.text(max_size=40), max_size=25))
def test_random_documents_never_crash_the_doctor(make_corpus: MakeCorpus, lines: list[str]) -> None:
    body = "\n".join(lines) + "\n"
    root = make_corpus({HISTORY: "# H\n" + body, ".project-corpus/history/h.md": body})
    result = doctor(root)
    jsonschema.validate(result, load_schema("doctor-report"))
    for fmt in ("json", "text", "sarif", "github"):
        render_report(result, fmt).encode("utf-8")


def test_bundle_without_a_snapshot_map(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    path = write_bundle(root, lambda bundle: bundle.pop("selected_source_snapshot"))
    found = [(i["code"], i["line"], i["pointer"]) for i in issues(doctor(root, bundle=path))]
    assert ("BUNDLE_SNAPSHOT", 1, "/selected_source_snapshot") in found
    assert "BUNDLE_STALE_SOURCE" not in {code for code, _, _ in found}


def test_broken_provenance_variants(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    build(root)
    task = ".project-corpus/tasks/tune-eviction.md"
    sql(root, f"UPDATE items SET section_line = 99 WHERE source_path = '{task}' AND line_start = 9")
    sql(
        root,
        "UPDATE items SET source_path = '.project-corpus/tasks/ghost.md' WHERE line_start = 1"
        f" AND source_path = '{STATUS_PATH}'",
    )
    found = issues(doctor(root, check_index=True))
    details = sorted(str(i["detail"]) for i in found if i["code"] == "BROKEN_PROVENANCE")
    assert len(details) == 2
    assert details[0].startswith("1 stored item(s) of .project-corpus/tasks/ghost.md")


def test_index_over_the_limit_still_raises(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    build(root)
    monkeypatch.setattr("project_corpus.index.store.MAX_INDEX_BYTES", 100)
    with pytest.raises(ContextError) as err:
        doctor(root, check_index=True)
    assert err.value.code == "CONTEXT_LIMIT"
