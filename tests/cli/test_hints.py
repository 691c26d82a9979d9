"""Every error has a hint, and a hint that names a command names the ROOT it was given
(issue #25)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.core.errors import ERRORS
from project_corpus.core.errors import HINTS
from project_corpus.core.errors import ROOT_MARK
from project_corpus.core.errors import ContextError
from project_corpus.doctor import CHECKS
from tests.conftest import FIXTURES
from tests.conftest import STATUS
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.conftest import copy_fixture

Cli = Callable[..., Run]
SRC = Path(__file__).resolve().parents[2] / "src" / "project_corpus"
# A command of ours that takes a ROOT: `project-corpus context build ROOT`, `... trust show ROOT`.
ROOTED = re.compile(
    r"`project-corpus (?:context (?:build|query|bundle|receipt|doctor|eval|candidate-validate)"
    r"|trust (?:grant|show)|new (?:task|report) \S+)(?P<rest>[^`]*)`"
)


def test_every_error_code_has_a_hint() -> None:
    assert set(HINTS) == set(ERRORS)
    assert all(hint.strip() for hint in HINTS.values())
    assert all(ContextError(code).envelope()["hint"] for code in ERRORS)


def test_every_check_says_how_to_fix_it() -> None:
    """The `help:` line of the text report: each check's `## Fix` paragraph."""
    assert [check.code for check in CHECKS if not check.fix] == []


# Modules whose strings describe commands rather than tell a person what to run: the MCP
# tools' descriptions and the generated docs' headers.
DESCRIPTIONS = ("adapters/mcp_server/tools.py", "output/docs.py")


def _hint_strings() -> list[tuple[str, str]]:
    """Every string of the package that names a command of ours taking a ROOT, but its
    docstrings (a check's `## Fix` is shown with the ROOT given by the CLI, `with_root`):
    the registry's hints, those given where an error is raised, the trust layers' hints."""
    found = [(f"HINTS[{code}]", hint) for code, hint in HINTS.items()]
    for path in sorted(SRC.rglob("*.py")):
        if path.relative_to(SRC).as_posix() in DESCRIPTIONS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and id(node) not in docs and "`project-corpus " in text:
                found.append((f"{path.relative_to(SRC)}:{node.lineno}", text))
    return found


@pytest.mark.parametrize(("where", "hint"), _hint_strings())
def test_a_hint_naming_a_command_leaves_the_root_to_the_caller(where: str, hint: str) -> None:
    for match in ROOTED.finditer(hint):
        assert ROOT_MARK in match.group(0) or "{{root}}" in match.group(0), (where, hint)


def test_the_root_mark_is_the_root_as_given_shell_quoted() -> None:
    error = ContextError("INDEX_STALE", "x")
    assert error.envelope("mem")["hint"] == (
        "rebuild it with `project-corpus context build mem`, or ask with --fresh (no index)"
    )
    assert error.envelope("my mem")["hint"] == (
        "rebuild it with `project-corpus context build 'my mem'`, or ask with --fresh (no index)"
    )
    assert ContextError("INDEX_STALE", "x", hint="own").envelope("mem")["hint"] == "own"


def test_index_hints_name_the_root_given(
    example: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(example.parent)
    name = example.name
    missing = cli("context", "query", name, "next action").error()
    assert (missing["error"], missing["hint"]) == (
        "INDEX_MISSING",
        f"build it with `project-corpus context build {name}`, or ask with --fresh (no index)",
    )
    index = example / ".project-corpus/cache/context.sqlite3"
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(b"SQLite format 3\0" + bytes(range(256)) * 3)
    corrupt = cli("context", "bundle", name, "next action").error()
    assert (corrupt["error"], corrupt["hint"]) == (
        "INDEX_CORRUPT",
        f"rebuild it with `project-corpus context build {name}` (the index is disposable)",
    )
    assert cli("context", "build", name).code == 0
    task = example / ".project-corpus/tasks/t-018-redis7.md"
    task.write_text(task.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    stale = cli("context", "query", name, "next action").error()
    assert stale["hint"] == (
        f"rebuild it with `project-corpus context build {name}`, or ask with --fresh (no index)"
    )


def test_the_corrupt_index_finding_shows_no_bytes_as_its_source_line(
    example: Path, cli: Cli
) -> None:
    index = example / ".project-corpus/cache/context.sqlite3"
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(b"SQLite format 3\0" + bytes(range(256)) * 3)
    out = cli("context", "doctor", example, "--index", index, "--format", "text").out
    lines = out.splitlines()
    head = next(n for n, line in enumerate(lines) if " FAIL INDEX_CORRUPT " in line)
    assert (
        lines[head + 1] == f"    help: Delete it and run `project-corpus context build {example}`."
    )
    assert "SQLite format" not in out
    assert "\\x00" not in out


@pytest.mark.parametrize(
    ("args", "code", "hint"),
    [
        (("query", "{root}", " ?! "), "QUERY_EMPTY", "ask with at least one word"),
        (("query", "{root}", "x", "--limit", "0"), "QUERY_LIMIT", "pass --limit"),
        (("bundle", "{root}", "x", "--max-tokens", "5"), "BUDGET_INVALID", "pass --max-tokens"),
        (
            ("doctor", "{root}", "--output", "{root}/.project-corpus/r.txt"),
            "OUTPUT_PATH",
            "write the report outside the corpus folder",
        ),
        (("doctor", "{root}", "--config", "nowhere.yaml"), "CONFIG_INVALID", "paths are relative"),
    ],
)
def test_usage_errors_of_the_context_commands_have_hints(
    example: Path, cli: Cli, args: tuple[str, ...], code: str, hint: str
) -> None:
    error = cli("context", *(a.format(root=example) for a in args)).error()
    assert error["error"] == code
    assert str(error["hint"]).startswith(hint), error


def test_config_invalid_points_at_explain_not_at_a_docs_anchor(
    make_corpus: MakeCorpus, cli: Cli
) -> None:
    root = make_corpus()
    (root / ".project-corpus/lint.yaml").write_text("rulez: {}\n", encoding="utf-8")
    error = cli("context", "doctor", root).error()
    assert error["error"] == "CONFIG_INVALID"
    assert "`project-corpus explain`" in str(error["hint"])
    assert "#" not in str(error["hint"])


def test_build_names_the_first_problem_of_a_nonconformant_corpus(
    make_corpus: MakeCorpus, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus({".project-corpus/state/STATUS.md": STATUS.replace("ACTIVE", "RUNNING")})
    monkeypatch.chdir(root.parent)
    error = cli("context", "build", root.name).error()
    assert (error["error"], error["detail"]) == ("PROTOCOL_NONCONFORMANT", "INVALID_METADATA")
    assert error["hint"] == (
        "first: .project-corpus/state/STATUS.md:4: INVALID_METADATA Lifecycle-Status 'RUNNING' "
        "is not one of ACTIVE, PAUSED, BLOCKED, COMPLETE; "
        f"`project-corpus context doctor {root.name}` lists every finding"
    )


def test_trust_hints_name_the_root(tmp_path: Path, cli: Cli) -> None:
    root = copy_fixture(FIXTURES / "example", tmp_path / "ex")
    missing = cli("trust", "show", root, "--grant", tmp_path / "none.toml").error()
    assert missing["error"] == "TRUST_MISSING"
    assert f"`project-corpus trust grant {root} --capability ...`" in str(missing["hint"])
