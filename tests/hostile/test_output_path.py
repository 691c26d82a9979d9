"""`--output` of doctor and candidate-validate (F12): never inside the corpus, never
through a planted link; a new file is written whole."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.hostile.support import assert_stable

COMMANDS = (("context", "doctor"), ("context", "candidate-validate"))


def _run(cli: object, command: tuple[str, ...], root: Path, output: Path) -> Run:
    args = (*command, str(root), "--format", "json", "--output", str(output))
    return cli(*args)  # type: ignore[operator, no-any-return]


@pytest.mark.parametrize("command", COMMANDS)
def test_output_inside_the_corpus_is_refused(
    cli: object, example: Path, command: tuple[str, ...]
) -> None:
    status = example / ".project-corpus" / "state" / "STATUS.md"
    before = status.read_bytes()
    for target in (status, example / ".project-corpus" / "new-report.json"):
        run = _run(cli, command, example, target)
        assert_stable(run, "OUTPUT_PATH")
        assert "--output" in json.loads(run.err)["hint"]
    assert status.read_bytes() == before
    assert not (example / ".project-corpus" / "new-report.json").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_output_through_a_linked_folder_into_the_corpus_is_refused(
    cli: object, example: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    (tmp_path / "state-link").symlink_to(example / ".project-corpus" / "state")
    run = _run(cli, command, example, tmp_path / "state-link" / "STATUS.md")
    assert_stable(run, "OUTPUT_PATH")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_planted_final_link_is_refused_and_its_target_untouched(
    cli: object, example: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    (tmp_path / "report.json").symlink_to(victim)
    run = _run(cli, command, example, tmp_path / "report.json")
    assert_stable(run, "OUTPUT_PATH")
    assert "symbolic link" in json.loads(run.err)["detail"]
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert (tmp_path / "report.json").is_symlink()


def test_a_new_report_replaces_an_old_file_whole(
    cli: object, example: Path, tmp_path: Path
) -> None:
    target = tmp_path / "report.json"
    target.write_text("x" * 100_000, encoding="utf-8")
    run = _run(cli, COMMANDS[0], example, target)
    assert run.code in (0, 1), run.err
    assert isinstance(json.loads(target.read_text(encoding="utf-8")), dict)
    assert sorted(os.listdir(tmp_path)) == ["example", "report.json"]


def test_a_device_is_written_in_place(cli: object, example: Path) -> None:
    run = cli(  # type: ignore[operator]
        "context", "doctor", str(example), "--format", "json", "--output", os.devnull
    )
    assert run.code in (0, 1), run.err
    assert Path(os.devnull).is_char_device()


def test_a_folder_is_output_path(cli: object, example: Path, tmp_path: Path) -> None:
    run = _run(cli, COMMANDS[0], example, tmp_path)
    assert_stable(run, "OUTPUT_PATH")
