"""Context Bundle v1 (SPEC §6): `compile_bundle`.

A bundle is a token-budgeted, hash-stamped set of pointers into the scoped sources for one
query: bounded structural summaries of PROJECT, STATUS and the active Task first, then the
ranked items that fit. Receipts are in `receipt.py`. The design decisions are written down
in `docs/bundle.md`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from project_corpus.corpus.items import make_item
from project_corpus.corpus.markdown import COMMENT_RE
from project_corpus.corpus.markdown import FENCE_RE
from project_corpus.corpus.protocol import PROJECT_KEYS
from project_corpus.corpus.protocol import PROJECT_SECTIONS
from project_corpus.corpus.protocol import STATUS_KEYS
from project_corpus.corpus.protocol import STATUS_SECTIONS
from project_corpus.corpus.protocol import TASK_SECTIONS
from project_corpus.corpus.protocol import section_text
from project_corpus.errors import ContextError
from project_corpus.jsonio import canonical_bytes
from project_corpus.jsonio import canonical_sha256
from project_corpus.models import INDEX_SCHEMA_VERSION
from project_corpus.models import PROJECT_PATH
from project_corpus.models import STATUS_PATH
from project_corpus.models import Corpus
from project_corpus.models import Document
from project_corpus.models import Item
from project_corpus.models import Source
from project_corpus.models import Span
from project_corpus.retrieval import text as textmod
from project_corpus.retrieval.rank import Result
from project_corpus.retrieval.rank import check_query
from project_corpus.retrieval.rank import search
from project_corpus.timeparse import utc_now

SCHEMA_VERSION = "1"
BUNDLE_TYPES: dict[str, type] = {
    "schema_version": str,
    "project_id": str,
    "query": str,
    "created_at": str,
    "index_schema_version": str,
    "source_snapshot_digest": str,
    "source_count": int,
    "selected_source_snapshot": dict,
    "mandatory_reads": list,
    "budget": dict,
    "items": list,
    "serialized_bytes": int,
    "non_authoritative": bool,
    "bundle_sha256": str,
}
MIN_TOKENS = 80
MAX_TOKENS = 20_000
DEFAULT_TOKENS = 1200
MAX_ENVELOPE_BYTES = 65_536
MAX_ITEMS = 50
RETRIEVAL_LIMIT = 100
SUMMARY_RESERVE = 8
MANDATORY_SCORE = 10_000
ESTIMATOR = "utf8_excerpt_bytes_div_4_ceil"
SUMMARY_SEPARATOR = " | "
EMPTY_SECTION = "(empty)"
MISSING_SECTION = "(missing)"
HASH_EXCLUDED = ("created_at", "bundle_sha256")
_BUDGET_RE = re.compile(r"[0-9]{1,6}")


class Mandatory(NamedTuple):
    """What the bounded summary of one mandatory source is made of."""

    kind: str  # project | status | task
    keys: tuple[str, ...]
    sections: tuple[str, ...]


PROJECT_SUMMARY = Mandatory("project", PROJECT_KEYS, PROJECT_SECTIONS)
STATUS_SUMMARY = Mandatory("status", STATUS_KEYS, STATUS_SECTIONS)
TASK_SUMMARY = Mandatory("task", ("Task-ID", "Task-Status", "Created-At"), TASK_SECTIONS)

# Top-level keys of a bundle and their JSON types (a receipt refuses anything else).


# --- budget and text measures ---------------------------------------------------------------


def check_budget(value: object) -> int:
    """`max_tokens` as an int from 80 to 20,000 (an int, or the CLI's decimal string)."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and _BUDGET_RE.fullmatch(value.strip()):
        number = int(value.strip())
    if number is None or not MIN_TOKENS <= number <= MAX_TOKENS:
        shown = repr(value)[:40]
        raise ContextError(
            "BUDGET_INVALID",
            f"max_tokens must be an integer from {MIN_TOKENS} to {MAX_TOKENS}, got {shown}",
        )
    return number


def estimate_tokens(text: str) -> int:
    """tokens(text) = max(1, ceil(UTF-8 bytes / 4))."""
    return max(1, -(-len(text.encode("utf-8")) // 4))


def cut_to_bytes(text: str, limit: int) -> str:
    """TEXT cut to at most LIMIT UTF-8 bytes without splitting a character."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore").rstrip()


# --- mandatory summaries ----------------------------------------------------------------------


def first_content_line(doc: Document, title: str) -> str:
    """The first content line of the H2 section TITLE, never reaching into the next section.

    Sub-headings, HTML comments (suppression markers) and fence lines are structure, not
    content; a section without content gives `(empty)`, an absent one `(missing)`.
    """
    headings = {h.line for h in doc.headings}
    for number, line in section_text(doc, title):
        if number not in headings and not COMMENT_RE.match(line) and not FENCE_RE.match(line):
            return line.strip()
    present = any(h.level == 2 and h.title == title for h in doc.headings)
    return EMPTY_SECTION if present else MISSING_SECTION


def summary_text(doc: Document, spec: Mandatory) -> str:
    """Metadata lines, then `Heading: first content line` per required section, joined."""
    parts = [
        f"{key}: {value}".rstrip()
        for key in spec.keys
        if (value := doc.meta_value(key)) is not None
    ]
    parts += [f"{title}: {first_content_line(doc, title)}" for title in spec.sections]
    return SUMMARY_SEPARATOR.join(parts)


def mandatory_sources(corpus: Corpus) -> list[tuple[Mandatory, Source]]:
    """PROJECT, STATUS and the active Task when it is a source of this project."""
    chosen = []
    for spec, path in ((PROJECT_SUMMARY, PROJECT_PATH), (STATUS_SUMMARY, STATUS_PATH)):
        source = corpus.source(path)
        if source is None:
            raise ContextError("CONTEXT_SCOPE", f"{path} is not a scoped source")
        chosen.append((spec, source))
    task = corpus.source(corpus.active_path) if corpus.active_path else None
    if task is not None and not task.foreign:
        chosen.append((TASK_SUMMARY, task))
    return chosen


def mandatory_entry(
    spec: Mandatory, source: Source, allowance: int
) -> tuple[dict[str, object], dict[str, object]]:
    """(bundle item, mandatory read) of one mandatory source; the summary fits ALLOWANCE tokens."""
    text = cut_to_bytes(summary_text(source.doc, spec), allowance * 4)
    line_end = max(1, source.line_count)
    item = make_item(source, Span("summary", 1, line_end, "", 0, text))
    reasons = (f"mandatory_{spec.kind}", "bounded_authority_summary")
    read: dict[str, object] = {
        "source_path": source.path,
        "source_sha256": source.sha256,
        "reason": f"full_primary_{spec.kind}_read_required",
        "required_sections": list(spec.sections),
    }
    return Result(item, MANDATORY_SCORE, reasons).as_dict(), read


# --- ranked items -----------------------------------------------------------------------------


def ranked_results(corpus: Corpus, query: str) -> tuple[list[Result], int]:
    """Query results (limit 100) after the history filter, and how many it excluded."""
    results = search(corpus, query, RETRIEVAL_LIMIT)
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
        if len(items) >= MAX_ITEMS:
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


def _budget(
    max_tokens: int, estimated: int, budget: int, envelope: int, history: int
) -> dict[str, object]:
    return {
        "max_tokens": max_tokens,
        "estimated_tokens": estimated,
        "estimator": ESTIMATOR,
        "max_envelope_bytes": MAX_ENVELOPE_BYTES,
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
        "schema_version": SCHEMA_VERSION,
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
        "serialized_bytes": MAX_ENVELOPE_BYTES,
        "non_authoritative": True,
        "bundle_sha256": "0" * 64,
    }


def bundle_hash(bundle: dict[str, object]) -> str:
    """SHA-256 of the canonical JSON of BUNDLE without `created_at` and `bundle_sha256`."""
    return canonical_sha256(
        {key: value for key, value in bundle.items() if key not in HASH_EXCLUDED}
    )


def _length_with(bundle: dict[str, object], size: int) -> int:
    """The canonical length of BUNDLE once `serialized_bytes` is SIZE.

    The length only grows with the digit count of SIZE, so iterating from 0 reaches the
    fixed point without oscillating.
    """
    bundle["serialized_bytes"] = size
    return len(canonical_bytes(bundle))


def _seal(bundle: dict[str, object]) -> dict[str, object]:
    """Set `serialized_bytes` to the canonical length including itself, then the hash."""
    size = 0
    while size != (actual := _length_with(bundle, size)):  # settles within three rounds
        size = actual
    if size > MAX_ENVELOPE_BYTES:
        raise ContextError(
            "BUNDLE_LIMIT", f"the bundle needs {size} bytes, more than {MAX_ENVELOPE_BYTES}"
        )
    bundle["bundle_sha256"] = bundle_hash(bundle)
    return bundle


def compile_bundle(
    corpus: Corpus, query: str, max_tokens: int = DEFAULT_TOKENS
) -> dict[str, object]:
    """The Context Bundle v1 for QUERY over a verified CORPUS (SPEC §6)."""
    max_tokens = check_budget(max_tokens)
    check_query(query)
    specs = mandatory_sources(corpus)
    allowance = max(1, (max_tokens - SUMMARY_RESERVE) // len(specs))
    entries = [mandatory_entry(spec, source, allowance) for spec, source in specs]
    items = [item for item, _ in entries]
    bundle = _skeleton(corpus, query, max_tokens, items, [read for _, read in entries])
    base = len(canonical_bytes(bundle))
    if base > MAX_ENVELOPE_BYTES:
        raise ContextError(
            "BUNDLE_LIMIT",
            f"the mandatory summaries alone need {base} bytes, more than {MAX_ENVELOPE_BYTES}",
        )
    mandatory_tokens = sum(estimate_tokens(str(item["text"])) for item in items)
    results, filtered = ranked_results(corpus, query)
    snapshot = bundle["selected_source_snapshot"]
    assert isinstance(snapshot, dict)
    used, over_budget, over_envelope = select_ranked(
        results, items, snapshot, max_tokens - mandatory_tokens, MAX_ENVELOPE_BYTES - base
    )
    bundle["budget"] = _budget(
        max_tokens, mandatory_tokens + used, over_budget, over_envelope, filtered
    )
    return _seal(bundle)
