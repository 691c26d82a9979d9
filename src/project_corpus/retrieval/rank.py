"""Deterministic, authority- and time-aware retrieval over fresh items (SPEC §5)."""

from __future__ import annotations

import bisect
import math
import re
from typing import NamedTuple

from project_corpus.corpus.items import LazyItems
from project_corpus.corpus.snapshot import paused_gc
from project_corpus.errors import ContextError
from project_corpus.models import FRESHNESS_REQUIREMENT
from project_corpus.models import PROJECT_PATH
from project_corpus.models import STATUS_PATH
from project_corpus.models import Corpus
from project_corpus.models import Item
from project_corpus.retrieval import text as textmod

AUTHORITY_WEIGHT = {
    "CANONICAL": 80,
    "ACTIVE_TASK": 65,
    "CITED_REPORT": 50,
    "SCOPED_REPORT": 30,
    "OTHER_TASK": 15,
    "OTHER_STATE": 10,
    "HISTORY": 0,
}
TEMPORAL_WEIGHT = {"current": 20, "scoped": 5, "unknown": -5, "historical": -15, "superseded": -45}
STATUS_ROLE_WORDS = (
    "status state lifecycle baseline current blocker next статус состояние текущий блокер следующий"
).split()
PROJECT_ROLE_WORDS = (
    "identity objective invariant durable scope goal идентичность цель инвариант граница"
).split()
MAX_LIMIT = 100


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
        self.items = LazyItems([s for s in corpus.sources if s.project_id == corpus.project_id])
        self.blob, self.starts = textmod.fold_joined(
            [text + "\n" + section for _, _, _, section, _, text in self.items.spans]
        )
        self.n_items = sum(len(s.doc.spans) for s in corpus.sources)
        stamps = sorted({s.timestamp for s in corpus.sources if s.timestamp})
        self.recency = {stamp: (10 * (i + 1)) // len(stamps) for i, stamp in enumerate(stamps)}
        self._text_sets: dict[int, frozenset[str]] = {}

    def hits(self, terms: set[str]) -> dict[int, set[str]]:
        """{item index: the query terms among its stems (text + section path)}."""
        found: dict[int, set[str]] = {}
        blob, starts = self.blob, self.starts
        for prefix in _minimal_prefixes({textmod.stem_prefix(t) for t in terms}):
            # A literal-led pattern lets the regex engine skip ahead to each occurrence.
            for match in re.finditer(re.escape(prefix) + r"[^\W_]*", blob):
                start = match.start()
                if start and blob[start - 1].isalnum():
                    continue  # inside a token, not at its start
                stem = textmod.stem(match.group())
                if stem in terms:
                    found.setdefault(bisect.bisect_right(starts, start) - 1, set()).add(stem)
        return found

    def text_set(self, index: int) -> frozenset[str]:
        """Stems of an item's text (near-duplicate identity)."""
        cached = self._text_sets.get(index)
        if cached is None:
            cached = self._text_sets[index] = frozenset(textmod.stems(self.items[index].text))
        return cached


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


def check_query(query: object) -> list[str]:
    """The query's stems: QUERY_INVALID for text that cannot be written as UTF-8 (a lone
    surrogate from undecodable command-line bytes), QUERY_EMPTY without a word character."""
    if not isinstance(query, str):
        raise ContextError("QUERY_EMPTY", "the query must be text")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError:
        raise ContextError("QUERY_INVALID", "the query is not valid Unicode text") from None
    if not textmod.raw_tokens(query):
        raise ContextError("QUERY_EMPTY", "the query needs at least one letter or digit")
    return textmod.query_stems(query)


def parse_int(value: object) -> int | None:
    """An int (not a bool) or a string of ASCII digits, else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip())
    return None


def check_limit(limit: object) -> int:
    value = parse_int(limit)
    if value is None or not 1 <= value <= MAX_LIMIT:
        raise ContextError(
            "QUERY_LIMIT", f"the limit must be an integer from 1 to {MAX_LIMIT}, got {limit!r}"
        )
    return value


def search(corpus: Corpus, query: str, limit: int = 20) -> list[Result]:
    """Ranked, de-duplicated results for QUERY (the whole of SPEC §5's formula)."""
    limit = check_limit(limit)
    query_seq = check_query(query)
    terms = set(query_seq)
    analysis = analyse(corpus)
    found = analysis.hits(terms)
    idf = {t: _idf(analysis.n_items, sum(1 for h in found.values() if t in h)) for t in terms}
    total_idf = sum(idf.values())
    ctx = _QueryContext(
        query_seq,
        terms,
        idf,
        total_idf,
        textmod.has_historical_intent(terms),
        bool(terms & _role_stems(STATUS_ROLE_WORDS)),
        bool(terms & _role_stems(PROJECT_ROLE_WORDS)),
    )
    items, recency = analysis.items, analysis.recency
    scored = [_score(ctx, items[i], hits, recency, i) for i, hits in found.items()]
    scored.sort(key=lambda r: (-r[0].score, r[0].item.source_path, r[0].item.line_start))
    return _dedup(scored, analysis, limit)


class _QueryContext(NamedTuple):
    seq: list[str]
    terms: set[str]
    idf: dict[str, float]
    total_idf: float
    historical: bool
    status_role: bool
    project_role: bool


def _idf(n_items: int, df: int) -> float:
    return math.log(1 + (n_items - df + 0.5) / (df + 0.5))


_ROLE_CACHE: dict[tuple[str, ...], frozenset[str]] = {}


def _role_stems(words: list[str]) -> frozenset[str]:
    key = tuple(words)
    if key not in _ROLE_CACHE:
        _ROLE_CACHE[key] = frozenset(textmod.stem(w) for w in words)
    return _ROLE_CACHE[key]


def _contains_sequence(haystack: list[str], needle: list[str]) -> bool:
    width = len(needle)
    return any(haystack[i : i + width] == needle for i in range(len(haystack) - width + 1))


def _score(
    ctx: _QueryContext, item: Item, hits: set[str], recency: dict[str, int], index: int
) -> tuple[Result, int]:
    reasons = [f"lexical_terms:{','.join(sorted(hits))}"]
    score = math.floor(200 * sum(ctx.idf[t] for t in hits) / ctx.total_idf)
    phrase_possible = len(ctx.seq) >= 2 and len(hits) == len(ctx.terms)
    if phrase_possible and _contains_sequence(textmod.content_stems(item.text), ctx.seq):
        score += 25
        reasons.append("exact_phrase")
    if ctx.historical and item.temporal_status in ("historical", "superseded"):
        score += 70
        reasons.append("historical_query_intent")
    score += AUTHORITY_WEIGHT[item.authority_class] + TEMPORAL_WEIGHT[item.temporal_status]
    reasons += [
        f"authority:{item.authority_class}",
        f"temporal:{item.temporal_status}",
        "exact_project_scope",
    ]
    if ctx.status_role and item.source_path == STATUS_PATH:
        score += 50
        reasons.append("canonical_current_state_role")
    if ctx.project_role and item.source_path == PROJECT_PATH:
        score += 50
        reasons.append("canonical_identity_role")
    if item.timestamp:
        score += recency[item.timestamp]
        reasons.append("explicit_timestamp")
    if item.section:
        score += 3
        reasons.append("section_provenance")
    return Result(item, score, tuple(reasons)), index


def _dedup(scored: list[tuple[Result, int]], analysis: Analysis, limit: int) -> list[Result]:
    kept: list[Result] = []
    seen_text: set[str] = set()
    kept_sets: list[frozenset[str]] = []
    for result, index in scored:
        norm = textmod.normalise(result.item.text)
        if norm in seen_text:
            continue
        own = analysis.text_set(index)
        if any(_near(own, other) for other in kept_sets):
            continue
        kept.append(result)
        seen_text.add(norm)
        kept_sets.append(own)
        if len(kept) >= limit:
            break
    return kept


def _near(a: frozenset[str], b: frozenset[str]) -> bool:
    if len(a) < 3 or len(b) < 3:
        return a == b and bool(a)
    return len(a & b) / len(a | b) >= 0.9


def query_index(corpus: Corpus, query: str, limit: int = 20) -> dict[str, object]:
    """The `context query` document for QUERY over a verified corpus."""
    results = search(corpus, query, limit)
    return {
        "schema_version": "1",
        "project_id": corpus.project_id,
        "query": query,
        "results": [r.as_dict() for r in results],
        "non_authoritative": True,
    }
