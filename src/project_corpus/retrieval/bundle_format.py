"""The shape of a Context Bundle v1 (docs/bundle.md): its keys and their JSON types and the
bundle hash (the envelope bound is `core.bounds.BOUNDS.envelope_bytes`).

Apart from `bundle.py` (which compiles bundles) so that a receipt and the doctor's
`--bundle` check, which only verify one, do not import retrieval (~5 ms of a receipt's start).
"""

from __future__ import annotations

from project_corpus.core.jsonio import canonical_sha256

# Top-level keys of a bundle and their JSON types (a receipt refuses anything else).
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
HASH_EXCLUDED = ("created_at", "bundle_sha256")


def bundle_hash(bundle: dict[str, object]) -> str:
    """SHA-256 of the canonical JSON of BUNDLE without `created_at` and `bundle_sha256`."""
    return canonical_sha256(
        {key: value for key, value in bundle.items() if key not in HASH_EXCLUDED}
    )
