"""R3-7 of #26: `init` exited 3 on a ROOT that is a link to a folder (NotADirectoryError), a
dangling link (FileExistsError), a 300-character name (ENAMETOOLONG) or a non-UTF-8 byte
(UnicodeEncodeError, after files were written). One check of every ROOT a command takes
(`corpus/roots.py`): a stable exit 2 and nothing written, or, for a link to a folder, the
corpus written in that folder as a shell would."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.conftest import tree_digest
from tests.hostile.support import assert_stable

Cli = Callable[..., Run]


def _dangling(base: Path) -> str:
    os.symlink(base / "nowhere", base / "dangling")
    return str(base / "dangling")


def _long(base: Path) -> str:
    return str(base / ("a" * 300))


def _not_utf8(base: Path) -> str:
    return os.fsdecode(os.fsencode(str(base)) + b"/bad\xff")


def _under_a_file(base: Path) -> str:
    (base / "file").write_text("x", encoding="utf-8")
    return str(base / "file" / "sub")


def _inside_a_corpus(base: Path) -> str:
    (base / "p" / ".project-corpus").mkdir(parents=True)
    return str(base / "p" / ".project-corpus" / "x")


REFUSED = {
    "dangling link": _dangling,
    "300-character name": _long,
    "non-UTF-8 byte": _not_utf8,
    "under a file": _under_a_file,
    "inside .project-corpus": _inside_a_corpus,
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_init_refuses_an_unusable_root_and_writes_nothing(
    cli: Cli, tmp_path: Path, case: str
) -> None:
    base = tmp_path / "base"
    base.mkdir()
    root = REFUSED[case](base)
    before = tree_digest(base)
    for fmt in ("json", "text"):
        run = cli("init", root, "--project-id", "demo", "--format", fmt)
        assert_stable(run, None)
        assert "CONTEXT_ROOT" in run.err
        assert tree_digest(base) == before
        assert not os.path.lexists(base / "nowhere")


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_every_command_refuses_the_same_roots_with_a_code(
    cli: Cli, tmp_path: Path, case: str
) -> None:
    base = tmp_path / "base"
    base.mkdir()
    root = REFUSED[case](base)
    for argv in (
        ("context", "doctor", root),
        ("context", "query", root, "x"),
        ("context", "build", root),
        ("new", "task", "t-1", root),
    ):
        run = cli(*argv)
        assert_stable(run, "CONTEXT_ROOT")


def test_init_through_a_link_to_a_folder_writes_in_that_folder(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    os.symlink(tmp_path / "real", tmp_path / "link")
    run = cli("init", tmp_path / "link", "--format", "json")
    assert run.code == 0, run.err
    assert (tmp_path / "real" / ".project-corpus" / "state" / "PROJECT.md").is_file()
    assert "Project-ID: link" in (tmp_path / "real/.project-corpus/state/PROJECT.md").read_text()
    assert cli("context", "doctor", tmp_path / "link").code == 0


def test_the_name_limits_are_the_file_system_s(tmp_path: Path) -> None:
    """255 bytes per component, paths under 4,096 bytes: one byte more is CONTEXT_ROOT."""
    from project_corpus.core.errors import ContextError
    from project_corpus.corpus.roots import check_root_name

    check_root_name(str(tmp_path / ("é" * 127 + "a")))  # 255 bytes
    deep = "/" + "/".join(["a" * 200] * 25)
    check_root_name(deep[:4095])
    for bad in (str(tmp_path / ("é" * 128)), deep[:4096]):
        with pytest.raises(ContextError) as caught:
            check_root_name(bad)
        assert caught.value.code == "CONTEXT_ROOT"
        assert caught.value.detail == f"{bad[:80]}…: the path is too long for the file system"


def test_a_root_inside_the_corpus_folder_names_the_project_root(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "p" / ".project-corpus" / "state").mkdir(parents=True)
    run = cli("context", "doctor", tmp_path / "p" / ".project-corpus" / "state")
    assert_stable(run, "CONTEXT_ROOT")
    assert run.error()["hint"] == f"use the project root instead: {tmp_path / 'p'}"
