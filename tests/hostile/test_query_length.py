"""Query text is bounded at 4 KiB of UTF-8 for the CLI and MCP alike (F14): a longer query
is QUERY_INVALID before the corpus is read (the MCP side is in tests/mcp_server/test_mcp_server.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.errors import ContextError
from project_corpus.retrieval.rank import check_query
from tests.conftest import Run
from tests.hostile.support import assert_stable

MAX_QUERY_BYTES = BOUNDS.query_bytes


@pytest.mark.parametrize("command", ["query", "bundle"])
def test_a_long_query_is_query_invalid(cli: object, example: Path, command: str) -> None:
    run: Run = cli("context", command, str(example), "eviction " * 120_000)  # type: ignore[operator]
    assert_stable(run, "QUERY_INVALID")
    assert "4096 bytes" in json.loads(run.err)["detail"]


def test_the_bound_is_in_utf8_bytes() -> None:
    assert check_query("a" * MAX_QUERY_BYTES)
    assert check_query("я" * (MAX_QUERY_BYTES // 2))
    for text in ("a" * (MAX_QUERY_BYTES + 1), "я" * (MAX_QUERY_BYTES // 2 + 1)):
        with pytest.raises(ContextError) as info:
            check_query(text)
        assert info.value.code == "QUERY_INVALID"
