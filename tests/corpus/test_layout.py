"""One home per corpus path: `corpus/layout.py` (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

from project_corpus.corpus import layout

SRC = Path(__file__).resolve().parents[2] / "src" / "project_corpus"
HOME = SRC / "corpus" / "layout.py"


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of TREE's module, classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def path_literals(path: Path) -> list[str]:
    """The string constants in PATH's code (not its docstrings) that spell a corpus path.

    Prose for people (a help text, a hint that quotes a path) holds whitespace; a path, a
    prefix or a pattern does not.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree)
    return [
        f"{path.relative_to(SRC)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and layout.CORPUS_DIR in node.value
        and not any(char.isspace() for char in node.value)
    ]


def test_no_module_but_layout_spells_a_corpus_path() -> None:
    found = [
        hit for path in sorted(SRC.rglob("*.py")) if path != HOME for hit in path_literals(path)
    ]
    assert found == []


def test_the_check_finds_a_path_literal(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        '"""Docstrings may quote .project-corpus/tasks/ for people."""\n'
        'HELP = "inside .project-corpus/cache/ only"\n'
        'TASKS = ".project-corpus/tasks"\n'
        'def active(i):\n    return f".project-corpus/tasks/{i}.md"\n',
        encoding="utf-8",
    )
    global SRC
    saved, SRC = SRC, tmp_path
    try:
        assert [hit.split(": ", 1)[1] for hit in path_literals(module)] == [
            "'.project-corpus/tasks'",
            "'.project-corpus/tasks/'",
        ]
    finally:
        SRC = saved


def test_layout_imports_nothing_above_core() -> None:
    tree = ast.parse(HOME.read_text(encoding="utf-8"))
    modules = [
        node.module or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module != "__future__"
    ]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert all(m.startswith("project_corpus.core") for m in modules), modules


def test_the_table_spells_the_protocol_layout() -> None:
    assert layout.PROJECT_PATH == ".project-corpus/state/PROJECT.md"
    assert layout.STATUS_PATH == ".project-corpus/state/STATUS.md"
    assert layout.POLICY_PATH == ".project-corpus/policy.toml"
    assert layout.DEFAULT_INDEX_PATH == ".project-corpus/cache/context.sqlite3"
    assert layout.task_path("t-1") == ".project-corpus/tasks/t-1.md"
    assert layout.report_path("r-1") == ".project-corpus/reports/r-1.md"
    assert layout.SOURCE_FOLDERS == ("state", "tasks", "reports", "history")
    assert [rel for rel, _ in layout.REQUIRED][-3:] == list(layout.ARTIFACT_DIRS)
