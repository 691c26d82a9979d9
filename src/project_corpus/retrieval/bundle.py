"""Context Bundle v1 (docs/bundle.md): `compile_bundle`.

A bundle is a token-budgeted, hash-stamped set of pointers into the scoped sources for one
query: bounded structural summaries of PROJECT, STATUS and the active Task first, then the
ranked items that fit. Receipts are in `receipt.py`. The design decisions are written down
in `docs/bundle.md`; the bundle's keys, bound and hash are in `bundle_format.py`.
"""

from __future__ import annotations

from typing import NamedTuple

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.errors import ContextError
from project_corpus.core.jsonio import canonical_bytes
from project_corpus.core.records import Corpus
from project_corpus.core.records import Item
from project_corpus.core.timeparse import utc_now
from project_corpus.core.versions import BUNDLE_SCHEMA_VERSION
from project_corpus.core.versions import INDEX_SCHEMA_VERSION
from project_corpus.retrieval import text as textmod
from project_corpus.retrieval.analysis import Analysis
from project_corpus.retrieval.bundle_format import bundle_hash
from project_corpus.retrieval.order import Result
from project_corpus.retrieval.rank import Ask
from project_corpus.retrieval.rank import analysis_of
from project_corpus.retrieval.rank import check_query
from project_corpus.retrieval.rank import parse_int
from project_corpus.retrieval.rank import rank_corpus
from project_corpus.retrieval.summary import mandatory_entries

# The bundle ranks from the longest result list a query may ask for.
RETRIEVAL_LIMIT = BOUNDS.limit.high
ESTIMATOR = "utf8_excerpt_bytes_div_4_ceil"
JSONDict = dict[str, object]
# {max_tokens: a corpus's mandatory (item, read) pairs}: a memo kept by the caller that
# compiles several bundles of one corpus (eval: two per case), never inside a record.
Mandatory = dict[int, list[tuple[JSONDict, JSONDict]]]


class BundleAsk(NamedTuple):
    """A bundle request validated once (`bundle_ask`): query text, its stems, the budget."""

    query: str
    stems: list[str]
    max_tokens: int


# --- budget and text measures ---------------------------------------------------------------


def check_budget(value: object) -> int:
    """`max_tokens` as an int in `BOUNDS.max_tokens` (an int, or the CLI's decimal string)."""
    number = parse_int(value)
    if number is None or not BOUNDS.max_tokens.holds(number):
        shown = repr(value)[:40]
        low, high = BOUNDS.max_tokens.low, BOUNDS.max_tokens.high
        raise ContextError(
            "BUDGET_INVALID", f"max_tokens must be an integer from {low} to {high}, got {shown}"
        )
    return number


def bundle_ask(query: object, max_tokens: object = BOUNDS.max_tokens.default) -> BundleAsk:
    """MAX_TOKENS and QUERY checked, in this order: BUDGET_INVALID, then QUERY_INVALID /
    QUERY_EMPTY. Every entry validates here, before any source is read."""
    budget = check_budget(max_tokens)
    stems = check_query(query)
    assert isinstance(query, str)  # check_query refuses anything else
    return BundleAsk(query, stems, budget)


def estimate_tokens(text: str) -> int:
    """tokens(text) = max(1, ceil(UTF-8 bytes / 4))."""
    return max(1, -(-len(text.encode("utf-8")) // 4))


# --- ranked items -----------------------------------------------------------------------------


def ranked_results(query: str, results: list[Result]) -> tuple[list[Result], int]:
    """The query's RESULTS (at most `RETRIEVAL_LIMIT`) after the history filter, and how many
    it excluded."""
    if textmod.has_historical_intent(textmod.query_stems(query)):
        return results, 0
    excluded = {"superseded"}
    if any(r.item.temporal_status == "current" for r in results):
        excluded.add("historical")
    kept = [r for r in results if r.item.temporal_status not in excluded]
    return kept, len(results) - len(kept)


def _entry_cost(entry: dict[str, object], item: Item, snapshot: dict[str, str]) -> int:
    """Bytes an entry adds to the canonical bundle: `,item` plus `,"path":"sha"` if new."""
    cost = len(canonical_bytes(entry)) + 1
    if item.source_path not in snapshot:
        cost += len(canonical_bytes({item.source_path: item.source_sha256})) - 1
    return cost


def select_ranked(
    results: list[Result],
    items: list[dict[str, object]],
    snapshot: dict[str, str],
    tokens_left: int,
    bytes_left: int,
) -> tuple[int, int, int]:
    """Append the results that fit to ITEMS (and their sources to SNAPSHOT), in rank order.

    Returns (tokens used, omitted for the token budget, omitted for the envelope).
    """
    seen = {str(entry["item_id"]) for entry in items}
    used = over_budget = over_envelope = 0
    for result in results:
        if len(items) >= BOUNDS.bundle_items:
            break
        item = result.item
        if item.item_id in seen:
            continue
        tokens = estimate_tokens(item.text)
        if tokens > tokens_left - used:
            over_budget += 1
            continue
        entry = result.as_dict()
        cost = _entry_cost(entry, item, snapshot)
        if cost > bytes_left:
            over_envelope += 1
            continue
        items.append(entry)
        snapshot[item.source_path] = item.source_sha256
        seen.add(item.item_id)
        used, bytes_left = used + tokens, bytes_left - cost
    return used, over_budget, over_envelope


# --- the bundle -------------------------------------------------------------------------------


def _mandatory(
    corpus: Corpus, max_tokens: int, memo: Mandatory | None
) -> list[tuple[JSONDict, JSONDict]]:
    """`mandatory_entries(corpus, max_tokens)`, as fresh dicts each call. The mandatory part
    depends on the corpus and the budget only: a caller that compiles several bundles of one
    corpus keeps it in MEMO, per budget."""
    entries = None if memo is None else memo.get(max_tokens)
    if entries is None:
        entries = mandatory_entries(corpus, max_tokens)
        if memo is not None:
            memo[max_tokens] = entries
    return [(dict(item), dict(read)) for item, read in entries]


def _budget(
    max_tokens: int, estimated: int, budget: int, envelope: int, history: int
) -> dict[str, object]:
    return {
        "max_tokens": max_tokens,
        "estimated_tokens": estimated,
        "estimator": ESTIMATOR,
        "max_envelope_bytes": BOUNDS.envelope_bytes,
        "omitted": {"budget": budget, "envelope": envelope, "history_filter": history},
    }


def _skeleton(
    corpus: Corpus,
    query: str,
    max_tokens: int,
    items: list[dict[str, object]],
    reads: list[dict[str, object]],
) -> dict[str, object]:
    """The bundle with its mandatory part; numbers that grow later hold their widest value,
    so that its canonical length bounds the final one for the same items."""
    most = RETRIEVAL_LIMIT
    return {
        "schema_version": BUNDLE_SCHEMA_VERSION,
        "project_id": corpus.project_id,
        "query": query,
        "created_at": utc_now(),
        "index_schema_version": INDEX_SCHEMA_VERSION,
        "source_snapshot_digest": corpus.snapshot_digest,
        "source_count": len(corpus.sources),
        "selected_source_snapshot": {str(i["source_path"]): str(i["source_sha256"]) for i in items},
        "mandatory_reads": reads,
        "budget": _budget(max_tokens, max_tokens, most, most, most),
        "items": items,
        "serialized_bytes": BOUNDS.envelope_bytes,
        "non_authoritative": True,
        "bundle_sha256": "0" * 64,
    }


def _seal(bundle: dict[str, object]) -> dict[str, object]:
    """Set `serialized_bytes` to the canonical length including itself, then the hash.

    The canonical JSON of `serialized_bytes: N` is N's decimal digits, so the length for any
    N is the length for 0 plus N's extra digits: one encoding instead of one per round. The
    length only grows with the digit count, so iterating from 0 reaches the fixed point
    without oscillating (within three rounds).
    """
    bundle["serialized_bytes"] = 0
    base = len(canonical_bytes(bundle)) - 1
    size = 0
    while size != (actual := base + len(str(size))):
        size = actual
    bundle["serialized_bytes"] = size
    if size > BOUNDS.envelope_bytes:
        raise ContextError(
            "BUNDLE_LIMIT", f"the bundle needs {size} bytes, more than {BOUNDS.envelope_bytes}"
        )
    bundle["bundle_sha256"] = bundle_hash(bundle)
    return bundle


def compile_bundle(
    corpus: Corpus, query: str, max_tokens: int = BOUNDS.max_tokens.default
) -> dict[str, object]:
    """The Context Bundle v1 for QUERY over a verified CORPUS (docs/bundle.md). To read the
    stored index (checked for staleness first), call `Workspace(root).bundle(query)`."""
    return bundle_and_search(corpus, bundle_ask(query, max_tokens))[0]


def bundle_and_search(
    corpus: Corpus,
    asked: BundleAsk,
    *,
    analysis: Analysis | None = None,
    mandatory: Mandatory | None = None,
) -> tuple[dict[str, object], list[Result]]:
    """`compile_bundle`'s bundle and the search it ranked from (`RETRIEVAL_LIMIT` results,
    before the history filter). The first N results of that search are
    `search(corpus, query, N)`'s (a kept item never yields its place to one the shorter search
    stops before): eval takes a case's search from it instead of searching again. ANALYSIS,
    when given, is CORPUS's and MANDATORY the memo of its mandatory parts (eval makes both once
    for all of its compiles)."""
    query, max_tokens = asked.query, asked.max_tokens
    analysis = analysis_of(corpus, analysis)
    entries = _mandatory(corpus, max_tokens, mandatory)
    items = [item for item, _ in entries]
    bundle = _skeleton(corpus, query, max_tokens, items, [read for _, read in entries])
    base = len(canonical_bytes(bundle))
    if base > BOUNDS.envelope_bytes:
        raise ContextError(
            "BUNDLE_LIMIT",
            f"the mandatory summaries alone need {base} bytes, more than {BOUNDS.envelope_bytes}",
        )
    mandatory_tokens = sum(estimate_tokens(str(item["text"])) for item in items)
    found = rank_corpus(corpus, Ask(query, asked.stems, RETRIEVAL_LIMIT), analysis=analysis)
    results, filtered = ranked_results(query, found)
    snapshot = bundle["selected_source_snapshot"]
    assert isinstance(snapshot, dict)
    used, over_budget, over_envelope = select_ranked(
        results, items, snapshot, max_tokens - mandatory_tokens, BOUNDS.envelope_bytes - base
    )
    bundle["budget"] = _budget(
        max_tokens, mandatory_tokens + used, over_budget, over_envelope, filtered
    )
    return _seal(bundle), found
