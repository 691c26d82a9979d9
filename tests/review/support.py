"""Real git repositories for the review tests: base and head commits made with `git`."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import BASE_FILES
from tests.conftest import write_files

STATUS = ".project-corpus/state/STATUS.md"
POLICY = ".project-corpus/policy.toml"
NOTES = ".project-corpus/history/notes.md"
NEW_TASK = ".project-corpus/tasks/ship-review.md"
CANDIDATE = ".project-corpus/candidates/c-next.json"
# One old volatile claim (a finding in the base) ...
BASE_NOTES = "# Notes\nOwner: ops\n\n## Notes\nWe currently deploy on Fridays.\n"
# ... moved down one line in the head (a blank line above it), and one new volatile claim.
HEAD_NOTES = (
    "# Notes\nOwner: ops\n\n## Notes\n\nWe currently deploy on Fridays.\n"
    "\nThe canary is live right now.\n"
)
OLD_ACTION = "Tune the eviction policy for large catalogue pages."
NEW_ACTION = "Ship the memory review to the pull request workflow."
TASK = """# Task: ship review
Protocol-Version: 2.0
Project-ID: demo-project
Task-ID: ship-review
Task-Status: OPEN
Created-At: 2026-11-22

## Objective
Review memory changes in pull requests.

## Scope
The review command.

## Constraints
No network.

## Acceptance Criteria
The review reports STATUS changes first.
"""
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Corpus Tester",
    "GIT_AUTHOR_EMAIL": "tester@example.invalid",
    "GIT_AUTHOR_DATE": "2026-11-22T10:00:00Z",
    "GIT_COMMITTER_NAME": "Corpus Tester",
    "GIT_COMMITTER_EMAIL": "tester@example.invalid",
    "GIT_COMMITTER_DATE": "2026-11-22T10:00:00Z",
}


def isolate_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """No system config, a fixed author and date (HOME and XDG_CONFIG_HOME are isolated by
    the suite's autouse fixture), so commits are reproducible byte for byte."""
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(key, raising=False)


def git(repo: Path, *args: str) -> str:
    """Run git in REPO with a fixed argument vector; the output, stripped."""
    proc = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    )
    return proc.stdout.strip()


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def init_repo(
    repo: Path, files: dict[str, str | bytes | None] | None = None, *, init: bool = True
) -> Path:
    """A repository holding the demo corpus (plus FILES) at its root, not yet committed
    (INIT false: the corpus only, in a folder of an existing repository)."""
    repo.mkdir(parents=True, exist_ok=True)
    if init:
        git(repo, "init", "-q", "-b", "main")
    write_files(repo, {**BASE_FILES, NOTES: BASE_NOTES, **(files or {})})
    for folder in ("tasks", "reports", "history"):
        (repo / ".project-corpus" / folder).mkdir(parents=True, exist_ok=True)
    return repo


def status_line(root: Path, text: str) -> int:
    lines = (root / STATUS).read_text(encoding="utf-8").split("\n")
    return lines.index(text) + 1


def candidate_citing(root: Path, rel: str, line: int) -> str:
    digest = hashlib.sha256((root / rel).read_bytes()).hexdigest()
    value = {
        "schema_version": "1",
        "candidate_id": "c-next-action",
        "project_id": "demo-project",
        "kind": "semantic_fact",
        "statement": "The next action is to ship the memory review.",
        "source_refs": [{"source_path": rel, "source_sha256": digest, "line_start": line}],
        "created_at": "2026-11-22T10:00:00Z",
        "status": "candidate",
    }
    return json.dumps(value, indent=2) + "\n"


def make_head_change(root: Path) -> None:
    """The change of issue #28's "Done when": a new Exact Next Action, a new task, a widened
    read scope, a valid candidate citing the changed line, a new volatile claim and the old
    finding moved down one line."""
    status = (root / STATUS).read_text(encoding="utf-8")
    (root / STATUS).write_text(status.replace(OLD_ACTION, NEW_ACTION), encoding="utf-8")
    policy = (root / POLICY).read_text(encoding="utf-8")
    widened = policy.replace(
        'read = [".project-corpus/state/**", ', 'read = ["docs/**", ".project-corpus/state/**", '
    )
    assert widened != policy
    write_files(root, {POLICY: widened, NEW_TASK: TASK, NOTES: HEAD_NOTES})
    candidate = candidate_citing(root, STATUS, status_line(root, NEW_ACTION))
    write_files(root, {CANDIDATE: candidate})
