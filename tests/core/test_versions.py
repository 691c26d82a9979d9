"""Every format version is a named constant in `core/versions.py`, held to the shipped JSON
Schemas; no other module writes a version literal (docs/architecture.md)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from project_corpus.core import versions
from project_corpus.core.schemas import schema_text

SRC = Path(__file__).resolve().parents[2] / "src" / "project_corpus"
HOME = SRC / "core" / "versions.py"


@pytest.mark.parametrize(
    ("schema", "key", "version"),
    [
        ("query-result", "schema_version", versions.QUERY_SCHEMA_VERSION),
        ("bundle", "schema_version", versions.BUNDLE_SCHEMA_VERSION),
        ("bundle", "index_schema_version", versions.INDEX_SCHEMA_VERSION),
        ("receipt", "schema_version", versions.RECEIPT_SCHEMA_VERSION),
        ("candidate", "schema_version", versions.CANDIDATE_SCHEMA_VERSION),
        ("eval-dataset", "schema_version", versions.EVAL_SCHEMA_VERSION),
        ("review", "schema_version", versions.REVIEW_SCHEMA_VERSION),
        ("build-result", "index_schema_version", versions.INDEX_SCHEMA_VERSION),
        ("doctor-report", "index_schema_version", versions.INDEX_SCHEMA_VERSION),
    ],
)
def test_each_schema_declares_its_constant(schema: str, key: str, version: str) -> None:
    assert json.loads(schema_text(schema))["properties"][key]["const"] == version


def version_literals(source: str, label: str) -> list[str]:
    """Version literals in SOURCE: a string given to a `*version` key or keyword, or compared
    with something named `*version`, or the Protocol's version anywhere in code."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        pairs: list[tuple[str, ast.AST]] = []
        if isinstance(node, ast.Dict):
            pairs = [
                (k.value, v)
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            ]
        elif isinstance(node, ast.Call):
            pairs = [(k.arg, k.value) for k in node.keywords if k.arg]
        elif isinstance(node, ast.Compare):
            names = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
            names += [n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)]
            pairs = [(name, c) for name in names for c in [node.left, *node.comparators]]
        elif isinstance(node, ast.Constant) and node.value == versions.PROTOCOL_VERSION:
            found.append(f"{label}:{node.lineno}: {node.value!r}")
        for key, value in pairs:
            if (
                key.lower().endswith("version")
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                found.append(f"{label}:{value.lineno}: {key}={value.value!r}")
    return found


def test_no_module_but_versions_writes_a_version() -> None:
    found = [
        hit
        for path in sorted(SRC.rglob("*.py"))
        if path != HOME
        for hit in version_literals(path.read_text(encoding="utf-8"), str(path.relative_to(SRC)))
    ]
    assert found == []


def test_the_check_finds_a_version_literal() -> None:
    source = (
        'A = {"schema_version": "1"}\nB = version == "2"\nC = "2.0"\nD = f(grant_version="1")\n'
    )
    assert sorted(hit.split(": ", 1)[1] for hit in version_literals(source, "m.py")) == [
        "'2.0'",
        "grant_version='1'",
        "schema_version='1'",
        "version='2'",
    ]
