"""The SQLite index: provenance only, never source text (docs/architecture.md).

The database is built in memory, serialized, written to an exclusive staging file inside
`cache/` and published atomically; it is read back the same way (confined read, then
`deserialize`), so SQLite itself never opens a path that could be swapped under it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from typing import TYPE_CHECKING

from project_corpus.core.about import __version__
from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_INDEX_BYTES
from project_corpus.core.records import Corpus
from project_corpus.core.records import item_id
from project_corpus.core.versions import INDEX_SCHEMA_VERSION
from project_corpus.corpus import fs
from project_corpus.corpus.layout import CACHE_DIR
from project_corpus.corpus.layout import CORPUS_DIR
from project_corpus.corpus.layout import DEFAULT_INDEX_NAME
from project_corpus.corpus.layout import DEFAULT_INDEX_PATH
from project_corpus.index.schema import SCHEMA
from project_corpus.index.schema import StoredIndex
from project_corpus.index.schema import StoredItem
from project_corpus.index.schema import StoredSource
from project_corpus.index.schema import check_schema

if TYPE_CHECKING:
    from project_corpus.corpus.memo import SnapshotMemo

STAGING_PREFIX = ".staging-"


def resolve_index_path(root: str, index: str | None) -> str:
    """The index file name inside ROOT/.project-corpus/cache, checked before any source is
    read (INDEX_PATH for anything else). Relative paths are resolved against the cwd."""
    if index is None:
        return DEFAULT_INDEX_NAME
    if ".." in index.replace("\\", "/").split("/"):
        raise ContextError("INDEX_PATH", f"{index}: `..` is not allowed in the index path")
    absolute = os.path.abspath(index)
    cache, name = os.path.split(absolute)
    corpus_dir, cache_name = os.path.split(cache)
    project, corpus_name = os.path.split(corpus_dir)
    # The components inside the project are opened without following links later on;
    # the part above them may be reached through links (it is the root, resolved once).
    if f"{corpus_name}/{cache_name}" != CACHE_DIR or os.path.realpath(project) != str(root):
        raise ContextError(
            "INDEX_PATH",
            f"{index}: the index must be a file directly inside {CACHE_DIR}/",
            hint=f"use the default {DEFAULT_INDEX_PATH}",
        )
    if not name.endswith(".sqlite3") or name == ".sqlite3" or name.startswith(STAGING_PREFIX):
        raise ContextError(
            "INDEX_PATH", f"{index}: the index must be a `.sqlite3` file (not a staging file)"
        )
    return name


def _check_cache_dir(root: str, create: bool) -> bool:
    """True when cache/ exists as a real directory; creates it (with .gitignore) if asked."""
    with fs.open_dir(root, CORPUS_DIR) as pc_fd:
        kind = fs.entry_kind(pc_fd, "cache")
        if kind is None and create:
            try:
                os.mkdir("cache", 0o755, dir_fd=pc_fd)
            except FileExistsError:  # a concurrent build made it first: check what it is
                return _check_cache_dir(root, create=False)
            with fs.open_dir(root, CACHE_DIR) as cache_fd, contextlib.suppress(FileExistsError):
                fs.write_exclusive(cache_fd, ".gitignore", b"*\n")
            return True
        if kind not in (None, "dir"):
            raise ContextError("INDEX_PATH", f"{CACHE_DIR} is a {kind}, not a directory")
        return kind == "dir"


def check_target(root: str, name: str) -> None:
    """INDEX_PATH when the index target exists but is a link or not a regular file."""
    kind: str | None = None
    with (
        contextlib.suppress(FileNotFoundError, NotADirectoryError),
        fs.open_dir(root, CACHE_DIR) as fd,
    ):
        kind = fs.entry_kind(fd, name)
    if kind not in (None, "file"):
        raise ContextError("INDEX_PATH", f"{CACHE_DIR}/{name} is a {kind}, not a regular file")


def prepare_index_path(root: str, index: str | None) -> str:
    """Validate the index path completely (before any source is read)."""
    name = resolve_index_path(root, index)
    try:
        if _check_cache_dir(root, create=False):
            check_target(root, name)
    except FileNotFoundError:
        pass  # no .project-corpus/ at all: nothing to check (opening says INDEX_MISSING)
    except OSError as exc:
        raise ContextError("INDEX_PATH", f"{CACHE_DIR}: {exc.strerror or exc}") from None
    return name


def serialize(corpus: Corpus) -> bytes:
    """The index database's bytes for CORPUS (deterministic for the same SQLite version)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("PRAGMA page_size = 4096")
        for statement in SCHEMA:
            conn.execute(statement)
        conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(_meta(corpus).items()))
        rows = _sources(corpus)
        conn.executemany("INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.executemany("INSERT INTO items VALUES (?, ?, ?, ?, ?)", _item_rows(corpus))
        conn.executemany(
            "INSERT INTO relations VALUES (?, ?, ?, ?)",
            [(r.source, r.line, r.target, r.validity) for r in corpus.relations],
        )
        conn.commit()
        return conn.serialize()
    finally:
        conn.close()


def _item_rows(corpus: Corpus) -> list[tuple[str, str, int, int, int]]:
    """The `items` table's rows, in `corpus_items` order, from the spans (no `Item` made)."""
    return [
        (item_id(s.path, span[1], span[2], span[5]), s.path, span[1], span[2], span[4])
        for s in corpus.sources
        for span in s.doc.spans
    ]


def _meta(corpus: Corpus) -> dict[str, str]:
    """The `meta` table: what the index was built from and by."""
    return {
        "index_schema_version": INDEX_SCHEMA_VERSION,
        "project_id": corpus.project_id,
        "source_snapshot_digest": corpus.snapshot_digest,
        "policy_sha256": corpus.policy.sha256,
        "tool_version": __version__,
    }


def _sources(corpus: Corpus) -> list[tuple[object, ...]]:
    """The `sources` table's rows."""
    return [
        (
            s.path,
            s.sha256,
            s.size,
            s.source_type,
            s.authority_class,
            s.temporal_status,
            s.timestamp,
            s.line_count,
            s.project_id,
        )
        for s in corpus.sources
    ]


def build_index(corpus: Corpus, index: str | None = None) -> dict[str, object]:
    """Write the index of CORPUS atomically; returns the `context build` document."""
    name = prepare_index_path(corpus.root, index)
    data = serialize(corpus)
    if len(data) > MAX_INDEX_BYTES:
        raise ContextError("CONTEXT_LIMIT", f"index_bytes: {len(data)} exceeds {MAX_INDEX_BYTES}")
    try:
        _check_cache_dir(corpus.root, create=True)
        with fs.open_dir(corpus.root, CACHE_DIR) as fd:
            _publish(fd, name, data)
    except OSError as exc:
        raise ContextError("INDEX_PATH", f"{CACHE_DIR}/{name}: {exc.strerror or exc}") from None
    return {
        "ok": True,
        "project_id": corpus.project_id,
        "index_schema_version": INDEX_SCHEMA_VERSION,
        "source_count": len(corpus.sources),
        "item_count": sum(len(s.doc.spans) for s in corpus.sources),
        "source_snapshot_digest": corpus.snapshot_digest,
        "non_authoritative": True,
    }


def _publish(cache_fd: int, name: str, data: bytes) -> None:
    if fs.entry_kind(cache_fd, name) not in (None, "file"):
        raise ContextError("INDEX_PATH", f"{CACHE_DIR}/{name} is not a regular file")
    # os.urandom, as `secrets.token_hex` (which would load hmac, random and OpenSSL)
    staging = f"{STAGING_PREFIX}{os.urandom(8).hex()}.sqlite3"
    try:
        fs.write_exclusive(cache_fd, staging, data)
        fs.publish(cache_fd, staging, name)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(staging, dir_fd=cache_fd)
    _sweep_stale(cache_fd)


STALE_SECONDS = 3600  # far longer than any build: a concurrent build's file is never taken


def _sweep_stale(cache_fd: int) -> None:
    """Remove our own staging files left by a killed build (regular files named as we name
    them, an hour old); links and anything else are never touched."""
    import stat
    import time

    now = time.time()
    for entry in os.listdir(cache_fd):
        body = entry.removeprefix(STAGING_PREFIX).removesuffix(".sqlite3")
        if len(entry) != len(body) + 17 or len(body) != 16 or body.strip("0123456789abcdef"):
            continue
        with contextlib.suppress(OSError):
            info = os.stat(entry, dir_fd=cache_fd, follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_SECONDS:
                os.unlink(entry, dir_fd=cache_fd)


def open_index(
    root: str | os.PathLike[str],
    index: str | None = None,
    *,
    with_items: bool = True,
) -> StoredIndex:
    """Read and check the stored index (INDEX_MISSING / INDEX_CORRUPT / INDEX_SCHEMA_MISMATCH).

    Without WITH_ITEMS the item and relation rows are checked to be readable but not loaded
    (staleness needs only the sources). ROOT may be relative or absolute.
    """
    root = fs.resolve_root(root)
    name = prepare_index_path(root, index)
    rel = f"{CACHE_DIR}/{name}"
    try:
        with fs.open_dir(root, CACHE_DIR) as fd:
            if fs.entry_kind(fd, name) is None:
                raise ContextError("INDEX_MISSING", f"{rel} does not exist")
            # Publication links the staging file before unlinking it: two names for a moment.
            data = fs.read_at(
                fd, name, MAX_INDEX_BYTES, label=rel, link_code="INDEX_PATH", hard_links=True
            )
    except (FileNotFoundError, NotADirectoryError):
        raise ContextError("INDEX_MISSING", f"{rel} does not exist") from None
    except OSError as exc:
        raise ContextError("INDEX_PATH", f"{rel}: {exc.strerror or exc}") from None
    return _load(data, rel, with_items)


def _load(data: bytes, rel: str, with_items: bool) -> StoredIndex:
    if len(data) < 512 or not data.startswith(b"SQLite format 3\0"):
        raise ContextError("INDEX_CORRUPT", f"{rel}: not an SQLite database")
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(data)
        check_schema(conn, rel)
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        if meta.get("index_schema_version") != INDEX_SCHEMA_VERSION:
            raise ContextError(
                "INDEX_SCHEMA_MISMATCH",
                f"{rel}: schema {meta.get('index_schema_version')!r}, "
                f"expected {INDEX_SCHEMA_VERSION!r}",
            )
        sources, items, rels = _rows(conn, with_items)
    except (sqlite3.DatabaseError, ValueError, TypeError, OverflowError) as exc:
        raise ContextError("INDEX_CORRUPT", f"{rel}: {exc}") from None
    finally:
        conn.close()
    return StoredIndex(meta, sources, items, rels)


def _rows(
    conn: sqlite3.Connection, with_items: bool
) -> tuple[dict[str, StoredSource], tuple[StoredItem, ...], tuple[tuple[str, int, str, str], ...]]:
    """The source rows; the item and relation rows (only the first of each without
    WITH_ITEMS: enough to know that they are readable)."""
    sources = {
        row[0]: StoredSource(*row)
        for row in conn.execute(
            "SELECT path, sha256, size, source_type, authority_class, temporal_status,"
            " timestamp, line_count, project_id FROM sources ORDER BY path"
        )
    }
    limit = "" if with_items else " LIMIT 1"
    items = tuple(
        StoredItem(*row)
        for row in conn.execute(
            "SELECT item_id, source_path, line_start, line_end, section_line FROM items"
            " ORDER BY rowid" + limit
        )
    )
    rels = tuple(
        conn.execute("SELECT source, line, target, validity FROM relations ORDER BY rowid" + limit)
    )
    return sources, items, rels


def verify_index(stored: StoredIndex, corpus: Corpus) -> None:
    """INDEX_PROJECT_MISMATCH or INDEX_STALE unless STORED matches the fresh CORPUS."""
    if stored.project_id != corpus.project_id:
        raise ContextError(
            "INDEX_PROJECT_MISMATCH",
            f"index project {stored.project_id!r} != corpus project {corpus.project_id!r}",
        )
    fresh = corpus.source_map()
    stored_map = {path: s.sha256 for path, s in stored.sources.items()}
    if fresh != stored_map:
        changed = sorted(
            p for p in fresh.keys() | stored_map.keys() if fresh.get(p) != stored_map.get(p)
        )
        shown = ", ".join(changed[:10]) + (
            f" (+{len(changed) - 10} more)" if len(changed) > 10 else ""
        )
        raise ContextError(
            "INDEX_STALE",
            f"sources changed since the index was built: {shown}",
        )


def load_verified(
    root: str | os.PathLike[str], index: str | None = None, *, memo: SnapshotMemo | None = None
) -> Corpus:
    """The fresh, strict corpus of ROOT after checking its stored index is current.

    Only the index's project ID and its sources' paths and hashes are read back (staleness);
    every document is parsed from the bytes just read, so no index, however tampered, can
    change an answer: it is current, or the command stops with an index code. MEMO (a warm
    `Workspace`'s) spares parsing known bytes, as in `collect`."""
    from project_corpus.corpus.required import require_corpus
    from project_corpus.corpus.roots import open_root
    from project_corpus.corpus.snapshot import collect

    opened = open_root(root)
    require_corpus(opened.path, opened)  # named as given, before the index is looked for
    prepare_index_path(opened.path, index)
    corpus = collect(opened, memo=memo)
    verify_index(open_index(opened, index, with_items=False), corpus)
    return corpus
