"""Repeated keys in JSON inputs and lint.yaml are refused (F14): a reader keeping the first
and one keeping the last would see two different documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.core.jsonio import parse_json_bytes
from tests.conftest import Run
from tests.hostile.support import assert_stable


def test_a_json_input_with_a_repeated_key_is_context_input_json(cli: object, example: Path) -> None:
    (example / "dup.json").write_text('{"a": {"b": 1, "b": 2}}', encoding="utf-8")
    run: Run = cli(  # type: ignore[operator]
        "context",
        "candidate-validate",
        str(example),
        "--input",
        str(example / "dup.json"),
        "--format",
        "json",
    )
    assert run.code in (1, 2), run.err
    assert "duplicate key" in run.out + run.err
    assert "INTERNAL_ERROR" not in run.err


@given(st.dictionaries(st.text(max_size=5), st.integers(), min_size=1))
def test_json_objects_parse_unless_a_key_repeats(value: dict[str, int]) -> None:
    text = json.dumps(value)
    assert parse_json_bytes(text.encode(), "x") == value
    key = next(iter(value))
    doubled = "{" + text[1:-1] + ", " + json.dumps(key) + ": 0}"
    with pytest.raises(ContextError) as info:
        parse_json_bytes(doubled.encode(), "x")
    assert info.value.code == "CONTEXT_INPUT_JSON"


@pytest.mark.parametrize(
    "text", ["status_max_age_days: 3\nstatus_max_age_days: 400\n", "a: &x {b: 1, b: 2}\n"]
)
def test_a_lint_yaml_with_a_repeated_key_is_config_invalid(
    cli: object, example: Path, text: str
) -> None:
    (example / ".project-corpus" / "lint.yaml").write_text(text, encoding="utf-8")
    run: Run = cli("context", "doctor", str(example), "--format", "json")  # type: ignore[operator]
    assert_stable(run, "CONFIG_INVALID")
    assert "duplicate key" in json.loads(run.err)["detail"]
