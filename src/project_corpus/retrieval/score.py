"""The retrieval score of one item (docs/retrieval.md): every weight, and one reason per component.

`docs/retrieval.md` explains each weight and records the dataset figures it was chosen on.
Term evidence comes first: the lexical share is worth up to 1,000 points, so the priors
(authority, time, recency, section: at most 113 points together) order matches of comparable
strength and cannot lift a line that shares one common word over a line that answers most of
the question. The role bonus is evidence too: it counts the question's Protocol words again
for the lines of the section the question names.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from project_corpus.core.records import Item
from project_corpus.core.records import Source
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.retrieval import lists
from project_corpus.retrieval import text as textmod
from project_corpus.retrieval import vocabulary

LEXICAL_WEIGHT = 1000
# The lexical share blends the query's IDF weight of the hit terms (rare words count more)
# with the share of the query's distinct terms hit (each word of the question counts):
# 600 + 400 = LEXICAL_WEIGHT; docs/retrieval.md has the measurements.
LEXICAL_IDF_WEIGHT = 600
LEXICAL_COUNT_WEIGHT = LEXICAL_WEIGHT - LEXICAL_IDF_WEIGHT
PHRASE_WEIGHT = 50
# Each pair of adjacent question words written side by side in the item ("command line",
# "default exports"): docs/retrieval.md, "Adjacent terms".
ADJACENT_WEIGHT = 50
ROLE_WEIGHT = 500
SECTION_WEIGHT = 3
# An item written to answer the kind of question asked (why: a rationale; how: steps; what
# changed: a changelog line): docs/retrieval.md, "Question intent".
INTENT_WEIGHT = 150
# A line of a section that records what was decided (Decision, Outcome, Conclusion...): a
# prior that orders it before the Context that restates the problem in the same words.
DECISION_WEIGHT = 20
# A paragraph ending in a colon introduces what follows it ("The following areas are being
# considered for future development:"): it yields to that content when they tie or nearly
# tie (docs/retrieval.md, "Seventh round"); a label that says something can still lead.
LABEL_WEIGHT = 50
LABEL_REASON = "label_line"
RECENCY_WEIGHT = 10
AUTHORITY_WEIGHT = {
    "CANONICAL": 80,
    "ACTIVE_TASK": 65,
    "CITED_REPORT": 50,
    "SCOPED_REPORT": 30,
    "OTHER_TASK": 15,
    "OTHER_STATE": 10,
    "HISTORY": 0,
}
TEMPORAL_WEIGHT = {
    "current": 20,
    "scoped": 5,
    "unknown": -5,
    "historical": -60,
    "superseded": -350,
}
# With historical intent an old item gets its demotion back and then some: it outranks a
# current item (authority + temporal at most 100) of comparable match.
HISTORICAL_INTENT_WEIGHT = {"historical": 180, "superseded": 470}
ROLE_REASONS = {
    STATUS_PATH: "canonical_current_state_role",
    PROJECT_PATH: "canonical_identity_role",
}
SECTION_ROLE_REASON = "protocol_section_role"
CITED_REASON = "cited_by_evidence_reference"


class Query(NamedTuple):
    """What every item of one query is scored against."""

    seq: list[str]  # the query stems in order (phrase matching)
    terms: frozenset[str]
    idf: dict[str, float]
    total_idf: float
    historical: bool
    roles: dict[str, frozenset[str]]  # addressed concept -> its terms in the query
    # (terms, weight) -> share: thousands of items hit the same few term sets
    shares: dict[tuple[frozenset[str], int], int]
    intents: frozenset[str] = frozenset()  # `vocabulary.query_intents` of the question
    pairs: frozenset[tuple[str, str]] = frozenset()  # `query_pairs` of `seq`
    general: frozenset[str] = frozenset()  # the terms with forms in the general glossary


def idf(n_items: int, df: int) -> float:
    return math.log(1 + (n_items - df + 0.5) / (df + 0.5))


def share(query: Query, terms: frozenset[str] | set[str], weight: int) -> int:
    """WEIGHT times the IDF share of TERMS in the query, rounded down (memoised per query)."""
    key = (frozenset(terms), weight)
    cached = query.shares.get(key)
    if cached is None:
        weights = query.idf
        # fsum is exactly rounded, so the share never depends on the (hash-seeded) set order.
        cached = query.shares[key] = math.floor(
            weight * math.fsum(weights[t] for t in key[0]) / query.total_idf
        )
    return cached


def lexical(query: Query, hits: frozenset[str]) -> int:
    """The lexical share of an item that holds the query terms HITS (memoised per query):
    600 × the IDF share plus 400 × the share of distinct query terms, rounded down."""
    key = (hits, LEXICAL_WEIGHT)
    cached = query.shares.get(key)
    if cached is None:
        weights = query.idf
        # fsum is exactly rounded, so the share never depends on the (hash-seeded) set order.
        by_idf = LEXICAL_IDF_WEIGHT * math.fsum(weights[t] for t in hits) / query.total_idf
        by_count = LEXICAL_COUNT_WEIGHT * len(hits) / len(query.terms)
        cached = query.shares[key] = math.floor(math.fsum((by_idf, by_count)))
    return cached


def _contains_sequence(haystack: list[str], needle: list[str]) -> bool:
    width = len(needle)
    return any(haystack[i : i + width] == needle for i in range(len(haystack) - width + 1))


def query_pairs(seq: list[str]) -> frozenset[tuple[str, str]]:
    """The pairs of adjacent, different stems of a query."""
    return frozenset((a, b) for a, b in pairwise(seq) if a != b)


def _pairs_possible(query: Query, hits: frozenset[str]) -> int:
    """How many of the query's adjacent pairs an item holding HITS could hold."""
    return sum(1 for a, b in query.pairs if a in hits and b in hits)


def _evidence(
    query: Query, item: Item, hits: frozenset[str], translated: frozenset[str]
) -> tuple[int, list[str]]:
    """The lexical share, the adjacent-terms bonus and the phrase bonus."""
    reasons = [f"lexical_terms:{_joined(hits)}"]
    if translated:
        reasons += _translation_reasons(translated, query.general)
    score = lexical(query, hits)
    phrase_possible = len(query.seq) >= 2 and len(hits) == len(query.terms)
    if not phrase_possible and not _pairs_possible(query, hits):
        return score, reasons
    stems = textmod.content_stems(item.text, query.seq)
    adjacent = query.pairs & set(pairwise(stems))
    if adjacent:
        score += ADJACENT_WEIGHT * len(adjacent)
        reasons.append("adjacent_terms:" + ",".join(sorted(f"{a}+{b}" for a, b in adjacent)))
    if phrase_possible and _contains_sequence(stems, query.seq):
        score += PHRASE_WEIGHT
        reasons.append("exact_phrase")
    return score, reasons


@lru_cache(maxsize=4096)
def _joined(terms: frozenset[str]) -> str:
    """TERMS sorted and joined with commas (items share a few term sets)."""
    return ",".join(sorted(terms))


def _translation_reasons(translated: frozenset[str], general: frozenset[str]) -> list[str]:
    """`glossary_terms:` for the terms hit through a Protocol glossary translation,
    `equivalent_terms:` for those hit through the general glossary (GENERAL: the terms it has
    forms for), `negation_terms:` for those hit through another word of their negation class."""
    negated = frozenset(t for t in translated if textmod.negation_forms(t))
    equivalent = (translated - negated) & general
    glossed = translated - negated - equivalent
    reasons = [f"glossary_terms:{_joined(glossed)}"] if glossed else []
    reasons += [f"equivalent_terms:{_joined(equivalent)}"] if equivalent else []
    return reasons + ([f"negation_terms:{_joined(negated)}"] if negated else [])


def role_share(query: Query, section_roles: frozenset[str]) -> int:
    """The role bonus of an item in a section that names SECTION_ROLES (0: none the question
    names)."""
    names = section_roles & query.roles.keys()
    if not names:
        return 0
    return share(query, frozenset().union(*(query.roles[name] for name in names)), ROLE_WEIGHT)


def _role(query: Query, item: Item, section_roles: frozenset[str]) -> tuple[int, list[str]]:
    """The role bonus: the item lies in a section the question names."""
    role = role_share(query, section_roles)
    if not section_roles & query.roles.keys():
        return 0, []
    return role, [ROLE_REASONS.get(item.source_path, SECTION_ROLE_REASON)]


def score_item(
    query: Query,
    item: Item,
    hits: frozenset[str],
    translated: frozenset[str],
    section_roles: frozenset[str],
    recency: dict[str, int],
    context: str = "",
    document: int = 0,
) -> tuple[int, tuple[str, ...]]:
    """(score, selection reasons) of ITEM, which holds the query terms HITS; CONTEXT is its
    parent bullet's or list label's text (`lists`), DOCUMENT its document's points
    (`documents`)."""
    score, reasons = _evidence(query, item, hits, translated)
    if document and item.kind != "heading":  # an empty section's heading: no content to lift
        score += document
        reasons.append("document_score")
    if query.historical and item.temporal_status in HISTORICAL_INTENT_WEIGHT:
        score += HISTORICAL_INTENT_WEIGHT[item.temporal_status]
        reasons.append("historical_query_intent")
    score += AUTHORITY_WEIGHT[item.authority_class] + TEMPORAL_WEIGHT[item.temporal_status]
    reasons += [
        f"authority:{item.authority_class}",
        f"temporal:{item.temporal_status}",
        "exact_project_scope",
    ]
    role, role_reasons = _role(query, item, section_roles)
    score += role
    reasons += role_reasons
    written, written_reasons = _written_for(query, item, context)
    score += written
    reasons += written_reasons
    if item.timestamp and item.authority_class != "CANONICAL":  # canonical: current by rule
        score += recency[item.timestamp]
        reasons.append("explicit_timestamp")
    if item.section:
        score += SECTION_WEIGHT
        reasons.append("section_provenance")
    return score, tuple(reasons)


def _written_for(query: Query, item: Item, context: str) -> tuple[int, list[str]]:
    """The question-intent and decision-section points (the item is written to answer the
    kind of question asked, or records what was decided) less the label's (it introduces
    what follows it)."""
    score, reasons = 0, []
    text = f"{context}\n{item.text}"
    in_status = item.source_path == STATUS_PATH
    answered = vocabulary.item_answers(query.intents, item.section, text, in_status)
    if answered:
        score += INTENT_WEIGHT
        reasons.append(f"question_intent:{_joined(answered)}")
    if vocabulary.records_decision(item.section) or vocabulary.labels_decision(item.text):
        score += DECISION_WEIGHT
        reasons.append("decision_section")
    if item.kind == "paragraph" and lists.is_label(item.text):
        score -= LABEL_WEIGHT
        reasons.append(LABEL_REASON)
    return score, reasons


def evidence_bound(query: Query, hits: frozenset[str]) -> int:
    """The most the lexical share, the adjacent-terms and the phrase bonus can give an item
    holding HITS."""
    phrase_possible = len(query.seq) >= 2 and len(hits) == len(query.terms)
    adjacent = ADJACENT_WEIGHT * _pairs_possible(query, hits)
    return lexical(query, hits) + adjacent + (PHRASE_WEIGHT if phrase_possible else 0)


def prior_bound(query: Query, source: Source, recency: dict[str, int]) -> int:
    """The most authority, time, recency and section provenance can give an item of SOURCE
    (`score_item` without its evidence and role: exact but for the section's 3 points)."""
    score = AUTHORITY_WEIGHT[source.authority_class] + TEMPORAL_WEIGHT[source.temporal_status]
    if query.historical:
        score += HISTORICAL_INTENT_WEIGHT.get(source.temporal_status, 0)
    if source.timestamp and source.authority_class != "CANONICAL":
        score += recency[source.timestamp]
    return score + SECTION_WEIGHT + DECISION_WEIGHT + (INTENT_WEIGHT if query.intents else 0)
