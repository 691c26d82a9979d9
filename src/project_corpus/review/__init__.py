"""Memory review: what a change does to the memory an agent will act on (docs/review.md).

`memory_review(ROOT, base=REV)` reads the base revision's corpus from git's objects (no
checkout; `review.gittree`) and the head — the working tree, or another revision — and
compares them: STATUS fields and sections, Tasks and Reports, the policy, candidate files,
and the doctor's findings matched by fingerprint (new, fixed, unchanged). Both sides are read
by `corpus.snapshot` in the doctor's mode, each under its own policy and the same limits, so a
broken side is reported, not refused. Nothing is written.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from collections.abc import Sequence
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.core.versions import REVIEW_SCHEMA_VERSION
from project_corpus.corpus import required
from project_corpus.corpus.layout import CORPUS_DIR
from project_corpus.corpus.roots import open_root
from project_corpus.corpus.snapshot import collect
from project_corpus.corpus.snapshot import snapshot_of
from project_corpus.doctor import lint_corpus
from project_corpus.doctor.report import fail_on_level
from project_corpus.doctor.report import fails
from project_corpus.review import git
from project_corpus.review.candidates import Files
from project_corpus.review.candidates import candidate_changes
from project_corpus.review.candidates import git_candidates
from project_corpus.review.candidates import worktree_candidates
from project_corpus.review.changes import artifact_changes
from project_corpus.review.changes import policy_changes
from project_corpus.review.changes import status_changes
from project_corpus.review.gittree import GitTree

__all__ = ["memory_review"]

# Checks of the working tree's disk, not of a revision: they run on neither side.
SKIPPED = ("CACHE_NOT_IGNORED",)
Entry = dict[str, object]


class Side(NamedTuple):
    """One side of the comparison: where it was read from and what it holds."""

    revision: str | None  # as the user wrote it; None for the working tree
    commit: str | None
    corpus: Corpus
    candidates: Files


def memory_review(
    root: str | os.PathLike[str],
    base: str,
    head: str | None = None,
    *,
    fail_on: str = "FAIL",
    merge_base: bool = False,
    config: str | None = None,
) -> dict[str, object]:
    """The review of the change BASE -> HEAD (default: the working tree) of ROOT's corpus.

    `merge_base` compares with the merge base of BASE and HEAD, as a pull request's diff
    does. `config` is the lint configuration for the findings of both sides (default: the
    working tree's `.project-corpus/lint.yaml`). Raises ContextError: REVIEW_NOT_GIT,
    REVIEW_REVISION, REVIEW_NO_CORPUS, REVIEW_GIT, CONTEXT_LIMIT, CONFIG_INVALID."""
    fail_on = fail_on_level(fail_on)
    opened = open_root(root)
    root_path = opened.path
    repo = git.locate(root_path, opened.given)
    base_commit = git.resolve(repo, base)
    head_commit = git.resolve(repo, head) if head is not None else None
    if merge_base:
        base_commit = git.merge_base(repo, base_commit, head_commit or git.resolve(repo, "HEAD"))
    old = _git_side(root_path, repo, base, base_commit)
    if head is not None and head_commit is not None:
        new = _git_side(root_path, repo, head, head_commit)
    else:
        required.require_corpus(root_path, opened)
        corpus = collect(opened, strict=False)
        new = Side(None, None, corpus, worktree_candidates(root_path))
    return compare(old, new, fail_on=fail_on, config=config)


def _git_side(root: str, repo: git.Repository, revision: str, commit: str) -> Side:
    entries = git.list_corpus(repo, commit)
    if CORPUS_DIR not in entries:
        where = f"{repo.prefix.rstrip('/')}/" if repo.prefix else "the repository root"
        raise ContextError(
            "REVIEW_NO_CORPUS",
            f"{revision} ({commit[:12]}) has no {CORPUS_DIR}/ at {where}",
            hint="review a revision that holds the corpus, or pass the corpus's own ROOT",
        )
    tree = GitTree(root, repo, entries)
    return Side(revision, commit, snapshot_of(tree, strict=False), git_candidates(tree))


def compare(old: Side, new: Side, *, fail_on: str, config: str | None) -> dict[str, object]:
    """The review report of OLD -> NEW (schema `review`)."""
    base, head = old.corpus, new.corpus
    findings = _findings(base, head, config)
    failing = [e for e in findings["new"] if fails(e, fail_on)]
    report: dict[str, object] = {
        "schema_version": REVIEW_SCHEMA_VERSION,
        "ok": not failing,
        "project_id": head.project_id or None,
        "base": _side(old),
        "head": _side(new),
        "fail_on": fail_on,
        "status_changes": status_changes(base, head),
        "tasks": artifact_changes(base, head, "task"),
        "reports": artifact_changes(base, head, "report"),
        "policy_changes": policy_changes(base.policy, head.policy),
        "candidates": candidate_changes(old.candidates, new.candidates, base, head),
        "findings": findings,
        "checks_skipped": sorted(SKIPPED),
        "non_authoritative": True,
    }
    report["summary"] = _summary(report, len(failing))
    return report


def _side(side: Side) -> dict[str, object]:
    return {
        "revision": side.revision,
        "commit": side.commit,
        "working_tree": side.revision is None,
        "project_id": side.corpus.project_id or None,
        "source_count": len(side.corpus.sources),
        "source_snapshot_digest": side.corpus.snapshot_digest,
    }


def _findings(base: Corpus, head: Corpus, config: str | None) -> dict[str, list[Entry]]:
    """The doctor's findings on each side, matched by fingerprint (never by line)."""
    before, _ = lint_corpus(base, config=config, skip=SKIPPED)
    after, _ = lint_corpus(head, config=config, skip=SKIPPED)
    old = {str(e["fingerprint"]) for e in before}
    now = {str(e["fingerprint"]) for e in after}
    return {
        "new": [e for e in after if e["fingerprint"] not in old],
        "fixed": [e for e in before if e["fingerprint"] not in now],
        "unchanged": [e for e in after if e["fingerprint"] in old],
    }


def _count(groups: object) -> int:
    assert isinstance(groups, Mapping)
    return sum(len(v) for v in groups.values() if isinstance(v, Sequence))


def _summary(report: Mapping[str, object], failing: int) -> dict[str, int]:
    findings, policy, candidates = (
        report["findings"],
        report["policy_changes"],
        report["candidates"],
    )
    assert isinstance(findings, Mapping)
    assert isinstance(policy, list)
    assert isinstance(candidates, list)
    return {
        "status_changes": len(report["status_changes"]),  # type: ignore[arg-type]
        "task_changes": _count(report["tasks"]),
        "report_changes": _count(report["reports"]),
        "policy_changes": len(policy),
        "needs_owner_review": sum(1 for c in policy if c["needs_owner_review"]),
        "candidates": len(candidates),
        "invalid_candidates": sum(1 for c in candidates if not c["valid"]),
        "new_findings": len(findings["new"]),
        "fixed_findings": len(findings["fixed"]),
        "unchanged_findings": len(findings["unchanged"]),
        "failing_new_findings": failing,
    }
