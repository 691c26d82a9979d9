"""Hostile trees: non-UTF-8 names (F4), absurd depth (F5), unreadable folders and files
(F9), hard links (F13). Each gives a stable code, never exit 3."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.corpus import fs
from tests.conftest import Run
from tests.conftest import copy_fixture
from tests.hostile.support import assert_stable
from tests.hostile.support import run_unprivileged

TASKS = ".project-corpus/tasks"


def _strict(cli: object, root: Path, code: str) -> None:
    for args in (("context", "build", str(root)), ("context", "query", str(root), "eviction")):
        run: Run = cli(*args)  # type: ignore[operator]
        assert_stable(run, code)
        assert "\udcff" not in run.err


def _doctor(cli: object, root: Path) -> dict[str, object]:
    for fmt in ("text", "github", "sarif"):
        run: Run = cli("context", "doctor", str(root), "--format", fmt)  # type: ignore[operator]
        assert_stable(run, None, (1,))
    run = cli("context", "doctor", str(root), "--format", "json")  # type: ignore[operator]
    assert_stable(run, None, (1,))
    report = json.loads(run.out)
    assert isinstance(report, dict)
    return report


def _located(report: dict[str, object]) -> set[tuple[str, str]]:
    return {(i["code"], i["path"]) for i in report["issues"]}  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", [b"bad\xff.md", b"bad\xffdir"])
def test_a_non_utf8_name_is_source_path(cli: object, example: Path, name: bytes) -> None:
    target = os.fsencode(example / TASKS) + b"/" + name
    if name.endswith(b".md"):
        Path(os.fsdecode(target)).write_text("# T\n", encoding="utf-8")
    else:
        os.mkdir(target)
    _strict(cli, example, "SOURCE_PATH")
    shown = f"{TASKS}/{name.decode('utf-8', 'backslashreplace')}"
    assert ("SOURCE_PATH", shown) in _located(_doctor(cli, example))


def test_a_non_utf8_name_that_is_no_source_is_ignored(cli: object, example: Path) -> None:
    Path(os.fsdecode(os.fsencode(example / TASKS) + b"/notes\xff.txt")).write_text("x")
    assert_stable(cli("context", "build", str(example)), None, (0,))  # type: ignore[operator]


def test_absurd_depth_is_a_context_limit(cli: object, example: Path) -> None:
    deep = example / TASKS
    os.chdir(deep)  # build the chain relatively: an absolute path would pass PATH_MAX
    for _ in range(300):  # pytest's recursive cleanup would fail on 1,000 levels
        os.mkdir("d")
        os.chdir("d")
    Path("t.md").write_text("# T\n", encoding="utf-8")
    os.chdir(example)
    _strict(cli, example, "CONTEXT_LIMIT")
    run: Run = cli("context", "doctor", str(example))  # type: ignore[operator]
    assert_stable(run, "CONTEXT_LIMIT")
    assert "depth" in json.loads(run.err)["detail"]


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_the_walk_holds_a_bounded_number_of_descriptors(tmp_path: Path) -> None:
    deep = tmp_path / "t"
    for _ in range(fs.MAX_DEPTH):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "x.md").write_text("x")
    before = _open_descriptors()
    peak = before
    seen = []
    for _fd, entry in fs.walk(tmp_path, "t"):
        peak = max(peak, _open_descriptors())
        seen.append(entry.kind)
    assert seen.count("dir") == fs.MAX_DEPTH
    assert seen[-1] == "file"
    assert peak - before <= 2
    assert _open_descriptors() == before


def test_deep_but_legal_folders_still_read_in_order(tmp_path: Path) -> None:
    (tmp_path / "t/a/b").mkdir(parents=True)
    (tmp_path / "t/c").mkdir()
    for rel in ("t/a/b/1.md", "t/a/2.md", "t/c/3.md", "t/0.md"):
        (tmp_path / rel).write_text("x")
    paths = [entry.path for _fd, entry in fs.walk(tmp_path, "t")]
    assert paths == ["t/0.md", "t/a", "t/a/2.md", "t/a/b", "t/a/b/1.md", "t/c", "t/c/3.md"]


def test_a_hard_linked_source_is_refused(cli: object, example: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("# Secret\n\n## Objective\nThe launch code is swordfish.\n")
    os.link(outside, example / TASKS / "t-999-linked.md")
    _strict(cli, example, "SOURCE_LINK")
    run: Run = cli("context", "build", str(example))  # type: ignore[operator]
    assert "hard link" in json.loads(run.err)["detail"]
    report = _doctor(cli, example)
    assert ("SOURCE_LINK", f"{TASKS}/t-999-linked.md") in _located(report)
    assert "swordfish" not in json.dumps(report)


@pytest.mark.parametrize("folder", ["tasks", "state", "reports", "history", "generated"])
def test_an_unreadable_folder_is_source_permission(shared_root: Path, folder: str) -> None:
    os.chmod(shared_root / ".project-corpus" / folder, 0)
    home = shared_root.parent
    for args in (["context", "build"], ["context", "doctor"], ["context", "query"]):
        extra = ["eviction"] if args[-1] == "query" else []
        run = run_unprivileged([*args, str(shared_root), *extra], home)
        assert_stable(run, "SOURCE_PERMISSION")
        assert "permission denied" in json.loads(run.err)["detail"]


def test_an_unreadable_source_is_source_permission(shared_root: Path) -> None:
    source = shared_root / TASKS / "t-024-metrics.md"
    os.chmod(source, 0)
    run = run_unprivileged(["context", "build", str(shared_root)], shared_root.parent)
    assert_stable(run, "SOURCE_PERMISSION")
    detail = json.loads(run.err)["detail"]
    assert detail == f"{TASKS}/t-024-metrics.md: permission denied"


def test_a_vanished_or_special_file_is_still_source_link(cli: object, example: Path) -> None:
    os.mkfifo(example / TASKS / "fifo.md")
    _strict(cli, example, "SOURCE_LINK")


NAME_BYTES = st.binary(min_size=1, max_size=40).filter(
    lambda b: b"/" not in b and b"\0" not in b and b not in (b".", b"..")
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=NAME_BYTES, suffix=st.sampled_from([b".md", b"", b".txt"]), folder=st.booleans())
def test_arbitrary_byte_names_never_crash(
    cli: object, tmp_path_factory: pytest.TempPathFactory, name: bytes, suffix: bytes, folder: bool
) -> None:

    from tests.conftest import FIXTURES

    root = tmp_path_factory.mktemp("n") / "example"
    copy_fixture(FIXTURES / "example", root)
    target = os.fsencode(root / TASKS) + b"/" + name + suffix
    if len(os.path.basename(target)) > 255:
        return
    if folder:
        os.mkdir(target)
        with open(target + b"/inner.md", "w", encoding="utf-8") as handle:
            handle.write("# Inner\n")
    else:
        with open(target, "w", encoding="utf-8") as handle:
            handle.write("# Named\n")
    for args in (("context", "build", str(root)), ("context", "doctor", str(root))):
        for fmt in ("json", "text", "github"):
            run: Run = cli(*args, "--format", fmt)  # type: ignore[operator]
            assert run.code in (0, 1, 2), (name, run.err)
            assert "Traceback" not in run.err
            run.out.encode("utf-8")
            run.err.encode("utf-8")
