"""Table rows and their header row (docs/retrieval.md, "table header context").

A Markdown table is a header row, a delimiter row (`|---|---|`) and data rows, each row one
item (SPEC §3). A data row is read under its header the way an item is read under its
section heading: `| Habitat: roof vs park | 0.58 | 0.44–0.77 |` answers "what is the rate
ratio for roofs versus parks" only with the header `| Term | Rate ratio | 95% CI |`. So the
header's words count for every data row of its table, and the header row, like a heading, is
no result by itself when its table has data rows.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import NamedTuple

_RULE_CHARS = frozenset("|-: \t")

Columns = tuple[Sequence[int], Sequence[int], Sequence[int]]


class Table(NamedTuple):
    """A table with data rows in document NUMBER: its header row is item HEAD of the
    document, its data rows items FIRST to LAST (positions in the document's spans)."""

    number: int
    head: int
    first: int
    last: int


def is_rule(text: str) -> bool:
    """Whether TEXT is a table's delimiter row (`|---|:--:|`)."""
    return "-" in text and frozenset(text) <= _RULE_CHARS


def table_lines(blob: str, doc_at: Sequence[int]) -> dict[int, list[int]]:
    """{document number: its lines (1-based) whose first non-blank character is `|`} in
    BLOB, the documents' lines joined with `\\n`, document K starting at DOC_AT[K] (DOC_AT
    ends with the blob's length + 1). A table row is such a line (docs/retrieval.md): found by
    `find`, no call per other line, and each row's line counted from the previous row's, so
    the whole pass reads the blob about once (#26, R3-5: counting from the document's start
    for every row was quadratic in rows)."""
    found: dict[int, list[int]] = {}
    next_at = counted = line = 0
    rows: list[int] = []
    at = blob.find("|")
    while at >= 0:
        line_start = blob.rfind("\n", 0, at) + 1
        if not blob[line_start:at].strip():
            if at >= next_at:  # the first row of another document: count its lines anew
                number = bisect_right(doc_at, at) - 1
                next_at, counted, line = doc_at[number + 1], doc_at[number], 1
                rows = found[number] = []
            line += blob.count("\n", counted, at)
            counted = at
            rows.append(line)
        end = blob.find("\n", at)
        at = -1 if end < 0 else blob.find("|", end)
    return found


def tables(lines: Sequence[str], rows: list[int], columns: Columns, number: int) -> list[Table]:
    """The tables with data rows among ROWS (lines starting with `|`, ascending) of the
    document NUMBER with LINES and span COLUMNS: a header row, a delimiter row on the next
    line, data rows on the lines right after it, each a one-line item."""
    starts, ends, _ = columns
    found: list[Table] = []
    run: list[int] = []  # positions of the spans of consecutive one-line rows
    for line in [*rows, -1]:
        at = bisect_right(starts, line) - 1 if line > 0 else -1
        single = at >= 0 and starts[at] == line == ends[at]
        if single and run and starts[run[-1]] == line - 1:
            run.append(at)
            continue
        if len(run) >= 3 and is_rule(lines[starts[run[1]] - 1].strip()):
            found.append(Table(number, run[0], run[2], run[-1]))
        run = [at] if single else []
    return found
