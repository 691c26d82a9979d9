"""Receipt v1 (docs/bundle.md): a record that a verified bundle was delivered to a consumer.

A receipt does not prove that the context was used; the caller records delivery.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.errors import ContextError
from project_corpus.core.jsonio import canonical_bytes
from project_corpus.core.timeparse import utc_now
from project_corpus.core.versions import BUNDLE_SCHEMA_VERSION
from project_corpus.core.versions import RECEIPT_SCHEMA_VERSION
from project_corpus.retrieval.bundle_format import BUNDLE_TYPES
from project_corpus.retrieval.bundle_format import bundle_hash

MAX_CONSUMER_CHARS = 128


def _shape_problem(bundle: object) -> str | None:
    """Why BUNDLE is not shaped like a Context Bundle v1 (None when it is)."""
    if not isinstance(bundle, dict):
        return "the bundle is not a JSON object"
    keys = {str(key) for key in bundle}
    if keys != set(BUNDLE_TYPES):
        odd = sorted(keys.symmetric_difference(BUNDLE_TYPES))
        return f"the bundle's keys differ from Context Bundle v1: {', '.join(odd)}"[:300]
    for key, kind in BUNDLE_TYPES.items():
        value = bundle[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"{key} is not a JSON {kind.__name__}"
    if bundle["schema_version"] != BUNDLE_SCHEMA_VERSION or bundle["non_authoritative"] is not True:
        return f'schema_version must be "{BUNDLE_SCHEMA_VERSION}" and non_authoritative true'
    if not all(
        isinstance(item, dict) and isinstance(item.get("item_id"), str) for item in bundle["items"]
    ):
        return "every item must be an object with a string item_id"
    return None


def verify_bundle(bundle: object) -> dict[str, object]:
    """BUNDLE after checking its shape and hash (BUNDLE_HASH) and its size (BUNDLE_SIZE)."""
    problem = _shape_problem(bundle)
    if problem is not None:
        raise ContextError("BUNDLE_HASH", f"malformed bundle: {problem}")
    assert isinstance(bundle, dict)
    try:
        actual_hash = bundle_hash(bundle)
        size = len(canonical_bytes(bundle))
    except (TypeError, ValueError, RecursionError) as exc:
        raise ContextError("BUNDLE_HASH", f"malformed bundle: {type(exc).__name__}") from None
    if actual_hash != bundle["bundle_sha256"]:
        raise ContextError(
            "BUNDLE_HASH",
            "bundle_sha256 does not match the bundle's content",
            hint="the bundle was changed after it was compiled; compile it again",
        )
    if bundle["serialized_bytes"] != size or size > BOUNDS.envelope_bytes:
        raise ContextError(
            "BUNDLE_SIZE",
            f"serialized_bytes {bundle['serialized_bytes']} but the canonical"
            f" bundle has {size} bytes (bound {BOUNDS.envelope_bytes})",
        )
    return bundle


def check_consumer(consumer: object) -> str:
    """A consumer ID: 1..128 characters, not blank, no control characters."""
    if (
        not isinstance(consumer, str)
        or not 1 <= len(consumer) <= MAX_CONSUMER_CHARS
        or not consumer.strip()
        or any(unicodedata.category(ch) in ("Cc", "Cs") for ch in consumer)
    ):
        raise ContextError(
            "CONSUMER_INVALID",
            f"the consumer ID must be 1 to {MAX_CONSUMER_CHARS} characters,"
            " not blank, without control characters",
        )
    return consumer


def delivered_ids(bundle: dict[str, object], requested: object) -> list[str]:
    """The delivered item IDs: REQUESTED (unique IDs of BUNDLE's items) or all, in bundle order."""
    items = bundle["items"]
    assert isinstance(items, list)
    known = [str(item["item_id"]) for item in items]
    chosen = known if requested is None else requested
    if not isinstance(chosen, list) or not chosen or not all(isinstance(i, str) for i in chosen):
        raise ContextError(
            "RECEIPT_ITEMS", "delivered item IDs must be a non-empty list of strings"
        )
    repeated = sorted(i for i, n in Counter(chosen).items() if n > 1)
    if repeated:
        raise ContextError("RECEIPT_ITEMS", f"duplicate item IDs: {', '.join(repeated)}"[:300])
    unknown = sorted(set(chosen) - set(known))
    if unknown:
        raise ContextError("RECEIPT_ITEMS", f"not items of this bundle: {', '.join(unknown)}"[:300])
    return list(chosen)


def make_receipt(
    bundle: object, consumer: object, delivered_item_ids: list[str] | None = None
) -> dict[str, object]:
    """A Receipt v1: BUNDLE (verified) was delivered to CONSUMER (docs/bundle.md)."""
    checked = verify_bundle(bundle)
    consumer_id = check_consumer(consumer)
    ids = delivered_ids(checked, delivered_item_ids)
    return {
        "schema_version": RECEIPT_SCHEMA_VERSION,
        "project_id": checked["project_id"],
        "bundle_sha256": checked["bundle_sha256"],
        "delivered_item_ids": ids,
        "consumer": consumer_id,
        "created_at": utc_now(),
        "source_snapshot_digest": checked["source_snapshot_digest"],
        "non_authoritative": True,
    }
