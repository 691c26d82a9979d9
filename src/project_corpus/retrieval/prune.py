"""How a search stops early (docs/retrieval.md): candidates scored in the order of an upper
bound on their score, only until the results can no longer change.

`order.ordered` walks the scored candidates by (−score, index) and stops once the next one
cannot enter the results. `lazy_order` yields that same sequence without scoring every
candidate first: it keeps the scored ones in a heap, the others in a heap by (−bound, index),
and yields the best scored one only when no unscored candidate could come before it, i.e.
when (bound, −index) of every unscored candidate is below (score, −index) of the scored one
(indexes are distinct, so no two keys are equal). A candidate's score never exceeds its
bound (`score.score_bound`), so the yielded sequence is a prefix of the full pass's sorted
list, and `ordered` decides on it exactly as on the whole list. Scores the bound cannot
foresee (the cited-evidence lift, which raises the best line of a cited source to its
pointer's score + 1) are decided before: the candidates of STATUS and of every source a
matching pointer cites are scored first, which is all that `links.cited_lifts` reads.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import TypeVar

R = TypeVar("R")


def lazy_order(
    scored: Iterable[tuple[R, int, int]],
    bounds: list[tuple[int, int]],
    make: Callable[[int], tuple[R, int] | None],
) -> Iterator[tuple[R, int]]:
    """(result, index) by (−score, index) over SCORED ((result, score, index) known already)
    and the candidates of BOUNDS ((−bound, index), made into (result, score) by MAKE, or None
    for a candidate that is no answer), each made only when it could come next."""
    known = [(-score, index, result) for result, score, index in scored]
    heapq.heapify(known)
    heapq.heapify(bounds)
    push, pop = heapq.heappush, heapq.heappop
    while bounds or known:
        if bounds and (not known or bounds[0] < known[0][:2]):
            index = pop(bounds)[1]
            made = make(index)
            if made is not None:
                push(known, (-made[1], index, made[0]))
            continue
        _, index, result = pop(known)
        yield result, index
