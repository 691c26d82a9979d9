"""Queries without a manual rebuild (`--fresh`) and ROOT found upward (SPEC §10, #35 items
1-2): every command without a ROOT uses the nearest folder at or above the current one that
holds `.project-corpus/`, as git does; a ROOT given is used as given."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.conftest import tree_digest
from tests.conftest import valid_candidate

CLI = Callable[..., Run]
STATUS = ".project-corpus/state/STATUS.md"
CACHE = ".project-corpus/cache"
QUERY = "exact next action"


def without_time(text: str) -> object:
    value = json.loads(text)
    value.pop("created_at", None)
    return value


@pytest.mark.parametrize(
    "argv",
    [
        ["query", QUERY],
        ["query", QUERY, "--limit", "3", "--format", "text"],
        ["bundle", QUERY, "--max-tokens", "300"],
        ["bundle", QUERY, "--format", "text"],
    ],
    ids=" ".join,
)
def test_fresh_equals_a_query_on_a_freshly_built_index_and_writes_nothing(
    example: Path, cli: CLI, argv: list[str]
) -> None:
    command, *rest = argv
    before = tree_digest(example)
    fresh = cli("context", command, example, *rest, "--fresh")
    assert fresh.code == 0, fresh.err
    assert tree_digest(example) == before  # no index, no cache/ folder: nothing written
    assert not (example / CACHE).exists()
    assert cli("context", "build", example).code == 0
    indexed = cli("context", command, example, *rest)
    assert indexed.code == 0, indexed.err
    if command == "bundle" and "text" not in rest:
        assert without_time(fresh.out) == without_time(indexed.out)
    else:
        assert fresh.out == indexed.out


def test_after_an_edit_the_index_is_stale_and_fresh_answers_as_a_rebuild(
    example: Path, cli: CLI
) -> None:
    assert cli("context", "build", example).code == 0
    with (example / STATUS).open("a", encoding="utf-8") as status:
        status.write("Then rehearse the zebra failover drill.\n")
    stale = cli("context", "query", example, "zebra failover drill")
    assert stale.code == 2
    assert stale.error()["error"] == "INDEX_STALE"
    assert "--fresh" in str(stale.error()["hint"])
    fresh = cli("context", "query", example, "zebra failover drill", "--fresh")
    assert cli("context", "build", example).code == 0
    assert fresh.out == cli("context", "query", example, "zebra failover drill").out
    assert "zebra failover drill" in fresh.out


def test_a_missing_index_hint_names_fresh_and_fresh_with_index_is_a_usage_error(
    example: Path, cli: CLI
) -> None:
    missing = cli("context", "bundle", example, QUERY)
    assert missing.error()["error"] == "INDEX_MISSING"
    assert "--fresh" in str(missing.error()["hint"])
    both = cli("context", "query", example, QUERY, "--fresh", "--index", "x.sqlite3")
    assert both.code == 2
    assert both.error()["error"] == "USAGE_ERROR"


@pytest.mark.parametrize(
    "inside", [".", ".project-corpus", ".project-corpus/reports", "src/deep"], ids=str
)
def test_every_command_without_a_root_finds_the_corpus_upward(
    example: Path, cli: CLI, monkeypatch: pytest.MonkeyPatch, inside: str
) -> None:
    (example / "src" / "deep").mkdir(parents=True)
    expected = {
        "doctor": cli("context", "doctor", example).out,
        "build": cli("context", "build", example).out,
        "query": cli("context", "query", example, QUERY).out,
        "candidates": cli("context", "candidate-validate", example).out,
    }
    monkeypatch.chdir(example / inside)
    assert cli("context", "doctor").out == expected["doctor"]
    assert cli("context", "build").out == expected["build"]
    assert cli("context", "query", QUERY).out == expected["query"]
    assert cli("context", "query", "--fresh", QUERY).out == expected["query"]
    assert cli("context", "candidate-validate").out == expected["candidates"]


def test_text_paths_found_upward_open_from_the_current_folder(
    example: Path, cli: CLI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(example / ".project-corpus" / "reports")
    shown = cli("context", "query", "--fresh", QUERY, "--format", "text").out
    assert "  1. ../../.project-corpus/state/STATUS.md:" in shown
    (example / STATUS).write_text("Lifecycle-Status: RUNNING\n", encoding="utf-8")
    doctor = cli("context", "doctor", "--format", "text")
    assert doctor.code == 1
    assert doctor.out.startswith(f"../../{STATUS}:")
    for line in doctor.out.splitlines():
        if line.startswith("../../"):
            assert (Path.cwd() / line.split(":", 1)[0]).is_file()


def test_a_root_given_is_used_as_given(example: Path, cli: CLI, tmp_path: Path) -> None:
    inner = cli("context", "doctor", example / ".project-corpus" / "reports")
    assert inner.error()["error"] == "CONTEXT_ROOT"  # not searched upward from there
    assert "use the project root instead" in str(inner.error()["hint"])
    (tmp_path / "plain").mkdir()
    plain = cli("context", "doctor", tmp_path / "plain")
    assert plain.error()["error"] == "CONTEXT_ROOT"


def test_with_no_corpus_at_or_above_the_error_suggests_init(
    tmp_path: Path, cli: CLI, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "nothing").mkdir()
    monkeypatch.chdir(tmp_path / "nothing")
    for argv in (["context", "doctor"], ["context", "query", QUERY], ["context", "build"]):
        run = cli(*argv)
        assert run.code == 2
        assert run.error()["error"] == "CONTEXT_ROOT"
        assert "project-corpus init" in str(run.error()["hint"])


def test_candidate_validate_takes_files_without_a_root(
    example: Path, cli: CLI, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = example / ".project-corpus" / "candidates"
    folder.mkdir()
    (folder / "c1.json").write_text(json.dumps(valid_candidate(example)), encoding="utf-8")
    expected = cli("context", "candidate-validate", example, folder / "c1.json")
    assert expected.code == 0, expected.err
    monkeypatch.chdir(example)
    assert cli("context", "candidate-validate", "candidates-not-here.json").code == 2
    run = cli(
        "context", "candidate-validate", os.path.join(".project-corpus", "candidates", "c1.json")
    )
    assert run.out == expected.out
