"""What `--version`, `context query` and `context doctor` import: a start-up budget.

Each command runs in a fresh interpreter; the modules it adds to `sys.modules` are compared
with `tests/data/imports.json` (ours by full name, others by top-level package; private
C accelerators left out). An import a command did not need before fails the test; so does
one of our modules it no longer imports (the list stays tight). Regenerate the file with
`UPDATE_GOLDEN=1` and review the diff.

The file is recorded with the `test` extra installed, so a query imports PyStemmer's compiled
stemmer (`Stemmer` and what it loads) and not `snowballstemmer`; without PyStemmer the test
expects `snowballstemmer` in their place (docs/decisions.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.conftest import copy_fixture

HAS_PYSTEMMER = find_spec("Stemmer") is not None
COMPILED_STEMMER = {"Stemmer", "cython_runtime", "zlib"}
EXPECTED = Path(__file__).resolve().parent.parent / "data" / "imports.json"
PROBE = """
import contextlib, io, sys
before = set(sys.modules)
from project_corpus.__main__ import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
names = set()
for name in set(sys.modules) - before:
    top = name.split(".")[0]
    if top == "project_corpus":
        names.add(name)
    elif not top.startswith("_"):
        names.add(top)
print(code, " ".join(sorted(names)))
"""
COMMANDS = {
    "--version": ["--version"],
    "context query": ["context", "query", "{root}", "next action"],
    "context doctor": ["context", "doctor", "{root}"],
}


def imported(argv: list[str], env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True, env=env
    )
    code, *modules = done.stdout.split()
    assert code in ("0", "1"), f"{argv} failed with exit code {code}"  # 1: doctor findings
    return modules


@pytest.fixture(scope="module")
def imports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    home = tmp_path_factory.mktemp("home")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    root = tmp_path_factory.mktemp("imports") / "example"
    copy_fixture(FIXTURES / "example", root)
    imported(["context", "build", str(root)], env)
    return {
        name: imported([arg.format(root=root) for arg in argv], env)
        for name, argv in COMMANDS.items()
    }


def expected_imports() -> dict[str, list[str]]:
    """The recorded imports; without PyStemmer, `snowballstemmer` instead of the compiled
    stemmer's modules wherever those are recorded."""
    expected: dict[str, list[str]] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    if HAS_PYSTEMMER:
        return expected
    return {
        name: sorted(set(modules) - COMPILED_STEMMER | {"snowballstemmer"})
        if "Stemmer" in modules
        else modules
        for name, modules in expected.items()
    }


def test_commands_import_nothing_new(imports: dict[str, list[str]]) -> None:
    if os.environ.get("UPDATE_GOLDEN") == "1":
        assert HAS_PYSTEMMER, "record imports.json with the `test` extra (PyStemmer) installed"
        EXPECTED.write_text(json.dumps(imports, indent=2) + "\n", encoding="utf-8")
    expected = expected_imports()
    for name, modules in imports.items():
        added = sorted(set(modules) - set(expected[name]))
        assert not added, f"`{name}` now imports {added}"
        ours = {m for m in expected[name] if m.startswith("project_corpus")}
        gone = sorted(ours - set(modules))
        assert not gone, f"`{name}` no longer imports {gone}: regenerate with UPDATE_GOLDEN=1"


def test_version_and_doctor_import_no_stemmer_and_no_sqlite(
    imports: dict[str, list[str]],
) -> None:
    for name in ("--version", "context doctor"):
        assert not {
            "snowballstemmer",
            "Stemmer",
            "sqlite3",
            "secrets",
            "project_corpus.index.store",
        } & set(imports[name])
    stemmer = {"Stemmer"} if HAS_PYSTEMMER else {"snowballstemmer"}
    assert stemmer <= set(imports["context query"])
    assert imports["--version"] == sorted(
        m
        for m in imports["--version"]
        if not m.startswith(("click", "project_corpus.adapters.cli"))
    )
