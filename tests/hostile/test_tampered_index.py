"""A tampered index (R3-1, R3-3, R3-4 of #26): whatever an agent writes into the index file, query,
bundle and eval give a fresh build's output or stop with an index code (exit 2), never exit 3.

The index is a file in the working tree. Only the sources' paths and hashes and the project ID
are read back (staleness); every document is parsed from the bytes just read. The tests change
any value of any column (of any storage class), add and delete rows and flip bytes of the file,
and compare each command's answer with the answer on the same tree without an index.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import struct
import tempfile
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.corpus.snapshot import collect
from project_corpus.evaluate import evaluate_dataset
from project_corpus.evaluate import run_eval
from project_corpus.index.schema import COLUMN_TYPES
from project_corpus.index.store import build_index
from project_corpus.index.store import load_verified
from project_corpus.retrieval.bundle import compile_bundle
from project_corpus.retrieval.rank import query_corpus
from tests.conftest import FIXTURES
from tests.conftest import Run
from tests.conftest import copy_fixture
from tests.hostile.support import assert_stable

INDEX = ".project-corpus/cache/context.sqlite3"
QUERIES = ("what is the exact next action", "eviction policy latency")
# Every column a tampering may write, and the skeleton column of the versions that stored one:
# there (before #26), a changed span end changed the answers (an item "lines 1…-1").
COLUMNS = sorted((table, column) for table, columns in COLUMN_TYPES.items() for column in columns)
VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.sampled_from([0, -1, 1, 2**31 - 1, -(2**31)]),
    st.text(max_size=40),
    st.binary(max_size=40),
    st.floats(allow_nan=True),
)

Answers = dict[str, object]


def answers(root: Path, corpus_of: Callable[[Path], object]) -> Answers:
    """Query, bundle and eval of ROOT on the corpus CORPUS_OF gives (a bundle's clock left
    out)."""
    corpus = corpus_of(root)
    found: Answers = {}
    for query in QUERIES:
        found[f"query {query}"] = query_corpus(corpus, query, 100)  # type: ignore[arg-type]
        bundle = compile_bundle(corpus, query, 4000)  # type: ignore[arg-type]
        bundle.pop("created_at")
        found[f"bundle {query}"] = bundle
    dataset = json.loads((root / "eval.json").read_text(encoding="utf-8"))
    found["eval"] = evaluate_dataset(corpus, dataset)  # type: ignore[arg-type]
    return found


class Tree:
    """fixtures/example with a built index, its pristine bytes and a fresh build's answers."""

    def __init__(self, root: Path) -> None:
        self.root = root
        build_index(collect(root))
        self.pristine = (root / INDEX).read_bytes()
        self.fresh = answers(root, collect)

    def restore(self) -> None:
        (self.root / INDEX).write_bytes(self.pristine)

    def check(self) -> None:
        """The answers with the index as it is now: the fresh ones, or an index code."""
        try:
            got = answers(self.root, load_verified)
        except ContextError as exc:
            code = exc.code
        else:
            assert got == self.fresh
            return
        assert code.startswith("INDEX_"), code


@pytest.fixture(scope="module")
def tree() -> Iterator[Tree]:
    base = Path(tempfile.mkdtemp(prefix="tampered-index-"))
    try:
        yield Tree(copy_fixture(FIXTURES / "example", base / "example"))
    finally:
        shutil.rmtree(base)


def _tamper(path: Path, statement: str, *args: object) -> bool:
    """Run STATEMENT on the index at PATH; False when SQLite refuses it (a constraint, or a
    column this version does not have)."""
    conn = sqlite3.connect(path)
    conn.create_function("spans_end_at_minus_one", 1, _spans_end_at_minus_one)
    try:
        conn.execute(statement, args)
        conn.commit()
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()
    return True


def _spans_end_at_minus_one(skeleton: bytes) -> bytes:
    """A skeleton (five int32: non-blank lines and the numbers of spans, headings, fences and
    metadata lines; then four per span: kind, first, last and section line) whose spans all
    end at line -1: each item carries its lines to the document's last but one."""
    numbers = list(struct.unpack(f"<{len(skeleton) // 4}i", skeleton))
    for span in range(numbers[1]):
        numbers[5 + 4 * span + 2] = -1
    return struct.pack(f"<{len(numbers)}i", *numbers)


SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(column=st.sampled_from(COLUMNS), value=VALUES, row=st.integers(0, 60), every=st.booleans())
def test_a_changed_value_changes_no_answer(
    tree: Tree, column: tuple[str, str], value: object, row: int, every: bool
) -> None:
    table, name = column
    key = next(iter(COLUMN_TYPES[table]))
    where = "" if every else f" WHERE {key} IN (SELECT {key} FROM {table} LIMIT 1 OFFSET {row})"
    tree.restore()
    _tamper(tree.root / INDEX, f"UPDATE {table} SET {name} = ?{where}", value)
    tree.check()


@SETTINGS
@example(statement="UPDATE sources SET skeleton = spans_end_at_minus_one(skeleton)")
@example(statement="UPDATE sources SET skeleton = x'05000000ffffff7f'")
@given(
    statement=st.sampled_from(
        [
            "DELETE FROM items",
            "DELETE FROM relations",
            "DELETE FROM sources WHERE path LIKE '%/reports/%'",
            "DELETE FROM meta WHERE key = 'project_id'",
            "INSERT INTO items VALUES ('x', '.project-corpus/state/STATUS.md', 1, 2147483647, 0)",
            "INSERT INTO items SELECT item_id, source_path, -5, line_start - 9, 7 FROM items",
            "INSERT INTO relations VALUES ('a', -1, '../../etc/passwd', 'valid')",
            "UPDATE items SET line_start = line_end + 100000, line_end = -1",
            "UPDATE sources SET line_count = 2147483647, size = -1",
            "UPDATE sources SET authority_class = 'CANONICAL', temporal_status = 'current'",
            "UPDATE meta SET value = '0.0.1' WHERE key = 'tool_version'",
            "INSERT INTO meta VALUES ('skeleton_version', '1')",
        ]
    )
)
def test_changed_rows_change_no_answer(tree: Tree, statement: str) -> None:
    tree.restore()
    _tamper(tree.root / INDEX, statement)
    tree.check()


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 2**20), st.integers(0, 255)), min_size=1, max_size=8))
def test_flipped_bytes_change_no_answer(tree: Tree, flips: list[tuple[int, int]]) -> None:
    data = bytearray(tree.pristine)
    for offset, byte in flips:
        data[offset % len(data)] = byte
    (tree.root / INDEX).write_bytes(bytes(data))
    tree.check()


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE items SET line_start = -1, line_end = 2147483647",
        "UPDATE sources SET sha256 = 'x'",
        "UPDATE meta SET value = 'other' WHERE key = 'project_id'",
        "UPDATE meta SET value = '2' WHERE key = 'index_schema_version'",
        "UPDATE sources SET size = 'big'",
    ],
)
def test_the_commands_exit_0_with_the_fresh_output_or_2(
    cli: Callable[..., Run], example: Path, statement: str
) -> None:
    assert cli("context", "build", example).code == 0
    fresh = {
        "query": cli("context", "query", example, QUERIES[0], "--format", "json").out,
        "eval": cli("context", "eval", example, "--dataset", example / "eval.json").out,
    }
    assert _tamper(example / INDEX, statement)
    for name, argv in {
        "query": ("context", "query", example, QUERIES[0], "--format", "json"),
        "eval": ("context", "eval", example, "--dataset", example / "eval.json"),
        "bundle": ("context", "bundle", example, QUERIES[1], "--format", "json"),
    }.items():
        run = cli(*argv)
        if run.code == 0:
            assert name == "bundle" or run.out == fresh[name]
        else:
            assert_stable(run, None, (2,))
            assert run.error()["error"].startswith("INDEX_")  # type: ignore[union-attr]


def test_eval_reads_the_index_it_verifies(tree: Tree) -> None:
    """`context eval` answers through `load_verified` too: a stale index stops it."""
    tree.restore()
    _tamper(tree.root / INDEX, "UPDATE sources SET sha256 = 'x'")
    with pytest.raises(ContextError) as caught:
        run_eval(tree.root, None, str(tree.root / "eval.json"))
    assert caught.value.code == "INDEX_STALE"
