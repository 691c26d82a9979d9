"""The check registry (docs/doctor.md): every check, in the order of `docs/checks.md` and of SARIF
`rules[]`, one module per family. Each check's docstring is its documentation.

Families: `conformance` and `policy` (the gate), `relations`, `integrity`, `content`,
`hygiene`, `repository`, `index`, `bundles`, `candidates`, `changes` (`context review`).
The machinery they share is in the underscore modules (`_records`, `_config`, `_inputs`,
`_report`, `_selection`, `_suppress`, `_volatile`, `_gitignore`).
"""

from __future__ import annotations

from project_corpus.doctor import bundles
from project_corpus.doctor import candidates
from project_corpus.doctor import changes
from project_corpus.doctor import conformance
from project_corpus.doctor import content
from project_corpus.doctor import hygiene
from project_corpus.doctor import index
from project_corpus.doctor import integrity
from project_corpus.doctor import policy
from project_corpus.doctor import relations
from project_corpus.doctor import repository
from project_corpus.doctor.records import Check

CHECKS: tuple[Check, ...] = (
    # Protocol conformance: the gate (docs/protocol.md)
    conformance.missing_required_path,
    conformance.required_path_link,
    conformance.invalid_encoding,
    conformance.missing_metadata,
    conformance.invalid_metadata,
    conformance.missing_section,
    conformance.duplicate_section,
    conformance.section_order,
    conformance.project_id_mismatch,
    conformance.role_overlap,
    conformance.project_absolute_root,
    conformance.generated_view_unmarked,
    conformance.context_scope,
    conformance.source_link,
    conformance.source_path,
    policy.policy_parse,
    policy.policy_unknown_key,
    policy.policy_schema,
    policy.policy_version,
    policy.policy_project_id,
    policy.policy_profile,
    policy.policy_capability,
    policy.policy_profile_capability,
    policy.policy_scope,
    policy.policy_write_requirements,
    # The stored index (--index)
    index.index_missing,
    index.index_corrupt,
    index.index_schema_mismatch,
    index.index_path,
    index.index_project_mismatch,
    index.missing_source,
    index.stale_index,
    index.broken_provenance,
    index.superseded_ranked_current,
    # Supersession
    relations.invalid_temporal_relation,
    relations.orphan_supersession,
    relations.temporal_cycle,
    # Content
    content.duplicate_memory_item,
    content.volatile_without_freshness,
    content.invalid_timestamp,
    content.artifact_shape,
    content.oversized_status,
    # Memory integrity
    integrity.active_task_missing,
    integrity.active_task_closed,
    integrity.lifecycle_mismatch,
    integrity.broken_reference,
    integrity.cited_report_missing,
    integrity.status_behind_evidence,
    integrity.unverified_status,
    integrity.status_age,
    # Repository
    repository.missing_artifact_dir,
    repository.cache_not_ignored,
    # Suppression hygiene
    hygiene.invalid_suppression,
    hygiene.unused_suppression,
    # A bundle (--bundle)
    bundles.bundle_project_mismatch,
    bundles.bundle_snapshot,
    bundles.bundle_hash_check,
    bundles.bundle_stale_source,
    bundles.bundle_full_snapshot_mismatch,
    # Candidates (--candidate)
    candidates.candidate_schema,
    candidates.candidate_project,
    candidates.candidate_id,
    candidates.candidate_kind,
    candidates.candidate_statement,
    candidates.candidate_time,
    candidates.candidate_evidence,
    candidates.candidate_without_evidence,
    # The change (context review)
    changes.review_policy_widened,
    changes.review_open_task_removed,
    changes.review_lint_config_changed,
)
CHECKS_BY_CODE: dict[str, Check] = {c.code: c for c in CHECKS}
GATES: dict[str, bool] = {c.code: c.gate for c in CHECKS}
