"""The CLI's indented JSON is byte-identical to `json.dumps(indent=2)`, only faster."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from project_corpus.core.jsonio import indented
from project_corpus.core.jsonio import pretty

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
KEYS = st.text() | st.sampled_from(["", "a", "é", "\n", '"', "\\", "\u2028", "\x00", "😀"])
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.tuples(inner, inner)
        | st.dictionaries(KEYS, inner, max_size=6)
    ),
    max_leaves=40,
)


def reference(value: object, sort_keys: bool = True, allow_nan: bool = False) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=sort_keys, allow_nan=allow_nan)


@given(VALUES)
def test_indented_json_is_the_standard_encoding(value: object) -> None:
    assert indented(value) == reference(value)
    assert pretty(value) == reference(value) + "\n"


@given(VALUES)
def test_unsorted_indented_json_keeps_the_insertion_order(value: object) -> None:
    assert indented(value, sort_keys=False) == reference(value, sort_keys=False)


# Rows that share one key set (a report's findings): each column holds one type or a mix.
COLUMN_VALUES = st.sampled_from(
    [
        st.text(),
        st.integers(),
        st.booleans(),
        st.none(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.none() | st.text(),
        st.booleans() | st.integers(min_value=0, max_value=1) | st.floats(0, 1),
        SCALARS,
        st.lists(SCALARS, max_size=3),  # a document's sources
        st.lists(st.text(), max_size=3) | st.tuples(st.text()),
        st.lists(st.lists(st.integers(), max_size=2), max_size=2),  # not scalars
        st.lists(SCALARS, max_size=2) | st.text(),
    ]
)
ROW_KEYS = st.lists(KEYS | st.sampled_from(["%", "%s", "%%", "a%(b)s"]), min_size=1, unique=True)


@st.composite
def uniform_rows(draw: st.DrawFn) -> list[dict[str, object]]:
    keys = draw(ROW_KEYS)
    columns = [draw(st.lists(draw(COLUMN_VALUES), min_size=1)) for _ in keys]
    count = min(map(len, columns))
    rows = [dict(zip(keys, values, strict=True)) for values in zip(*columns, strict=False)]
    if draw(st.booleans()):  # the same keys in another insertion order
        rows[-1] = dict(reversed(rows[-1].items()))
    assert len(rows) == count
    return rows


def outcome(encode: Callable[..., str], value: object, sort_keys: bool) -> str:
    """The text, or the type of the error (mixed key types cannot be sorted)."""
    try:
        return encode(value, sort_keys=sort_keys)
    except TypeError as exc:
        return type(exc).__name__


@given(uniform_rows(), st.booleans())
def test_rows_with_one_key_set_are_the_standard_encoding(
    rows: list[dict[str, object]], sort_keys: bool
) -> None:
    for value in (rows, {"issues": rows, "ok": True}, [rows]):
        assert indented(value, sort_keys=sort_keys) == reference(value, sort_keys=sort_keys)


def test_rows_that_differ_in_keys_or_hold_containers_are_the_standard_encoding() -> None:
    for rows in (
        [{"a": 1, "b": 2}, {"a": 1, "c": 2}],
        [{"a": 1}, {"a": 1, "b": 2}],
        [{"a": [1]}, {"a": 2}],
        [{"a": {}}, {"a": 2}],
        [{"a": 1}, [1]],
        [{1: 1}, {1: 2}],
        [{"a": 1, 2: 3}, {"a": 1, 2: 3}],
    ):
        for sort_keys in (True, False):
            assert outcome(indented, rows, sort_keys) == outcome(reference, rows, sort_keys)


def test_a_large_report_with_escapes_and_non_ascii_is_byte_identical() -> None:
    findings = [
        {
            "code": "VOLATILE_CLAIM",
            "path": f".project-corpus/reports/отчёт-{n}.md",
            "line": n,
            "detail": f'"currently" — сейчас\t{n}\\ \u2028 \x1f 😀 <tag> & </script>',
            "fingerprint": f"{n:064x}",
            "suppressed": n % 7 == 0,
            "score": n / 3,
            "hint": None,
        }
        for n in range(11_000)
    ]
    report = {
        "findings": findings,
        "summary": {"by_code": {"VOLATILE_CLAIM": 11_000}, "empty": {}, "none": []},
        "counts": [1, 2.5, None, True, "x"],
        "nested": [[], [{}], [[1, {"a": [2, {"b": "ü"}]}]]],
        "non_string_keys": {1: "one", 2: {3: "three"}},
        "deep": {"k": {4: [5]}},
    }
    assert pretty(report) == reference(report) + "\n"


def test_nan_is_refused_like_the_standard_encoder() -> None:
    for value in ({"a": float("nan")}, [float("inf")], {"a": [1, {"b": float("-inf")}]}):
        with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
            reference(value)
        with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
            indented(value)
    rows = [{"a": 1.5}, {"a": float("nan")}]
    with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
        indented(rows)
    assert indented(rows, allow_nan=True) == reference(rows, allow_nan=True)
    assert indented([float("nan")], allow_nan=True) == reference([float("nan")], allow_nan=True)
