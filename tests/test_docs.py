"""Meta-tests: generated docs are current, every error code and CLI command is documented."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from project_corpus.adapters.cli.app import cli
from project_corpus.core.errors import ERRORS
from project_corpus.core.errors import EXIT_CODES
from project_corpus.core.errors import EXIT_ERROR
from project_corpus.core.errors import EXIT_INTERNAL
from project_corpus.core.errors import ContextError
from project_corpus.core.schemas import schema_names
from project_corpus.output import docs as generated

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src" / "project_corpus"
DOCS = REPO / "docs"

# `ContextError("CODE"`, `ContextError(code="CODE"`, across line breaks.
RAISE_RE = re.compile(r"ContextError\(\s*(?:code\s*=\s*)?[\"']([A-Za-z0-9_]+)[\"']")
CODE_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")


def test_errors_md_is_generated_from_the_registry() -> None:
    current = (DOCS / "errors.md").read_text(encoding="utf-8")
    assert current == generated.render_errors(), "run `python -m project_corpus.output.docs`"


def test_generated_docs_check_mode_names_each_stale_file_and_rewrite_fixes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "checks.md").write_text(generated.render_checks(), encoding="utf-8")
    assert generated.main(["--check", "--root", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        "docs/errors.md is out of date: run `python -m project_corpus.output.docs`\n"
    )
    assert generated.main(["--root", str(tmp_path)]) == 0
    assert generated.main(["--check", "--root", str(tmp_path)]) == 0
    assert (tmp_path / "docs" / "errors.md").read_text(
        encoding="utf-8"
    ) == generated.render_errors()


def test_the_repository_docs_pass_the_generators_check() -> None:
    assert generated.main(["--check", "--root", str(REPO)]) == 0


def test_every_code_has_a_row_and_a_meaning() -> None:
    rendered = generated.render_errors()
    for code, meaning in ERRORS.items():
        assert CODE_RE.match(code), code
        assert meaning.strip(), code
        assert meaning == meaning.strip(), code
        assert f"| `{code}` | {generated.exit_code(code)} |" in rendered


def raised_codes() -> Iterator[tuple[str, str]]:
    for path in sorted(SRC.rglob("*.py")):
        for match in RAISE_RE.finditer(path.read_text(encoding="utf-8")):
            yield str(path.relative_to(REPO)), match.group(1)


def test_every_raised_code_is_registered() -> None:
    found = list(raised_codes())
    assert len({code for _, code in found}) >= 20, "the regex no longer finds the raise sites"
    unregistered = sorted({(path, code) for path, code in found if code not in ERRORS})
    assert unregistered == []


def test_unregistered_code_is_refused() -> None:
    with pytest.raises(ValueError, match="unregistered"):
        ContextError("NOT_A_REAL_CODE", "x")


def walk(group: click.Group, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, click.Command]]:
    ctx = click.Context(group)
    for name in group.list_commands(ctx):  # the lazy groups import their commands here
        command = group.get_command(ctx, name)
        assert command is not None
        path = (*prefix, name)
        if isinstance(command, click.Group):
            yield from walk(command, path)
        else:
            yield " ".join(("project-corpus", *path)), command


def sections(text: str) -> dict[str, str]:
    """`## \\`title\\`` heading -> the text up to the next `## ` heading."""
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    return {part.splitlines()[0].strip().strip("`"): part for part in parts[1:]}


CLI_DOC = sections((DOCS / "cli.md").read_text(encoding="utf-8"))
COMMANDS = dict(walk(cli))


def test_the_command_tree_is_walked() -> None:
    assert "project-corpus context doctor" in COMMANDS
    assert "project-corpus trust grant" in COMMANDS
    assert len(COMMANDS) >= 11


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_is_documented(name: str) -> None:
    assert name in CLI_DOC, f"docs/cli.md has no `## `{name}`` section"
    section = CLI_DOC[name]
    for param in COMMANDS[name].params:
        if isinstance(param, click.Option):
            long_names = [o for o in param.opts if o.startswith("--")]
            assert any(o in section for o in long_names), f"{name}: {param.opts} undocumented"
        else:
            assert (param.human_readable_name or "").upper() in section, f"{name}: {param.name}"


def test_global_options_and_exit_codes_are_documented() -> None:
    for option in ("--version", "--debug", "--help"):
        assert option in CLI_DOC["Global options"]
    assert '"error":' in CLI_DOC["Error envelope"]


def test_the_exit_code_table_equals_the_codes() -> None:
    """docs/cli.md's table has exactly the codes of `errors.EXIT_CODES`, with their meanings."""
    rows = re.findall(r"^\| (\d+) \| (.+) \|$", CLI_DOC["Exit codes"], re.MULTILINE)
    assert [int(code) for code, _ in rows] == sorted(EXIT_CODES)
    for code, meaning in rows:
        assert meaning.startswith(EXIT_CODES[int(code)]), code
    assert generated.exit_code("INTERNAL_ERROR") == EXIT_INTERNAL
    assert {generated.exit_code(code) for code in ERRORS} == {EXIT_ERROR, EXIT_INTERNAL}


def test_the_github_action_words_cover_every_exit_code() -> None:
    from project_corpus.adapters.github import views as github_views

    assert set(github_views.RESULT_WORDS) == set(EXIT_CODES)


def test_every_shipped_schema_is_named_in_the_cli_doc() -> None:
    section = CLI_DOC["project-corpus schema"]
    for name in schema_names():
        assert f"`{name}`" in section, name


@pytest.mark.parametrize("doc", ["pre-commit.md", "github-action.md", "cli.md", "errors.md"])
def test_integration_docs_exist(doc: str) -> None:
    assert (DOCS / doc).read_text(encoding="utf-8").startswith("# ")


@pytest.mark.parametrize("doc", [DOCS / "architecture.md", REPO / "CONTRIBUTING.md"])
def test_architecture_docs_name_only_existing_modules(doc: Path) -> None:
    """Every `module.py` or `folder/` the architecture docs name exists in the package."""
    text = doc.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:[a-z_]+/)*[a-z_]+(?:\.py|/))`", text))
    assert len(named) >= 10
    missing = [
        name
        for name in named
        if not any((base / name).exists() for base in (SRC, REPO, REPO / "tests"))
    ]
    assert missing == []


def test_architecture_doc_lists_every_stage_package() -> None:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    for package in sorted(p.parent.name for p in SRC.glob("*/__init__.py")):
        assert f"{package}/" in text, package


def test_architecture_doc_names_every_module() -> None:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    modules = sorted(
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if p.name not in {"__init__.py", "__main__.py"} or p.parent == SRC
    )
    unnamed = [m for m in modules if m not in {"__init__.py"} and f"`{m}`" not in text]
    assert unnamed == []


# --- docs that cannot drift (#32) ----------------------------------------------------------------


def test_the_layer_drawing_is_generated_from_the_layers() -> None:
    """docs/architecture.md's drawing is `scripts/layers.py`'s rendering of `LAYERS`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("layers", REPO / "scripts" / "layers.py")
    assert spec is not None
    assert spec.loader is not None
    layers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layers)
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    assert layers.render(text) == text, "run `python scripts/layers.py`"
    assert layers.main(["--check"]) == 0
    from tests.test_structure import LAYERS

    drawing = layers.drawing()
    for rank, names in enumerate(LAYERS):
        for name in names:
            assert f"{rank}  {layers.shown(name)}" in drawing
    assert layers.render(text.replace("0  core/", "0  kern/")) == text  # a hand edit is undone


# Names written like modules that are something else: MCP tool and capability names, and
# attributes of a `corpus` variable.
NOT_MODULES = re.compile(r"corpus\.(context|candidate_validate|root|sources)")
# Dated journals record what was true then (modules since renamed included).
JOURNALS = {"decisions.md", "performance.md", "checks.md", "errors.md"}
# A stage by the name the docs use: `mcp_server.tools` is `adapters/mcp_server/tools.py`.
STAGES = {
    p.parent.name: ".".join(p.parent.relative_to(SRC).parts)
    for p in [*SRC.glob("*/__init__.py"), *SRC.glob("adapters/*/__init__.py")]
}
MODULES = {".".join(p.relative_to(SRC).with_suffix("").parts) for p in SRC.rglob("*.py")}
MODULES |= {name.removesuffix(".__init__") for name in MODULES}


def named_texts() -> Iterator[tuple[str, str]]:
    """(where, text) of every docstring and comment of the package and every current doc."""
    import ast

    for path in sorted(SRC.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        where = str(path.relative_to(REPO))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef):
                yield where, ast.get_docstring(node) or ""
        yield where, "\n".join(line.partition("#")[2] for line in source.splitlines())
    for doc in sorted(DOCS.glob("*.md")):
        if doc.name not in JOURNALS:
            yield str(doc.relative_to(REPO)), doc.read_text(encoding="utf-8")
    for extra in ("README.md", "CONTRIBUTING.md"):
        yield extra, (REPO / extra).read_text(encoding="utf-8")


def missing_module(name: str) -> bool:
    """Whether dotted NAME (`stage.module[.attr]`) names a module of a stage that is absent."""
    parts = name.removeprefix("project_corpus.").split(".")
    if parts[0] not in STAGES or NOT_MODULES.match(name) or len(parts) < 2:
        return False
    folder = STAGES[parts[0]]
    if f"{folder}.{parts[1]}" in MODULES:
        return False
    package = SRC.joinpath(*folder.split("."), "__init__.py").read_text(encoding="utf-8")
    return re.search(rf"\b{re.escape(parts[1])}\b", package) is None


def missing_file(name: str) -> bool:
    bases = (SRC, REPO, REPO / "tests", REPO / "scripts", REPO / "benchmarks")
    return not any((base / name).exists() for base in bases) and not any(
        found  # a module named by its file name alone
        for base in (SRC, REPO / "benchmarks")
        for found in base.rglob(name.rpartition("/")[2])
    )


def test_every_module_a_docstring_or_doc_names_exists() -> None:
    """`stage.module` and `path/module.py` in docstrings, comments and docs name real modules
    (renamed ones such as `mcp_tools` or `github_action.py` are caught)."""
    dotted = re.compile(r"`([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+)")
    files = re.compile(r"`((?:[a-z_]+/)*[a-z_][a-z0-9_]*\.py)`")
    missing = sorted(
        {
            (where, name)
            for where, text in named_texts()
            for name in [*dotted.findall(text), *files.findall(text)]
            if (missing_file(name) if name.endswith(".py") else missing_module(name))
        }
    )
    assert missing == []
    assert missing_module("retrieval.entry")
    assert missing_module("mcp_server.workspace")
    assert missing_file("github_action.py")
    assert not missing_file("workspace/door.py")
