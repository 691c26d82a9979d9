"""Meta-tests: the check registry is consistent, documented, and docs/checks.md is current."""

from __future__ import annotations

import inspect
import re

import pytest

from project_corpus.core.errors import ERRORS
from project_corpus.doctor import CHECKS
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import check
from project_corpus.output import docs
from tests.conftest import REPO

CHECKS_MD = REPO / "docs" / "checks.md"
GATE = {
    "MISSING_REQUIRED_PATH",
    "REQUIRED_PATH_LINK",
    "INVALID_ENCODING",
    "MISSING_METADATA",
    "INVALID_METADATA",
    "MISSING_SECTION",
    "DUPLICATE_SECTION",
    "SECTION_ORDER",
    "PROJECT_ID_MISMATCH",
    "ROLE_OVERLAP",
    "PROJECT_ABSOLUTE_ROOT",
    "GENERATED_VIEW_UNMARKED",
    "CONTEXT_SCOPE",
    "SOURCE_LINK",
    "SOURCE_PATH",
    "POLICY_PARSE",
    "POLICY_UNKNOWN_KEY",
    "POLICY_SCHEMA",
    "POLICY_VERSION",
    "POLICY_PROJECT_ID",
    "POLICY_PROFILE",
    "POLICY_CAPABILITY",
    "POLICY_PROFILE_CAPABILITY",
    "POLICY_SCOPE",
    "POLICY_WRITE_REQUIREMENTS",
}
SPEC_TABLE = {  # SPEC §8, besides the gate codes
    "INDEX_MISSING": "FAIL",
    "INDEX_CORRUPT": "FAIL",
    "INDEX_SCHEMA_MISMATCH": "FAIL",
    "INDEX_PATH": "FAIL",
    "INDEX_PROJECT_MISMATCH": "FAIL",
    "MISSING_SOURCE": "FAIL",
    "STALE_INDEX": "FAIL",
    "BROKEN_PROVENANCE": "FAIL",
    "SUPERSEDED_RANKED_CURRENT": "FAIL",
    "DUPLICATE_MEMORY_ITEM": "WARN",
    "INVALID_TEMPORAL_RELATION": "FAIL",
    "ORPHAN_SUPERSESSION": "WARN",
    "TEMPORAL_CYCLE": "FAIL",
    "MISSING_ARTIFACT_DIR": "WARN",
    "CACHE_NOT_IGNORED": "WARN",
    "ARTIFACT_SHAPE": "WARN",
    "OVERSIZED_STATUS": "WARN",
    "VOLATILE_WITHOUT_FRESHNESS": "WARN",
    "INVALID_TIMESTAMP": "WARN",
    # SPEC §8 rev. 4, "Mistakes people make, caught"
    "UNKNOWN_TASK_STATUS": "WARN",
    "SCAFFOLD_PLACEHOLDER": "WARN",
    "ACTIVE_TASK_MISSING": "FAIL",
    "ACTIVE_TASK_CLOSED": "WARN",
    "LIFECYCLE_MISMATCH": "WARN",
    "BROKEN_REFERENCE": "WARN",
    # Beyond the SPEC table (docs/decisions.md, #25): a deleted cited report blocks a commit.
    "CITED_REPORT_MISSING": "FAIL",
    "STATUS_BEHIND_EVIDENCE": "WARN",
    "UNVERIFIED_STATUS": "WARN",
    "STATUS_AGE": "WARN",
    "BUNDLE_PROJECT_MISMATCH": "FAIL",
    "BUNDLE_SNAPSHOT": "FAIL",
    "BUNDLE_HASH": "FAIL",
    "BUNDLE_STALE_SOURCE": "FAIL",
    "BUNDLE_FULL_SNAPSHOT_MISMATCH": "FAIL",
    "CANDIDATE_WITHOUT_EVIDENCE": "FAIL",
    "CANDIDATE_SCHEMA": "FAIL",
    "CANDIDATE_PROJECT": "FAIL",
    "CANDIDATE_ID": "FAIL",
    "CANDIDATE_KIND": "FAIL",
    "CANDIDATE_STATEMENT": "FAIL",
    "CANDIDATE_TIME": "FAIL",
    "CANDIDATE_EVIDENCE": "FAIL",
    "INVALID_SUPPRESSION": "WARN",
    "UNUSED_SUPPRESSION": "WARN",
}


def test_checks_md_is_generated_from_the_registry() -> None:
    assert CHECKS_MD.read_text(encoding="utf-8") == docs.render_checks(), (
        "run `python -m project_corpus.output.docs`"
    )


def test_registry_is_exactly_the_spec_table() -> None:
    assert [c.code for c in CHECKS if c.gate] == [c.code for c in CHECKS if c.code in GATE]
    assert {c.code for c in CHECKS if c.gate} == GATE
    assert {c.code: c.severity for c in CHECKS if not c.gate} == SPEC_TABLE
    assert all(c.severity == "FAIL" for c in CHECKS if c.gate)


def test_codes_and_names_are_unique_and_matching() -> None:
    assert len({c.code for c in CHECKS}) == len(CHECKS)
    for item in CHECKS:
        assert re.fullmatch(r"[A-Z][A-Z0-9_]*", item.code)
        assert item.name == item.code.lower().replace("_", "-")
        assert re.fullmatch(r"[A-Z][A-Za-z]+", item.pascal_name)


@pytest.mark.parametrize("item", CHECKS, ids=lambda c: c.code)
def test_every_check_is_documented(item: Check) -> None:
    summary = item.summary
    assert summary.endswith("."), summary
    assert len(summary) <= 100, summary
    assert "\n## Why it matters\n" in item.doc
    assert "\n## Fix\n" in item.doc
    assert item.code in ERRORS or f"### `{item.code}`" in CHECKS_MD.read_text(encoding="utf-8")
    assert item.run.__module__ in docs.FAMILIES


@pytest.mark.parametrize("item", CHECKS, ids=lambda c: c.code)
def test_a_code_in_both_registries_has_one_description(item: Check) -> None:
    """An error code that is also a check is described once, in `ERRORS`: the check's summary
    (SARIF shortDescription, docs/checks.md, finding messages) and docs/errors.md read it, and
    the check's docstring does not say it again. Any other check's docstring starts with it."""
    own = inspect.cleandoc(item.run.__doc__ or "")
    if item.code in ERRORS:
        assert item.summary == ERRORS[item.code]
        assert item.doc == f"{ERRORS[item.code]}\n\n{own}"
        assert ERRORS[item.code] not in own
        assert not own.split("\n", 1)[0].endswith(".") or own.startswith("Detected by ")
        row = f"| `{item.code}` | 2 | {ERRORS[item.code].replace('|', chr(92) + '|')} |"
        assert row in docs.render_errors()
    else:
        assert item.summary == own.split("\n", 1)[0]
        assert not item.summary.startswith("#")


def test_engine_codes_are_registered_errors() -> None:
    for code in GATE | {
        "INDEX_MISSING",
        "INDEX_CORRUPT",
        "INDEX_SCHEMA_MISMATCH",
        "INDEX_PATH",
        "INDEX_PROJECT_MISMATCH",
        "BUNDLE_HASH",
    }:
        assert code in ERRORS, code
    candidate_codes = {c.code for c in CHECKS if c.code.startswith("CANDIDATE_")}
    assert candidate_codes - set(ERRORS) == {"CANDIDATE_WITHOUT_EVIDENCE"}


def test_check_declarations_are_validated() -> None:
    with pytest.raises(ValueError, match="bad check"):
        check("X_CODE", "x-code", severity="ERROR")
