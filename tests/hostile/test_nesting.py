"""Deep nesting in the TOML and YAML we parse (F6, F7): a stable code, never exit 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.corpus import policy
from tests.conftest import Run
from tests.hostile.support import assert_stable

POLICY = ".project-corpus/policy.toml"


def _nested_table(depth: int) -> str:
    return "x = " + "{a=" * depth + "1" + "}" * depth + "\n"


def _nested_array(depth: int) -> str:
    return "x = " + "[" * depth + "]" * depth + "\n"


@pytest.mark.parametrize("text", [_nested_table(5_000), _nested_array(20_000)])
def test_a_deeply_nested_policy_is_policy_parse(cli: object, example: Path, text: str) -> None:
    (example / POLICY).write_text(text, encoding="utf-8")
    for args in (("context", "build", str(example)), ("context", "query", str(example), "x")):
        run: Run = cli(*args)  # type: ignore[operator]
        assert_stable(run, "PROTOCOL_NONCONFORMANT")
        assert json.loads(run.err)["detail"] == "POLICY_PARSE"
    run = cli("context", "doctor", str(example), "--format", "json")  # type: ignore[operator]
    assert_stable(run, None, (1,))
    codes = {issue["code"] for issue in json.loads(run.out)["issues"]}
    assert "POLICY_PARSE" in codes


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(depth=st.integers(1, 30_000), kind=st.sampled_from(["table", "array"]))
def test_any_policy_nesting_parses_or_is_policy_parse(depth: int, kind: str) -> None:
    text = _nested_table(depth) if kind == "table" else _nested_array(depth)
    _, findings = policy.parse_policy(text.encode())
    assert findings, "a policy of one nested key is never valid"
    assert all(f.code.startswith("POLICY_") for f in findings)


@pytest.mark.parametrize("text", ["[" * 10_000 + "]" * 10_000, "- " * 10_000 + "x"])
def test_a_deeply_nested_lint_yaml_is_config_invalid(cli: object, example: Path, text: str) -> None:
    (example / ".project-corpus" / "lint.yaml").write_text(text, encoding="utf-8")
    run: Run = cli(  # type: ignore[operator]
        "context", "doctor", str(example), "--format", "json"
    )
    assert_stable(run, "CONFIG_INVALID")
    assert "nested too deeply" in json.loads(run.err)["detail"]
