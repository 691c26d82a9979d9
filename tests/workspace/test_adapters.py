"""Every client is an adapter of the one front door (SPEC §12, docs/architecture.md): each
`context` command and each MCP tool makes one `Workspace` call and renders it, and one
command resolves ROOT once."""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import click
import pytest

import project_corpus
from project_corpus.adapters.cli.app import context
from project_corpus.adapters.cli.app import main
from project_corpus.adapters.mcp_server.tools import TOOLS
from project_corpus.corpus import roots
from project_corpus.workspace import Workspace

# What an adapter may import besides the CLI's own helpers: the front door and renderers.
ADAPTER_IMPORTS = {"Workspace", "render_review", "render_eval", "render_report"}
METHODS = {name for name in vars(Workspace) if not name.startswith("_")}


def body_of(function: Callable[..., object]) -> ast.FunctionDef:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def workspace_calls(node: ast.AST) -> Counter[str]:
    """How often NODE constructs a Workspace, and calls a Workspace method (by name)."""
    calls: Counter[str] = Counter()
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        if isinstance(call.func, ast.Name) and call.func.id == "Workspace":
            calls["Workspace()"] += 1
        elif isinstance(call.func, ast.Attribute) and call.func.attr in METHODS:
            calls["method"] += 1
    return calls


def imported_names(node: ast.AST) -> set[str]:
    return {
        alias.name
        for found in ast.walk(node)
        if isinstance(found, ast.ImportFrom)
        and not (found.module or "").startswith("project_corpus.adapters.cli")
        for alias in found.names
    }


def context_commands() -> list[click.Command]:
    ctx = click.Context(context)
    names = context.list_commands(ctx)
    return [command for name in names if (command := context.get_command(ctx, name))]


def test_the_workspace_lives_outside_the_mcp_package() -> None:
    module = project_corpus.Workspace.__module__
    assert module == "project_corpus.workspace.door"
    assert not module.startswith("project_corpus.adapters.mcp_server")


@pytest.mark.parametrize("command", context_commands(), ids=lambda c: c.name or "")
def test_every_context_command_is_one_workspace_call_and_a_renderer(
    command: click.Command,
) -> None:
    assert command.callback is not None
    node = body_of(command.callback)
    assert workspace_calls(node) == {"Workspace()": 1, "method": 1}
    assert imported_names(node) <= ADAPTER_IMPORTS


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_every_mcp_tool_is_one_workspace_call(name: str) -> None:
    node = body_of(TOOLS[name].run)
    assert workspace_calls(node) == {"method": 1}
    assert imported_names(node) == set()
    (statement,) = node.body
    assert isinstance(statement, ast.Return)


def test_no_module_imports_a_second_query_path() -> None:
    src = Path(project_corpus.__file__).parent
    assert not (src / "retrieval" / "entry.py").exists()
    assert not (src / "adapters" / "mcp_server" / "workspace.py").exists()
    for name in ("run_query", "run_bundle", "QueryRequest", "BundleRequest"):
        assert not hasattr(project_corpus, name)
    texts = [path.read_text(encoding="utf-8") for path in sorted(src.rglob("*.py"))]
    assert not any("validate_candidate_at" in text for text in texts)


@pytest.fixture
def resolutions(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts each real resolution of a ROOT (`corpus.roots._resolve`)."""
    counted: Counter[str] = Counter()
    real = roots._resolve

    def resolve(given: str) -> str:
        counted[given] += 1
        return real(given)

    monkeypatch.setattr(roots, "_resolve", resolve)
    return counted


@pytest.mark.parametrize(
    "argv",
    [
        ["context", "query", "{root}", "exact next action"],
        ["context", "query", "--fresh", "{root}", "exact next action"],
        ["context", "bundle", "{root}", "exact next action"],
        ["context", "build", "{root}"],
        ["context", "doctor", "{root}", "--format", "text"],
        ["context", "doctor", "{root}", "--index", "{index}", "--format", "text"],
        ["context", "candidate-validate", "{root}", "--format", "text"],
        ["context", "eval", "{root}", "--dataset", "{root}/eval.json"],
    ],
    ids=lambda argv: " ".join(a for a in argv if "{" not in a),
)
def test_one_command_resolves_root_once(
    example: Path,
    resolutions: Counter[str],
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    index = example / ".project-corpus" / "cache" / "context.sqlite3"
    assert main(["context", "build", str(example)]) == 0
    resolutions.clear()
    code = main([arg.format(root=example, index=index) for arg in argv])
    assert code in (0, 1), capsys.readouterr().err
    assert resolutions == {str(example): 1}


# What the command line may not import: the readers and the pipelines behind the front door.
READERS = ("corpus.fs", "corpus.inputs", "corpus.snapshot", "corpus.required", "index", "retrieval")


def test_the_command_line_reads_no_file_and_composes_no_pipeline() -> None:
    cli_dir = Path(project_corpus.__file__).parent / "adapters" / "cli"
    found = []
    for path in sorted(cli_dir.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                module = node.module.removeprefix("project_corpus.")
                found += [f"{path.name}: {module}" for r in READERS if module.startswith(r)]
    assert found == []
