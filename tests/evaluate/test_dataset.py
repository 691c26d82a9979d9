"""CorpusEval v1 dataset validation (SPEC §9): strict types, named cases and keys, no crash."""

from __future__ import annotations

import json
from functools import lru_cache

import jsonschema
import pytest
from hypothesis import HealthCheck
from hypothesis import event
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.core.schemas import load_schema
from project_corpus.corpus.snapshot import collect
from project_corpus.evaluate import evaluate_dataset
from project_corpus.evaluate.dataset import CASE_KEYS
from project_corpus.evaluate.dataset import EvalCase
from project_corpus.evaluate.dataset import parse_dataset
from tests.conftest import FIXTURES

STATUS = ".project-corpus/state/STATUS.md"


def _schema_error(dataset: object) -> str:
    with pytest.raises(ContextError) as caught:
        parse_dataset(dataset)
    assert caught.value.code == "EVAL_SCHEMA"
    return caught.value.detail


def _one(**case: object) -> dict[str, object]:
    return {"schema_version": "1", "cases": [{"query": "exact next action", **case}]}


def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema("eval-dataset"))


def test_defaults_are_filled_in() -> None:
    (case,) = parse_dataset(_one())
    assert case == EvalCase(case_index=0, query="exact next action", name="case-0")
    assert (case.max_tokens, case.retrieval_limit, case.top_k) == (1200, 20, 5)


def test_every_key_is_converted() -> None:
    (case,) = parse_dataset(
        _one(
            name="n",
            max_tokens=80,
            retrieval_limit=100,
            top_k=1,
            expected_top_k_paths=["a", "b"],
            expected_source_temporal={"b": "current", "a": "historical"},
            expected_authority_classes=["HISTORY"],
            expected_snapshot_digest="0" * 64,
        )
    )
    assert case.expected_top_k_paths == ("a", "b")
    assert list(case.expected_source_temporal or {}) == ["a", "b"]
    assert case.expected_authority_classes == ("HISTORY",)
    assert (case.max_tokens, case.retrieval_limit, case.top_k) == (80, 100, 1)


BAD_VALUES: list[tuple[str, object]] = [
    ("query", 7),
    ("query", "?!"),
    ("query", ""),
    ("name", "   "),
    ("name", 3),
    ("max_tokens", True),
    ("max_tokens", 79),
    ("max_tokens", 20001),
    ("max_tokens", 1200.0),
    ("max_tokens", "1200"),
    ("retrieval_limit", 0),
    ("retrieval_limit", False),
    ("top_k", 101),
    ("top_k", None),
    ("expected_top_source_path", ["a"]),
    ("expected_top_k_paths", "a"),
    ("expected_top_k_paths", ["a", 1]),
    ("expected_top_k_paths", [""]),
    ("expected_temporal_status", "stale"),
    ("expected_temporal_status", True),
    ("expected_source_temporal", {"a": "CURRENT"}),
    ("expected_source_temporal", ["a"]),
    ("expected_source_authority", {"a": "current"}),
    ("expected_source_authority", {"": "CANONICAL"}),
    ("expected_source_paths", {"a": 1}),
    ("expected_authority_classes", ["canonical"]),
    ("forbidden_source_paths", [None]),
    ("forbidden_authority_classes", "HISTORY"),
    ("forbidden_retrieval_source_paths", 1),
    ("must_contain", [True]),
    ("must_not_contain", "ZEBRAFISH"),
    ("forbidden_scope_paths", [[]]),
    ("expected_project_id", {}),
    ("expected_snapshot_digest", "ABC"),
    ("expected_snapshot_digest", "A" * 64),
    ("expected_top_k_paths", ["a"] * 257),
    ("query", "next action \ud800"),
    ("must_contain", ["\udc00"]),
    ("expected_source_temporal", {"a\ud800": "current"}),
]


@pytest.mark.parametrize(("key", "value"), BAD_VALUES)
def test_wrong_value_names_the_case_and_the_key(key: str, value: object) -> None:
    dataset = {
        "schema_version": "1",
        "cases": [{"query": "ok"}, {"name": "second", "query": "exact next action", key: value}],
    }
    if key == "name":
        assert _schema_error(dataset).startswith('cases[1]: key "name"')
    else:
        assert _schema_error(dataset).startswith(f'cases[1] ("second"): key "{key}": expected')


@pytest.mark.parametrize(("key", "value"), BAD_VALUES)
def test_the_shipped_schema_rejects_the_same_values(key: str, value: object) -> None:
    if (key, value) == ("query", "?!"):
        pytest.skip("a letter-or-digit check needs Unicode classes JSON Schema patterns lack")
    if not _is_unicode(value):
        pytest.skip("JSON Schema has no notion of lone surrogates")
    if isinstance(value, float):
        pytest.skip("JSON Schema counts 1200.0 as an integer; the tool is stricter")
    assert not _validator().is_valid(_one(**{key: value}))


def _is_unicode(value: object) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def test_unknown_and_missing_keys() -> None:
    detail = _schema_error({"schema_version": "1", "cases": [{"name": "x", "expected_top": "a"}]})
    assert 'cases[0] ("x"): unknown key "expected_top"' in detail
    assert 'cases[0] ("x"): missing key "query"' in detail


@pytest.mark.parametrize(
    ("dataset", "fragment"),
    [
        ([], "dataset: expected a JSON object, got an array of 0"),
        ({"cases": [{"query": "a"}]}, 'dataset: missing key "schema_version"'),
        ({"schema_version": "1"}, 'dataset: missing key "cases"'),
        ({"schema_version": 1, "cases": [{"query": "a"}]}, 'expected "1", got 1'),
        ({"schema_version": "2", "cases": [{"query": "a"}]}, 'expected "1", got "2"'),
        ({"schema_version": "1", "cases": []}, "got 0 cases"),
        ({"schema_version": "1", "cases": {}}, "got an object"),
        ({"schema_version": "1", "cases": [{"query": "a"}] * 1001}, "got 1001 cases"),
        ({"schema_version": "1", "cases": [{"query": "a"}], "x": 1}, 'unknown key "x"'),
        ({"schema_version": "1", "cases": ["a"]}, 'cases[0]: expected an object, got "a"'),
    ],
)
def test_top_level_problems(dataset: object, fragment: str) -> None:
    assert fragment in _schema_error(dataset)


def test_a_thousand_cases_are_allowed() -> None:
    cases = [{"query": f"q {i}", "name": f"case {i}"} for i in range(1000)]
    assert len(parse_dataset({"schema_version": "1", "cases": cases})) == 1000


def test_duplicate_names_are_refused() -> None:
    cases = [{"query": "a", "name": "same"}, {"query": "b", "name": "same"}]
    detail = _schema_error({"schema_version": "1", "cases": cases})
    assert detail == 'cases[1] ("same"): key "name": duplicates cases[0]'


def test_many_problems_are_summarised() -> None:
    detail = _schema_error({"schema_version": "1", "cases": [{"query": 1}] * 30})
    assert detail.endswith("(+10 more problems)")
    assert detail.count("cases[") == 20


def test_lone_surrogates_never_reach_the_detail_unescaped() -> None:
    detail = _schema_error({"schema_version": "1", "cases": [{"query": "a", "b\udc00": 1}]})
    assert detail == 'cases[0]: unknown key "b\\udc00"'
    detail.encode("utf-8")


def test_long_values_are_shortened_in_details() -> None:
    detail = _schema_error(_one(expected_project_id="x" * 5000))
    assert len(detail) < 200


def test_schema_case_keys_match_the_registry() -> None:
    schema = load_schema("eval-dataset")
    case = schema["$defs"]["case"]  # type: ignore[index]
    assert set(case["properties"]) == set(CASE_KEYS)
    assert case["additionalProperties"] is False
    assert schema["additionalProperties"] is False
    jsonschema.Draft202012Validator.check_schema(schema)


def test_example_dataset_is_valid_against_the_schema() -> None:
    dataset = json.loads((FIXTURES / "example" / "eval.json").read_text(encoding="utf-8"))
    _validator().validate(dataset)
    assert len(parse_dataset(dataset)) >= 15


# --- property: random datasets give EVAL_SCHEMA or a result, never anything else -------------


@lru_cache(maxsize=1)
def _corpus() -> Corpus:
    return collect(FIXTURES / "example")


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 25000),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["current", "HISTORY", STATUS, "exact next action", "0" * 64, "x\ud800"]),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_KEYS = st.sampled_from([*CASE_KEYS, "unknown"])
_CASE = st.dictionaries(_KEYS, _JSON | st.lists(_SCALARS, max_size=3), max_size=5).map(
    lambda case: {"query": "exact next action", **case}
)
_PATH_LIST = st.lists(st.sampled_from([STATUS, "x.md", ".project-corpus/history/private-notes.md"]))
_VALID: dict[str, st.SearchStrategy[object]] = {
    "query": st.sampled_from(["exact next action", "старый бенчмарк", "previous eviction", "zz"]),
    "name": st.text(min_size=1, max_size=8).filter(str.strip),
    "max_tokens": st.integers(80, 20000),
    "retrieval_limit": st.integers(1, 100),
    "top_k": st.integers(1, 100),
    "expected_top_source_path": st.sampled_from([STATUS, "x.md"]),
    "expected_temporal_status": st.sampled_from(["current", "superseded"]),
    "expected_source_temporal": st.dictionaries(st.sampled_from([STATUS, "x"]), st.just("current")),
    "expected_source_authority": st.dictionaries(st.sampled_from([STATUS]), st.just("CANONICAL")),
    "expected_authority_classes": st.lists(st.sampled_from(["CANONICAL", "HISTORY"])),
    "forbidden_authority_classes": st.lists(st.sampled_from(["HISTORY", "CITED_REPORT"])),
    "expected_project_id": st.sampled_from(["orbit-cache", "other-project"]),
    "expected_snapshot_digest": st.sampled_from(["0" * 64, _corpus().snapshot_digest]),
}
_PLAUSIBLE_CASE = st.fixed_dictionaries(
    {"query": _VALID["query"]},
    optional={key: _VALID.get(key, _PATH_LIST) for key in CASE_KEYS if key != "query"},
)
_DATASETS = st.one_of(
    _JSON,
    st.fixed_dictionaries(
        {"schema_version": st.sampled_from(["1", 1, "2"]), "cases": st.lists(_CASE, max_size=3)}
    ),
    st.fixed_dictionaries(
        {"schema_version": st.just("1"), "cases": st.lists(_PLAUSIBLE_CASE, min_size=1, max_size=2)}
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dataset=_DATASETS)
def test_random_datasets_never_crash(dataset: object) -> None:
    outcome = _evaluate(dataset)
    if isinstance(outcome, ContextError):
        assert outcome.code == "EVAL_SCHEMA"
        assert outcome.detail
        event("EVAL_SCHEMA")
        return
    event("evaluated")
    jsonschema.Draft202012Validator(load_schema("eval-result")).validate(outcome)
    assert isinstance(dataset, dict)
    assert outcome["case_count"] == len(dataset["cases"])


def _evaluate(dataset: object) -> dict[str, object] | ContextError:
    try:
        return evaluate_dataset(_corpus(), dataset)
    except ContextError as exc:
        return exc
