"""Every write-side link guard, one test each, each failing when its flag is removed (#26).

The writers check their targets first (`_taken`, `lstat`, `_check_cache_dir`) and then open
them; a link planted between the check and the open is what the open's own flags refuse. Each
test plants the link after the check (by patching the check) and asserts that nothing outside
the tree was written. A folder is opened with O_NOFOLLOW; a new file is created with
O_CREAT | O_EXCL, which refuses a link at its name (EEXIST) without O_NOFOLLOW.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from project_corpus.adapters.cli import outfile
from project_corpus.core.errors import ContextError
from project_corpus.corpus.snapshot import collect
from project_corpus.index import store
from project_corpus.scaffold import create
from tests.conftest import MakeCorpus


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside every tree a command writes, with one file in it."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "keep.txt").write_text("untouched\n", encoding="utf-8")
    return folder


def untouched(folder: Path) -> bool:
    return (
        sorted(p.name for p in folder.iterdir()) == ["keep.txt"]
        and (folder / "keep.txt").read_text(encoding="utf-8") == "untouched\n"
    )


def test_init_never_enters_a_folder_swapped_for_a_link(tmp_path: Path, outside: Path) -> None:
    """scaffold `_DIR_FLAGS` (O_NOFOLLOW): `tasks/` became a link after the checks."""
    root = tmp_path / "root"
    (root / ".project-corpus").mkdir(parents=True)
    os.symlink(outside, root / ".project-corpus" / "tasks")
    with pytest.raises(ContextError) as caught:
        create._create(root, ".project-corpus/tasks/t-1.md", b"# Task\n")
    assert caught.value.code == "INIT_EXISTS"
    assert untouched(outside)


def test_init_never_writes_through_a_root_swapped_for_a_link(tmp_path: Path, outside: Path) -> None:
    """scaffold `_DIR_FLAGS` on the root itself (resolved once, then swapped)."""
    os.symlink(outside, tmp_path / "root")
    with pytest.raises(ContextError):
        create._create(tmp_path / "root", "AGENTS.md", b"# Agents\n")
    assert untouched(outside)


def test_init_never_creates_a_file_through_a_link(tmp_path: Path, outside: Path) -> None:
    """scaffold `_FLAGS` (O_CREAT | O_EXCL): a link at the target, to a file or to nothing."""
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(outside / "keep.txt", root / "AGENTS.md")
    os.symlink(outside / "new.txt", root / "README.md")
    for name in ("AGENTS.md", "README.md"):
        with pytest.raises(ContextError) as caught:
            create._create(root, name, b"planted\n")
        assert caught.value.code == "INIT_EXISTS"
    assert untouched(outside)


def test_output_in_place_never_follows_a_link_planted_after_the_check(
    make_corpus: MakeCorpus, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """outfile `_write_in_place` (O_NOFOLLOW): the target looked like a pipe, then was a link."""
    root = make_corpus()
    target = root.parent / "report.txt"
    os.symlink(outside / "keep.txt", target)
    real_lstat = os.lstat

    def looks_like_a_pipe(path: object, *args: object, **kwargs: object) -> os.stat_result:
        found = real_lstat(path, *args, **kwargs)  # type: ignore[arg-type]
        if Path(str(path)) == target:
            return os.stat_result((stat.S_IFIFO | 0o644, *found[1:]))
        return found

    monkeypatch.setattr(outfile.os, "lstat", looks_like_a_pipe)
    with pytest.raises(ContextError) as caught:
        outfile.write_report_file(str(root), str(target), "report\n")
    assert caught.value.code == "OUTPUT_PATH"
    assert untouched(outside)


def test_output_never_writes_its_temporary_file_through_a_link(
    make_corpus: MakeCorpus, outside: Path
) -> None:
    """outfile `_replace` (O_CREAT | O_EXCL): a link planted at the temporary name."""
    root = make_corpus()
    target = root.parent / "report.txt"
    os.symlink(outside / "keep.txt", root.parent / f".report.txt.{os.getpid()}.tmp")
    with pytest.raises(ContextError) as caught:
        outfile.write_report_file(str(root), str(target), "report\n")
    assert caught.value.code == "OUTPUT_PATH"
    assert untouched(outside)
    assert not target.exists()


def test_a_build_never_publishes_into_a_cache_swapped_for_a_link(
    make_corpus: MakeCorpus, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fs `_DIR_FLAGS` on publication: `cache/` became a link after `_check_cache_dir`."""
    root = make_corpus()
    corpus = collect(root)
    os.symlink(outside, root / ".project-corpus" / "cache")
    monkeypatch.setattr(store, "_check_cache_dir", lambda root, create: True)
    with pytest.raises(ContextError) as caught:
        store.build_index(corpus)
    assert caught.value.code == "INDEX_PATH"
    assert untouched(outside)
