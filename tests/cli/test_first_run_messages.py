"""Paths people get wrong: each answer names the fix (docs/getting-started.md)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus import Workspace
from project_corpus import build_index
from project_corpus import collect
from project_corpus import compile_bundle
from project_corpus import memory_doctor
from project_corpus import open_index
from project_corpus import query_corpus
from project_corpus import query_index
from project_corpus.core.errors import ContextError
from tests.conftest import Run


@pytest.mark.parametrize("inner", [".project-corpus", ".project-corpus/state"])
def test_a_root_inside_the_corpus_folder_names_the_project_root(
    example: Path, cli: Callable[..., Run], inner: str
) -> None:
    run = cli("context", "build", example / inner)
    error = run.error()
    assert (run.code, error["error"]) == (2, "CONTEXT_ROOT")
    assert error["hint"] == f"use the project root instead: {example.resolve()}"
    assert not (example / ".project-corpus" / "cache").exists()


def test_a_folder_without_a_corpus_suggests_init(tmp_path: Path, cli: Callable[..., Run]) -> None:
    (tmp_path / "plain").mkdir()
    error = cli("context", "query", tmp_path / "plain", "anything").error()
    assert error["error"] == "CONTEXT_ROOT"
    assert "is not a Project Corpus" in str(error["detail"])
    assert error["hint"] == (
        f"start one with `project-corpus init {tmp_path / 'plain'}`, "
        "or pass the folder that holds .project-corpus/"
    )


def test_a_missing_root_has_a_hint(tmp_path: Path, cli: Callable[..., Run]) -> None:
    error = cli("context", "doctor", tmp_path / "nowhere").error()
    assert (error["error"], error["detail"]) == (
        "CONTEXT_ROOT",
        f"{tmp_path / 'nowhere'} does not exist",
    )
    assert (
        error["hint"]
        == "pass the project folder: the one that holds AGENTS.md and .project-corpus/"
    )


def test_a_missing_policy_is_reported_missing_and_nothing_against_it(example: Path) -> None:
    (example / ".project-corpus" / "policy.toml").unlink()
    report = memory_doctor(example)
    located = [(i["code"], i["path"]) for i in report["issues"] if i["severity"] == "FAIL"]  # type: ignore[attr-defined]
    assert located[0] == ("MISSING_REQUIRED_PATH", ".project-corpus/policy.toml")
    assert all(code != "CONTEXT_SCOPE" for code, _ in located)


def test_policy_parse_is_located_at_the_toml_errors_line(example: Path) -> None:
    policy = example / ".project-corpus" / "policy.toml"
    lines = policy.read_text(encoding="utf-8").split("\n")
    lines[5] = "[scopes"
    policy.write_text("\n".join(lines), encoding="utf-8")
    (finding,) = [i for i in memory_doctor(example)["issues"] if i["code"] == "POLICY_PARSE"]  # type: ignore[attr-defined]
    assert finding["line"] == 6
    assert "line 6" in finding["detail"]


def test_a_json_input_outside_root_names_the_fix(
    example: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    outside = tmp_path / "dataset.json"
    outside.write_text("{}", encoding="utf-8")
    error = cli("context", "eval", example, "--dataset", outside).error()
    assert error["error"] == "CONTEXT_INPUT_PATH"
    assert (
        error["hint"]
        == f"move or copy the file into {example.resolve()} (paths are relative to the current folder)"
    )


def test_the_python_api_accepts_a_relative_root(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(example.parent)
    relative = Path(example.name)
    build_index(collect(relative))
    stored = open_index(relative)
    assert stored.meta["project_id"] == "orbit-cache"
    assert open_index(os.fspath(relative)).meta == stored.meta


def test_query_corpus_over_open_index_is_a_context_error(example: Path) -> None:
    build_index(collect(example))
    with pytest.raises(ContextError) as info:
        query_corpus(open_index(example), "exact next action")  # type: ignore[arg-type]
    assert info.value.code == "USAGE_ERROR"
    assert info.value.hint is not None
    assert "query_corpus(collect(root), query)" in info.value.hint


def test_query_index_is_a_deprecated_alias_that_still_works(example: Path) -> None:
    """SPEC §10: `query_index(open_index(root), q)` works or raises a ContextError; the old
    name warns for one minor version (CHANGELOG)."""
    build_index(collect(example))
    with pytest.warns(DeprecationWarning, match="query_corpus"):
        old = query_index(collect(example), "exact next action", 3)
    assert old == query_corpus(collect(example), "exact next action", 3)
    with (
        pytest.warns(DeprecationWarning, match="query_corpus"),
        pytest.raises(ContextError) as info,
    ):
        query_index(open_index(example), "exact next action")  # type: ignore[arg-type]
    assert info.value.code == "USAGE_ERROR"
    assert "query_index(collect(root), query)" in (info.value.hint or "")


def test_the_workspace_reads_the_index_and_a_fresh_snapshot_alike(example: Path) -> None:
    """The one front door of the query view: from the index (checked) or fresh."""
    space = Workspace(example)
    with pytest.raises(ContextError) as missing:
        space.query("exact next action")
    assert missing.value.code == "INDEX_MISSING"
    assert "--fresh" in (missing.value.hint or "")
    fresh = space.query("exact next action", fresh=True)
    build_index(collect(example))
    indexed = space.query("exact next action", "3")
    assert indexed["results"] == fresh["results"][:3]
    assert indexed == query_corpus(collect(example), "exact next action", 3)
    with pytest.raises(ContextError) as bad:
        Workspace(example.parent).query("x", 0)
    assert bad.value.code == "QUERY_LIMIT"  # validated before any source is read
    bundle = space.bundle("exact next action", 300)
    assert (
        bundle["bundle_sha256"]
        == compile_bundle(collect(example), "exact next action", 300)["bundle_sha256"]
    )


def test_the_readme_python_snippet_runs(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    snippet = readme.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(example.parent)
    code = snippet.replace('"path/to/project"', repr(example.name))
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert isinstance(namespace["bundle"], dict)
