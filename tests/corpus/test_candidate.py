"""Candidate v1: validate_candidate, candidate_problems and the candidate-validate linter."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.core.schemas import load_schema
from project_corpus.corpus.candidate import KEYS as CANDIDATE_KEYS
from project_corpus.corpus.candidate import PROMOTION
from project_corpus.corpus.candidate import REF_KEYS
from project_corpus.corpus.candidate import candidate_problems
from project_corpus.corpus.candidate import validate_candidate
from project_corpus.corpus.snapshot import collect
from project_corpus.doctor.candidates import file_issues
from project_corpus.doctor.candidates import lint_candidates
from project_corpus.doctor.records import LoadedJSON
from project_corpus.doctor.registry import CHECKS_BY_CODE
from project_corpus.doctor.report import lint_report
from project_corpus.output import render_report
from tests.conftest import POLICY
from tests.conftest import TASK
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.doctor.support import STATUS_PATH
from tests.doctor.support import line_with
from tests.doctor.support import loads
from tests.doctor.support import valid_candidate
from tests.doctor.support import write_json

Cli = Callable[..., Run]
CANDIDATES = ".project-corpus/candidates"
PRIVATE = ".project-corpus/history/private.md"
FOREIGN = ".project-corpus/tasks/foreign.md"
SCOPED_POLICY = POLICY.replace(
    '".project-corpus/history/**"', '".project-corpus/history/2026-*.md"'
)


@pytest.fixture
def root_corpus(root: Path) -> Corpus:
    """ROOT's snapshot, read once for every example of a property (validation never changes
    it): reading it again per example was nine tenths of the property's time."""
    return collect(root)


@pytest.fixture
def root(make_corpus: MakeCorpus) -> Path:
    """The conftest corpus plus a policy-denied history file and a foreign task."""
    return make_corpus(
        {
            ".project-corpus/policy.toml": SCOPED_POLICY,
            PRIVATE: "# Private\n\n## Notes\nZEBRAFISH secret.\n",
            FOREIGN: TASK.replace("demo-project", "other-project"),
        }
    )


def ref(
    root: Path, path: str = STATUS_PATH, line: int = 10, sha: str | None = None
) -> dict[str, object]:
    source = collect(root).by_path.get(path)
    digest = sha if sha is not None else (source.sha256 if source else "0" * 64)
    return {"source_path": path, "source_sha256": digest, "line_start": line}


def test_a_valid_candidate(root: Path) -> None:
    candidate = valid_candidate(root)
    jsonschema.validate(candidate, load_schema("candidate"))
    assert candidate_problems(collect(root), candidate) == []
    assert validate_candidate(collect(root), candidate) == {
        "ok": True,
        "candidate_id": "c-latency-001",
        "project_id": "demo-project",
        "status": "candidate",
        "non_authoritative": True,
        "promotion": PROMOTION,
    }


def test_validate_raises_the_first_problem(root: Path) -> None:
    candidate = valid_candidate(root, kind="rumour", created_at="yesterday")
    with pytest.raises(ContextError) as err:
        validate_candidate(collect(root), candidate)
    assert err.value.code == "CANDIDATE_KIND"
    assert err.value.detail.startswith("/kind: ")


def test_empty_evidence_is_raised_as_candidate_evidence(root: Path) -> None:
    candidate = valid_candidate(root, source_refs=[])
    assert [p.code for p in candidate_problems(collect(root), candidate)] == [
        "CANDIDATE_WITHOUT_EVIDENCE"
    ]
    with pytest.raises(ContextError) as err:
        validate_candidate(collect(root), candidate)
    assert err.value.code == "CANDIDATE_EVIDENCE"


def bad_candidates(root: Path) -> list[tuple[dict[str, object], str, str]]:
    """(candidate, expected code, expected pointer) — one defect each."""
    status_lines = collect(root).by_path[STATUS_PATH].line_count
    return [
        (
            valid_candidate(root, source_refs=[ref(root, sha="f" * 64)]),
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/source_sha256",
        ),
        (
            valid_candidate(root, source_refs=[ref(root, line=status_lines + 1)]),
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/line_start",
        ),
        (
            valid_candidate(root, source_refs=[ref(root, "AGENTS.md", 1)]),
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/source_path",
        ),
        (
            valid_candidate(root, source_refs=[ref(root, PRIVATE, 1)]),
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/source_path",
        ),
        (
            valid_candidate(root, source_refs=[ref(root, FOREIGN, 1)]),
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/source_path",
        ),
        (valid_candidate(root, project_id="other-project"), "CANDIDATE_PROJECT", "/project_id"),
        (valid_candidate(root, kind=["semantic_fact"]), "CANDIDATE_KIND", "/kind"),
        (valid_candidate(root, statement="x" * 4001), "CANDIDATE_STATEMENT", "/statement"),
        (valid_candidate(root, source_refs=[ref(root)] * 33), "CANDIDATE_EVIDENCE", "/source_refs"),
        (valid_candidate(root, created_at="2026-02-30T00:00:00Z"), "CANDIDATE_TIME", "/created_at"),
    ]


def test_every_defect_in_one_linter_run(root: Path, cli: Cli) -> None:
    cases = bad_candidates(root)
    path = write_json(root, f"{CANDIDATES}/batch.json", [c for c, _, _ in cases])
    run = cli("context", "candidate-validate", root, path)
    assert run.code == 1
    report = loads(run.out)
    jsonschema.validate(report, load_schema("doctor-report"))
    found = {(i["code"], i["pointer"]) for i in report["issues"]}  # type: ignore[attr-defined]
    for number, (_, code, pointer) in enumerate(cases):
        assert (code, f"/{number}{pointer}") in found, (number, code, pointer)
    assert len(report["issues"]) == len(cases)  # type: ignore[arg-type]
    assert report["candidate_count"] == len(cases)
    assert "ZEBRAFISH" not in run.out


def test_ref_findings_name_the_source_and_the_line_of_the_pointer(root: Path, cli: Cli) -> None:
    candidate = valid_candidate(root, source_refs=[ref(root), ref(root, sha="e" * 64, line=3)])
    path = write_json(root, "c.json", candidate)
    run = cli("context", "candidate-validate", root, "--input", path)
    [issue] = loads(run.out)["issues"]  # type: ignore[misc]
    assert issue["path"] == "c.json"
    assert issue["pointer"] == "/source_refs/1/source_sha256"
    assert issue["source_path"] == STATUS_PATH
    assert issue["source_line"] == 3
    assert issue["line"] == line_with(root / "c.json", '"eeee')


def test_every_problem_of_one_candidate(root: Path) -> None:
    candidate = {
        "schema_version": 2,
        "candidate_id": 7,
        "project_id": None,
        "kind": {},
        "statement": [],
        "source_refs": "x",
        "created_at": 1.5,
        "status": "done",
        "more": 1,
    }
    found = [(p.code, p.pointer) for p in candidate_problems(collect(root), candidate)]
    assert found == [
        ("CANDIDATE_SCHEMA", "/more"),
        ("CANDIDATE_SCHEMA", "/schema_version"),
        ("CANDIDATE_ID", "/candidate_id"),
        ("CANDIDATE_PROJECT", "/project_id"),
        ("CANDIDATE_KIND", "/kind"),
        ("CANDIDATE_STATEMENT", "/statement"),
        ("CANDIDATE_EVIDENCE", "/source_refs"),
        ("CANDIDATE_TIME", "/created_at"),
        ("CANDIDATE_SCHEMA", "/status"),
    ]


def test_missing_keys_and_bad_refs(root: Path) -> None:
    refs = [
        1,
        {"source_path": STATUS_PATH},
        {"source_path": 3, "source_sha256": [], "line_start": True, "x~/y": 0},
    ]
    found = [(p.code, p.pointer) for p in candidate_problems(collect(root), {"source_refs": refs})]
    assert ("CANDIDATE_SCHEMA", "/candidate_id") in found
    assert ("CANDIDATE_EVIDENCE", "/source_refs/0") in found
    assert found.count(("CANDIDATE_EVIDENCE", "/source_refs/1")) == 2  # two missing keys
    assert ("CANDIDATE_EVIDENCE", "/source_refs/2/source_path") in found
    assert ("CANDIDATE_EVIDENCE", "/source_refs/2/source_sha256") in found
    assert ("CANDIDATE_EVIDENCE", "/source_refs/2/line_start") in found
    assert ("CANDIDATE_EVIDENCE", "/source_refs/2") in found  # the unknown key


@pytest.mark.parametrize("value", [None, 3, "x", [], True])
def test_a_file_of_something_else(root: Path, value: object) -> None:
    issues = file_issues(LoadedJSON("f.json", value, json.dumps(value)), collect(root))
    if value == []:
        assert issues == []
    else:
        assert [(i.code, dict(i.extra)["pointer"]) for i in issues] == [("CANDIDATE_SCHEMA", "")]


def test_default_files_are_the_candidates_folder(root: Path, cli: Cli) -> None:
    empty = cli("context", "candidate-validate", root)
    assert empty.code == 0
    assert loads(empty.out)["candidate_count"] == 0
    write_json(root, f"{CANDIDATES}/a.json", valid_candidate(root))
    write_json(root, f"{CANDIDATES}/b.json", valid_candidate(root, kind="rumour"))
    (root / CANDIDATES / "notes.txt").write_text("not json", encoding="utf-8")
    (root / CANDIDATES / "sub.json").mkdir()
    run = cli("context", "candidate-validate", root, "--format", "text")
    assert run.code == 1
    line = line_with(root / CANDIDATES / "b.json", '"kind"')
    # col of `"kind"`; the path as a shell opens it from here (ROOT as given, then the file)
    assert run.out.startswith(f"{root}/{CANDIDATES}/b.json:{line}:3: FAIL CANDIDATE_KIND ")
    assert cli("context", "candidate-validate", root, "--exit-zero").code == 0


def test_linked_candidates_are_refused(root: Path, cli: Cli, tmp_path: Path) -> None:
    outside = tmp_path / "c.json"
    outside.write_text(json.dumps(valid_candidate(root)), encoding="utf-8")
    (root / CANDIDATES).mkdir()
    (root / CANDIDATES / "linked.json").symlink_to(outside)
    run = cli("context", "candidate-validate", root)
    assert run.code == 2
    assert run.error()["error"] == "CONTEXT_INPUT_PATH"


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"{", "CONTEXT_INPUT_JSON"),
        (b"\xff\xfe[]", "CONTEXT_INPUT_JSON"),
        (b"\xef\xbb\xbf{}", "CONTEXT_INPUT_JSON"),
        (b"[NaN]", "CONTEXT_INPUT_JSON"),
        (b"[" + b" " * (1024 * 1024) + b"]", "CONTEXT_INPUT_PATH"),
    ],
)
def test_bad_input_files_exit_2(root: Path, cli: Cli, content: bytes, code: str) -> None:
    (root / "bad.json").write_bytes(content)
    run = cli("context", "candidate-validate", root, root / "bad.json")
    assert run.code == 2
    assert run.error()["error"] == code


def test_inputs_outside_root_or_linked_exit_2(root: Path, cli: Cli, tmp_path: Path) -> None:
    outside = tmp_path / "c.json"
    outside.write_text("{}", encoding="utf-8")
    (root / "linked.json").symlink_to(outside)
    for path in (outside, root / "linked.json", root / ".." / "c.json", root / "nope.json"):
        run = cli("context", "candidate-validate", root, path)
        assert run.code == 2, path
        assert run.error()["error"] == "CONTEXT_INPUT_PATH", path


def test_non_conformant_corpus_is_refused_when_there_is_a_candidate(
    make_corpus: MakeCorpus, cli: Cli
) -> None:
    root = make_corpus({STATUS_PATH: "# Status\n"})
    folder = root / ".project-corpus" / "candidates"
    folder.mkdir(exist_ok=True)
    (folder / "c.json").write_text("{}", encoding="utf-8")
    run = cli("context", "candidate-validate", root)
    assert run.code == 2
    assert run.error()["error"] == "PROTOCOL_NONCONFORMANT"


def test_with_no_candidate_a_non_conformant_corpus_is_the_doctors_finding(
    make_corpus: MakeCorpus, cli: Cli
) -> None:
    """One red pre-commit hook per cause: nothing to validate passes (#35 item 9)."""
    root = make_corpus({STATUS_PATH: "# Status\n"})
    run = cli("context", "candidate-validate", root)
    assert run.code == 0, run.err
    assert run.json()["candidate_count"] == 0
    assert cli("context", "doctor", root).code == 1
    missing = cli("context", "candidate-validate", root.parent / "not-a-corpus-here")
    assert missing.code == 2


def test_library_linter_matches_the_cli(root: Path) -> None:
    path = write_json(root, "c.json", valid_candidate(root, kind="rumour"))
    report = lint_candidates(root, [path])
    assert report["ok"] is False
    assert report["summary"] == {"FAIL": 1, "WARN": 0, "suppressed": 0}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=8)
    ),
    max_leaves=30,
)
KEYS = st.sampled_from([*CANDIDATE_KEYS, *REF_KEYS])
CANDIDATE_LIKE = st.dictionaries(
    KEYS, JSON | st.lists(st.dictionaries(KEYS, JSON), max_size=3), max_size=10
)


@settings(
    max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(st.one_of(JSON, CANDIDATE_LIKE))
def test_random_json_never_crashes(root_corpus: Corpus, value: object) -> None:
    corpus = root_corpus
    problems = candidate_problems(corpus, value)
    assert all(p.code.startswith("CANDIDATE_") for p in problems)
    if problems:
        with pytest.raises(ContextError) as err:
            validate_candidate(corpus, value)
        assert err.value.code.startswith("CANDIDATE_")
    else:
        assert validate_candidate(corpus, value)["ok"] is True
    issues = file_issues(LoadedJSON("c.json", value, json.dumps(value)), corpus)
    assert len(issues) == len(problems) or isinstance(value, list)
    report = lint_report(corpus, issues, 1, CHECKS_BY_CODE)
    for fmt in ("json", "text", "sarif", "github"):
        render_report(report, fmt).encode("utf-8")


def test_lone_surrogates_are_written_escaped(root: Path, cli: Cli) -> None:
    text = (
        '{"\\ud800": 1, "kind": "\\udc00", "source_refs": [{"source_path": "\\ud800.md",'
        ' "source_sha256": "\\ud800", "line_start": 1}]}'
    )
    (root / "c.json").write_text(text, encoding="utf-8")
    for fmt in ("json", "text", "sarif", "github"):
        run = cli("context", "candidate-validate", root, root / "c.json", "--format", fmt)
        assert run.code == 1, run.err
        assert "\\ud800" in run.out


def test_line_zero_is_not_a_line(root: Path) -> None:
    candidate = valid_candidate(root, source_refs=[ref(root, line=0)])
    [problem] = candidate_problems(collect(root), candidate)
    assert (problem.code, problem.pointer, problem.source_line) == (
        "CANDIDATE_EVIDENCE",
        "/source_refs/0/line_start",
        0,
    )
