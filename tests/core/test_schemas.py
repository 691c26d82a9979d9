"""Every shipped JSON Schema is valid, printed by `schema NAME`, and matches real outputs.

The outputs are produced by the real CLI (`main(argv)`) on real corpora; nothing here is
hand-written to fit a schema. A meta-test fails when a schema ships without being checked here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.validators import validator_for

from project_corpus.core.schemas import load_schema
from project_corpus.core.schemas import schema_names
from project_corpus.core.schemas import schema_text
from tests.conftest import FIXTURES
from tests.conftest import STATUS as DEMO_STATUS
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.conftest import copy_fixture
from tests.conftest import valid_candidate

CLI = Callable[..., Run]
REPO = Path(__file__).resolve().parents[2]
STATUS = ".project-corpus/state/STATUS.md"

# Which test below checks each schema against real documents; the meta-test keeps it complete.
CHECKED_BY = {
    "build-result": "test_build_output_matches_schema",
    "query-result": "test_query_output_matches_schema",
    "bundle": "test_bundle_output_matches_schema",
    "receipt": "test_receipt_output_matches_schema",
    "doctor-report": "test_doctor_report_matches_schema",
    "candidate": "test_accepted_candidates_match_schema",
    "eval-dataset": "test_eval_dataset_matches_schema",
    "eval-result": "test_eval_output_matches_schema",
    "error": "test_error_envelopes_match_schema",
    "review": "test_review_output_matches_schema",
    "import-result": "test_import_output_matches_schema",
}


def errors(name: str, document: object) -> list[str]:
    schema = load_schema(name)
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def ok_json(run: Run) -> object:
    assert run.code in (0, 1), run.err
    return json.loads(run.out)


# --- the schemas themselves -------------------------------------------------------------


def test_every_schema_is_checked_against_real_output() -> None:
    assert set(schema_names()) == set(CHECKED_BY), "add a real-output test and a CHECKED_BY entry"
    for test_name in CHECKED_BY.values():
        assert callable(globals().get(test_name)), test_name


@pytest.mark.parametrize("name", schema_names())
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert str(schema["$id"]).endswith(f"/{name}.schema.json")
    assert schema.get("title")
    assert schema.get("description")


@pytest.mark.parametrize("name", schema_names())
def test_schema_command_prints_the_shipped_file(cli: CLI, name: str) -> None:
    run = cli("schema", name)
    assert run.code == 0
    assert run.out == schema_text(name)
    assert json.loads(run.out) == load_schema(name)


def test_schema_command_lists_names_and_refuses_unknown(cli: CLI) -> None:
    listing = cli("schema")
    assert listing.code == 0
    assert listing.out.splitlines() == schema_names()
    unknown = cli("schema", "nope")
    assert unknown.code == 2
    assert unknown.error()["error"] == "USAGE_ERROR"
    assert errors("error", unknown.error()) == []


# --- build and query --------------------------------------------------------------------


def test_build_output_matches_schema(
    cli: CLI, example: Path, make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    minimal = tmp_path / "minimal"
    copy_fixture(FIXTURES / "minimal", minimal)
    for root in (example, make_corpus(), minimal):
        run = cli("context", "build", root)
        assert run.code == 0, run.err
        assert errors("build-result", run.json()) == []


QUERIES = [
    ("eviction benchmark", "20"),
    ("текущее состояние кэша", "5"),
    ("previous eviction benchmark history", "100"),
    ("what is the exact next action", "1"),
    ("zzqxv-unknown-vqxzz", "20"),
]


def test_every_selection_reason_of_the_real_world_questions_matches_the_schema() -> None:
    """Each reason the ranking gives (intents, equivalents, adjacent terms...) is one the
    query-result schema names: its questions reach every component of the formula."""
    from project_corpus.corpus.snapshot import collect
    from project_corpus.retrieval.rank import query_corpus

    seen: set[str] = set()
    for folder in sorted((FIXTURES / "realworld").iterdir()):
        corpus = collect(folder)
        questions = json.loads((folder / "questions.json").read_text(encoding="utf-8"))
        for case in questions["questions"]:
            document = query_corpus(corpus, case["query"], 20)
            assert errors("query-result", document) == [], case["query"]
            for result in document["results"]:  # type: ignore[attr-defined]
                seen.update(r.split(":")[0] for r in result["selection_reasons"])
    assert {
        "question_intent",
        "equivalent_terms",
        "adjacent_terms",
        "decision_section",
        "document_score",
        "label_line",
    } <= seen


@pytest.mark.parametrize(("query", "limit"), QUERIES)
def test_query_output_matches_schema(cli: CLI, example: Path, query: str, limit: str) -> None:
    assert cli("context", "build", example).code == 0
    document = ok_json(cli("context", "query", example, query, "--limit", limit))
    assert errors("query-result", document) == []
    assert isinstance(document, dict)
    if query.startswith("zzqxv"):
        assert document["results"] == []
    else:
        assert document["results"]


def test_query_schema_rejects_a_tampered_result(cli: CLI, example: Path) -> None:
    assert cli("context", "build", example).code == 0
    document = ok_json(cli("context", "query", example, "eviction"))
    assert isinstance(document, dict)
    document["results"][0]["non_authoritative"] = False
    assert errors("query-result", document)


# --- bundle and receipt -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "budget"),
    [
        ("eviction benchmark", "80"),
        ("eviction benchmark", "1200"),
        ("старый бенчмарк вытеснения", "20000"),
        ("exact next action", "300"),
    ],
)
def test_bundle_output_matches_schema(cli: CLI, example: Path, query: str, budget: str) -> None:
    assert cli("context", "build", example).code == 0
    document = ok_json(cli("context", "bundle", example, query, "--max-tokens", budget))
    assert errors("bundle", document) == []


def write_bundle(cli: CLI, root: Path, name: str = "bundle.json") -> dict[str, object]:
    assert cli("context", "build", root).code == 0
    run = cli("context", "bundle", root, "eviction benchmark")
    assert run.code == 0, run.err
    (root / name).write_text(run.out, encoding="utf-8")
    value = run.json()
    assert isinstance(value, dict)
    return value


def test_receipt_output_matches_schema(cli: CLI, example: Path) -> None:
    bundle = write_bundle(cli, example)
    items = bundle["items"]
    assert isinstance(items, list)
    every = cli(
        "context", "receipt", example, "--bundle", example / "bundle.json", "--consumer", "agent-7"
    )
    assert every.code == 0, every.err
    assert errors("receipt", every.json()) == []
    some = cli(
        "context",
        "receipt",
        example,
        "--bundle",
        example / "bundle.json",
        "--consumer",
        "Агент № 7",
        "--item",
        items[0]["item_id"],
    )
    assert some.code == 0, some.err
    assert errors("receipt", some.json()) == []


# --- doctor and candidate-validate ------------------------------------------------------


def candidate(root: Path, **overrides: object) -> dict[str, object]:
    return valid_candidate(root, **{"candidate_id": "c-schema-001", **overrides})


def write_candidate(root: Path, name: str, value: object) -> Path:
    folder = root / ".project-corpus" / "candidates"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


INVALID = sorted(p.name for p in (FIXTURES / "invalid").iterdir() if p.is_dir())


@pytest.mark.parametrize(
    "fixture", ["example", "minimal", "foreign", *[f"invalid/{n}" for n in INVALID]]
)
def test_doctor_report_matches_schema(cli: CLI, tmp_path: Path, fixture: str) -> None:
    root = tmp_path / "corpus"
    copy_fixture(FIXTURES / fixture, root)
    run = cli("context", "doctor", root)
    document = ok_json(run)
    assert errors("doctor-report", document) == []
    assert isinstance(document, dict)
    assert (run.code == 0) is document["ok"]


def test_doctor_report_with_every_input_matches_schema(cli: CLI, example: Path) -> None:
    write_bundle(cli, example)
    good = write_candidate(example, "c-good.json", candidate(example))
    bad = write_candidate(example, "c-bad.json", candidate(example, kind="rumour", statement=" "))
    (example / ".project-corpus/history/2026-note.md").write_text(
        "# Note\n\n## Notes\n<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\n"
        "The pool is currently warm.\n\nThe shard is live right now.\n",
        encoding="utf-8",
    )
    run = cli(
        "context",
        "doctor",
        example,
        "--index",
        example / ".project-corpus/cache/context.sqlite3",
        "--bundle",
        example / "bundle.json",
        "--candidate",
        good,
        "--candidate",
        bad,
        "--fail-on",
        "WARN",
    )
    document = ok_json(run)
    assert errors("doctor-report", document) == []
    assert isinstance(document, dict)
    assert document["summary"]["suppressed"] >= 1
    assert document["summary"]["WARN"] >= 1
    assert run.code == 1


def test_candidate_validate_report_matches_schema(cli: CLI, example: Path) -> None:
    good = write_candidate(example, "c-good.json", candidate(example))
    many = write_candidate(
        example,
        "c-many.json",
        [
            candidate(example, candidate_id="c-schema-002"),
            candidate(example, candidate_id="BAD ID", created_at="2026-02-30T00:00:00Z"),
            {"schema_version": "1"},
            "not an object",
        ],
    )
    for files, expected in (((good,), 0), ((good, many), 1), ((), 1)):
        run = cli("context", "candidate-validate", example, *files)
        assert run.code == expected, run.out + run.err
        assert errors("doctor-report", json.loads(run.out)) == []


def test_accepted_candidates_match_schema(cli: CLI, example: Path) -> None:
    """What `candidate-validate` accepts, the Candidate schema accepts, and vice versa for
    the shape-level problems a schema can see."""
    line_two = candidate(example)
    refs = line_two["source_refs"]
    assert isinstance(refs, list)
    line_two["source_refs"] = [{**refs[0], "line_start": 2}]
    accepted = [
        candidate(example),
        candidate(example, candidate_id="c.schema_003", kind="premise", statement="Я" * 4000),
        {**line_two, "kind": "resource_reference"},
    ]
    for n, value in enumerate(accepted):
        path = write_candidate(example, f"ok-{n}.json", value)
        run = cli("context", "candidate-validate", example, path)
        assert run.code == 0, run.out
        assert errors("candidate", value) == []
    refused = [
        candidate(example, kind="rumour"),
        candidate(example, status="promoted"),
        candidate(example, extra=True),
        candidate(example, source_refs=[]),
        candidate(example, statement=""),
    ]
    for n, value in enumerate(refused):
        path = write_candidate(example, f"bad-{n}.json", value)
        assert cli("context", "candidate-validate", example, path).code == 1
        assert errors("candidate", value), value


def test_sarif_output_matches_the_official_schema(cli: CLI, tmp_path: Path) -> None:
    schema = json.loads((REPO / "tests/data/sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    validator = validator_for(schema)(schema)
    for fixture in ("example", "invalid/INVALID_METADATA", "invalid/SOURCE_LINK"):
        root = tmp_path / fixture.replace("/", "-")
        copy_fixture(FIXTURES / fixture, root)
        run = cli("context", "doctor", root, "--format", "sarif")
        assert run.code in (0, 1), run.err
        assert [e.message for e in validator.iter_errors(json.loads(run.out))] == []


# --- eval -------------------------------------------------------------------------------


def test_eval_dataset_matches_schema(tmp_path: Path) -> None:
    dataset = json.loads((FIXTURES / "example" / "eval.json").read_text(encoding="utf-8"))
    assert errors("eval-dataset", dataset) == []
    assert errors("eval-dataset", {"schema_version": "1", "cases": [{"query": "x", "nope": 1}]})


def test_eval_output_matches_schema(cli: CLI, example: Path) -> None:
    assert cli("context", "build", example).code == 0
    passing = cli("context", "eval", example, "--dataset", example / "eval.json")
    assert passing.code == 0, passing.err
    assert errors("eval-result", passing.json()) == []
    failing_dataset = {
        "schema_version": "1",
        "cases": [
            {"name": "impossible", "query": "eviction", "must_contain": ["no such text 9f3k"]},
            {"query": "next action", "expected_project_id": "orbit-cache", "top_k": 3},
        ],
    }
    (example / "failing.json").write_text(json.dumps(failing_dataset), encoding="utf-8")
    failing = cli("context", "eval", example, "--dataset", example / "failing.json")
    assert failing.code == 1, failing.err
    assert errors("eval-result", failing.json()) == []


# --- the error envelope -----------------------------------------------------------------


def error_cases(root: Path, other: Path) -> list[tuple[str, tuple[object, ...]]]:
    index = root / ".project-corpus/cache/context.sqlite3"
    return [
        ("CONTEXT_ROOT", ("context", "build", root / "missing")),
        ("USAGE_ERROR", ("context", "query")),
        ("USAGE_ERROR", ("context", "doctor", root, "--format", "yaml")),
        ("INDEX_MISSING", ("context", "query", root, "eviction")),
        ("INDEX_PATH", ("context", "build", root, "--index", root / "elsewhere.sqlite3")),
        ("QUERY_LIMIT", ("context", "query", root, "eviction", "--limit", "0")),
        ("QUERY_EMPTY", ("context", "query", root, "  !!  ")),
        ("BUDGET_INVALID", ("context", "bundle", root, "eviction", "--max-tokens", "79")),
        ("CONTEXT_INPUT_PATH", ("context", "receipt", root, "--bundle", other, "--consumer", "a")),
        (
            "CONTEXT_INPUT_JSON",
            ("context", "eval", root, "--index", index, "--dataset", root / "AGENTS.md"),
        ),
        ("PROTOCOL_NONCONFORMANT", ("context", "build", root / "broken")),
    ]


def test_error_envelopes_match_schema(cli: CLI, make_corpus: MakeCorpus, tmp_path: Path) -> None:
    root = make_corpus()
    broken = make_corpus(
        {".project-corpus/state/STATUS.md": DEMO_STATUS.replace("ACTIVE", "RUNNING")},
        name="corpus/broken",
    )
    assert broken.is_dir()
    outside = tmp_path / "outside.json"
    outside.write_text("{}", encoding="utf-8")
    for code, args in error_cases(root, outside):
        run = cli(*args)
        assert run.code == 2, (code, run.out, run.err)
        envelope = run.error()
        assert envelope["error"] == code, (args, envelope)
        assert errors("error", envelope) == []
        assert run.out == ""


def test_stale_index_and_text_errors(cli: CLI, make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    assert cli("context", "build", root).code == 0
    (root / ".project-corpus/history/2026-02-01-late.md").write_text("# Late\n", encoding="utf-8")
    run = cli("context", "query", root, "cache")
    assert run.code == 2
    assert run.error()["error"] == "INDEX_STALE"
    assert errors("error", run.error()) == []
    text = cli("context", "doctor", root / "missing", "--format", "text")
    assert text.code == 2
    assert text.err.startswith("error[CONTEXT_ROOT]: ")


def test_the_sha256_pattern_is_written_once() -> None:
    """Every SHA-256 pattern of the shipped schemas is `models.SHA256_RE`; no module copies it."""
    from project_corpus.core.records import SHA256_RE

    patterns = set()
    for name in schema_names():
        patterns |= set(re.findall(r'"pattern": "([^"]*\{64\}[^"]*)"', schema_text(name)))
    # JSON Schema patterns are ECMA-262, where `$` ends the input as Python's `\Z` does (#26).
    assert patterns == {SHA256_RE.pattern.replace("\\Z", "$")}
    package = Path(__file__).resolve().parents[2] / "src" / "project_corpus"
    copies = [p for p in package.rglob("*.py") if "{64}" in p.read_text(encoding="utf-8")]
    assert [p.name for p in copies] == ["records.py"]


# --- review -----------------------------------------------------------------------------


def test_review_output_matches_schema(
    cli: CLI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.review.support import commit_all
    from tests.review.support import init_repo
    from tests.review.support import isolate_git
    from tests.review.support import make_head_change

    isolate_git(monkeypatch)
    repo = init_repo(tmp_path / "repo")
    commit_all(repo, "base")
    unchanged = ok_json(cli("context", "review", repo, "--base", "main"))
    assert errors("review", unchanged) == []
    make_head_change(repo)
    (repo / ".project-corpus/candidates/c-bad.json").write_text("{", encoding="utf-8")
    changed = ok_json(cli("context", "review", repo, "--base", "main", "--fail-on", "WARN"))
    assert errors("review", changed) == []
    assert isinstance(changed, dict)
    assert changed["summary"]["invalid_candidates"] == 1
    head = commit_all(repo, "head")
    document = ok_json(cli("context", "review", repo, "--base", "main~1", "--head", head))
    assert errors("review", document) == []


def test_import_output_matches_schema(cli: CLI, tmp_path: Path) -> None:
    from tests.importer.repos import MEMORY_REPO
    from tests.importer.repos import make_repo

    repo = make_repo(tmp_path / "lamps", MEMORY_REPO)
    plan = ok_json(cli("import", repo, "--dry-run", "--format", "json"))
    assert errors("import-result", plan) == []
    first = ok_json(cli("import", repo, "--format", "json"))
    assert errors("import-result", first) == []
    (repo / "memory-bank/techContext.md").unlink()
    (repo / "memory-bank/progress.md").write_text("# Progress\n\nMoved on.\n", encoding="utf-8")
    again = ok_json(cli("import", repo, "--format", "json"))
    assert errors("import-result", again) == []
    assert isinstance(again, dict)
    assert {f["action"] for f in again["files"]} >= {"stale", "unchanged"}
    tampered = {**again, "summary": {**again["summary"], "create": -1}}
    assert errors("import-result", tampered) != []
