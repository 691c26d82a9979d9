"""A git revision read through `GitTree` gives the snapshot the working tree gives: the same
parsing and classification code (`corpus.snapshot.snapshot_of`), the same confinement."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from project_corpus.core.records import Corpus
from project_corpus.corpus.snapshot import collect
from project_corpus.corpus.snapshot import snapshot_of
from project_corpus.review import git as review_git
from project_corpus.review.gittree import GitTree
from project_corpus.review.gittree import _problem
from tests.conftest import FIXTURES
from tests.conftest import copy_fixture
from tests.conftest import write_files
from tests.review.support import commit_all
from tests.review.support import git
from tests.review.support import isolate_git

CORPORA = [
    "example",
    "minimal",
    *(f"invalid/{p.name}" for p in sorted((FIXTURES / "invalid").iterdir()) if p.is_dir()),
]
SCOPES = (".project-corpus/history/**",)


def facts(corpus: Corpus) -> object:
    return (
        corpus.project_id,
        corpus.snapshot_digest,
        [
            (s.path, s.sha256, s.authority_class, s.temporal_status, s.timestamp)
            for s in corpus.sources
        ],
        sorted((f.code, f.path, f.line, f.anchor) for f in corpus.findings),
        corpus.relations,
    )


def revision_snapshot(root: Path) -> Corpus:
    resolved = os.path.realpath(root)
    repo = review_git.locate(resolved, str(root))
    commit = review_git.resolve(repo, "HEAD")
    tree = GitTree(resolved, repo, review_git.list_corpus(repo, commit))
    return snapshot_of(tree, strict=False)


@pytest.mark.parametrize("name", CORPORA)
def test_a_committed_corpus_reads_as_its_working_tree(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_git(monkeypatch)
    root = copy_fixture(FIXTURES / name, tmp_path / "repo")
    git(root, "init", "-q", "-b", "main")
    for folder in ("tasks", "reports", "history"):  # git keeps no empty folder
        if (root / ".project-corpus" / folder).is_dir() and not any(
            (root / ".project-corpus" / folder).iterdir()
        ):
            (root / ".project-corpus" / folder).rmdir()
    commit_all(root, name)
    assert facts(revision_snapshot(root)) == facts(collect(root, strict=False))


def test_a_linked_folder_of_sources_is_refused_like_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_git(monkeypatch)
    root = copy_fixture(FIXTURES / "example", tmp_path / "repo")
    elsewhere = tmp_path / "elsewhere"
    write_files(elsewhere, {"note.md": "# Note\n"})
    os.symlink(elsewhere, root / ".project-corpus/tasks/2025")
    os.symlink("../../AGENTS.md", root / ".project-corpus/tasks/image.png")
    git(root, "init", "-q", "-b", "main")
    commit_all(root, "links")
    codes = {(f.code, f.path) for f in revision_snapshot(root).findings}
    assert codes == {(f.code, f.path) for f in collect(root, strict=False).findings}
    assert ("SOURCE_LINK", ".project-corpus/tasks/2025") in codes


@pytest.mark.parametrize(
    ("path", "kind", "code"),
    [
        (".project-corpus/history/a.md", "link", "SOURCE_LINK"),
        (".project-corpus/history/old", "link", "SOURCE_LINK"),
        (".project-corpus/history/vendor", "special", "SOURCE_LINK"),
        (".project-corpus/history/pic.png", "link", None),
        (".project-corpus/history/a.md", "file", None),
        (".project-corpus/tasks/a.md", "link", None),  # out of scope: never a source
        (".project-corpus/history/bad\udcff.md", "file", "SOURCE_PATH"),
        (".project-corpus/history/bad\udcff.txt", "file", None),
    ],
)
def test_entries_that_cannot_be_sources(path: str, kind: str, code: str | None) -> None:
    problem = _problem(path, kind, SCOPES)
    assert (problem.code if problem else None) == code
