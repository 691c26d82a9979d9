"""One home per bound: `core.bounds.BOUNDS` (docs/architecture.md, STYLE.md "one object carries
the settings"). The CLI options, the MCP schemas, the eval dataset checks, the error texts and
the shipped JSON Schemas all say what it says, and no other module writes its numbers."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import click
import pytest

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.bounds import Range
from project_corpus.core.errors import ERRORS
from project_corpus.core.schemas import schema_text
from project_corpus.evaluate.dataset import CASE_KEYS
from project_corpus.evaluate.dataset import EvalCase
from project_corpus.evaluate.dataset import parse_dataset

SRC = Path(__file__).resolve().parents[2] / "src" / "project_corpus"
HOME = SRC / "core" / "bounds.py"
# Numbers that mean only a bound (20 or 100 mean many things and are left out).
DISTINCT = {BOUNDS.max_tokens.high, BOUNDS.envelope_bytes}
SPELLINGS = {f"{n}" for n in DISTINCT} | {f"{n:,}" for n in DISTINCT}


def code_constants(path: Path) -> list[tuple[int, object]]:
    """(line, value) of PATH's constants, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and id(node) not in docs
    ]


def test_no_module_but_bounds_writes_a_bound() -> None:
    copies = [
        f"{path.relative_to(SRC)}:{line}: {value!r}"
        for path in sorted(SRC.rglob("*.py"))
        if path != HOME
        for line, value in code_constants(path)
        if (type(value) is int and value in DISTINCT)
        or (isinstance(value, str) and any(s in value for s in SPELLINGS))
    ]
    assert copies == []


def option(command: click.Command, name: str) -> click.Parameter:
    return next(p for p in command.params if p.name == name)


def test_the_cli_options_read_the_bounds() -> None:
    from project_corpus.adapters.cli import context_commands

    for command, name, bounds in (
        (context_commands.query, "limit", BOUNDS.limit),
        (context_commands.bundle, "max_tokens", BOUNDS.max_tokens),
    ):
        param = option(command, name)
        assert param.default == str(bounds.default)
        assert f"{bounds.low}..{bounds.high} (default {bounds.default})" in str(
            getattr(param, "help", "")
        )


def test_the_mcp_schemas_read_the_bounds() -> None:
    from project_corpus.adapters.mcp_server.tools import TOOLS
    from project_corpus.adapters.mcp_server.tools import input_schema

    for tool, key, bounds in (
        ("corpus.context_query", "limit", BOUNDS.limit),
        ("corpus.context_bundle", "max_tokens", BOUNDS.max_tokens),
    ):
        schema = input_schema(TOOLS[tool].params)["properties"][key]
        assert (schema["minimum"], schema["default"], schema["maximum"]) == bounds


@pytest.mark.parametrize(
    ("key", "bounds"),
    [("max_tokens", BOUNDS.max_tokens), ("retrieval_limit", BOUNDS.limit), ("top_k", BOUNDS.top_k)],
)
def test_eval_cases_read_the_bounds(key: str, bounds: Range) -> None:
    check = CASE_KEYS[key]
    assert check(bounds.low)[1] is None
    assert check(bounds.high)[1] is None
    assert check(bounds.low - 1)[1] == check(bounds.high + 1)[1] is not None
    assert getattr(EvalCase(0, "q", "n"), key) == bounds.default


def test_eval_dataset_case_count_reads_the_bound() -> None:
    from project_corpus.core.errors import ContextError

    too_many = {"schema_version": "1", "cases": [{"query": "q"}] * (BOUNDS.eval_cases + 1)}
    with pytest.raises(ContextError) as caught:
        parse_dataset(too_many)
    assert f"1 to {BOUNDS.eval_cases} cases" in caught.value.detail
    assert len(parse_dataset({"schema_version": "1", "cases": [{"query": "q"}]})) == 1


def test_the_error_texts_read_the_bounds() -> None:
    assert f"from {BOUNDS.limit.low} to {BOUNDS.limit.high}." in ERRORS["QUERY_LIMIT"]
    assert f"{BOUNDS.max_tokens.high:,}" in ERRORS["BUDGET_INVALID"]
    assert f"{BOUNDS.envelope_bytes:,}-byte" in ERRORS["BUNDLE_LIMIT"]
    assert f"{BOUNDS.query_bytes // 1024} KiB" in ERRORS["QUERY_INVALID"]


def test_the_shipped_schemas_say_what_the_bounds_say() -> None:
    bundle = _fields(json.loads(schema_text("bundle")))
    assert bundle["max_envelope_bytes"] == [{"const": BOUNDS.envelope_bytes}]
    assert [(f["minimum"], f["maximum"]) for f in bundle["max_tokens"]] == [
        (BOUNDS.max_tokens.low, BOUNDS.max_tokens.high)
    ]
    assert [f["maxItems"] for f in bundle["items"] if "maxItems" in f] == [BOUNDS.bundle_items]
    dataset = _fields(json.loads(schema_text("eval-dataset")))
    assert [f["maxItems"] for f in dataset["cases"]] == [BOUNDS.eval_cases]
    for key, bounds in (
        ("max_tokens", BOUNDS.max_tokens),
        ("retrieval_limit", BOUNDS.limit),
        ("top_k", BOUNDS.top_k),
    ):
        assert [(f["minimum"], f["default"], f["maximum"]) for f in dataset[key]] == [bounds]


def _fields(schema: object) -> dict[str, list[dict[str, object]]]:
    """{property name: its schemas} over every `properties` object of SCHEMA."""
    found: dict[str, list[dict[str, object]]] = {}
    for props in _property_maps(schema):
        for key, value in props.items():
            found.setdefault(key, []).append(value)
    return found


def _property_maps(node: object) -> list[dict[str, dict[str, object]]]:
    """Every `properties` object anywhere in a JSON Schema."""
    found: list[dict[str, dict[str, object]]] = []
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict):
            found.append(node["properties"])
        for value in node.values():
            found += _property_maps(value)
    elif isinstance(node, list):
        for value in node:
            found += _property_maps(value)
    return found


def test_a_range_holds_its_ends_and_writes_its_help() -> None:
    assert BOUNDS.limit.holds(1)
    assert BOUNDS.limit.holds(100)
    assert not BOUNDS.limit.holds(101)
    assert BOUNDS.limit.help("Maximum results") == "Maximum results, 1..100 (default 20)."
