"""Helpers shared by the doctor, candidate and output tests (no tests here)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from project_corpus.core.jsonio import pretty
from project_corpus.corpus.snapshot import collect
from project_corpus.doctor import memory_doctor
from project_corpus.index.store import build_index
from project_corpus.retrieval.bundle import compile_bundle

STATUS_PATH = ".project-corpus/state/STATUS.md"
INDEX_REL = ".project-corpus/cache/context.sqlite3"

Setup = Callable[[Path], dict[str, object]]
Where = Callable[[Path], tuple[str, int]]


def nothing(root: Path) -> dict[str, object]:
    return {}


class Case(NamedTuple):
    """A check fixture: files over the base corpus, where the finding is, doctor arguments."""

    files: dict[str, str | bytes | None]
    path: str = ""
    line: int = 1
    setup: Setup = nothing
    where: Where | None = None  # computes (path, line) when they depend on generated files


def doctor(root: Path, **kwargs: object) -> dict[str, object]:
    return memory_doctor(root, **kwargs)  # type: ignore[arg-type]


def issues(report: dict[str, object], *, suppressed: bool = False) -> list[dict[str, object]]:
    found = report["issues"]
    assert isinstance(found, list)
    return [i for i in found if bool(i["suppressed"]) == suppressed]


def located(report: dict[str, object]) -> set[tuple[object, object, object]]:
    """(code, path, line) of every unsuppressed issue."""
    return {(i["code"], i["path"], i["line"]) for i in issues(report)}


def codes(report: dict[str, object]) -> set[object]:
    return {i["code"] for i in issues(report)}


def build(root: Path) -> None:
    build_index(collect(root))


def sql(root: Path, statement: str) -> None:
    """Tamper with the built index directly (tests only)."""
    conn = sqlite3.connect(root / INDEX_REL)
    try:
        conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def write_json(root: Path, rel: str, value: object) -> str:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(pretty(value), encoding="utf-8")
    return str(path)


def write_bundle(root: Path, mutate: Callable[[dict[str, object]], None] | None = None) -> str:
    """Compile a bundle of ROOT, optionally mutate it, write it to ROOT/bundle.json."""
    bundle = compile_bundle(collect(root), "catalogue cache latency", 1200)
    if mutate:
        mutate(bundle)
    return write_json(root, "bundle.json", bundle)


def line_with(path: Path, needle: str) -> int:
    """The 1-based number of the first line of PATH containing NEEDLE."""
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def valid_candidate(root: Path, **overrides: object) -> dict[str, object]:
    """A valid Candidate v1 for the conftest corpus, citing STATUS line 10."""
    status = collect(root, strict=False).by_path[STATUS_PATH]
    value: dict[str, object] = {
        "schema_version": "1",
        "candidate_id": "c-latency-001",
        "project_id": "demo-project",
        "kind": "semantic_fact",
        "statement": "Catalogue reads are served with a p99 latency of 4 ms.",
        "source_refs": [
            {"source_path": STATUS_PATH, "source_sha256": status.sha256, "line_start": 10}
        ],
        "created_at": "2026-11-21T10:00:00Z",
        "status": "candidate",
    }
    value.update(overrides)
    return value


def loads(text: str) -> dict[str, object]:
    value = json.loads(text)
    assert isinstance(value, dict)
    return value
