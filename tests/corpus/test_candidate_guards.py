"""Every guard of Candidate v1 validation, with its exact pointer and detail (SPEC §7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.corpus.candidate import KEYS
from project_corpus.corpus.candidate import KINDS
from project_corpus.corpus.candidate import MAX_REFS
from project_corpus.corpus.candidate import Problem
from project_corpus.corpus.candidate import candidate_problems
from project_corpus.corpus.candidate import show
from project_corpus.corpus.candidate import validate_candidate
from project_corpus.corpus.snapshot import collect
from tests.conftest import MakeCorpus
from tests.doctor.support import STATUS_PATH
from tests.doctor.support import valid_candidate

Found = list[tuple[str, str, str]]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Corpus]:
    from tests.conftest import BASE_FILES
    from tests.conftest import TASK
    from tests.conftest import write_files

    root = tmp_path_factory.mktemp("candidate") / "corpus"
    for folder in ("tasks", "reports", "history"):
        (root / ".project-corpus" / folder).mkdir(parents=True)
    write_files(root, {**BASE_FILES, ".project-corpus/tasks/foreign.md": TASK.replace(
        "demo-project", "other-project")})  # fmt: skip
    return root, collect(root)


def problems(corpus: tuple[Path, Corpus], **overrides: object) -> Found:
    root, snapshot = corpus
    found = candidate_problems(snapshot, valid_candidate(root, **overrides))
    return [(p.code, p.pointer, p.detail) for p in found]


def status_ref(corpus: tuple[Path, Corpus], **overrides: object) -> dict[str, object]:
    source = corpus[1].by_path[STATUS_PATH]
    return {
        "source_path": STATUS_PATH,
        "source_sha256": source.sha256,
        "line_start": 1,
        **overrides,
    }


def test_the_valid_candidate_has_no_problem(corpus: tuple[Path, Corpus]) -> None:
    assert problems(corpus) == []


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_the_enum_is_accepted(corpus: tuple[Path, Corpus], kind: str) -> None:
    assert problems(corpus, kind=kind) == []


@pytest.mark.parametrize(
    "kind", ["fact", "Semantic_fact", "semantic_fact ", "", 3, None, ["premise"]]
)
def test_any_other_kind_is_refused(corpus: tuple[Path, Corpus], kind: object) -> None:
    assert problems(corpus, kind=kind) == [
        ("CANDIDATE_KIND", "/kind", f"{show(kind)} is not one of {', '.join(KINDS)}")
    ]


@pytest.mark.parametrize("value", ["2", "1.0", " 1", "", 1, 1.0, True, None, ["1"], {"v": "1"}])
def test_schema_version_must_be_the_string_1(corpus: tuple[Path, Corpus], value: object) -> None:
    assert problems(corpus, schema_version=value) == [
        ("CANDIDATE_SCHEMA", "/schema_version", f'must be "1", not {show(value)}')
    ]


@pytest.mark.parametrize("value", ["Candidate", "promoted", "", 0, None, ["candidate"]])
def test_status_must_be_the_string_candidate(corpus: tuple[Path, Corpus], value: object) -> None:
    assert problems(corpus, status=value) == [
        ("CANDIDATE_SCHEMA", "/status", f'must be "candidate", not {show(value)}')
    ]


@pytest.mark.parametrize("value", ["ab", "Upper-case", "-lead", 7, None, ["c-latency-001"]])
def test_a_bad_candidate_id(corpus: tuple[Path, Corpus], value: object) -> None:
    assert problems(corpus, candidate_id=value) == [
        (
            "CANDIDATE_ID",
            "/candidate_id",
            f"{show(value)} does not match ^[a-z0-9][a-z0-9._-]{{2,63}}$",
        )
    ]


@pytest.mark.parametrize("value", ["other-project", "", 1, None])
def test_another_project(corpus: tuple[Path, Corpus], value: object) -> None:
    assert problems(corpus, project_id=value) == [
        (
            "CANDIDATE_PROJECT",
            "/project_id",
            f"{show(value)} is not this corpus's project 'demo-project'",
        )
    ]


@pytest.mark.parametrize(
    ("value", "detail"),
    [
        (5, "must be a string, not a number"),
        (None, "must be a string, not null"),
        ([], "must be a string, not an array"),
        (" \n\t", "must not be blank"),
        ("x" * 4001, "4001 characters; at most 4,000"),
    ],
)
def test_a_bad_statement(corpus: tuple[Path, Corpus], value: object, detail: str) -> None:
    assert problems(corpus, statement=value) == [("CANDIDATE_STATEMENT", "/statement", detail)]


def test_a_statement_of_exactly_4000_characters_and_of_one_is_accepted(
    corpus: tuple[Path, Corpus],
) -> None:
    assert problems(corpus, statement="x" * 4000) == []
    assert problems(corpus, statement="x") == []


@pytest.mark.parametrize(
    "value", ["2026-11-21T10:00:00", "2026-11-21 10:00:00Z", "yesterday", 0, None]
)
def test_a_bad_creation_time(corpus: tuple[Path, Corpus], value: object) -> None:
    assert problems(corpus, created_at=value) == [
        (
            "CANDIDATE_TIME",
            "/created_at",
            f"{show(value)} is not a real UTC time YYYY-MM-DDTHH:MM:SSZ",
        )
    ]


# --- source refs ---------------------------------------------------------------------------------


def test_exactly_32_refs_are_accepted_and_33_are_refused(corpus: tuple[Path, Corpus]) -> None:
    assert MAX_REFS == 32
    assert problems(corpus, source_refs=[status_ref(corpus)] * 32) == []
    assert problems(corpus, source_refs=[status_ref(corpus)] * 33) == [
        ("CANDIDATE_EVIDENCE", "/source_refs", "33 source refs; at most 32")
    ]


@pytest.mark.parametrize(("value", "name"), [({}, "an object"), ("x", "a string"), (None, "null")])
def test_source_refs_must_be_an_array(
    corpus: tuple[Path, Corpus], value: object, name: str
) -> None:
    assert problems(corpus, source_refs=value) == [
        (
            "CANDIDATE_EVIDENCE",
            "/source_refs",
            f"must be an array of 1 to 32 source refs, not {name}",
        )
    ]


@pytest.mark.parametrize(("ref", "name"), [("x", "a string"), ([], "an array"), (3, "a number")])
def test_each_ref_must_be_an_object(corpus: tuple[Path, Corpus], ref: object, name: str) -> None:
    assert problems(corpus, source_refs=[status_ref(corpus), ref]) == [
        ("CANDIDATE_EVIDENCE", "/source_refs/1", f"a source ref must be an object, not {name}")
    ]


@pytest.mark.parametrize("value", [[], {}, 3, None, True])
def test_a_source_path_of_another_type_is_a_problem_not_a_crash(
    corpus: tuple[Path, Corpus], value: object
) -> None:
    """`source_path: []` is unhashable: it must never reach a dictionary lookup."""
    found = problems(corpus, source_refs=[status_ref(corpus, source_path=value)])
    assert found == [
        (
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/source_path",
            f"must be a string, not {_name(value)}",
        )
    ]


def _name(value: object) -> str:
    return {list: "an array", dict: "an object", int: "a number", bool: "a boolean"}.get(
        type(value), "null"
    )


@pytest.mark.parametrize(
    "path",
    [
        "AGENTS.md",
        "/.project-corpus/state/STATUS.md",
        ".project-corpus/state/../state/STATUS.md",
        ".project-corpus/state/./STATUS.md",
        ".project-corpus/state//STATUS.md",
        ".project-corpus\\state\\STATUS.md",
        ".project-corpus/generated/x.md",
    ],
)
def test_non_portable_or_foreign_root_source_paths(corpus: tuple[Path, Corpus], path: str) -> None:
    found = problems(corpus, source_refs=[status_ref(corpus, source_path=path)])
    assert found == [
        (
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/source_path",
            f"{show(path)} is not a portable path under state/, tasks/, reports/ or history/",
        )
    ]


def test_a_source_of_another_project_or_outside_the_snapshot(corpus: tuple[Path, Corpus]) -> None:
    foreign = ".project-corpus/tasks/foreign.md"
    sha = corpus[1].by_path[foreign].sha256
    assert problems(
        corpus, source_refs=[{"source_path": foreign, "source_sha256": sha, "line_start": 1}]
    ) == [
        (
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/source_path",
            f"{foreign!r} belongs to another project ('other-project')",
        )
    ]
    missing = ".project-corpus/tasks/missing.md"
    assert problems(corpus, source_refs=[status_ref(corpus, source_path=missing)]) == [
        ("CANDIDATE_EVIDENCE", "/source_refs/0/source_path", f"{missing!r} is not a scoped source of the current snapshot")
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("line", "detail"),
    [
        (0, "0 is not a line number (lines start at 1)"),
        (-1, "-1 is not a line number (lines start at 1)"),
        (True, "must be an integer, not a boolean"),
        (1.0, "must be an integer, not a number"),
        ("1", "must be an integer, not a string"),
    ],
)
def test_a_bad_line(corpus: tuple[Path, Corpus], line: object, detail: str) -> None:
    found = problems(corpus, source_refs=[status_ref(corpus, line_start=line)])
    assert found == [("CANDIDATE_EVIDENCE", "/source_refs/0/line_start", detail)]


def test_the_first_and_last_lines_are_inside_and_the_next_is_past_the_end(
    corpus: tuple[Path, Corpus],
) -> None:
    count = corpus[1].by_path[STATUS_PATH].line_count
    for line in (1, count):
        assert problems(corpus, source_refs=[status_ref(corpus, line_start=line)]) == []
    assert problems(corpus, source_refs=[status_ref(corpus, line_start=count + 1)]) == [
        (
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/line_start",
            f"line {count + 1} is past the end of {STATUS_PATH} ({count} lines)",
        )
    ]


@pytest.mark.parametrize(
    ("sha", "detail"), [(None, "must be a string, not null"), (1, "must be a string, not a number")]
)
def test_a_mistyped_hash(corpus: tuple[Path, Corpus], sha: object, detail: str) -> None:
    found = problems(corpus, source_refs=[status_ref(corpus, source_sha256=sha)])
    assert found == [("CANDIDATE_EVIDENCE", "/source_refs/0/source_sha256", detail)]


def test_a_stale_hash_is_compared_only_for_a_usable_source(corpus: tuple[Path, Corpus]) -> None:
    stale = "f" * 64
    assert problems(corpus, source_refs=[status_ref(corpus, source_sha256=stale)]) == [
        (
            "CANDIDATE_EVIDENCE",
            "/source_refs/0/source_sha256",
            f"{show(stale)} is not the current SHA-256 of {STATUS_PATH} (stale evidence)",
        )
    ]
    unusable = status_ref(corpus, source_path="AGENTS.md", source_sha256=stale, line_start=10**6)
    assert [p for _, p, _ in problems(corpus, source_refs=[unusable])] == [
        "/source_refs/0/source_path"
    ]


def test_ref_problems_carry_the_source_path_and_line(corpus: tuple[Path, Corpus]) -> None:
    root, snapshot = corpus
    ref = {"source_path": STATUS_PATH, "line_start": 3, "extra": 1}
    found = candidate_problems(snapshot, valid_candidate(root, source_refs=[ref]))
    assert found == [
        Problem(
            "CANDIDATE_EVIDENCE", "/source_refs/0", "missing key 'source_sha256'", STATUS_PATH, 3
        ),
        Problem("CANDIDATE_EVIDENCE", "/source_refs/0", "unknown key 'extra'", STATUS_PATH, 3),
    ]
    odd = {"source_path": 3, "source_sha256": "x", "line_start": True}
    found = candidate_problems(snapshot, valid_candidate(root, source_refs=[odd]))
    assert {(p.source_path, p.source_line) for p in found} == {(None, None)}


# --- keys and pointers ---------------------------------------------------------------------------


def test_missing_and_unknown_keys_come_first_in_key_order(corpus: tuple[Path, Corpus]) -> None:
    root, snapshot = corpus
    candidate = valid_candidate(root, zzz=1, aaa=2)
    del candidate["kind"], candidate["schema_version"]
    found = [(p.code, p.pointer, p.detail) for p in candidate_problems(snapshot, candidate)]
    assert found == [
        ("CANDIDATE_SCHEMA", "/schema_version", "missing key"),
        ("CANDIDATE_SCHEMA", "/kind", "missing key"),
        ("CANDIDATE_SCHEMA", "/aaa", "unknown key"),
        ("CANDIDATE_SCHEMA", "/zzz", "unknown key"),
    ]


@pytest.mark.parametrize(
    ("key", "pointer"),
    [("a/b", "/a~1b"), ("a~b", "/a~0b"), ("~/", "/~0~1"), ("~1", "/~01"), ("", "/")],
)
def test_unknown_keys_are_escaped_json_pointer_tokens(
    corpus: tuple[Path, Corpus], key: str, pointer: str
) -> None:
    assert (("CANDIDATE_SCHEMA", pointer, "unknown key")) in problems(corpus, **{key: 1})


@pytest.mark.parametrize(
    ("value", "name"), [([], "an array"), ("x", "a string"), (None, "null"), (2.5, "a number")]
)
def test_a_candidate_that_is_not_an_object(
    corpus: tuple[Path, Corpus], value: object, name: str
) -> None:
    assert candidate_problems(corpus[1], value) == [
        Problem("CANDIDATE_SCHEMA", "", f"a candidate must be a JSON object, not {name}")
    ]
    with pytest.raises(ContextError) as info:
        validate_candidate(corpus[1], value)
    assert info.value.detail == f"/: a candidate must be a JSON object, not {name}"
    assert info.value.hint == (
        "1 problem(s); `project-corpus context candidate-validate {root} FILE` lists them all"
    )


def test_show_is_short_and_never_dumps_containers() -> None:
    assert show("x" * 60) == repr("x" * 60)[:57] + "..."
    assert show("x" * 58) == repr("x" * 58)
    assert show({"a": 1}) == "an object"
    assert show([1]) == "an array"
    assert show(None) == "None"


# --- every field of a mistyped kind ---------------------------------------------------------------

NOT_A_STRING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.lists(st.text(max_size=3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
)
EXPECTED_CODE = {
    "schema_version": "CANDIDATE_SCHEMA",
    "candidate_id": "CANDIDATE_ID",
    "project_id": "CANDIDATE_PROJECT",
    "kind": "CANDIDATE_KIND",
    "statement": "CANDIDATE_STATEMENT",
    "source_refs": "CANDIDATE_EVIDENCE",
    "created_at": "CANDIDATE_TIME",
    "status": "CANDIDATE_SCHEMA",
}


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(KEYS), NOT_A_STRING)
def test_a_non_string_where_a_string_is_expected_is_one_problem_of_its_field(
    corpus: tuple[Path, Corpus], key: str, value: object
) -> None:
    if key == "source_refs" and isinstance(value, list):
        value = [value]  # a list of non-objects
    found = problems(corpus, **{key: value})
    assert found
    assert {code for code, _, _ in found} == {EXPECTED_CODE[key]}
    assert all(pointer.startswith(f"/{key}") for _, pointer, _ in found)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["source_path", "source_sha256", "line_start"]), NOT_A_STRING)
def test_a_mistyped_ref_field_is_a_problem_at_its_pointer(
    corpus: tuple[Path, Corpus], key: str, value: object
) -> None:
    found = problems(corpus, source_refs=[status_ref(corpus, **{key: value})])
    if key == "line_start" and type(value) is int and 1 <= value <= 200:
        return  # a plausible line number
    assert found
    assert {pointer for _, pointer, _ in found} <= {
        f"/source_refs/0/{key}",
        "/source_refs/0/line_start",
    }


def test_validate_returns_the_success_document(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    result = validate_candidate(collect(root), valid_candidate(root))
    assert result["ok"] is True
    assert result["candidate_id"] == "c-latency-001"


def test_a_foreign_source_is_never_compared_for_its_hash_or_lines(
    corpus: tuple[Path, Corpus],
) -> None:
    """Only a usable source is compared: a ref to another project's document reports that,
    not a stale hash or a line past its end."""
    foreign = ".project-corpus/tasks/foreign.md"
    ref = {"source_path": foreign, "source_sha256": "f" * 64, "line_start": 10**6}
    assert [pointer for _, pointer, _ in problems(corpus, source_refs=[ref])] == [
        "/source_refs/0/source_path"
    ]
