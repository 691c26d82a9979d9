"""`--bundle FILE`: does a Context Bundle v1 still describe the current corpus? (docs/bundle.md,
docs/doctor.md)

Findings are located in the bundle file, on the line of the JSON value concerned.
"""

from __future__ import annotations

from collections.abc import Iterator

from project_corpus.core.records import SHA256_RE
from project_corpus.doctor._inputs import escape_token
from project_corpus.doctor._inputs import line_of
from project_corpus.doctor._inputs import pointer_lines
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import LoadedJSON
from project_corpus.doctor.records import check


def _bundle(view: DoctorView) -> tuple[LoadedJSON, dict[str, object]] | None:
    loaded = view.bundle
    if loaded is None or not isinstance(loaded.value, dict):
        return None
    return loaded, loaded.value


def _at(loaded: LoadedJSON, code: str, pointer: str, detail: str, anchor: str) -> Issue:
    line = line_of(pointer_lines(loaded.text, max_depth=2), pointer)
    return Issue(code, loaded.path, line, detail, anchor=anchor, extra=(("pointer", pointer),))


def _snapshot_map(bundle: dict[str, object]) -> dict[str, str] | None:
    value = bundle.get("selected_source_snapshot")
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        return None
    return {str(k): str(v) for k, v in value.items()}


@check("BUNDLE_PROJECT_MISMATCH", "bundle-project-mismatch", severity="FAIL", needs="bundle")
def bundle_project_mismatch(view: DoctorView, this: Check) -> Iterator[Issue]:
    """The bundle was compiled for another project.

    ## Why it matters
    An agent would act on another project's identity, state and evidence.

    ## Fix
    Compile a bundle for this project: `project-corpus context bundle ROOT QUERY`.
    """
    found = _bundle(view)
    if found and found[1].get("project_id") != view.corpus.project_id:
        detail = (
            f"bundle project {found[1].get('project_id')!r} != corpus {view.corpus.project_id!r}"
        )
        yield _at(found[0], this.code, "/project_id", detail, "project_id")


@check("BUNDLE_SNAPSHOT", "bundle-snapshot", severity="FAIL", needs="bundle")
def bundle_snapshot(view: DoctorView, this: Check) -> Iterator[Issue]:
    """The bundle has no usable snapshot: source_snapshot_digest or selected_source_snapshot.

    ## Why it matters
    Without the digest of the whole scoped snapshot and the `{path: sha256}` map of the
    selected sources, nobody can tell whether the bundle is still current.

    ## Fix
    Compile the bundle again with this tool; do not strip or edit its snapshot fields.
    """
    found = _bundle(view)
    if not found:
        return
    loaded, bundle = found
    if not isinstance(bundle.get("source_snapshot_digest"), str) or not SHA256_RE.match(
        str(bundle.get("source_snapshot_digest"))
    ):
        yield _at(
            loaded,
            this.code,
            "/source_snapshot_digest",
            "source_snapshot_digest is missing or not a SHA-256 hex digest",
            "digest",
        )
    if _snapshot_map(bundle) is None:
        yield _at(
            loaded,
            this.code,
            "/selected_source_snapshot",
            "selected_source_snapshot is missing or not a {path: sha256} object",
            "selected",
        )


@check("BUNDLE_HASH", "bundle-hash", severity="FAIL", needs="bundle")
def bundle_hash_check(view: DoctorView, this: Check) -> Iterator[Issue]:
    """## Why it matters
    The hash (SHA-256 of the canonical JSON without `created_at` and `bundle_sha256`)
    is what lets a receipt and a reviewer trust that the agent saw exactly this context.

    ## Fix
    Never edit a bundle; compile a new one.
    """
    from project_corpus.retrieval.bundle_format import bundle_hash  # lazy: only with --bundle

    loaded = view.bundle
    if loaded is None:
        return
    if not isinstance(loaded.value, dict):
        yield _at(loaded, this.code, "", "malformed bundle: not a JSON object", "malformed")
        return
    try:
        actual = bundle_hash(loaded.value)
    except (TypeError, ValueError, RecursionError):
        actual = ""
    if actual != loaded.value.get("bundle_sha256"):
        yield _at(
            loaded,
            this.code,
            "/bundle_sha256",
            "bundle_sha256 does not match the bundle's content",
            "hash",
        )


@check("BUNDLE_STALE_SOURCE", "bundle-stale-source", severity="FAIL", needs="bundle")
def bundle_stale_source(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A source selected by the bundle changed or vanished since the bundle was compiled.

    ## Why it matters
    The bundle's excerpts and line spans from that source no longer match the text; an
    agent would quote words the corpus no longer says.

    ## Fix
    Compile a new bundle (and re-read the changed source before relying on it).
    """
    found = _bundle(view)
    selected = _snapshot_map(found[1]) if found else None
    if not found or selected is None:
        return
    for path, sha in sorted(selected.items()):
        source = view.corpus.by_path.get(path)
        if source is None or source.foreign or source.sha256 != sha:
            state = "vanished or left the scope" if source is None or source.foreign else "changed"
            yield _at(
                found[0],
                this.code,
                f"/selected_source_snapshot/{escape_token(path)}",
                f"{path} {state}",
                path,
            )


@check(
    "BUNDLE_FULL_SNAPSHOT_MISMATCH",
    "bundle-full-snapshot-mismatch",
    severity="FAIL",
    needs="bundle",
)
def bundle_full_snapshot_mismatch(view: DoctorView, this: Check) -> Iterator[Issue]:
    """The whole scoped snapshot changed since the bundle was compiled.

    ## Why it matters
    Even when the selected sources are unchanged, a new or changed source may outrank
    or supersede what the bundle holds.

    ## Fix
    Compile a new bundle for the current snapshot.
    """
    found = _bundle(view)
    digest = found[1].get("source_snapshot_digest") if found else None
    if (
        found
        and isinstance(digest, str)
        and SHA256_RE.match(digest)
        and digest != view.corpus.snapshot_digest
    ):
        yield _at(
            found[0],
            this.code,
            "/source_snapshot_digest",
            "source_snapshot_digest differs from the current snapshot's digest",
            "digest",
        )


# This family's checks, in the order of docs/checks.md (the registry concatenates them).
CHECKS: tuple[Check, ...] = (
    bundle_project_mismatch,
    bundle_snapshot,
    bundle_hash_check,
    bundle_stale_source,
    bundle_full_snapshot_mismatch,
)
