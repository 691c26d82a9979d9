"""The CLI's indented JSON is byte-identical to `json.dumps(indent=2)`, only faster."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from project_corpus.jsonio import indented
from project_corpus.jsonio import pretty

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
    assert indented([float("nan")], allow_nan=True) == reference([float("nan")], allow_nan=True)
