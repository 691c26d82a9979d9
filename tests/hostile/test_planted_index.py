"""A planted index (F3, F10): views, triggers, extra objects or values of the wrong type
are INDEX_CORRUPT before any row is read, never a hang or exit 3."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.hostile.support import assert_stable

INDEX = ".project-corpus/cache/context.sqlite3"
RECURSIVE = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n, n FROM r"

PLANTS = {
    "recursive-meta-view": (
        "ALTER TABLE meta RENAME TO old_meta",
        f"CREATE VIEW meta(key, value) AS {RECURSIVE}",
    ),
    "recursive-items-view": (
        "DROP TABLE items",
        "CREATE VIEW items(item_id, source_path, line_start, line_end, section_line) AS"
        " WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)"
        " SELECT n, n, n, n, n FROM r",
    ),
    "trigger": ("CREATE TRIGGER t AFTER INSERT ON items BEGIN DELETE FROM items; END",),
    "extra-table": ("CREATE TABLE extra (x)",),
    "extra-index": ("CREATE INDEX by_path ON items(source_path)",),
    "text-line": ("UPDATE items SET line_start = 'abc'",),
    "blob-project-id": ("UPDATE sources SET project_id = x'00ff'",),
    "real-size": ("UPDATE sources SET size = 1.5",),
    "changed-column-type": (
        "ALTER TABLE relations RENAME TO old",
        "CREATE TABLE relations (source TEXT NOT NULL, line TEXT NOT NULL,"
        " target TEXT NOT NULL, validity TEXT NOT NULL)",
        "DROP TABLE old",
    ),
}


def _plant(root: Path, statements: tuple[str, ...]) -> None:
    conn = sqlite3.connect(root / INDEX)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_a_planted_index_is_index_corrupt(cli: object, example: Path, name: str) -> None:
    assert cli("context", "build", str(example)).code == 0  # type: ignore[operator]
    _plant(example, PLANTS[name])
    start = time.monotonic()
    run: Run = cli("context", "query", str(example), "eviction")  # type: ignore[operator]
    assert_stable(run, "INDEX_CORRUPT")
    run = cli(
        "context", "doctor", str(example), "--index", str(example / INDEX), "--format", "json"
    )  # type: ignore[operator]
    assert_stable(run, None, (1,))
    assert "INDEX_CORRUPT" in {issue["code"] for issue in json.loads(run.out)["issues"]}
    # Not a time limit on the machine: a recursive view would never end at all.
    assert time.monotonic() - start < 60


def test_the_built_index_passes_the_check(cli: object, example: Path) -> None:
    assert cli("context", "build", str(example)).code == 0  # type: ignore[operator]
    run: Run = cli("context", "query", str(example), "eviction")  # type: ignore[operator]
    assert run.code == 0, run.err
