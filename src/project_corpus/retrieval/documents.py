"""Documents first, then the line (SPEC §5 rule 4b, docs/retrieval.md "Document score").

A BM25F-style score of each document a query's words are found in: for each question term,
how many of the document's items hold it — through their own text, their section heading
path, the document's H1 title (which every item reads) or a table header or list label — plus
a fixed count when the document's file name holds it, saturated (`n / (n + K × length)`: a
title word, held by every item, counts about once; a word held by one line of a document of
average length counts 0.4; a long document needs more lines for the same) and weighted by the
term's IDF. The share of the question's IDF that the document so covers lifts each of
its items by up to `DOCUMENT_WEIGHT` points; the line is then chosen inside the strongest
documents by the item's own evidence. Integers only; one pass over the candidates.
"""

from __future__ import annotations

import math
import posixpath
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache

from project_corpus.retrieval import text as textmod
from project_corpus.retrieval.score import Query

DOCUMENT_WEIGHT = 250
# K of n / (n + K × the document's items / the mean items of a document): a long document
# must hold a word more often to count as much (BM25's length normalisation, b = 1).
SATURATION = 1.5
FILE_NAME_COUNT = 2  # what a file name word adds to a term's count in its document


def document_points(
    query: Query,
    owners: Mapping[int, int],
    matched: Mapping[int, frozenset[str]],
    paths: Mapping[int, str],
    forms: Mapping[str, frozenset[str]],
    sizes: Mapping[int, float],
) -> dict[int, int]:
    """{source number: the points its document lifts its items by} over the candidates
    OWNERS ({item index: source number}) holding the query terms MATCHED; PATHS gives a
    source number's path, FORMS each term's stems (a file name word counts through them),
    SIZES its number of items over the mean number of items of a document."""
    pairs = Counter((number, matched[index]) for index, number in owners.items())
    counts: dict[int, Counter[str]] = {}
    for (number, hits), times in pairs.items():
        held = counts.setdefault(number, Counter())
        for term in hits:
            held[term] += times
    prefixes = tuple(sorted({textmod.stem_prefix(s) for own in forms.values() for s in own}))
    points: dict[int, int] = {}
    for number, held in counts.items():
        for term in _named_by_file(paths[number], forms, prefixes):
            held[term] += FILE_NAME_COUNT
        k = SATURATION * sizes[number]
        # A negation says how, not what a document is about ("не", "not"): left out.
        weights = (
            query.idf[t] * n / (n + k) for t, n in held.items() if not textmod.negation_forms(t)
        )
        points[number] = math.floor(DOCUMENT_WEIGHT * math.fsum(weights) / query.total_idf)
    return points


@lru_cache(maxsize=8192)
def _file_words(path: str) -> tuple[str, ...]:
    """The words of PATH's file name (its stem), folded."""
    # posixpath, not pathlib: pathlib costs every query ~6 ms of imports (test_imports).
    name = posixpath.basename(path)
    dot = name.rfind(".")
    stem = name[:dot] if 0 < dot < len(name) - 1 else name  # PurePosixPath(path).stem
    return tuple(textmod.raw_tokens(stem))


def _named_by_file(
    path: str, forms: Mapping[str, frozenset[str]], prefixes: tuple[str, ...]
) -> list[str]:
    """The query terms (with their FORMS) that a word of PATH's file name is a form of; only
    the words starting with one of PREFIXES (the forms' stem prefixes) are stemmed."""
    name = textmod.fold(path.rpartition("/")[2])
    if not any(prefix in name for prefix in prefixes):  # most file names: one C-level test each
        return []
    stems = {textmod.stem(w) for w in _file_words(path) if w.startswith(prefixes)}
    return [term for term, own in forms.items() if not own.isdisjoint(stems)]
