"""Deterministic, authority- and time-aware retrieval over fresh items (docs/retrieval.md)."""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Iterable
from collections.abc import Iterator
from typing import NamedTuple

from project_corpus.corpus.items import LazyItems
from project_corpus.corpus.snapshot import paused_gc
from project_corpus.errors import ContextError
from project_corpus.models import PROJECT_PATH
from project_corpus.models import STATUS_PATH
from project_corpus.models import Corpus
from project_corpus.retrieval import glossary
from project_corpus.retrieval import links
from project_corpus.retrieval import prune
from project_corpus.retrieval import text as textmod
from project_corpus.retrieval.order import Result
from project_corpus.retrieval.order import ordered
from project_corpus.retrieval.scan import TextScan
from project_corpus.retrieval.score import CITED_REASON
from project_corpus.retrieval.score import ROLE_WEIGHT
from project_corpus.retrieval.score import Query
from project_corpus.retrieval.score import evidence_bound
from project_corpus.retrieval.score import idf
from project_corpus.retrieval.score import prior_bound
from project_corpus.retrieval.score import role_share
from project_corpus.retrieval.score import score_item
from project_corpus.retrieval.score import share

MAX_LIMIT = 100
# Metadata keys that name their own document: such a line answers a question naming it.
SELF_NAMING = {"task": ("Task-ID",), "report": ("Report-ID",)}
PROJECT_NAMING = ("Project-ID", "Logical-Name")
PREFIX_CACHE = 256  # scanned stem prefixes kept per analysis
DEFAULT_LIMIT = 20  # the CLI's `--limit` and the MCP tool's `limit` default
# An int option as the CLI passes it (a decimal string); at most 9 digits after leading zeros,
# so a huge number is a range error, not Python's int-digits ValueError.
_INT_RE = re.compile(r"0*([0-9]{1,9})")


class Analysis:
    """Per-corpus token data, computed once and reused by every query on that corpus.

    Stemming every token of a 50,000-line corpus costs more than reading it, so a query
    stems only the tokens that start with the *stem prefix* of one of its terms: a Snowball
    stem differs from its token at most in its last two characters (English; Russian stems
    are plain prefixes), so no token with a query stem is ever skipped. One regular
    expression finds those tokens in the folded text of all items at once. A property test
    in tests/test_retrieval.py guards the prefix rule.
    """

    def __init__(self, corpus: Corpus) -> None:
        own = [s for s in corpus.sources if s.project_id == corpus.project_id]
        self.items = LazyItems(own)
        self.sources = own
        self.scan = TextScan(self.items)
        self.n_items = sum(len(s.doc.spans) for s in corpus.sources)
        stamps = sorted({s.timestamp for s in corpus.sources if s.timestamp})
        self.recency = {stamp: (10 * (i + 1)) // len(stamps) for i, stamp in enumerate(stamps)}
        self._text_sets: dict[int, frozenset[str]] = {}
        self._section_roles: dict[str, frozenset[str]] = {}
        self._prefixes: dict[str, dict[str, list[int]]] = {}
        self._report_names: dict[str, str] | None = None

    def hits(self, terms: set[str]) -> dict[int, set[str]]:
        """{item index: the given stems among its own (text, section path, document title)}."""
        found: dict[int, set[str]] = {}
        for prefix in _minimal_prefixes({textmod.stem_prefix(t) for t in terms}):
            for stem, indexes in self._prefix_stems(prefix).items():
                if stem in terms:
                    for index in indexes:
                        found.setdefault(index, set()).add(stem)
        return found

    def _prefix_stems(self, prefix: str) -> dict[str, list[int]]:
        """{stem: the items holding it} for the words starting with PREFIX (one scan per
        prefix and analysis; queries on one corpus share their prefixes)."""
        cached = self._prefixes.get(prefix)
        if cached is not None:
            return cached
        by_stem = self.scan.stems(prefix)
        if len(self._prefixes) >= PREFIX_CACHE:
            self._prefixes.clear()
        self._prefixes[prefix] = by_stem
        return by_stem

    def report_names(self) -> dict[str, str]:
        """{Report-ID or file stem: path} of this project's reports (built on first use)."""
        if self._report_names is None:
            self._report_names = links.report_names(self.sources)
        return self._report_names

    def section_roles(self, section: str) -> frozenset[str]:
        """The glossary concepts a section heading path names (cached per path)."""
        cached = self._section_roles.get(section)
        if cached is None:
            cached = self._section_roles[section] = glossary.section_concepts(section)
        return cached

    def is_answer(self, index: int, hits: frozenset[str], forms: dict[str, frozenset[str]]) -> bool:
        """Whether an item holding the query terms HITS (glossary FORMS) can be a result
        (docs/retrieval.md rule 4): a heading only when its section holds nothing else; a metadata
        line only when the query hits its key ("what is the lifecycle status") or it names
        its own document (`Report-ID:` of a report...); a line without a word of its own
        (a table rule `|---|`) never."""
        item = self.items[index]  # made once: a result's `Item` too
        if item.kind == "heading":
            return not self.heading_has_content(index)
        if index in self.scan.table_heads:
            return False
        if item.kind == "meta":
            key = item.text.partition(":")[0]
            own = PROJECT_NAMING if item.source_path == PROJECT_PATH else ()
            own_name = key in own or key in SELF_NAMING.get(item.source_type, ())
            key_stems = textmod.stems(key)
            return own_name or any(not forms[t].isdisjoint(key_stems) for t in hits)
        return textmod.TOKEN_RE.search(item.text) is not None

    def heading_has_content(self, index: int) -> bool:
        """Whether the heading item at INDEX opens a section that holds another item
        (docs/retrieval.md):
        a non-heading item follows before the next heading of the same or a higher level."""
        owner, at = self.items.locate(index)
        spans = owner.doc.spans
        depth = _depth(spans[at].section)
        for other in range(at + 1, len(spans)):
            if spans[other].kind != "heading":
                return True
            if _depth(spans[other].section) <= depth:
                return False
        return False

    def owners(self, indexes: Iterable[int]) -> dict[int, int]:
        """{index: the number of its item's source} for INDEXES, in their order."""
        bases = self.items.bases
        return {index: bisect_right(bases, index) - 1 for index in indexes}

    def role_bound(self, ctx: Query, number: int, line: int) -> int:
        """The role bonus of the items of source NUMBER in the section opened at LINE (no
        `Item` made), or the most any section can give when that section is not known."""
        section = self.scan.section_paths(number).get(line)
        if section is None:
            return share(ctx, frozenset().union(*ctx.roles.values()), ROLE_WEIGHT)
        return role_share(ctx, self.section_roles(section))

    def text_set(self, index: int) -> frozenset[str]:
        """Stems of an item's text (near-duplicate identity)."""
        cached = self._text_sets.get(index)
        if cached is None:
            cached = self._text_sets[index] = frozenset(textmod.stems(self.items[index].text))
        return cached


def _depth(section: str) -> int:
    """0 for the part before the first H2 (an H1's), else the number of heading levels."""
    return section.count(" > ") + 1 if section else 0


def _minimal_prefixes(prefixes: set[str]) -> list[str]:
    """PREFIXES without those that extend another (its matches are found already)."""
    ordered = sorted(prefixes, key=lambda p: (len(p), p))
    kept: list[str] = []
    for prefix in ordered:
        if not any(prefix.startswith(shorter) for shorter in kept):
            kept.append(prefix)
    return kept


_CACHE: dict[int, tuple[Corpus, Analysis]] = {}


def analyse(corpus: Corpus) -> Analysis:
    """The (cached) analysis of CORPUS: one per corpus object, reused across queries."""
    cached = _CACHE.get(id(corpus))
    if cached is not None and cached[0] is corpus:
        return cached[1]
    with paused_gc():
        analysis = Analysis(corpus)
    _CACHE.clear()
    _CACHE[id(corpus)] = (corpus, analysis)
    return analysis


# A query is a few words; a longer one only holds the single worker (CLI and MCP alike).
MAX_QUERY_BYTES = 4096


def check_query(query: object) -> list[str]:
    """The query's stems: QUERY_INVALID for text that cannot be written as UTF-8 (a lone
    surrogate from undecodable command-line bytes) or longer than 4 KiB, QUERY_EMPTY without a
    word character."""
    if not isinstance(query, str):
        raise ContextError("QUERY_EMPTY", "the query must be text")
    try:
        size = len(query.encode("utf-8")) if len(query) <= MAX_QUERY_BYTES else len(query)
    except UnicodeEncodeError:
        raise ContextError("QUERY_INVALID", "the query is not valid Unicode text") from None
    if size > MAX_QUERY_BYTES:
        raise ContextError(
            "QUERY_INVALID",
            f"the query is longer than {MAX_QUERY_BYTES} bytes of UTF-8",
            hint="ask with a few words; retrieval ranks by terms, not by whole documents",
        )
    if not textmod.raw_tokens(query):
        raise ContextError("QUERY_EMPTY", "the query needs at least one letter or digit")
    return textmod.query_stems(query)


def parse_int(value: object) -> int | None:
    """An int (not a bool) or a string of ASCII digits (the CLI's options), else None.

    The one parser of the integer options (`--limit`, `--max-tokens` and their MCP twins)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    match = _INT_RE.fullmatch(value.strip()) if isinstance(value, str) else None
    return int(match.group(1)) if match else None


def check_limit(limit: object) -> int:
    value = parse_int(limit)
    if value is None or not 1 <= value <= MAX_LIMIT:
        raise ContextError(
            "QUERY_LIMIT", f"the limit must be an integer from 1 to {MAX_LIMIT}, got {limit!r}"
        )
    return value


class Candidates(NamedTuple):
    """One query's candidates: the items holding a query term, and how to score one."""

    ctx: Query
    analysis: Analysis
    matched: dict[int, frozenset[str]]  # item index: the query terms it holds
    found: dict[int, set[str]]  # item index: the stems found in it
    forms: dict[str, frozenset[str]]

    def scored(self, index: int) -> tuple[Result, int] | None:
        """(result, score) of candidate INDEX, None when it cannot be a result."""
        hits = self.matched[index]
        if not self.analysis.is_answer(index, hits, self.forms):
            return None
        translated = frozenset(t for t in hits if t not in self.found[index])
        result = _result(self.ctx, self.analysis, index, hits, translated)[0]
        return result, result.score


def candidates(corpus: Corpus, query: str) -> Candidates:
    """The candidates of QUERY on CORPUS (QUERY_EMPTY, QUERY_INVALID)."""
    query_seq = check_query(query)
    terms = frozenset(query_seq)
    analysis = analyse(corpus)
    forms = {t: glossary.variants(t) | textmod.negation_forms(t) for t in terms}
    found = analysis.hits(set().union(*forms.values()))
    matched = _matched_terms(found, forms)
    weights = {t: idf(analysis.n_items, sum(1 for h in matched.values() if t in h)) for t in terms}
    ctx = Query(
        query_seq,
        terms,
        weights,
        math.fsum(weights.values()),  # exactly rounded: independent of the set's order
        textmod.has_historical_intent(terms),
        glossary.addressed(set(terms)),
        {},
    )
    return Candidates(ctx, analysis, matched, found, forms)


def search(corpus: Corpus, query: str, limit: int = DEFAULT_LIMIT) -> list[Result]:
    """Ranked, de-duplicated results for QUERY (the whole of docs/retrieval.md's formula),
    candidates scored only while they could still enter the results (`prune`)."""
    limit = check_limit(limit)
    found = candidates(corpus, query)
    owners = found.analysis.owners(found.matched)
    first = _lifted_first(found, owners)
    done = {index for _, index in first}
    bounds = [(-bound, index) for index, bound in _bounds(found, owners) if index not in done]
    stream = prune.lazy_order(((r, r.score, i) for r, i in first), bounds, found.scored)
    return ordered(stream, found.analysis.text_set, limit)


def full_search(corpus: Corpus, query: str, limit: int = DEFAULT_LIMIT) -> list[Result]:
    """`search` scoring every candidate (the reference its early stop is tested against)."""
    limit = check_limit(limit)
    found = candidates(corpus, query)
    found.analysis.items.prefetch(found.matched)
    scored = [(made[0], i) for i in found.matched if (made := found.scored(i)) is not None]
    scored = _lift_cited(scored, found.analysis, found.ctx.historical)
    # Items are indexed in (source_path, line_start) order: the index breaks ties alike.
    scored.sort(key=lambda r: (-r[0].score, r[1]))
    return ordered(scored, found.analysis.text_set, limit)


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
        bound = evidence + prior
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
    ctx: Query, analysis: Analysis, index: int, hits: frozenset[str], translated: frozenset[str]
) -> tuple[Result, int]:
    item = analysis.items[index]
    roles = analysis.section_roles(item.section)
    score, reasons = score_item(ctx, item, hits, translated, roles, analysis.recency)
    return Result(item, score, reasons), index


def query_index(corpus: Corpus, query: str, limit: int = DEFAULT_LIMIT) -> dict[str, object]:
    """The `context query` document for QUERY over a verified corpus (from `collect`)."""
    if not isinstance(corpus, Corpus):
        raise ContextError(
            "USAGE_ERROR",
            f"query_index needs the corpus snapshot, not a {type(corpus).__name__}",
            hint="pass collect(root): query_index(collect(root), query); "
            "open_index(root) is the stored index, for staleness checks",
        )
    results = search(corpus, query, limit)
    return {
        "schema_version": "1",
        "project_id": corpus.project_id,
        "query": query,
        "results": [r.as_dict() for r in results],
        "non_authoritative": True,
    }
