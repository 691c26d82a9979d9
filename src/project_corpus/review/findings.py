"""Findings about the change itself, and the lint configuration the review judges by
(docs/review.md).

A pull request is written by whoever opened it, so it must not be able to silence its own
review: the doctor's findings of **both** sides are judged under the **base's** lint
configuration (or `--config FILE`, the operator's choice), and a lint configuration the
change adds, edits or removes is a finding of its own, `REVIEW_LINT_CONFIG_CHANGED`. A
widened policy (`REVIEW_POLICY_WIDENED`, at its policy line) and a Task deleted before it was
finished (`REVIEW_OPEN_TASK_REMOVED`) are findings too, not only notes, so they count for
`--fail-on WARN`. Their checks are registered with the doctor's (`doctor.changes`).
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence

from project_corpus.core.digest import sha256_hex
from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_CONFIG_BYTES
from project_corpus.core.records import Corpus
from project_corpus.corpus import fs
from project_corpus.corpus.layout import LINT_CONFIG_PATH
from project_corpus.corpus.layout import POLICY_PATH
from project_corpus.doctor import CHECKS_BY_CODE
from project_corpus.doctor import LintConfig
from project_corpus.doctor import config_of
from project_corpus.doctor import load_config
from project_corpus.doctor.integrity import FINISHED
from project_corpus.doctor.records import Issue
from project_corpus.review.gittree import GitTree

# The added scopes or capabilities a REVIEW_POLICY_WIDENED finding names (the rest counted).
SHOWN = 5
# The lint configuration of a side: its bytes, None when it has none, or why it cannot be read.
LintFile = bytes | str | None
# needs_owner_review flags that widen what agents may read or do (a new project ID does not).
WIDENING = ("scopes.read", "scopes.write", "capabilities.allow", "profile", "requirements.")


def git_lint(tree: GitTree) -> LintFile:
    """The lint configuration of a revision (never followed when it is a link)."""
    if tree.kind(LINT_CONFIG_PATH) is None:
        return None
    try:
        return tree.read(LINT_CONFIG_PATH, MAX_CONFIG_BYTES, "CONFIG_INVALID")
    except ContextError as exc:
        if exc.code != "CONFIG_INVALID":
            raise
        return exc.detail


def worktree_lint(root: str) -> LintFile:
    """The lint configuration of the working tree at ROOT, read confined to it."""
    parent, _, name = LINT_CONFIG_PATH.rpartition("/")
    try:
        with fs.open_dir(root, parent) as fd:
            if fs.entry_kind(fd, name) is None:
                return None
    except OSError:
        return None
    try:
        return fs.read_relative(root, LINT_CONFIG_PATH, MAX_CONFIG_BYTES, code="CONFIG_INVALID")
    except ContextError as exc:
        return exc.detail


def review_config(root: str, base: LintFile, config: str | None) -> LintConfig:
    """The configuration both sides are judged by: CONFIG (a file the operator names), else
    the base revision's lint.yaml (CONFIG_INVALID when it cannot be read or is invalid)."""
    if config is not None:
        return load_config(root, config, CHECKS_BY_CODE)
    if isinstance(base, str):
        raise ContextError("CONFIG_INVALID", f"the base's {base}")
    return config_of(LINT_CONFIG_PATH, base)


def change_issues(
    base: Corpus,
    policy: Sequence[Mapping[str, object]],
    tasks: Mapping[str, Sequence[Mapping[str, object]]],
    lint: tuple[LintFile, LintFile],
) -> list[Issue]:
    """The findings about the change BASE -> head: POLICY (`policy_changes`), TASKS
    (`artifact_changes` of tasks) and LINT (the base's and the head's configuration)."""
    return [*_widened(policy), *_open_tasks_removed(base, tasks), *_lint_changed(*lint)]


def _widened(policy: Sequence[Mapping[str, object]]) -> Iterator[Issue]:
    for change in policy:
        field = str(change["field"])
        if not change["needs_owner_review"] or not field.startswith(WIDENING):
            continue
        added = [str(v) for v in change.get("added") or []]  # type: ignore[attr-defined]
        if added:
            shown = ", ".join(v[:120] for v in added[:SHOWN])
            more = f" and {len(added) - SHOWN} more" if len(added) > SHOWN else ""
            what = f"{field} widened by {shown}{more}"
        else:
            what = f"{field} changed from {change['before']!r} to {change['after']!r}"
        line = change.get("line")
        yield Issue(
            "REVIEW_POLICY_WIDENED",
            POLICY_PATH,
            line if isinstance(line, int) else 1,
            f"{what}; the policy's owner should review it",
            f"REVIEW_POLICY_WIDENED:{what}",
        )


def _open_tasks_removed(
    base: Corpus, tasks: Mapping[str, Sequence[Mapping[str, object]]]
) -> Iterator[Issue]:
    for task in tasks.get("removed", ()):
        state = task.get("state")
        if isinstance(state, str) and state.casefold() in FINISHED:
            continue
        path = str(task["path"])
        source = base.source(path)
        meta = source.doc.meta if source else ()
        line = next((m.line for m in meta if m.key == "Task-Status"), 1)
        detail = f"{task.get('id') or path} ({state or 'no Task-Status'}) was deleted unfinished"
        yield Issue("REVIEW_OPEN_TASK_REMOVED", path, line, detail, f"REVIEW_OPEN_TASK:{path}")


def _lint_changed(base: LintFile, head: LintFile) -> Iterator[Issue]:
    if base == head:
        return
    how = "added" if base is None else "removed" if head is None else "changed"
    detail = (
        f"{LINT_CONFIG_PATH} {how}; this review judges both sides by the base's "
        "configuration, the new one applies once merged"
    )
    digest = sha256_hex(head if isinstance(head, bytes) else str(head).encode())
    yield Issue("REVIEW_LINT_CONFIG_CHANGED", LINT_CONFIG_PATH, 1, detail, f"LINT:{digest}")
