"""The bounds and defaults of every caller-given number, in one record (docs/cli.md).

`BOUNDS` is read by the CLI options (their defaults and help), the MCP tools' input schemas,
the CorpusEval dataset validation, the error texts of `core/errors.py` and retrieval's own
checks (`check_limit`, `check_budget`); a test holds the shipped JSON Schemas to it and
every other module free of these numbers. Nothing here imports anything.
"""

from __future__ import annotations

from typing import NamedTuple


class Range(NamedTuple):
    """An inclusive integer range with the value used when none is given."""

    low: int
    default: int
    high: int

    def holds(self, value: int) -> bool:
        return self.low <= value <= self.high

    def span(self) -> str:
        """`low..high` as help texts write it."""
        return f"{self.low}..{self.high}"

    def help(self, what: str) -> str:
        """An option's help: `WHAT, low..high (default d).`"""
        return f"{what}, {self.span()} (default {self.default})."


class Bounds(NamedTuple):
    """Every bound a caller meets, with its default (docs/retrieval.md, docs/bundle.md,
    docs/eval.md)."""

    limit: Range = Range(1, 20, 100)  # query results: `--limit`, MCP `limit`, eval
    max_tokens: Range = Range(80, 1200, 20_000)  # a bundle's excerpt budget
    top_k: Range = Range(1, 5, 100)  # an eval case's `top_k`
    envelope_bytes: int = 65_536  # a bundle's serialized size
    bundle_items: int = 50  # items in one bundle, mandatory ones included
    eval_cases: int = 1000  # cases in one CorpusEval dataset
    query_bytes: int = 4096  # UTF-8 bytes of one query


BOUNDS = Bounds()
