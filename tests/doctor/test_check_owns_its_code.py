"""A check owns its code (#32; pyflakes' message classes): the code is written once, in the
check's declaration, and the body reports through its `Check`; each family exports its
checks and the registry concatenates them."""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap

from project_corpus.doctor import registry
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import check

FAMILIES = (
    "conformance",
    "policy",
    "index",
    "relations",
    "content",
    "mistakes",
    "integrity",
    "repository",
    "hygiene",
    "bundles",
    "candidates",
)


def test_the_registry_is_the_families_tuples_concatenated() -> None:
    exported = [importlib.import_module(f"project_corpus.doctor.{f}").CHECKS for f in FAMILIES]
    assert tuple(c for family in exported for c in family) == registry.CHECKS
    assert len({c.code for c in registry.CHECKS}) == len(registry.CHECKS)
    for family in FAMILIES:
        module = importlib.import_module(f"project_corpus.doctor.{family}")
        declared = [v for v in vars(module).values() if isinstance(v, Check)]
        assert set(declared) == set(module.CHECKS), family  # no check left out of its tuple


def test_no_check_body_writes_its_own_code() -> None:
    written = []
    for item in registry.CHECKS:
        source = textwrap.dedent(inspect.getsource(inspect.unwrap(item.run)))
        function = ast.parse(source).body[0]
        assert isinstance(function, ast.FunctionDef)
        body = function.body[1:] if ast.get_docstring(function) else function.body
        written += [
            f"{item.code}: line {node.lineno}"
            for statement in body
            for node in ast.walk(statement)
            if isinstance(node, ast.Constant) and node.value == item.code
        ]
    assert written == []


def test_a_check_reports_through_itself() -> None:
    @check("DEMO_CODE", "demo-code", severity="WARN")
    def demo(view: DoctorView, this: Check) -> list[object]:
        """A demo."""
        return [this.issue("a.md", 3, "detail", "anchor", column=2)]

    @check("OLD_STYLE", "old-style", severity="WARN")
    def old(view: DoctorView) -> list[object]:
        """A check of the view alone still works."""
        return []

    (issue,) = demo.report(None)  # type: ignore[arg-type]
    assert (issue.code, issue.path, issue.line, issue.column) == ("DEMO_CODE", "a.md", 3, 2)
    assert list(old.report(None)) == []  # type: ignore[arg-type]
    assert old.summary == "A check of the view alone still works."
