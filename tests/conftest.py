"""Shared fixtures: real corpora in temporary directories, an isolated home, the CLI."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.adapters.cli import main

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"

POLICY = """policy_version = "2.0"
project_id = "demo-project"
profile = "SAFE_EDIT"
[capabilities]
allow = ["corpus.context", "mcp.stdio"]
[scopes]
read = [".project-corpus/state/**", ".project-corpus/tasks/**", ".project-corpus/reports/**", ".project-corpus/history/**"]
write = []
[requirements]
expected_hash = true
verified_readback = true
audit_receipt = true
"""

PROJECT = """# Project
Protocol-Version: 2.0
Project-ID: demo-project
Logical-Name: Demo cache

## Objective
Build a small, fast read-through cache for the catalogue service.

## Invariants
Never serve an entry older than its time-to-live.

## Durable Scope Boundaries
Only the cache layer; the catalogue database is out of scope.

## Non-Goals
No user interface.
"""

STATUS = """# Status
Protocol-Version: 2.0
Project-ID: demo-project
Lifecycle-Status: ACTIVE
Active-Task-ID: tune-eviction
Last-Verified-At: 2026-11-20T09:00:00Z
Evidence-Class: OBSERVED

## Current Verified Baseline
The cache serves catalogue reads with a p99 latency of 4 ms.
Текущее состояние: кэш работает в продакшене.

## Blockers
NONE

## Evidence References
- bench-new
- .project-corpus/reports/bench-path.md

## Exact Next Action
Tune the eviction policy for large catalogue pages.
"""

TASK = """# Task: tune eviction
Protocol-Version: 2.0
Project-ID: demo-project
Task-ID: tune-eviction
Task-Status: OPEN
Created-At: 2026-11-18

## Objective
Reduce evictions of hot catalogue pages.

## Scope
The eviction policy module.

## Constraints
Memory stays under 2 GiB.

## Acceptance Criteria
Hit ratio above 95 percent in the weekly benchmark.
"""


def report(report_id: str, created: str, summary: str, extra: str = "") -> str:
    return f"""# Report {report_id}
Protocol-Version: 2.0
Project-ID: demo-project
Report-ID: {report_id}
Result: PASS
Created-At: {created}
{extra}
## Summary
{summary}

## Evidence
Benchmark run {report_id} on the staging cluster.

## Limitations
Synthetic traffic only for {report_id}.
"""


BASE_FILES: dict[str, str] = {
    "AGENTS.md": "# Agents\nRead .project-corpus/state first.\n",
    ".gitignore": ".project-corpus/cache/\n",
    ".project-corpus/policy.toml": POLICY,
    ".project-corpus/state/PROJECT.md": PROJECT,
    ".project-corpus/state/STATUS.md": STATUS,
    ".project-corpus/tasks/tune-eviction.md": TASK,
    ".project-corpus/reports/bench-new.md": report(
        "bench-new",
        "2026-11-21",
        "Latency dropped to 3 ms after the warm-up fix.",
        "Supersedes: .project-corpus/reports/bench-old.md\n",
    ),
    ".project-corpus/reports/bench-old.md": report(
        "bench-old", "2026-10-01", "Latency was 9 ms before tuning."
    ),
    ".project-corpus/reports/bench-path.md": report(
        "bench-path", "2026-10-02", "Throughput doubled with batching."
    ),
    ".project-corpus/reports/old-uncited.md": report(
        "old-uncited", "2026-10-03", "An old memory measurement of the heap."
    ),
    ".project-corpus/history/2026-01-kickoff.md": "# Kickoff\nDate: 2026-01-05\n\n## Notes\nWe started the cache project in January.\n",
}

MakeCorpus = Callable[..., Path]


def valid_candidate(
    root: Path, project_id: str = "orbit-cache", **overrides: object
) -> dict[str, object]:
    """A Candidate v1 citing line 1 of ROOT's STATUS with its current hash (SPEC §7)."""
    status = ".project-corpus/state/STATUS.md"
    digest = hashlib.sha256((root / status).read_bytes()).hexdigest()
    value: dict[str, object] = {
        "schema_version": "1",
        "candidate_id": "c-test-001",
        "project_id": project_id,
        "kind": "semantic_fact",
        "statement": "STATUS is the canonical current state.",
        "source_refs": [{"source_path": status, "source_sha256": digest, "line_start": 1}],
        "created_at": "2026-11-25T12:00:00Z",
        "status": "candidate",
    }
    return {**value, **overrides}


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Tests never touch the real home directory."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


def write_files(root: Path, files: dict[str, str | bytes | None]) -> None:
    """Write FILES under ROOT (bytes verbatim; None deletes the path)."""
    for rel, content in files.items():
        path = root / rel
        if content is None:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            elif path.exists() or path.is_symlink():
                path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


@pytest.fixture
def make_corpus(tmp_path: Path) -> MakeCorpus:
    """make_corpus({rel: text | bytes | None}, name="corpus") -> root of a valid corpus with overrides."""

    def factory(
        overrides: dict[str, str | bytes | None] | None = None, name: str = "corpus"
    ) -> Path:
        root = tmp_path / name
        for folder in ("tasks", "reports", "history"):
            (root / ".project-corpus" / folder).mkdir(parents=True, exist_ok=True)
        write_files(root, {**BASE_FILES})
        write_files(root, overrides or {})
        return root

    return factory


def _skip_cache(directory: str, names: list[str]) -> list[str]:
    return ["cache"] if Path(directory).name == ".project-corpus" and "cache" in names else []


def copy_fixture(source: Path, dest: Path) -> Path:
    """Copy a fixture corpus to DEST: symlinks stay links, and `.project-corpus/cache/` is
    left behind, so a stray index built in the checkout (README quick start) never leaks in."""
    shutil.copytree(source, dest, symlinks=True, ignore=_skip_cache, dirs_exist_ok=True)
    return dest


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A private copy of fixtures/example (symlinks kept as links, no cache/)."""
    return copy_fixture(FIXTURES / "example", tmp_path / "example")


class Run:
    """The result of one in-process CLI run."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> object:
        return json.loads(self.out)

    def error(self) -> dict[str, object]:
        value = json.loads(self.err)
        assert isinstance(value, dict)
        return value


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """cli("context", "query", ...) -> Run(code, out, err) through `main(argv)`."""

    def run(*args: str) -> Run:
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


def tree_digest(root: Path) -> dict[str, str]:
    """Every path under ROOT with its content's SHA-256, its link target or "dir": two equal
    results mean nothing below ROOT was written, removed or relinked."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            found[rel] = "link:" + os.readlink(path)
        elif path.is_file():
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            found[rel] = "dir"
    return found
