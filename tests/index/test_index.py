"""The SQLite index: provenance only, atomic publication, path rules, staleness."""

from __future__ import annotations

import multiprocessing
import os
import re
import sqlite3
from pathlib import Path

import pytest

from project_corpus.corpus.items import corpus_items
from project_corpus.corpus.snapshot import collect
from project_corpus.index.store import open_index
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.conftest import report

CACHE = ".project-corpus/cache"
INDEX = f"{CACHE}/context.sqlite3"


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_build_reports_counts_and_writes_the_index_with_a_gitignore(
    make_corpus: MakeCorpus, cli: object
) -> None:
    root = make_corpus()
    run = cli("context", "build", root)  # type: ignore[operator]
    assert run.code == 0
    doc = run.json()
    corpus = collect(root)
    assert doc == {
        "ok": True,
        "project_id": "demo-project",
        "index_schema_version": "1",
        "source_count": len(corpus.sources),
        "item_count": len(corpus_items(corpus)),
        "source_snapshot_digest": corpus.snapshot_digest,
        "non_authoritative": True,
    }
    assert (root / CACHE / ".gitignore").read_text() == "*\n"
    stored = open_index(corpus.root)
    assert stored.meta["project_id"] == "demo-project"
    assert stored.meta["index_schema_version"] == "1"
    assert stored.meta["policy_sha256"] == corpus.policy.sha256
    assert set(stored.sources) == set(corpus.source_map())


def test_index_never_contains_source_text(example: Path, cli: object) -> None:
    assert cli("context", "build", example).code == 0  # type: ignore[operator]
    data = (example / INDEX).read_bytes()
    corpus = collect(example)
    checked = 0
    for item in corpus_items(corpus):
        for sentence in re.split(r"(?<=[.!?])\s+", item.text):
            words = sentence.split()
            if len(words) >= 3:
                assert sentence.encode() not in data, sentence
                checked += 1
        if item.kind == "heading":
            title = item.text.lstrip("#").strip()
            if len(title) > 8:
                assert title.encode() not in data
    assert checked > 100


def test_rebuilding_an_unchanged_corpus_is_byte_identical(
    make_corpus: MakeCorpus, cli: object
) -> None:
    root = make_corpus()
    cli("context", "build", root)  # type: ignore[operator]
    first = (root / INDEX).read_bytes()
    cli("context", "build", root)  # type: ignore[operator]
    assert (root / INDEX).read_bytes() == first
    assert sorted(os.listdir(root / CACHE)) == [".gitignore", "context.sqlite3"]


@pytest.mark.parametrize(
    "edit",
    [
        lambda r: (r / ".project-corpus/reports/bench-old.md").write_text(
            report("bench-old", "2026-10-01", "Changed.")
        ),
        lambda r: (r / ".project-corpus/reports/added.md").write_text(
            report("added", "2026-11-01", "New.")
        ),
        lambda r: (r / ".project-corpus/reports/bench-path.md").unlink(),
        lambda r: (r / ".project-corpus/state/STATUS.md").write_text(
            (r / ".project-corpus/state/STATUS.md").read_text() + "\nMore.\n"
        ),
    ],
    ids=["edit", "add", "remove", "edit-status"],
)
def test_any_source_change_makes_query_stale_until_rebuild(
    make_corpus: MakeCorpus, cli: object, edit: object
) -> None:
    root = make_corpus()
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    assert callable(edit)
    edit(root)
    run: Run = cli("context", "query", root, "latency")  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "INDEX_STALE"
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    assert cli("context", "query", root, "latency").code == 0  # type: ignore[operator]


def test_query_without_an_index_is_index_missing(make_corpus: MakeCorpus, cli: object) -> None:
    run = cli("context", "query", make_corpus(), "latency")  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "INDEX_MISSING"


@pytest.mark.parametrize(
    "index",
    [
        "{root}/.project-corpus/index.sqlite3",
        "{root}/.project-corpus/cache/../cache/x.sqlite3",
        "{root}/.project-corpus/cache/sub/x.sqlite3",
        "{root}/.project-corpus/cache/x.db",
        "{root}/.project-corpus/cache/.sqlite3",
        "{root}/.project-corpus/cache/.staging-abc.sqlite3",
        "/tmp/elsewhere.sqlite3",
        "{root}/AGENTS.md",
    ],
)
def test_bad_index_paths_are_refused_and_nothing_is_written(
    make_corpus: MakeCorpus, cli: object, index: str
) -> None:
    root = make_corpus()
    before = tree(root.parent)
    run = cli("context", "build", root, "--index", index.format(root=root))  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "INDEX_PATH"
    assert tree(root.parent) == before


def test_symlinked_cache_directory_is_refused(
    make_corpus: MakeCorpus, cli: object, tmp_path: Path
) -> None:
    root = make_corpus()
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", root / CACHE)
    run = cli("context", "build", root)  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "INDEX_PATH"
    assert os.listdir(tmp_path / "elsewhere") == []


def test_symlinked_index_target_is_refused(
    make_corpus: MakeCorpus, cli: object, tmp_path: Path
) -> None:
    root = make_corpus()
    (root / CACHE).mkdir()
    victim = tmp_path / "victim.sqlite3"
    victim.write_bytes(b"keep me")
    os.symlink(victim, root / INDEX)
    for command in (("context", "build", root), ("context", "query", root, "x")):
        run = cli(*command)  # type: ignore[operator]
        assert run.code == 2
        assert run.error()["error"] == "INDEX_PATH"
    assert victim.read_bytes() == b"keep me"


def test_relative_index_is_resolved_against_the_cwd(
    make_corpus: MakeCorpus, cli: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    monkeypatch.chdir(root / ".project-corpus")
    assert cli("context", "build", root, "--index", "cache/other.sqlite3").code == 0  # type: ignore[operator]
    assert (root / CACHE / "other.sqlite3").is_file()
    assert cli("context", "query", root, "latency", "--index", "cache/other.sqlite3").code == 0  # type: ignore[operator]


def test_leftover_staging_file_does_not_break_builds(make_corpus: MakeCorpus, cli: object) -> None:
    root = make_corpus()
    cli("context", "build", root)  # type: ignore[operator]
    (root / CACHE / ".staging-deadbeef.sqlite3").write_bytes(b"half written")
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    assert cli("context", "query", root, "latency").code == 0  # type: ignore[operator]


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"garbage, not sqlite at all" * 100, "INDEX_CORRUPT"),
        (b"", "INDEX_CORRUPT"),
    ],
)
def test_garbage_index_is_corrupt(
    make_corpus: MakeCorpus, cli: object, content: bytes, code: str
) -> None:
    root = make_corpus()
    (root / CACHE).mkdir()
    (root / INDEX).write_bytes(content)
    run = cli("context", "query", root, "latency")  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == code


def _rewrite_meta(path: Path, key: str, value: str) -> None:
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    conn.commit()
    conn.close()


def test_index_of_another_schema_version_is_a_mismatch(
    make_corpus: MakeCorpus, cli: object
) -> None:
    root = make_corpus()
    cli("context", "build", root)  # type: ignore[operator]
    _rewrite_meta(root / INDEX, "index_schema_version", "0")
    run = cli("context", "query", root, "latency")  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "INDEX_SCHEMA_MISMATCH"


def test_index_of_another_project_is_refused(make_corpus: MakeCorpus, cli: object) -> None:
    root = make_corpus()
    cli("context", "build", root)  # type: ignore[operator]
    _rewrite_meta(root / INDEX, "project_id", "other-project")
    run = cli("context", "query", root, "latency")  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "INDEX_PROJECT_MISMATCH"


def test_sqlite_file_without_our_tables_is_corrupt(make_corpus: MakeCorpus, cli: object) -> None:
    root = make_corpus()
    (root / CACHE).mkdir()
    conn = sqlite3.connect(root / INDEX)
    conn.execute("CREATE TABLE other (x)")
    conn.commit()
    conn.close()
    run = cli("context", "query", root, "latency")  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "INDEX_CORRUPT"


def _build(root: str) -> int:
    from project_corpus.adapters.cli import main

    return main(["context", "build", root])


def test_concurrent_builds_leave_a_valid_index(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        codes = pool.map(_build, [str(root)] * 8)
    assert codes == [0] * 8
    stored = open_index(collect(root).root)
    assert stored.meta["project_id"] == "demo-project"
    assert sorted(os.listdir(root / CACHE)) == [".gitignore", "context.sqlite3"]


def test_a_build_killed_mid_way_leaves_the_old_index(make_corpus: MakeCorpus, cli: object) -> None:
    root = make_corpus()
    cli("context", "build", root)  # type: ignore[operator]
    old = (root / INDEX).read_bytes()
    code = (
        "import os, sys\n"
        "from project_corpus.corpus import fs\n"
        "def boom(*a, **k):\n"
        "    os._exit(9)\n"
        "fs.publish = boom\n"
        "from project_corpus.adapters.cli import main\n"
        f"main(['context', 'build', {str(root)!r}])\n"
    )
    (root / "AGENTS.md").write_text("# Agents\nchanged\n")  # not a source: the index stays valid
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", code], check=False)
    assert result.returncode == 9
    assert (root / INDEX).read_bytes() == old
    assert cli("context", "query", root, "latency").code == 0  # type: ignore[operator]
    assert cli("context", "build", root).code == 0  # type: ignore[operator]


def test_a_build_losing_the_race_to_create_the_cache_still_publishes(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another build creates cache/ between our check and our mkdir (simulated exactly)."""
    from project_corpus.corpus import fs
    from project_corpus.index.store import build_index

    root = make_corpus()
    corpus = collect(root)
    (root / CACHE).mkdir()
    (root / CACHE / ".gitignore").write_text("*\n")
    real = fs.entry_kind
    calls: list[str] = []

    def stale_first_look(dir_fd: int, name: str) -> str | None:
        calls.append(name)
        return None if name == "cache" and calls.count("cache") == 2 else real(dir_fd, name)

    monkeypatch.setattr(fs, "entry_kind", stale_first_look)
    assert build_index(corpus)["ok"] is True
    assert sorted(os.listdir(root / CACHE)) == [".gitignore", "context.sqlite3"]
