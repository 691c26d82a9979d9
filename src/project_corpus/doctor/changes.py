"""The change itself: what `context review` finds in a pull request that is risky whatever the
doctor says of either side (docs/review.md). These checks run only in a review, which gathers
their findings while comparing the two revisions (`review.findings`); a doctor run skips them.
"""

from __future__ import annotations

from collections.abc import Iterable

from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check


@check("REVIEW_POLICY_WIDENED", "review-policy-widened", severity="WARN", needs="review")
def review_policy_widened(view: DoctorView, this: Check) -> Iterable[Issue]:
    """The change widens the policy: a scope, a capability, the profile or a lowered requirement.

    ## Why it matters
    The policy is the corpus's boundary: a wider read scope feeds agents files nobody reviewed
    as memory, a write scope or capability lets them change more, and a dropped requirement
    (`expected_hash`, `verified_readback`, `audit_receipt`) removes a safety check. A pull
    request that does so should be approved by the corpus's owner, not merged in passing.

    ## Fix
    Have the policy's owner review the change; revert the widening if it was not meant.
    """
    return this.from_review(view)


@check("REVIEW_OPEN_TASK_REMOVED", "review-open-task-removed", severity="WARN", needs="review")
def review_open_task_removed(view: DoctorView, this: Check) -> Iterable[Issue]:
    """The change deletes a Task that was not finished.

    ## Why it matters
    A Task that is still open records work an agent is expected to do; deleting it instead of
    closing it (`Task-Status: DONE` or `CANCELLED`, with a Report) erases the record that the
    work was planned, and an agent resuming the project no longer sees it.

    ## Fix
    Keep the Task and set its `Task-Status` to a finished state, or supersede it by the Task
    that replaces it.
    """
    return this.from_review(view)


@check("REVIEW_LINT_CONFIG_CHANGED", "review-lint-config-changed", severity="WARN", needs="review")
def review_lint_config_changed(view: DoctorView, this: Check) -> Iterable[Issue]:
    """The change adds, edits or removes the lint configuration (`.project-corpus/lint.yaml`).

    Reported at line 1 of the configuration's path.

    ## Why it matters
    A pull request could silence its own review by turning rules off, ignoring every path or
    emptying the volatile terms. The review therefore judges both sides under the **base's**
    configuration; the new one takes effect once merged, so a person should read it now.

    ## Fix
    Review the configuration change on its own merits (it applies from the next review on).
    """
    return this.from_review(view)


CHECKS: tuple[Check, ...] = (
    review_policy_widened,
    review_open_task_removed,
    review_lint_config_changed,
)
