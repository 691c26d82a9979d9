"""CorpusEval v1 datasets: strict validation into `EvalCase` records (docs/eval.md).

A dataset is `{"schema_version": "1", "cases": [...]}` with 1 to 1,000 cases. Every case key
has a checked type (a JSON `true` is never an integer); a wrong type, an unknown key or a
value outside its range is `EVAL_SCHEMA`, whose detail names the case (index and name) and
the key. `CASE_KEYS` is the registry: the shipped JSON Schema is checked against it by tests.
"""

import json
from collections.abc import Callable
from typing import NamedTuple

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.bounds import Range
from project_corpus.core.errors import ContextError
from project_corpus.core.records import SHA256_RE
from project_corpus.core.versions import EVAL_SCHEMA_VERSION
from project_corpus.corpus.classify import AUTHORITY_CLASSES
from project_corpus.corpus.classify import TEMPORAL_STATUSES
from project_corpus.retrieval import text as textmod

MAX_LIST = 256
MAX_TEXT = 4000
MAX_PROBLEMS = 20


class EvalCase(NamedTuple):
    """One evaluation case with every optional key resolved to its default."""

    case_index: int
    query: str
    name: str
    max_tokens: int = BOUNDS.max_tokens.default
    retrieval_limit: int = BOUNDS.limit.default
    top_k: int = BOUNDS.top_k.default
    expected_top_source_path: str | None = None
    expected_top_k_paths: tuple[str, ...] | None = None
    expected_temporal_status: str | None = None
    expected_source_temporal: dict[str, str] | None = None
    expected_source_authority: dict[str, str] | None = None
    expected_source_paths: tuple[str, ...] | None = None
    expected_authority_classes: tuple[str, ...] | None = None
    forbidden_source_paths: tuple[str, ...] | None = None
    forbidden_authority_classes: tuple[str, ...] | None = None
    forbidden_retrieval_source_paths: tuple[str, ...] | None = None
    must_contain: tuple[str, ...] | None = None
    must_not_contain: tuple[str, ...] | None = None
    forbidden_scope_paths: tuple[str, ...] | None = None
    expected_project_id: str | None = None
    expected_snapshot_digest: str | None = None


# A checker returns (converted value, None) or (None, "what was expected").
Checker = Callable[[object], tuple[object, str | None]]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_range(bounds: Range) -> Checker:
    def check(value: object) -> tuple[object, str | None]:
        if isinstance(value, int) and not isinstance(value, bool) and bounds.holds(value):
            return value, None
        return None, f"an integer from {bounds.low} to {bounds.high}"

    return check


def _is_text(value: object) -> bool:
    """A string of at most MAX_TEXT characters that is valid Unicode (no lone surrogate)."""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _text(value: object) -> tuple[object, str | None]:
    if _is_text(value) and str(value).strip():
        return value, None
    return None, f"a non-blank string of at most {MAX_TEXT} characters"


def _query(value: object) -> tuple[object, str | None]:
    if _is_text(value) and textmod.raw_tokens(str(value)):
        return value, None
    return None, f"a string with a letter or digit, at most {MAX_TEXT} characters"


def _digest(value: object) -> tuple[object, str | None]:
    if isinstance(value, str) and SHA256_RE.match(value):
        return value, None
    return None, "a lowercase hex SHA-256 digest (64 characters)"


def _enum(allowed: tuple[str, ...]) -> Checker:
    def check(value: object) -> tuple[object, str | None]:
        if isinstance(value, str) and value in allowed:
            return value, None
        return None, f"one of {', '.join(allowed)}"

    return check


def _list_of(item: Checker, what: str) -> Checker:
    def check(value: object) -> tuple[object, str | None]:
        expected = f"a list of at most {MAX_LIST} {what}"
        if not isinstance(value, list) or len(value) > MAX_LIST:
            return None, expected
        if any(item(entry)[1] is not None for entry in value):
            return None, expected
        return tuple(value), None

    return check


def _map_of(item: Checker, what: str) -> Checker:
    def check(value: object) -> tuple[object, str | None]:
        expected = f"an object of at most {MAX_LIST} entries {{source path: {what}}}"
        if not isinstance(value, dict) or len(value) > MAX_LIST:
            return None, expected
        if any(_text(k)[1] or item(v)[1] for k, v in value.items()):
            return None, expected
        return dict(sorted(value.items())), None

    return check


_PATHS = _list_of(_text, "non-blank strings")
_CLASSES = _list_of(_enum(AUTHORITY_CLASSES), "authority classes")

CASE_KEYS: dict[str, Checker] = {
    "query": _query,
    "name": _text,
    "max_tokens": _int_range(BOUNDS.max_tokens),
    "retrieval_limit": _int_range(BOUNDS.limit),
    "top_k": _int_range(BOUNDS.top_k),
    "expected_top_source_path": _text,
    "expected_top_k_paths": _PATHS,
    "expected_temporal_status": _enum(TEMPORAL_STATUSES),
    "expected_source_temporal": _map_of(_enum(TEMPORAL_STATUSES), "temporal status"),
    "expected_source_authority": _map_of(_enum(AUTHORITY_CLASSES), "authority class"),
    "expected_source_paths": _PATHS,
    "expected_authority_classes": _CLASSES,
    "forbidden_source_paths": _PATHS,
    "forbidden_authority_classes": _CLASSES,
    "forbidden_retrieval_source_paths": _PATHS,
    "must_contain": _PATHS,
    "must_not_contain": _PATHS,
    "forbidden_scope_paths": _PATHS,
    "expected_project_id": _text,
    "expected_snapshot_digest": _digest,
}


def _show(value: object) -> str:
    """A short JSON rendering of VALUE for an error detail (containers by kind only)."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    shown = json.dumps(value, ensure_ascii=False)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return shown.encode("utf-8", "backslashreplace").decode("utf-8")


def _label(index: int, case: dict[str, object]) -> str:
    name = case.get("name")
    if isinstance(name, str) and _text(name)[1] is None:
        return f"cases[{index}] ({_show(name)})"
    return f"cases[{index}]"


def _case_problems(index: int, case: object) -> tuple[dict[str, object], list[str]]:
    if not isinstance(case, dict):
        return {}, [f"cases[{index}]: expected an object, got {_show(case)}"]
    label = _label(index, case)
    values: dict[str, object] = {}
    problems = [f"{label}: unknown key {_show(k)}" for k in sorted(case) if k not in CASE_KEYS]
    if "query" not in case:
        problems.append(f'{label}: missing key "query"')
    for key in sorted(case.keys() & CASE_KEYS.keys()):
        value, expected = CASE_KEYS[key](case[key])
        if expected is None:
            values[key] = value
        else:
            problems.append(f'{label}: key "{key}": expected {expected}, got {_show(case[key])}')
    return values, problems


def _top_level_problems(dataset: object) -> list[str]:
    if not isinstance(dataset, dict):
        return [f"dataset: expected a JSON object, got {_show(dataset)}"]
    problems = [f"dataset: unknown key {_show(k)}" for k in sorted(dataset) if k not in _TOP_KEYS]
    problems += [f'dataset: missing key "{k}"' for k in _TOP_KEYS if k not in dataset]
    version = dataset.get("schema_version", EVAL_SCHEMA_VERSION)
    if not isinstance(version, str) or version != EVAL_SCHEMA_VERSION:
        problems.append(
            f'dataset: key "schema_version": expected "{EVAL_SCHEMA_VERSION}", got {_show(version)}'
        )
    cases = dataset.get("cases", [])
    if "cases" in dataset and (
        not isinstance(cases, list) or not 1 <= len(cases) <= BOUNDS.eval_cases
    ):
        shown = f"{len(cases)} cases" if isinstance(cases, list) else _show(cases)
        problems.append(
            f'dataset: key "cases": expected a list of 1 to {BOUNDS.eval_cases} cases, got {shown}'
        )
    return problems


_TOP_KEYS = ("schema_version", "cases")


def _raise(problems: list[str]) -> None:
    shown = problems[:MAX_PROBLEMS]
    more = len(problems) - len(shown)
    detail = "; ".join(shown) + (f" (+{more} more problems)" if more else "")
    raise ContextError("EVAL_SCHEMA", detail, hint="see `project-corpus schema eval-dataset`")


def parse_dataset(dataset: object) -> tuple[EvalCase, ...]:
    """The validated cases of a CorpusEval v1 dataset (EVAL_SCHEMA on any problem)."""
    problems = _top_level_problems(dataset)
    if problems:
        _raise(problems)
    assert isinstance(dataset, dict)
    cases: list[EvalCase] = []
    names: dict[str, int] = {}
    for index, raw in enumerate(dataset["cases"]):
        values, case_problems = _case_problems(index, raw)
        problems += case_problems
        if case_problems:
            continue
        case = EvalCase(case_index=index, **{"name": f"case-{index}", **values})  # type: ignore[arg-type]
        if case.name in names:
            problems.append(
                f'{_label(index, values)}: key "name": duplicates cases[{names[case.name]}]'
            )
        names.setdefault(case.name, index)
        cases.append(case)
    if problems:
        _raise(problems)
    return tuple(cases)
