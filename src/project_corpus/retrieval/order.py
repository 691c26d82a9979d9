"""The result order (docs/retrieval.md): duplicates dropped, crowded sources yield.

The scored items are walked by (−score, source_path, line_start). An item that duplicates one
already kept is dropped (the same normalised text, or stem-set Jaccard ≥ 0.9). A source's
third and later results lose `CROWDING_WEIGHT` points (reason `source_crowding`): one long
report that repeats the question's words on every line must not fill the whole top three
when another source answers about as well ("why does the Windows CI fail": three lines of
the CI report, then the STATUS line that says why). A clearly better line keeps its place.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from collections.abc import Iterable
from typing import NamedTuple

from project_corpus.core.records import FRESHNESS_REQUIREMENT
from project_corpus.core.records import Item

CROWDING_WEIGHT = 100
CROWDING_FREE = 2  # results of one source before crowding applies
CROWDING_REASON = "source_crowding"


class Result(NamedTuple):
    item: Item
    score: int
    reasons: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        data = self.item.as_dict()
        data.update(
            retrieval_score=self.score,
            selection_reasons=list(self.reasons),
            freshness_requirement=FRESHNESS_REQUIREMENT,
        )
        return data


def ordered(
    scored: Iterable[tuple[Result, int]],
    identity: Callable[[int], tuple[str, frozenset[str]]],
    limit: int,
) -> list[Result]:
    """The first LIMIT results of SCORED (sorted by −score, then index: source_path and
    line_start; read only as far as needed), de-duplicated, crowded sources demoted, re-sorted.
    IDENTITY gives an item's normalised text and its text's stem set (made once per item).
    A crowded source's item demoted below the LIMIT best kept so far is passed over before
    any duplicate test (it suppresses nothing): each kept item enters the LIMIT best from one
    of two decreasing runs, so at most 3 × LIMIT are kept and a duplicate test is O(LIMIT),
    not O(items) (#26: a long source of distinct lines made them quadratic)."""
    kept: list[tuple[int, int, Result]] = []
    seen_text: set[str] = set()
    kept_sets = _KeptSets()
    per_source: dict[str, int] = {}
    floor: list[tuple[int, int]] = []  # the LIMIT best (score, −index) kept so far, ascending
    for result, index in scored:
        full = len(floor) >= limit
        if full and (result.score, -index) < floor[0]:
            break  # every later item ranks below the LIMIT kept already
        path = result.item.source_path
        crowded = per_source.get(path, 0) >= CROWDING_FREE
        if crowded and full and (result.score - CROWDING_WEIGHT, -index) < floor[0]:
            continue  # demoted, it ranks below the LIMIT kept already: never a result
        norm, own = identity(index)
        if norm in seen_text or kept_sets.has_near(own):
            continue
        seen_text.add(norm)
        kept_sets.add(own)
        per_source[path] = per_source.get(path, 0) + 1
        if crowded:
            reasons = (*result.reasons, CROWDING_REASON)
            result = Result(result.item, result.score - CROWDING_WEIGHT, reasons)
        kept.append((-result.score, index, result))
        bisect.insort(floor, (result.score, -index))
        if len(floor) > limit:
            del floor[0]
    kept.sort(key=lambda entry: entry[:2])
    return [result for *_, result in kept[:limit]]


class _KeptSets:
    """The stem sets of the kept results, those under 3 stems as a set and the others by
    size: `_near` holds only between sets of similar sizes (or equal small sets), so a new
    set is compared with the kept sets of the sizes that can be near it, not with all; those
    sizes are found in the sorted list of kept sizes, not by testing every kept size."""

    def __init__(self) -> None:
        self.small: set[frozenset[str]] = set()
        self.by_size: dict[int, list[frozenset[str]]] = {}
        self.sizes: list[int] = []  # the keys of `by_size`, ascending

    def add(self, stems: frozenset[str]) -> None:
        size = len(stems)
        if size < 3:
            self.small.add(stems)
            return
        group = self.by_size.get(size)
        if group is None:
            group = self.by_size[size] = []
            bisect.insort(self.sizes, size)
        group.append(stems)

    def has_near(self, own: frozenset[str]) -> bool:
        """Whether `_near(own, kept)` holds for a kept set."""
        size = len(own)
        if size < 3:
            return bool(own) and own in self.small
        sizes, by_size = self.sizes, self.by_size
        # A possible size lies within [0.9 × size, size / 0.9]; a margin of one on either
        # side leaves the exact test (the one `_near` makes) to decide at the edges.
        highest = size / 0.9 + 1
        for at in range(bisect.bisect_left(sizes, size * 0.9 - 1), len(sizes)):
            other_size = sizes[at]
            if other_size > highest:
                break
            possible = min(size, other_size) / max(size, other_size) >= 0.9
            if possible and any(_near(own, other) for other in by_size[other_size]):
                return True
        return False


def _near(a: frozenset[str], b: frozenset[str]) -> bool:
    """Jaccard similarity of the stem sets ≥ 0.9 (sets under 3 stems: equal and non-empty)."""
    size_a, size_b = len(a), len(b)
    if size_a < 3 or size_b < 3:
        return a == b and bool(a)
    # The similarity is at most smaller/larger size (and division rounds monotonically), so
    # most pairs are told apart by their sizes alone: eval's 80 searches spent ~35 ms here.
    if min(size_a, size_b) / max(size_a, size_b) < 0.9:
        return False
    common = len(a & b)
    return common / (size_a + size_b - common) >= 0.9
