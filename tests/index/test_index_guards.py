"""Every guard of the index path, publication and loading, one test each (SPEC §4)."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from project_corpus.core.errors import ContextError
from project_corpus.corpus import fs
from project_corpus.corpus import snapshot
from project_corpus.corpus.snapshot import collect
from project_corpus.index import schema as index_schema
from project_corpus.index import store as index_module
from project_corpus.index.store import build_index
from project_corpus.index.store import load_verified
from project_corpus.index.store import open_index
from project_corpus.index.store import prepare_index_path
from project_corpus.index.store import resolve_index_path
from project_corpus.index.store import verify_index
from tests.conftest import MakeCorpus
from tests.conftest import report

CACHE = ".project-corpus/cache"
INDEX = f"{CACHE}/context.sqlite3"


def refused(call: object, *args: object, **kwargs: object) -> ContextError:
    assert callable(call)
    with pytest.raises(ContextError) as info:
        call(*args, **kwargs)
    return info.value


def built(make_corpus: MakeCorpus, files: dict[str, str | bytes | None] | None = None) -> Path:
    root = make_corpus(files)
    build_index(collect(root))
    return root.resolve()


# --- the path -----------------------------------------------------------------------------------


def test_the_default_index_name(make_corpus: MakeCorpus) -> None:
    root = make_corpus().resolve()
    assert resolve_index_path(root, None) == "context.sqlite3"
    assert resolve_index_path(root, str(root / CACHE / "other.sqlite3")) == "other.sqlite3"


@pytest.mark.parametrize(
    ("rel", "detail"),
    [
        (f"{CACHE}/../cache/x.sqlite3", "`..` is not allowed in the index path"),
        (f"{CACHE}\\..\\cache\\x.sqlite3", "`..` is not allowed in the index path"),
        (".project-corpus/x.sqlite3", "the index must be a file directly inside"),
        (f"{CACHE}/sub/x.sqlite3", "the index must be a file directly inside"),
        ("other/cache/x.sqlite3", "the index must be a file directly inside"),
        (f"{CACHE}/x.db", "the index must be a `.sqlite3` file"),
        (f"{CACHE}/.sqlite3", "the index must be a `.sqlite3` file"),
        (f"{CACHE}/.staging-0123.sqlite3", "the index must be a `.sqlite3` file"),
    ],
)
def test_bad_index_paths_are_index_path(make_corpus: MakeCorpus, rel: str, detail: str) -> None:
    root = make_corpus().resolve()
    error = refused(resolve_index_path, root, str(root / rel))
    assert error.code == "INDEX_PATH"
    assert detail in error.detail


def test_an_index_of_another_project_root_is_index_path(make_corpus: MakeCorpus) -> None:
    root = make_corpus().resolve()
    other = make_corpus(name="other").resolve()
    error = refused(resolve_index_path, root, str(other / INDEX))
    assert error.code == "INDEX_PATH"


def test_the_index_path_is_checked_before_any_source_is_read(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A symlinked target plus a non-conformant corpus answers INDEX_PATH, not a conformance
    error: the sources are never collected."""
    root = make_corpus({".project-corpus/state/STATUS.md": None})
    (root / CACHE).mkdir()
    (tmp_path / "elsewhere.sqlite3").write_bytes(b"")
    (root / INDEX).symlink_to(tmp_path / "elsewhere.sqlite3")

    def never(*args: object, **kwargs: object) -> object:
        raise AssertionError("the sources were read before the index path was checked")

    monkeypatch.setattr(snapshot, "collect", never)
    error = refused(load_verified, root)
    assert (error.code, error.detail) == ("INDEX_PATH", f"{INDEX.rsplit('/', 1)[0]}"
                                          f"/context.sqlite3 is a link, not a regular file")  # fmt: skip


@pytest.mark.parametrize("kind", ["dir", "fifo", "link"])
def test_a_target_that_is_not_a_regular_file_is_index_path(
    make_corpus: MakeCorpus, tmp_path: Path, kind: str
) -> None:
    root = make_corpus().resolve()
    (root / CACHE).mkdir()
    target = root / INDEX
    {"dir": target.mkdir, "fifo": lambda: os.mkfifo(target)}.get(
        kind, lambda: target.symlink_to(tmp_path)
    )()
    expected = {"dir": "dir", "fifo": "special", "link": "link"}[kind]
    for call in (prepare_index_path, open_index):
        error = refused(call, root, None)
        assert (error.code, error.detail) == (
            "INDEX_PATH",
            f"{INDEX} is a {expected}, not a regular file",
        )


@pytest.mark.parametrize("kind", ["file", "fifo", "link"])
def test_a_cache_that_is_not_a_directory_is_index_path(
    make_corpus: MakeCorpus, tmp_path: Path, kind: str
) -> None:
    root = make_corpus().resolve()
    cache = root / CACHE
    {"file": lambda: cache.write_bytes(b""), "fifo": lambda: os.mkfifo(cache)}.get(
        kind, lambda: cache.symlink_to(tmp_path)
    )()
    expected = {"file": "file", "fifo": "special", "link": "link"}[kind]
    error = refused(prepare_index_path, root, None)
    assert (error.code, error.detail) == ("INDEX_PATH", f"{CACHE} is a {expected}, not a directory")
    assert refused(build_index, collect(root)).code == "INDEX_PATH"


def test_an_unreadable_cache_is_index_path(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EACCES on cache/ (simulated: the tests may run as root, who ignores modes)."""
    root = make_corpus().resolve()
    (root / CACHE).mkdir()
    real_open = os.open

    def denied(path: str, flags: int, *args: object, **kwargs: object) -> int:
        if path == "cache":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", denied)
    for call in (prepare_index_path, open_index):
        error = refused(call, root, None)
        assert (error.code, error.detail) == ("INDEX_PATH", f"{CACHE}: Permission denied")


# --- publication --------------------------------------------------------------------------------


def test_the_first_build_creates_the_cache_with_its_gitignore(make_corpus: MakeCorpus) -> None:
    root = built(make_corpus)
    assert (root / CACHE / ".gitignore").read_bytes() == b"*\n"
    assert sorted(os.listdir(root / CACHE)) == [".gitignore", "context.sqlite3"]
    assert open_index(root).meta["project_id"] == "demo-project"


def test_a_build_keeps_an_existing_cache_and_its_files(make_corpus: MakeCorpus) -> None:
    root = make_corpus().resolve()
    (root / CACHE).mkdir()
    (root / CACHE / "keep.txt").write_bytes(b"mine")
    build_index(collect(root))
    assert sorted(os.listdir(root / CACHE)) == ["context.sqlite3", "keep.txt"]


def test_an_os_error_while_publishing_is_index_path_and_leaves_no_staging_file(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus().resolve()
    corpus = collect(root)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(fs, "publish", full)
    error = refused(build_index, corpus)
    assert (error.code, error.detail) == ("INDEX_PATH", f"{INDEX}: No space left on device")
    assert error.__cause__ is None
    assert error.__suppress_context__
    assert sorted(os.listdir(root / CACHE)) == [".gitignore"]


def test_a_target_appearing_as_a_directory_during_the_build_is_refused(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the early path check and the publication, something makes the target a
    directory: the publication refuses it instead of renaming over it."""
    root = make_corpus().resolve()
    corpus = collect(root)
    real = index_module.serialize

    def racing(corpus: object) -> bytes:
        (root / INDEX).mkdir(parents=True)
        return real(corpus)  # type: ignore[arg-type]

    monkeypatch.setattr(index_module, "serialize", racing)
    error = refused(build_index, corpus)
    assert (error.code, error.detail) == ("INDEX_PATH", f"{INDEX} is not a regular file")
    assert sorted(os.listdir(root / CACHE)) == ["context.sqlite3"]
    assert (root / INDEX).is_dir()


def test_an_index_over_the_limit_is_never_written(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus().resolve()
    corpus = collect(root)
    size = len(index_module.serialize(corpus))
    monkeypatch.setattr(index_module, "MAX_INDEX_BYTES", size)
    assert build_index(corpus)["ok"] is True  # exactly the limit is allowed
    monkeypatch.setattr(index_module, "MAX_INDEX_BYTES", size - 1)
    (root / INDEX).unlink()
    error = refused(build_index, corpus)
    assert (error.code, error.detail) == (
        "CONTEXT_LIMIT",
        f"index_bytes: {size} exceeds {size - 1}",
    )
    assert not (root / INDEX).exists()


def test_an_index_file_over_the_limit_is_refused_when_opened(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = built(make_corpus)
    size = (root / INDEX).stat().st_size
    monkeypatch.setattr(index_module, "MAX_INDEX_BYTES", size)
    assert open_index(root).project_id == "demo-project"
    monkeypatch.setattr(index_module, "MAX_INDEX_BYTES", size - 1)
    error = refused(open_index, root)
    assert error.code == "CONTEXT_LIMIT"
    assert error.detail == f"{INDEX}: {size} bytes exceeds the limit of {size - 1}"


# --- opening ------------------------------------------------------------------------------------


def test_index_missing_without_cache_and_with_an_empty_cache(make_corpus: MakeCorpus) -> None:
    root = make_corpus().resolve()
    for _ in range(2):
        error = refused(open_index, root)
        assert (error.code, error.detail) == ("INDEX_MISSING", f"{INDEX} does not exist")
        # the library keeps the root's place; the CLI names the ROOT it was given
        assert (
            error.hint
            == "build it with `project-corpus context build {root}`, or ask with --fresh (no index)"
        )
        assert error.envelope("my corpus")["hint"] == (
            "build it with `project-corpus context build 'my corpus'`, or ask with --fresh"
            " (no index)"
        )
        assert error.envelope()["hint"] == (
            "build it with `project-corpus context build ROOT`, or ask with --fresh (no index)"
        )
        (root / CACHE).mkdir(exist_ok=True)


def test_index_missing_when_the_corpus_folder_is_gone(tmp_path: Path) -> None:
    (tmp_path / "bare").mkdir()
    assert prepare_index_path(tmp_path / "bare", None) == "context.sqlite3"
    error = refused(open_index, tmp_path / "bare")
    assert (error.code, error.detail) == ("INDEX_MISSING", f"{INDEX} does not exist")
    assert refused(load_verified, tmp_path / "bare").code == "CONTEXT_ROOT"  # not a corpus


@pytest.mark.parametrize(
    ("data", "detail"),
    [
        (b"", "not an SQLite database"),
        (b"SQLite format 3\0" + b"\0" * 495, "not an SQLite database"),  # 511 bytes
        (b"x" * 4096, "not an SQLite database"),
    ],
)
def test_short_or_foreign_files_are_corrupt(
    make_corpus: MakeCorpus, data: bytes, detail: str
) -> None:
    root = built(make_corpus)
    (root / INDEX).write_bytes(data)
    error = refused(open_index, root)
    assert (error.code, error.detail) == ("INDEX_CORRUPT", f"{INDEX}: {detail}")


def test_a_512_byte_header_goes_to_sqlite_and_is_still_corrupt(make_corpus: MakeCorpus) -> None:
    root = built(make_corpus)
    (root / INDEX).write_bytes(b"SQLite format 3\0" + b"\xff" * 496)
    error = refused(open_index, root)
    assert error.code == "INDEX_CORRUPT"
    assert error.detail != f"{INDEX}: not an SQLite database"


def test_a_schema_mismatch_names_both_versions(make_corpus: MakeCorpus) -> None:
    root = built(make_corpus)
    conn = sqlite3.connect(root / INDEX)
    conn.execute("UPDATE meta SET value = '0' WHERE key = 'index_schema_version'")
    conn.commit()
    conn.close()
    error = refused(open_index, root)
    assert (error.code, error.detail) == (
        "INDEX_SCHEMA_MISMATCH",
        f"{INDEX}: schema '0', expected '1'",
    )


def test_items_are_loaded_only_when_asked(make_corpus: MakeCorpus) -> None:
    root = built(make_corpus)
    full = open_index(root)
    light = open_index(root, with_items=False)
    assert len(full.items) > 1
    assert len(full.relations) >= 1
    assert light.items == full.items[:1]
    assert light.relations == full.relations[:1]
    assert light.sources == full.sources


# --- staleness ----------------------------------------------------------------------------------


def reports(count: int, stamp: str) -> dict[str, str | bytes | None]:
    return {
        f".project-corpus/reports/r{i:02}.md": report(f"r{i:02}", "2026-11-01", f"{stamp} {i}.")
        for i in range(count)
    }


@pytest.mark.parametrize(("changed", "suffix"), [(10, ""), (11, " (+1 more)"), (12, " (+2 more)")])
def test_a_stale_index_names_at_most_ten_changed_sources(
    make_corpus: MakeCorpus, changed: int, suffix: str
) -> None:
    root = built(make_corpus, reports(changed, "before"))
    corpus = collect(make_corpus(reports(changed, "after")))
    error = refused(verify_index, open_index(root), corpus)
    assert error.code == "INDEX_STALE"
    shown = ", ".join(f".project-corpus/reports/r{i:02}.md" for i in range(min(changed, 10)))
    assert error.detail == f"sources changed since the index was built: {shown}{suffix}"


def test_an_unchanged_corpus_verifies(make_corpus: MakeCorpus) -> None:
    root = built(make_corpus)
    corpus = load_verified(root)
    assert corpus.project_id == "demo-project"
    verify_index(open_index(root), corpus)


def test_the_index_limit_is_128_mib(make_corpus: MakeCorpus) -> None:
    """A sparse file one byte over the limit is refused by its size, before any read."""
    root = built(make_corpus)
    with (root / INDEX).open("r+b") as handle:
        handle.truncate(128 * 1024 * 1024 + 1)
    error = refused(open_index, root)
    assert (error.code, error.detail) == (
        "CONTEXT_LIMIT",
        f"{INDEX}: 134217729 bytes exceeds the limit of 134217728",
    )


def test_the_cache_folder_is_created_with_mode_755(make_corpus: MakeCorpus) -> None:
    root = make_corpus().resolve()
    corpus = collect(root)
    old = os.umask(0)
    try:
        build_index(corpus)
    finally:
        os.umask(old)
    assert stat.S_IMODE((root / CACHE).stat().st_mode) == 0o755
    assert stat.S_IMODE((root / CACHE / ".gitignore").stat().st_mode) == 0o644


def test_an_index_with_a_second_name_is_still_read(make_corpus: MakeCorpus) -> None:
    """Publication links the staging file before unlinking it: a reader may meet the index
    with two names, which is not a reason to refuse it."""
    root = built(make_corpus)
    os.link(root / INDEX, root / CACHE / "backup.sqlite3")
    assert open_index(root).project_id == "demo-project"


def test_an_io_error_while_reading_the_index_is_index_path(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = built(make_corpus)

    def broken_disk(fd: int, size: int) -> bytes:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "read", broken_disk)
    error = refused(open_index, root)
    assert (error.code, error.detail) == ("INDEX_PATH", f"{INDEX}: {os.strerror(errno.EIO)}")
    assert error.__suppress_context__


# The `sources` table as the versions that stored document skeletons wrote it (#26).
SKELETON_SOURCES = (
    "CREATE TABLE sources (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER NOT NULL,"
    " source_type TEXT NOT NULL, authority_class TEXT NOT NULL, temporal_status TEXT NOT NULL,"
    " timestamp TEXT, line_count INTEGER NOT NULL, project_id TEXT NOT NULL,"
    " skeleton BLOB NOT NULL) WITHOUT ROWID"
)


def with_skeleton_column(root: Path) -> None:
    """Turn ROOT's index into one written by a version that stored skeletons."""
    conn = sqlite3.connect(root / INDEX)
    try:
        conn.execute("ALTER TABLE sources RENAME TO new_sources")
        conn.execute(SKELETON_SOURCES)
        conn.execute("INSERT INTO sources SELECT *, x'0500000001000000' FROM new_sources")
        conn.execute("DROP TABLE new_sources")
        conn.execute("INSERT INTO meta VALUES ('skeleton_version', '1')")
        conn.commit()
    finally:
        conn.close()


def test_an_index_that_stores_skeletons_is_one_to_rebuild(
    make_corpus: MakeCorpus, cli: object
) -> None:
    """An index of the versions that stored skeletons: query says rebuild (exit 2), never
    reads a skeleton, and a build replaces it."""
    root = built(make_corpus)
    with_skeleton_column(root)
    error = refused(load_verified, root)
    assert error.code == "INDEX_SCHEMA_MISMATCH"
    assert "earlier version" in error.detail
    assert error.envelope("mem")["hint"] == "rebuild it with `project-corpus context build mem`"
    assert cli("context", "query", root, "cache").code == 2  # type: ignore[operator]
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    load_verified(root)


def test_the_expected_schema_is_what_sqlite_stores_for_the_tables(make_corpus: MakeCorpus) -> None:
    # The rows are written out instead of made in a database per process: they must be
    # exactly what SQLite keeps, both in a fresh database and in a built index.
    assert index_schema._expected_schema() == index_schema.EXPECTED_SCHEMA
    root = built(make_corpus)
    conn = sqlite3.connect(root / INDEX)
    try:
        rows = frozenset(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    finally:
        conn.close()
    assert rows == index_schema.EXPECTED_SCHEMA
    assert index_schema.with_skeletons() != index_schema.EXPECTED_SCHEMA
