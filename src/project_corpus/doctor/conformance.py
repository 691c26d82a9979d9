"""Protocol V2 conformance: the gate of docs/protocol.md as located findings.

The snapshot (`collect(strict=False)`) finds these problems; each check here reports one
code. Every other context command refuses a corpus with any of them
(`PROTOCOL_NONCONFORMANT`), so they are gate checks: always FAIL, never suppressed.
"""

from __future__ import annotations

from collections.abc import Iterator

from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check


@check("MISSING_REQUIRED_PATH", "missing-required-path", severity="FAIL", gate=True)
def missing_required_path(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.required.required_paths`.

    ## Why it matters
    Agents bootstrap from `AGENTS.md`, `policy.toml`, `state/PROJECT.md` and
    `state/STATUS.md`, and file Tasks, Reports and History in their folders. Without them
    there is no canonical identity or state to read.

    ## Fix
    Create the path (`tasks/`, `reports/` and `history/` may be empty; keep them in Git
    with a `.gitkeep`).
    """
    yield from this.from_snapshot(view)


@check("REQUIRED_PATH_LINK", "required-path-link", severity="FAIL", gate=True)
def required_path_link(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.required.required_paths`.

    ## Why it matters
    Links are never followed: a linked corpus folder could point anywhere on the machine,
    so its content is not read at all.

    ## Fix
    Replace the link by the real file or directory.
    """
    yield from this.from_snapshot(view)


@check("INVALID_ENCODING", "invalid-encoding", severity="FAIL", gate=True)
def invalid_encoding(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.snapshot.collect`.

    ## Why it matters
    The source cannot be parsed, hashed into items or quoted to an agent; guessing an
    encoding would change what the memory says.

    ## Fix
    Re-save the file as UTF-8 (the finding points at the first bad byte: its line and column;
    the detail also names its byte offset).
    """
    yield from this.from_snapshot(view)


@check("MISSING_METADATA", "missing-metadata", severity="FAIL", gate=True)
def missing_metadata(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.protocol.check_metadata`.

    ## Why it matters
    `Protocol-Version`, `Project-ID` and the STATUS keys (`Lifecycle-Status`,
    `Active-Task-ID`, `Last-Verified-At`, `Evidence-Class`) are how agents learn identity,
    the active task and how fresh the state is.

    ## Fix
    Add the `Key: value` line named in the detail to the metadata block, right after the H1.
    """
    yield from this.from_snapshot(view)


@check("INVALID_METADATA", "invalid-metadata", severity="FAIL", gate=True)
def invalid_metadata(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.protocol.check_metadata`, `check_project`,
    `check_status` and `check_artifact_version`.

    ## Why it matters
    Covers duplicate keys, a bad ID, `Protocol-Version` other than `2.0` (in PROJECT, STATUS
    and every Task and Report: a document of another protocol version would be read by the
    wrong rules), values outside the enumerations, a non-UTC `Last-Verified-At`, an empty
    `Logical-Name` and an `ACTIVE` status without a real Exact Next Action. Agents would act
    on a wrong or ambiguous state.

    ## Fix
    Correct the value on the reported line (the detail says what is expected).
    """
    yield from this.from_snapshot(view)


@check("MISSING_SECTION", "missing-section", severity="FAIL", gate=True)
def missing_section(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.protocol.check_sections`.

    ## Why it matters
    PROJECT needs `Objective`, `Invariants`, `Durable Scope Boundaries`, `Non-Goals`;
    STATUS needs `Current Verified Baseline`, `Blockers`, `Evidence References`,
    `Exact Next Action`. Bundles summarise exactly these sections.

    ## Fix
    Add the `## Section` heading named in the detail (`NONE` is valid content).
    """
    yield from this.from_snapshot(view)


@check("DUPLICATE_SECTION", "duplicate-section", severity="FAIL", gate=True)
def duplicate_section(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.protocol.check_sections`.

    ## Why it matters
    Two `## Blockers` sections make it unclear which one is current.

    ## Fix
    Merge the sections into one.
    """
    yield from this.from_snapshot(view)


@check("SECTION_ORDER", "section-order", severity="FAIL", gate=True)
def section_order(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.protocol.check_sections`.

    ## Why it matters
    Readers and tools rely on the fixed order (reported only when every required section
    occurs exactly once).

    ## Fix
    Move the sections into the order given in the detail.
    """
    yield from this.from_snapshot(view)


@check("PROJECT_ID_MISMATCH", "project-id-mismatch", severity="FAIL", gate=True)
def project_id_mismatch(view: DoctorView, this: Check) -> Iterator[Issue]:
    """## Why it matters
    PROJECT's `Project-ID` is the identity. A STATUS or policy naming another project
    means the state may belong elsewhere; a Task or Report naming another project is
    foreign: it stays in the snapshot but never appears in results or bundles.

    ## Fix
    Make the `Project-ID` line (or the policy `project_id`) match PROJECT, or move the
    foreign document to its own corpus.
    """
    yield from this.from_snapshot(view)
    if not view.has_project():
        return
    for source in view.corpus.sources:
        if source.foreign:
            line = next(m.line for m in source.doc.meta if m.key == "Project-ID")
            detail = f"Project-ID {source.project_id!r} != PROJECT {view.corpus.project_id!r}"
            yield this.issue(
                source.path,
                line,
                detail,
                anchor=f"PROJECT_ID_MISMATCH:{source.path}",
            )


@check("ROLE_OVERLAP", "role-overlap", severity="FAIL", gate=True)
def role_overlap(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.protocol.check_project` and `check_status`.

    ## Why it matters
    PROJECT is durable identity and STATUS is current state; mixing them makes stale state
    look durable, or identity look temporary.

    ## Fix
    Move the section to the document it belongs to.
    """
    yield from this.from_snapshot(view)


@check("PROJECT_ABSOLUTE_ROOT", "project-absolute-root", severity="FAIL", gate=True)
def project_absolute_root(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.protocol.check_project`.

    ## Why it matters
    A line such as `Project-Root:` with an absolute path is wrong on every other machine and
    leaks a local path to every agent.

    ## Fix
    Remove the line; the project root is wherever the corpus is checked out.
    """
    yield from this.from_snapshot(view)


@check("GENERATED_VIEW_UNMARKED", "generated-view-unmarked", severity="FAIL", gate=True)
def generated_view_unmarked(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.protocol.check_generated`.

    ## Why it matters
    Files under `.project-corpus/generated/` are derived; without the marker a reader may
    take one for an authoritative source.

    ## Fix
    Put `NON_AUTHORITATIVE_VIEW` near the top of the file (or regenerate it).
    """
    yield from this.from_snapshot(view)


@check("CONTEXT_SCOPE", "context-scope", severity="FAIL", gate=True)
def context_scope(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.snapshot.collect`.

    ## Why it matters
    Every context command needs both canonical documents; without them no bundle has an
    identity or a current state.

    ## Fix
    Add `.project-corpus/state/**` (or the exact paths) to `[scopes] read` in policy.toml.
    """
    yield from this.from_snapshot(view)


@check("SOURCE_LINK", "source-link", severity="FAIL", gate=True)
def source_link(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.snapshot.collect`.

    ## Why it matters
    Links are never followed (they could point outside the project), and a source must
    never vanish silently, so the snapshot is refused until the link is gone. A hard link
    (a file with more than one name) may share its content with a file outside the project,
    so it is never read either.

    ## Fix
    Replace the link by a regular file, or move it out of the read scope.
    """
    yield from this.from_snapshot(view)


@check("SOURCE_PATH", "source-path", severity="FAIL", gate=True)
def source_path(view: DoctorView, this: Check) -> Iterator[Issue]:
    """Detected by `project_corpus.corpus.snapshot.collect`.

    ## Why it matters
    A file or folder name holding bytes that are not UTF-8 cannot be named in JSON, SARIF
    or a terminal (git carries such names); it is shown with each byte escaped (`\\xff`).
    On Windows `CON.md` or `nul.md` names a device, not a file; on case-insensitive or
    normalising filesystems (APFS, NTFS) `Notes.md` and `notes.md`, or the NFC and NFD
    spellings of one name, are the same file. The corpus would read differently on another
    machine, so the snapshot is refused.

    ## Fix
    Rename the file named in the finding (the detail names the path it collides with).
    """
    yield from this.from_snapshot(view)


# This family's checks, in the order of docs/checks.md (the registry concatenates them).
CHECKS: tuple[Check, ...] = (
    missing_required_path,
    required_path_link,
    invalid_encoding,
    missing_metadata,
    invalid_metadata,
    missing_section,
    duplicate_section,
    section_order,
    project_id_mismatch,
    role_overlap,
    project_absolute_root,
    generated_view_unmarked,
    context_scope,
    source_link,
    source_path,
)
