"""A first import builds the whole corpus in one staging folder and renames it into place
(docs/import.md, "Re-running"): killed or failing before the rename, it leaves no
`.project-corpus/` and the owner's files as they were; the next run clears what was left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from project_corpus.importer import run_import
from project_corpus.importer import write
from tests.conftest import tree_digest
from tests.importer.repos import MEMORY_REPO
from tests.importer.repos import make_repo

STAGING = ".project-corpus.import-tmp"
# The import in a child process that is killed (SIGKILL: no clean-up runs) at the rename that
# would put the staged corpus in place: every file is staged by then, none is in place.
KILLED_AT_RENAME = """
import os, signal, sys
from project_corpus.importer import run_import
os.rename = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
run_import(sys.argv[1])
"""


def _owners(root: Path) -> dict[str, str]:
    return {k: v for k, v in tree_digest(root).items() if not k.startswith((".git/", STAGING))}


def _corpus(root: Path) -> dict[str, str]:
    found = tree_digest(root / ".project-corpus")
    return {k: v for k, v in found.items() if k != "import-record.json"}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "lamps", MEMORY_REPO)


def test_a_first_import_killed_before_its_rename_leaves_no_corpus(
    repo: Path, tmp_path: Path
) -> None:
    before = _owners(repo)
    child = subprocess.run(
        [sys.executable, "-c", KILLED_AT_RENAME, str(repo)], capture_output=True, check=False
    )
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    assert not (repo / ".project-corpus").exists()
    assert not (repo / "AGENTS.md").exists()
    assert (repo / STAGING / "state" / "STATUS.md").is_file(), "killed after staging"
    assert _owners(repo) == before

    result = run_import(repo)  # the next run clears the staging folder and completes
    assert not (repo / STAGING).exists()
    sources = [s["path"] for s in result["sources"]]  # type: ignore[attr-defined]
    assert not [p for p in sources if p.startswith(STAGING)], "never read as memory"
    clean = make_repo(tmp_path / "clean" / "lamps", MEMORY_REPO)
    run_import(clean)
    assert _corpus(repo) == _corpus(clean)
    assert (repo / "AGENTS.md").read_bytes() == (clean / "AGENTS.md").read_bytes()


def test_a_failure_while_staging_removes_the_staging_folder(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    created: list[str] = []
    real_create = write._create

    def failing(fd: int, name: str, data: bytes) -> None:
        if len(created) == 3:
            raise OSError(28, "No space left on device")
        created.append(name)
        real_create(fd, name, data)

    monkeypatch.setattr(write, "_create", failing)
    before = _owners(repo)
    with pytest.raises(OSError, match="No space left"):
        run_import(repo)
    assert len(created) == 3
    assert not (repo / ".project-corpus").exists()
    assert not (repo / STAGING).exists()
    assert _owners(repo) == before


def test_a_link_at_the_staging_name_is_removed_never_followed(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.md").write_text("not the import's\n", encoding="utf-8")
    os.symlink(outside, repo / STAGING)
    run_import(repo)
    assert (outside / "keep.md").read_text(encoding="utf-8") == "not the import's\n"
    assert sorted(p.name for p in outside.iterdir()) == ["keep.md"]
    assert not os.path.lexists(repo / STAGING)
    assert (repo / ".project-corpus" / "state" / "STATUS.md").is_file()


def test_a_reimport_into_the_staged_corpus_writes_in_place_and_keeps_a_hand_edit(
    repo: Path,
) -> None:
    run_import(repo)
    status = repo / ".project-corpus" / "state" / "STATUS.md"
    edited = status.read_text(encoding="utf-8") + "\nOwner's own note.\n"
    status.write_text(edited, encoding="utf-8")
    brief = repo / "memory-bank" / "projectbrief.md"
    brief.write_text(brief.read_text(encoding="utf-8") + "\nA new goal.\n", encoding="utf-8")
    result = run_import(repo)
    actions = {d["path"]: d["action"] for d in result["documents"]}  # type: ignore[attr-defined]
    assert actions[".project-corpus/state/STATUS.md"] == "kept-edited"
    assert actions[".project-corpus/state/PROJECT.md"] == "update"
    assert status.read_text(encoding="utf-8") == edited
    assert "A new goal." in (repo / ".project-corpus/state/PROJECT.md").read_text(encoding="utf-8")
    assert not (repo / STAGING).exists()
