"""Memory layouts of agent tools and planning methods (docs/import.md, "Layouts"): Kiro and
spec-workflow steering, Serena memories, OpenSpec, GSD's `.planning/`, Claude Code session
logs, plan and runbook folders, `CONTEXT.md` resume points. Pure: a path in, a role out."""

from __future__ import annotations

STEERING_ROOTS = (".kiro/steering/", ".spec-workflow/steering/")
PLANNING_ROOTS = (".planning/",)
PLANNING_ROLES = {
    "project": "brief",
    "state": "handoff",
    "roadmap": "roadmap",
    "requirements": "reference",
    "milestones": "roadmap",
}
OPENSPEC_ROOT = "openspec/"
PLAN_DIRS = frozenset(["plans", "plan", "planning"])
SPEC_DIRS = frozenset(["specs", "tech-specs", "prd", "prds"])
# `spec/` alone is a test suite's folder (RSpec, Jasmine: `spec/models/user_spec.rb`); under
# documentation (`docs/spec/`) it keeps specifications.
DOC_ROOTS = frozenset(["docs", "doc", "documentation", "wiki"])
RUNBOOK_DIRS = frozenset(["runbooks", "runbook", "playbooks"])
SESSION_DIRS = frozenset(["session-log", "session-logs", "session-summaries", "summaries"])
RESUME_STEMS = frozenset(["context", "resume", "current-context", "session-state", "state"])


def tool_role(lower: str, folders: list[str], stem: str) -> str | None:
    """The role of a file in an agent tool's or a planning method's layout, or None."""
    if lower.startswith(STEERING_ROOTS) or lower.startswith(".serena/memories/"):
        return "reference"
    if lower.startswith(PLANNING_ROOTS):
        return PLANNING_ROLES.get(stem, "plan") if len(folders) == 1 else "plan"
    if lower.startswith(OPENSPEC_ROOT):
        return _openspec(folders, stem)
    if SESSION_DIRS & set(folders):
        return "log-entry"
    if PLAN_DIRS & set(folders):
        return "plan"
    if RUNBOOK_DIRS & set(folders):
        return "reference"
    if SPEC_DIRS & set(folders) or _documented_spec(folders):
        return "spec-doc"
    if not folders and stem in RESUME_STEMS:
        return "handoff"
    return None


def _documented_spec(folders: list[str]) -> bool:
    """Whether a `spec/` folder with a documentation folder above it holds the file."""
    return "spec" in folders and bool(DOC_ROOTS & set(folders[: folders.index("spec")]))


def _openspec(folders: list[str], stem: str) -> str:
    """OpenSpec: `project.md` is the brief, a change's `tasks.md` a task, specs references,
    proposals and designs history (archived changes included)."""
    if len(folders) == 1 and stem == "project":
        return "brief"
    if "changes" in folders:
        return "spec-tasks" if stem == "tasks" else "plan"
    return "spec-doc"
