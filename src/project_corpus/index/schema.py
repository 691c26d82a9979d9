"""The index's tables, the records read back from them, and the check that a stored index
holds exactly those tables (docs/architecture.md).

A stored index is hostile input: a view in place of a table (`WITH RECURSIVE` without end),
a trigger or any other object, or a value of another type than its column's, makes it
`INDEX_CORRUPT` before any row is read. Nothing read back from an index shapes an answer
but the sources' paths and hashes (staleness) and the project ID: every document is parsed
from its freshly read bytes (docs/decisions.md, "no skeletons in the index").
"""

import sqlite3
from functools import cache
from typing import NamedTuple

from project_corpus.core.errors import ContextError

SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE sources (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER NOT NULL,"
    " source_type TEXT NOT NULL, authority_class TEXT NOT NULL, temporal_status TEXT NOT NULL,"
    " timestamp TEXT, line_count INTEGER NOT NULL, project_id TEXT NOT NULL) WITHOUT ROWID",
    # Rows are inserted in (source path, line) order; rowid order is provenance order.
    "CREATE TABLE items (item_id TEXT NOT NULL, source_path TEXT NOT NULL,"
    " line_start INTEGER NOT NULL, line_end INTEGER NOT NULL, section_line INTEGER NOT NULL)",
    "CREATE TABLE relations (source TEXT NOT NULL, line INTEGER NOT NULL, target TEXT NOT NULL,"
    " validity TEXT NOT NULL)",
)


# Every column's storage class: SQLite keeps whatever a value was (a planted 'abc' in an
# INTEGER column), so types are checked in SQL before a row is read.
COLUMN_TYPES = {
    "meta": {"key": "text", "value": "text"},
    "sources": {
        **dict.fromkeys(("path", "sha256", "source_type", "authority_class"), "text"),
        **dict.fromkeys(("temporal_status", "project_id"), "text"),
        **dict.fromkeys(("size", "line_count"), "integer"),
        "timestamp": "text', 'null",  # NULL when the source has no date
    },
    "items": {
        **dict.fromkeys(("item_id", "source_path"), "text"),
        **dict.fromkeys(("line_start", "line_end", "section_line"), "integer"),
    },
    "relations": {"source": "text", "line": "integer", "target": "text", "validity": "text"},
}


Schema = frozenset[tuple[str, str, str, str]]


def _schema_of(statements: tuple[str, ...]) -> Schema:
    """The `sqlite_master` rows SQLite gives for STATEMENTS."""
    conn = sqlite3.connect(":memory:")
    try:
        for statement in statements:
            conn.execute(statement)
        return frozenset(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    finally:
        conn.close()


def _expected_schema() -> Schema:
    """The `sqlite_master` rows SQLite gives for SCHEMA (a test checks that `EXPECTED_SCHEMA`
    is this)."""
    return _schema_of(SCHEMA)


# SQLite keeps a CREATE TABLE statement's text as it was given: the rows are known without
# creating the tables (a database per process would cost every query and build ~0.6 ms).
EXPECTED_SCHEMA: Schema = frozenset(
    ("table", name, name, statement)
    for statement in SCHEMA
    for name in [statement.split(maxsplit=3)[2]]
)


@cache
def with_skeletons() -> Schema:
    """The tables of an index written by a version that stored each document's skeleton in
    a `sources.skeleton` column under the same schema version (made only when an index does
    not match `EXPECTED_SCHEMA`): recognised, and reported as one to rebuild."""
    column = ", skeleton BLOB NOT NULL) WITHOUT ROWID"
    return _schema_of((SCHEMA[0], SCHEMA[1].replace(") WITHOUT ROWID", column), *SCHEMA[2:]))


def check_schema(conn: sqlite3.Connection, label: str) -> None:
    """Exactly our plain tables (no view, trigger or other object: a recursive view would
    run without end) and values of the declared types; sqlite3.DatabaseError otherwise, and
    INDEX_SCHEMA_MISMATCH for the tables of a version that stored skeletons (LABEL: the
    index's path)."""
    found = frozenset(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    if found != EXPECTED_SCHEMA:
        if found == with_skeletons():
            raise ContextError(  # the registry's hint: rebuild it with `context build ROOT`
                "INDEX_SCHEMA_MISMATCH",
                f"{label}: written by an earlier version (it stores document skeletons)",
            )
        odd = sorted(f"{kind} {name}" for kind, name, _, _ in found - EXPECTED_SCHEMA)
        raise sqlite3.DatabaseError(f"unexpected schema objects: {', '.join(odd) or 'none'}")
    for table, columns in COLUMN_TYPES.items():
        wrong = " OR ".join(f"typeof({col}) NOT IN ('{kind}')" for col, kind in columns.items())
        row = conn.execute(f"SELECT 1 FROM {table} WHERE {wrong} LIMIT 1").fetchone()
        if row is not None:
            raise sqlite3.DatabaseError(f"{table}: a value of the wrong type")


class StoredSource(NamedTuple):
    path: str
    sha256: str
    size: int
    source_type: str
    authority_class: str
    temporal_status: str
    timestamp: str | None
    line_count: int
    project_id: str


class StoredItem(NamedTuple):
    item_id: str
    source_path: str
    line_start: int
    line_end: int
    section_line: int


class StoredIndex(NamedTuple):
    """An index read back into memory."""

    meta: dict[str, str]
    sources: dict[str, StoredSource]
    items: tuple[StoredItem, ...]
    relations: tuple[tuple[str, int, str, str], ...]

    @property
    def project_id(self) -> str:
        return self.meta.get("project_id", "")
