"""Query, bundle and eval read the index's skeletons instead of parsing unchanged sources; the
MCP server parses everything in memory. Both paths give the same corpus and results."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.corpus import fs
from project_corpus.corpus import snapshot
from project_corpus.corpus.snapshot import collect
from project_corpus.index.store import build_index
from project_corpus.index.store import load_verified
from project_corpus.index.store import open_index
from project_corpus.retrieval.bundle import compile_bundle
from project_corpus.retrieval.rank import query_corpus
from tests.conftest import BASE_FILES
from tests.conftest import MakeCorpus
from tests.conftest import report
from tests.conftest import write_files
from tests.corpus.test_markdown_oracle import LINES

WORDS = "cache latency eviction policy state next action текущее состояние кэш old".split()
QUERIES = ("cache latency", "what is the exact next action", "текущее состояние", "old eviction")
BODY_LINES = [*LINES, *WORDS, "The cache latency is 3 ms.", "- eviction policy: LRU"]


def same_results(fresh: Corpus, indexed: Corpus) -> None:
    assert indexed.sources == fresh.sources
    assert indexed.relations == fresh.relations
    assert indexed.snapshot_digest == fresh.snapshot_digest
    for query in QUERIES:
        assert query_corpus(indexed, query, 100) == query_corpus(fresh, query, 100)
        bundles = [compile_bundle(c, query, 600) for c in (indexed, fresh)]
        for bundle in bundles:
            bundle.pop("created_at")
        assert bundles[0] == bundles[1]


def stored_skeletons(root: Path) -> int:
    return len(open_index(fs.resolve_root(root), with_items=False, with_skeletons=True).skeletons)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(st.sampled_from(BODY_LINES), max_size=30), st.sampled_from(WORDS)),
        max_size=6,
    )
)
def test_index_path_and_in_memory_path_give_the_same_results(
    bodies: list[tuple[list[str], str]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "corpus"
        for folder in ("tasks", "reports", "history"):
            (root / ".project-corpus" / folder).mkdir(parents=True)
        files: dict[str, str | bytes | None] = {**BASE_FILES}
        for n, (lines, word) in enumerate(bodies):
            body = "\n".join(lines)
            files[f".project-corpus/reports/gen-{n:03d}.md"] = report(
                f"gen-{n:03d}", f"2026-0{1 + n % 9}-1{n % 10}", f"{word} {body}"
            )
            files[f".project-corpus/history/gen-{n:03d}.md"] = f"# H {word}\n{body}\n"
        write_files(root, files)
        build_index(collect(root))
        assert stored_skeletons(root) == len(collect(root).sources)
        same_results(collect(root), load_verified(root))


def test_changed_sources_are_stale_whatever_their_skeleton(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    build_index(collect(root))
    write_files(root, {".project-corpus/reports/bench-path.md": "# Changed\nnew text\n"})
    with pytest.raises(ContextError) as caught:
        load_verified(root)
    assert caught.value.code == "INDEX_STALE"


def test_unchanged_sources_are_not_parsed_again(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    build_index(collect(root))
    parsed: list[str] = []
    real = snapshot.parse_document
    monkeypatch.setattr(snapshot, "parse_document", lambda text: parsed.append(text) or real(text))
    load_verified(root)
    assert parsed == []
    write_files(root, {".project-corpus/reports/bench-path.md": "# Changed\nnew text\n"})
    with pytest.raises(ContextError, match="bench-path"):
        load_verified(root)
    assert parsed == ["# Changed\nnew text\n"]


def _edit_index(root: Path, *statements: str) -> None:
    path = root / ".project-corpus" / "cache" / "context.sqlite3"
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def test_damaged_skeletons_are_parsed_instead(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    build_index(collect(root))
    _edit_index(
        root,
        "UPDATE sources SET skeleton = substr(skeleton, 1, length(skeleton) - 4)"
        " WHERE path LIKE '%/reports/%'",
        "UPDATE sources SET skeleton = x'05000000ffffff7f' WHERE path LIKE '%/history/%'",
    )
    same_results(collect(root), load_verified(root))


def test_skeletons_of_another_tool_version_are_not_used(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    build_index(collect(root))
    _edit_index(root, "UPDATE meta SET value = '0.0.1' WHERE key = 'tool_version'")
    assert stored_skeletons(root) == 0
    same_results(collect(root), load_verified(root))


def test_an_index_without_skeletons_still_serves_queries(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    build_index(collect(root))
    _edit_index(root, "ALTER TABLE sources DROP COLUMN skeleton")
    assert stored_skeletons(root) == 0
    same_results(collect(root), load_verified(root))


def test_a_rebuild_parses_only_the_changed_sources_and_writes_the_same_index(
    make_corpus: MakeCorpus, cli: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    changed = {".project-corpus/reports/bench-path.md": "# Changed\nnew text\n"}
    root, fresh = make_corpus(name="incremental"), make_corpus(changed, name="fresh")
    index = Path(".project-corpus/cache/context.sqlite3")
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    write_files(root, changed)
    parsed: list[str] = []
    real = snapshot.parse_document
    monkeypatch.setattr(snapshot, "parse_document", lambda text: parsed.append(text) or real(text))
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    assert parsed == ["# Changed\nnew text\n"]
    monkeypatch.setattr(snapshot, "parse_document", real)
    assert cli("context", "build", fresh).code == 0  # type: ignore[operator]
    assert (root / index).read_bytes() == (fresh / index).read_bytes()


def test_a_build_over_an_unreadable_index_parses_everything(
    make_corpus: MakeCorpus, cli: object
) -> None:
    root = make_corpus()
    write_files(root, {".project-corpus/cache/context.sqlite3": b"garbage" * 100})
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    same_results(collect(root), load_verified(root))
