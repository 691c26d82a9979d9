"""Running `import` on a test repository: the dry-run plan, a real import, the doctor after."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from project_corpus.importer import ImportOptions
from project_corpus.importer import run_import
from tests.conftest import Run

CLI = Callable[..., Run]
Rows = list[dict[str, Any]]


def _dry_run(root: Path) -> tuple[Rows, Rows]:
    """(sources, left out) rows of a dry run at ROOT."""
    result = run_import(root, ImportOptions(dry_run=True))
    sources = result["sources"]
    left = result["left_out"]
    assert isinstance(sources, list)
    assert isinstance(left, list)
    return sources, left


def plan(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(path -> role, path left out -> reason) of a dry run."""
    sources, left = _dry_run(root)
    return {r["path"]: r["role"] for r in sources}, {r["path"]: r["reason"] for r in left}


def plan_documents(root: Path) -> tuple[dict[str, str], dict[str, list[str]], dict[str, str]]:
    """(path -> role, path -> documents, path left out -> reason) of a dry run."""
    sources, left = _dry_run(root)
    roles = {row["path"]: row["role"] for row in sources}
    documents = {row["path"]: row["documents"] for row in sources}
    return roles, documents, {row["path"]: row["reason"] for row in left}


def doctor_fails(cli: CLI, root: Path) -> int:
    """How many FAIL checks `context doctor` reports on ROOT."""
    run = cli("context", "doctor", root, "--format", "json")
    report = json.loads(run.out)
    assert isinstance(report, dict), run.err
    return int(report["summary"]["FAIL"])


def imports_cleanly(cli: CLI, root: Path) -> None:
    """A real import exits 0 and the doctor finds 0 FAIL on what it wrote."""
    run = cli("import", root, "--format", "json")
    assert run.code == 0, run.err
    assert doctor_fails(cli, root) == 0
