"""`policy.toml` conformance (docs/protocol.md): gate checks, located at the offending line."""

from __future__ import annotations

from collections.abc import Iterator

from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check


@check("POLICY_PARSE", "policy-parse", severity="FAIL", gate=True)
def policy_parse(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    Without a readable policy there is no read scope, so no source can be read safely.

    ## Fix
    Fix the TOML syntax error named in the detail (the file is read with a 1 MiB cap).
    """
    yield from this.from_snapshot(view)


@check("POLICY_UNKNOWN_KEY", "policy-unknown-key", severity="FAIL", gate=True)
def policy_unknown_key(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    Policy only narrows; an unknown key is most likely a typo of a restriction that then
    silently does nothing.

    ## Fix
    Remove or correct the key (allowed: `policy_version`, `project_id`, `profile`,
    `[capabilities] allow`, `[scopes] read/write`, `[requirements]`).
    """
    yield from this.from_snapshot(view)


@check("POLICY_SCHEMA", "policy-schema", severity="FAIL", gate=True)
def policy_schema(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    A scope list given as a string, or a missing `[scopes]` table, leaves the read scope
    undefined.

    ## Fix
    Give every key of docs/protocol.md with its type (lists of unique strings, booleans).
    """
    yield from this.from_snapshot(view)


@check("POLICY_VERSION", "policy-version", severity="FAIL", gate=True)
def policy_version(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    Another version may mean other rules that this tool does not implement.

    ## Fix
    Set `policy_version = "2.0"` after checking the policy against Protocol V2.
    """
    yield from this.from_snapshot(view)


@check("POLICY_PROJECT_ID", "policy-project-id", severity="FAIL", gate=True)
def policy_project_id(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    The policy must name the project it governs with the same ID grammar as PROJECT.

    ## Fix
    Use PROJECT's `Project-ID` (`^[a-z0-9][a-z0-9._-]{2,63}$`).
    """
    yield from this.from_snapshot(view)


@check("POLICY_PROFILE", "policy-profile", severity="FAIL", gate=True)
def policy_profile(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    The profile bounds every capability; an unknown profile bounds nothing predictable.

    ## Fix
    Choose one of the three profiles.
    """
    yield from this.from_snapshot(view)


@check("POLICY_CAPABILITY", "policy-capability", severity="FAIL", gate=True)
def policy_capability(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    Names must match `^[a-z][a-z0-9_.-]*$`; a malformed name is a typo that grants nothing.

    ## Fix
    Correct the name (e.g. `corpus.context`).
    """
    yield from this.from_snapshot(view)


@check("POLICY_PROFILE_CAPABILITY", "policy-profile-capability", severity="FAIL", gate=True)
def policy_profile_capability(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    Project content never grants a capability beyond its profile: `mcp.stdio` needs
    `SAFE_EDIT` or `MAINTAINER`, `migration.apply` needs `MAINTAINER`.

    ## Fix
    Remove the capability or choose a profile that includes it.
    """
    yield from this.from_snapshot(view)


@check("POLICY_SCOPE", "policy-scope", severity="FAIL", gate=True)
def policy_scope(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    Scopes are portable patterns relative to the project root; `../outside/**` or
    `/etc/**` would try to widen the read scope beyond the project.

    ## Fix
    Use patterns such as `.project-corpus/tasks/**` or `.project-corpus/history/2026-*.md`.
    """
    yield from this.from_snapshot(view)


@check("POLICY_WRITE_REQUIREMENTS", "policy-write-requirements", severity="FAIL", gate=True)
def policy_write_requirements(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.policy.parse_policy`.

    ## Why it matters
    Managed writes need `expected_hash`, `verified_readback` and `audit_receipt` so that a
    write can neither clobber concurrent edits nor go unrecorded.

    ## Fix
    Set the three requirements to `true`, or empty `[scopes] write`.
    """
    yield from this.from_snapshot(view)


# This family's checks, in the order of docs/checks.md (the registry concatenates them).
CHECKS: tuple[Check, ...] = (
    policy_parse,
    policy_unknown_key,
    policy_schema,
    policy_version,
    policy_project_id,
    policy_profile,
    policy_capability,
    policy_profile_capability,
    policy_scope,
    policy_write_requirements,
)
