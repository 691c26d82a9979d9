"""Query, bundle and eval check the index for staleness, then parse every source from the
bytes just read, as the MCP server does in memory: both paths give the same corpus and
results, whatever the index holds (#26)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.corpus import snapshot
from project_corpus.corpus.snapshot import collect
from project_corpus.index.store import build_index
from project_corpus.index.store import load_verified
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
        same_results(collect(root), load_verified(root))


def test_a_changed_source_is_stale(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    build_index(collect(root))
    write_files(root, {".project-corpus/reports/bench-path.md": "# Changed\nnew text\n"})
    with pytest.raises(ContextError) as caught:
        load_verified(root)
    assert caught.value.code == "INDEX_STALE"


def test_every_source_is_parsed_from_the_bytes_just_read(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No document comes from the index: each scoped source is parsed once per command."""
    root = make_corpus()
    build_index(collect(root))
    parsed: list[str] = []
    real = snapshot.parse_document
    monkeypatch.setattr(snapshot, "parse_document", lambda text: parsed.append(text) or real(text))
    corpus = load_verified(root)
    assert len(parsed) == len(corpus.sources) > 0


def test_a_build_over_an_unreadable_index_replaces_it(make_corpus: MakeCorpus, cli: object) -> None:
    root = make_corpus()
    write_files(root, {".project-corpus/cache/context.sqlite3": b"garbage" * 100})
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    same_results(collect(root), load_verified(root))


def test_a_rebuild_writes_the_same_index_as_a_first_build(
    make_corpus: MakeCorpus, cli: object
) -> None:
    changed = {".project-corpus/reports/bench-path.md": "# Changed\nnew text\n"}
    root, fresh = make_corpus(name="incremental"), make_corpus(changed, name="fresh")
    index = Path(".project-corpus/cache/context.sqlite3")
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    write_files(root, changed)
    assert cli("context", "build", root).code == 0  # type: ignore[operator]
    assert cli("context", "build", fresh).code == 0  # type: ignore[operator]
    assert (root / index).read_bytes() == (fresh / index).read_bytes()
