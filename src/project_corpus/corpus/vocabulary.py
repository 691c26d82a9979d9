"""The Protocol's vocabulary, one home (SPEC §1, §12 "One front door"; docs/protocol.md): the
artifact kinds and their folders, the key that names each artifact, the required metadata
keys and sections of each document, their enumerations and the policy profiles in order.

Plain constants importing only `corpus/layout.py` (the paths): the conformance checks, the
doctor, the retrieval summaries, the review and the scaffold name a Protocol word from here.
"""

from __future__ import annotations

from project_corpus.corpus.layout import HISTORY_DIR
from project_corpus.corpus.layout import REPORTS_DIR
from project_corpus.corpus.layout import TASKS_DIR

# The artifacts beside the canonical PROJECT and STATUS, with their folders.
ARTIFACT_FOLDERS = {"task": TASKS_DIR, "report": REPORTS_DIR, "history": HISTORY_DIR}
ARTIFACT_KINDS = tuple(ARTIFACT_FOLDERS)
# The metadata key that names a Task or a Report (a History document has none).
ID_KEYS = {"task": "Task-ID", "report": "Report-ID"}
TASK_ID, REPORT_ID = ID_KEYS["task"], ID_KEYS["report"]

# Sections (H2), each named once.
OBJECTIVE = "Objective"
INVARIANTS = "Invariants"
DURABLE_SCOPE_BOUNDARIES = "Durable Scope Boundaries"
NON_GOALS = "Non-Goals"
CURRENT_VERIFIED_BASELINE = "Current Verified Baseline"
BLOCKERS = "Blockers"
EVIDENCE_REFERENCES = "Evidence References"
EXACT_NEXT_ACTION = "Exact Next Action"
SCOPE = "Scope"
CONSTRAINTS = "Constraints"
ACCEPTANCE_CRITERIA = "Acceptance Criteria"
SUMMARY = "Summary"
EVIDENCE = "Evidence"
LIMITATIONS = "Limitations"

# The required sections of each document, in the protocol order.
PROJECT_SECTIONS = (OBJECTIVE, INVARIANTS, DURABLE_SCOPE_BOUNDARIES, NON_GOALS)
STATUS_SECTIONS = (CURRENT_VERIFIED_BASELINE, BLOCKERS, EVIDENCE_REFERENCES, EXACT_NEXT_ACTION)
TASK_SECTIONS = (OBJECTIVE, SCOPE, CONSTRAINTS, ACCEPTANCE_CRITERIA)
REPORT_SECTIONS = (SUMMARY, EVIDENCE, LIMITATIONS)

# The required metadata keys of each document.
PROJECT_KEYS = ("Protocol-Version", "Project-ID", "Logical-Name")
STATUS_KEYS = (
    "Protocol-Version",
    "Project-ID",
    "Lifecycle-Status",
    "Active-Task-ID",
    "Last-Verified-At",
    "Evidence-Class",
)
TASK_KEYS = ("Protocol-Version", "Project-ID", TASK_ID, "Task-Status")
REPORT_KEYS = ("Protocol-Version", "Project-ID", REPORT_ID, "Result")

# Enumerations.
LIFECYCLE = ("ACTIVE", "PAUSED", "BLOCKED", "COMPLETE")
EVIDENCE_CLASSES = ("OBSERVED", "DOCUMENTED", "INFERRED", "UNVERIFIED")
# The policy profiles, narrowest first (a later one holds every capability of an earlier one).
PROFILE_ORDER = ("READ_ONLY", "SAFE_EDIT", "MAINTAINER")
