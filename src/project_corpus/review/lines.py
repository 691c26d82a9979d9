"""Which lines of a document a change touched (docs/review.md). Pure functions.

A line of the head document is *modified* when it is not matched, unchanged, to a line of the
base document. The common first and last lines are matched in one linear pass; only the
middle between them is compared with `difflib` (so a line that merely moved down is still
matched), and a middle larger than MAX_DIFF_LINES on either side counts as modified whole,
which keeps the cost bounded on any input.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

MAX_DIFF_LINES = 5000


def modified_lines(before: Sequence[str], after: Sequence[str]) -> frozenset[int]:
    """The 1-based numbers of the lines of AFTER that are new or changed since BEFORE."""
    start = 0
    limit = min(len(before), len(after))
    while start < limit and before[start] == after[start]:
        start += 1
    end = 0
    while end < limit - start and before[-1 - end] == after[-1 - end]:
        end += 1
    old, new = before[start : len(before) - end], after[start : len(after) - end]
    if len(old) > MAX_DIFF_LINES or len(new) > MAX_DIFF_LINES:
        return frozenset(range(start + 1, start + len(new) + 1))
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    touched: set[int] = set()
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            touched.update(range(start + j1 + 1, start + j2 + 1))
    return frozenset(touched)
