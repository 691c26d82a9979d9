"""Deterministic, authority- and time-aware retrieval over fresh items (docs/retrieval.md)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import NamedTuple

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.core.versions import QUERY_SCHEMA_VERSION
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.retrieval import documents
from project_corpus.retrieval import equivalents
from project_corpus.retrieval import glossary
from project_corpus.retrieval import links
from project_corpus.retrieval import prune
from project_corpus.retrieval import text as textmod
from project_corpus.retrieval import vocabulary
from project_corpus.retrieval.analysis import Analysis
from project_corpus.retrieval.analysis import analyse
from project_corpus.retrieval.order import Result
from project_corpus.retrieval.order import ordered
from project_corpus.retrieval.score import CITED_REASON
from project_corpus.retrieval.score import Query
from project_corpus.retrieval.score import evidence_bound
from project_corpus.retrieval.score import idf
from project_corpus.retrieval.score import prior_bound
from project_corpus.retrieval.score import query_pairs
from project_corpus.retrieval.score import score_item

# An int option as the CLI passes it (a decimal string); at most 9 digits after leading zeros,
# so a huge number is a range error, not Python's int-digits ValueError.
_INT_RE = re.compile(r"0*([0-9]{1,9})")


def check_query(query: object) -> list[str]:
    """The query's stems: QUERY_INVALID for text that cannot be written as UTF-8 (a lone
    surrogate from undecodable command-line bytes) or longer than 4 KiB, QUERY_EMPTY without a
    word character."""
    if not isinstance(query, str):
        raise ContextError("QUERY_EMPTY", "the query must be text")
    most = BOUNDS.query_bytes  # a few words; more only holds the single worker (CLI and MCP)
    try:
        size = len(query.encode("utf-8")) if len(query) <= most else len(query)
    except UnicodeEncodeError:
        raise ContextError("QUERY_INVALID", "the query is not valid Unicode text") from None
    if size > most:
        raise ContextError(
            "QUERY_INVALID",
            f"the query is longer than {most} bytes of UTF-8",
            hint="ask with a few words; retrieval ranks by terms, not by whole documents",
        )
    if not textmod.raw_tokens(query):
        raise ContextError("QUERY_EMPTY", "the query needs at least one letter or digit")
    return textmod.query_stems(vocabulary.without_now_words(query)) or textmod.query_stems(query)


def parse_int(value: object) -> int | None:
    """An int (not a bool) or a string of ASCII digits (the CLI's options), else None.

    The one parser of the integer options (`--limit`, `--max-tokens` and their MCP twins)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    match = _INT_RE.fullmatch(value.strip()) if isinstance(value, str) else None
    return int(match.group(1)) if match else None


def check_limit(limit: object) -> int:
    value = parse_int(limit)
    if value is None or not BOUNDS.limit.holds(value):
        low, high = BOUNDS.limit.low, BOUNDS.limit.high
        raise ContextError(
            "QUERY_LIMIT", f"the limit must be an integer from {low} to {high}, got {limit!r}"
        )
    return value


class Candidates(NamedTuple):
    """One query's candidates: the items holding a query term, and how to score one."""

    ctx: Query
    analysis: Analysis
    matched: dict[int, frozenset[str]]  # item index: the query terms it holds
    found: dict[int, set[str]]  # item index: the stems found in it
    forms: dict[str, frozenset[str]]
    owners: dict[int, int]  # item index: the number of its source
    documents: dict[int, int]  # source number: its document points (`documents`)

    def scored(self, index: int) -> tuple[Result, int] | None:
        """(result, score) of candidate INDEX, None when it cannot be a result."""
        hits = self.matched[index]
        if not self.analysis.is_answer(index, hits, self.forms):
            return None
        translated = frozenset(t for t in hits if t not in self.found[index])
        document = self.documents.get(self.owners[index], 0)
        result = _result(self.ctx, self.analysis, index, hits, translated, document)[0]
        return result, result.score


def analysis_of(corpus: Corpus, analysis: Analysis | None = None) -> Analysis:
    """ANALYSIS when the caller made it for CORPUS (`analyse(corpus)`), else CORPUS's own."""
    if analysis is None:
        return analyse(corpus)
    if analysis.corpus is not corpus:
        raise ContextError(
            "USAGE_ERROR",
            "the analysis was made for another corpus",
            hint="pass the analysis of the same corpus object: analyse(corpus)",
        )
    return analysis


class Ask(NamedTuple):
    """A query validated once (`ask`): its text, its stems in order and the result limit."""

    query: str
    stems: list[str]
    limit: int


def ask(query: object, limit: object = BOUNDS.limit.default) -> Ask:
    """QUERY and LIMIT checked, in this order: QUERY_LIMIT, then QUERY_INVALID / QUERY_EMPTY.
    Every entry validates here, before any source is read; nothing checks them again."""
    count = check_limit(limit)
    stems = check_query(query)
    assert isinstance(query, str)  # check_query refuses anything else
    return Ask(query, stems, count)


def candidates(corpus: Corpus, query: str, analysis: Analysis | None = None) -> Candidates:
    """The candidates of QUERY on CORPUS (QUERY_EMPTY, QUERY_INVALID); ANALYSIS, when given,
    is CORPUS's (a caller that runs many queries makes it once)."""
    return _candidates(corpus, ask(query), analysis)


def _candidates(corpus: Corpus, asked: Ask, analysis: Analysis | None) -> Candidates:
    query, query_seq = asked.query, asked.stems
    terms = frozenset(query_seq)
    analysis = analysis_of(corpus, analysis)
    phrased = equivalents.phrase_forms(query_seq)
    general = {t: vocabulary.equivalent_forms(t) | phrased.get(t, frozenset()) for t in terms}
    forms = {t: glossary.variants(t) | textmod.negation_forms(t) | general[t] for t in terms}
    found = analysis.hits(set().union(*forms.values()))
    matched = _matched_terms(found, forms)
    written = analysis.scan.written
    # Document frequency: the places a term's forms are written (`TextScan.written`).
    weights = {
        t: idf(analysis.n_items, min(analysis.n_items, sum(written.get(f, 0) for f in forms[t])))
        for t in terms
    }
    ctx = Query(
        query_seq,
        terms,
        weights,
        math.fsum(weights.values()),  # exactly rounded: independent of the set's order
        textmod.has_historical_intent(terms),
        glossary.addressed(set(terms)),
        {},
        vocabulary.query_intents(query),
        query_pairs(query_seq),
        frozenset(t for t, found in general.items() if found),
    )
    owners = analysis.owners(matched)
    paths = {number: analysis.sources[number].path for number in set(owners.values())}
    bases = analysis.items.bases
    mean = (bases[-1] / len(analysis.sources)) if analysis.sources else 1.0
    sizes = {n: (bases[n + 1] - bases[n]) / mean for n in paths}
    points = documents.document_points(ctx, owners, matched, paths, forms, sizes)
    return Candidates(ctx, analysis, matched, found, forms, owners, points)


def search(
    corpus: Corpus,
    query: str,
    limit: int = BOUNDS.limit.default,
    *,
    analysis: Analysis | None = None,
) -> list[Result]:
    """Ranked, de-duplicated results for QUERY (`rank_corpus` of `ask(query, limit)`)."""
    return rank_corpus(corpus, ask(query, limit), analysis=analysis)


def rank_corpus(corpus: Corpus, asked: Ask, *, analysis: Analysis | None = None) -> list[Result]:
    """Ranked, de-duplicated results for the validated ASKED (the whole of docs/retrieval.md's
    formula), candidates scored only while they could still enter the results (`prune`).
    ANALYSIS, when given, is CORPUS's (`candidates`)."""
    found = _candidates(corpus, asked, analysis)
    owners = found.owners
    first = _lifted_first(found, owners)
    done = {index for _, index in first}
    bounds = [(-bound, index) for index, bound in _bounds(found, owners) if index not in done]
    stream = prune.lazy_order(((r, r.score, i) for r, i in first), bounds, found.scored)
    return ordered(stream, found.analysis.identity, asked.limit)


def full_search(corpus: Corpus, query: str, limit: int = BOUNDS.limit.default) -> list[Result]:
    """`search` scoring every candidate (the reference its early stop is tested against)."""
    asked = ask(query, limit)
    found = _candidates(corpus, asked, None)
    found.analysis.items.prefetch(found.matched)
    scored = [(made[0], i) for i in found.matched if (made := found.scored(i)) is not None]
    scored = _lift_cited(scored, found.analysis, found.ctx.historical)
    # Items are indexed in (source_path, line_start) order: the index breaks ties alike.
    scored.sort(key=lambda r: (-r[0].score, r[1]))
    return ordered(scored, found.analysis.identity, asked.limit)


def _lifted_first(found: Candidates, owners: dict[int, int]) -> list[tuple[Result, int]]:
    """The candidates of STATUS and of the sources its matching pointers cite, scored and
    lifted (`links.cited_lifts` reads no others), in the full pass's order."""
    made: dict[int, tuple[Result, int] | None] = {}
    sources = found.analysis.items.sources

    def score(paths: set[str]) -> list[tuple[Result, int]]:
        todo = [
            i for i, number in owners.items() if sources[number].path in paths and i not in made
        ]
        found.analysis.items.prefetch(todo)  # made a source at a time
        for index in todo:
            scored = found.scored(index)
            made[index] = None if scored is None else (scored[0], index)
        return [entry for entry in made.values() if entry is not None]

    names = found.analysis.report_names()
    score(links.cited_paths(score({STATUS_PATH}), names))
    first = [entry for index in owners if (entry := made.get(index)) is not None]
    return _lift_cited(first, found.analysis, found.ctx.historical)


def _bounds(found: Candidates, owners: dict[int, int]) -> Iterator[tuple[int, int]]:
    """(index, the most it can score) of each candidate (`score.score_item` term by term)."""
    ctx, analysis = found.ctx, found.analysis
    sources, bases, columns = analysis.items.sources, analysis.items.bases, analysis.scan.columns
    priors: dict[int, int] = {}
    roles: dict[tuple[int, int], int] = {}
    evidences: dict[frozenset[str], int] = {}
    for index, number in owners.items():
        prior = priors.get(number)
        if prior is None:
            prior = priors[number] = prior_bound(ctx, sources[number], analysis.recency)
        hits = found.matched[index]
        evidence = evidences.get(hits)
        if evidence is None:
            evidence = evidences[hits] = evidence_bound(ctx, hits)
        bound = evidence + prior + found.documents.get(number, 0)
        if ctx.roles:
            key = (number, columns[number][2][index - bases[number]])
            role = roles.get(key)
            if role is None:
                role = roles[key] = analysis.role_bound(ctx, *key)
            bound += role
        yield index, bound


def _lift_cited(
    scored: list[tuple[Result, int]], analysis: Analysis, historical: bool
) -> list[tuple[Result, int]]:
    """SCORED with the best line of each source a matching Evidence References line cites
    one point above that line (docs/retrieval.md, "cited evidence")."""
    lifts = links.cited_lifts(scored, analysis.report_names(), historical)
    for position, lifted in lifts.items():
        result, index = scored[position]
        scored[position] = (Result(result.item, lifted, (*result.reasons, CITED_REASON)), index)
    return scored


def _matched_terms(
    found: dict[int, set[str]], forms: dict[str, frozenset[str]]
) -> dict[int, frozenset[str]]:
    """{item index: the query terms it hits}: a term hits when one of its FORMS was found.
    Items share a few stem sets, so each distinct set is resolved once."""
    memo: dict[frozenset[str], frozenset[str]] = {}
    matched: dict[int, frozenset[str]] = {}
    for index, stems in found.items():
        key = frozenset(stems)
        hits = memo.get(key)
        if hits is None:
            hits = memo[key] = frozenset(t for t, f in forms.items() if not f.isdisjoint(key))
        matched[index] = hits
    return matched


def _result(
    ctx: Query,
    analysis: Analysis,
    index: int,
    hits: frozenset[str],
    translated: frozenset[str],
    document: int,
) -> tuple[Result, int]:
    item = analysis.items[index]
    roles = analysis.section_roles(item.section)
    context = analysis.scan.list_context.get(index, "")
    score, reasons = score_item(
        ctx, item, hits, translated, roles, analysis.recency, context, document
    )
    return Result(item, score, reasons), index


def query_result(corpus: Corpus, asked: Ask, analysis: Analysis | None = None) -> dict[str, object]:
    """The `context query` document for the validated ASKED over a verified CORPUS (ANALYSIS,
    when given, is CORPUS's: `rank_corpus`)."""
    return {
        "schema_version": QUERY_SCHEMA_VERSION,
        "project_id": corpus.project_id,
        "query": asked.query,
        "results": [r.as_dict() for r in rank_corpus(corpus, asked, analysis=analysis)],
        "non_authoritative": True,
    }


def query_corpus(
    corpus: Corpus, query: str, limit: int = BOUNDS.limit.default
) -> dict[str, object]:
    """The `context query` document for QUERY over a corpus snapshot (from `collect`). To read
    the stored index (checked for staleness first), call `Workspace(root).query(query)`."""
    _require_snapshot(corpus, "query_corpus")
    return query_result(corpus, ask(query, limit))


def query_index(corpus: Corpus, query: str, limit: int = BOUNDS.limit.default) -> dict[str, object]:
    """Deprecated (0.3): the name promised an index while it ranks a snapshot. Use
    `query_corpus(collect(root), query)`, or `Workspace(root).query(query)` to read the
    index; removed in the next minor version."""
    import warnings

    warnings.warn(
        "query_index is deprecated: use query_corpus(collect(root), query), or "
        "Workspace(root).query(query) to read the index",
        DeprecationWarning,
        stacklevel=2,
    )
    _require_snapshot(corpus, "query_index")
    return query_result(corpus, ask(query, limit))


def _require_snapshot(corpus: object, name: str) -> None:
    """USAGE_ERROR unless CORPUS is a snapshot (a stored index is not one)."""
    if not isinstance(corpus, Corpus):
        raise ContextError(
            "USAGE_ERROR",
            f"{name} needs the corpus snapshot, not a {type(corpus).__name__}",
            hint=f"pass collect(root): {name}(collect(root), query); "
            "open_index(root) is the stored index, for staleness checks",
        )
