"""Every corpus path, in one table (docs/protocol.md, "Layout").

Plain constants and tiny pure functions, importing nothing of the package but `core/`, so
that every stage (the confined reads, the policy, the protocol checks, the index, the doctor,
the scaffold and the CLI) names a corpus path from here and nowhere else; a test holds every
other module free of `.project-corpus/...` literals. Portable paths use `/` and are relative
to the project root. What the required paths must be (and the findings when they are not) is
`corpus/required.py`.
"""

from __future__ import annotations

CORPUS_DIR = ".project-corpus"
# Where a first `import` builds the corpus before renaming it to CORPUS_DIR (docs/import.md).
IMPORT_STAGING_DIR = f"{CORPUS_DIR}.import-tmp"
POLICY_PATH = f"{CORPUS_DIR}/policy.toml"
LINT_CONFIG_PATH = f"{CORPUS_DIR}/lint.yaml"

STATE_DIR = f"{CORPUS_DIR}/state"
PROJECT_PATH = f"{STATE_DIR}/PROJECT.md"
STATUS_PATH = f"{STATE_DIR}/STATUS.md"

TASKS_DIR = f"{CORPUS_DIR}/tasks"
REPORTS_DIR = f"{CORPUS_DIR}/reports"
HISTORY_DIR = f"{CORPUS_DIR}/history"
GENERATED_DIR = f"{CORPUS_DIR}/generated"  # generated views (NON_AUTHORITATIVE_VIEW)
CANDIDATES_DIR = f"{CORPUS_DIR}/candidates"  # Candidate v1 files awaiting review
AUDIT_DIR = f"{CORPUS_DIR}/audit"  # receipts of managed operations (not a source)
CACHE_DIR = f"{CORPUS_DIR}/cache"  # derived and disposable: the index
CACHE_GITIGNORE = f"{CACHE_DIR}/.gitignore"
DEFAULT_INDEX_NAME = "context.sqlite3"
DEFAULT_INDEX_PATH = f"{CACHE_DIR}/{DEFAULT_INDEX_NAME}"

# The folders whose Markdown files are sources, with their source type (docs/protocol.md §2.1).
SOURCE_ROOTS = {
    STATE_DIR: "state",
    TASKS_DIR: "task",
    REPORTS_DIR: "report",
    HISTORY_DIR: "history",
}
# The source folders' names inside CORPUS_DIR, in SOURCE_ROOTS' order.
SOURCE_FOLDERS = tuple(rel.rpartition("/")[2] for rel in SOURCE_ROOTS)
# Where a valid `Supersedes:` target may lie (docs/protocol.md §2.6).
ARTIFACT_DIRS = (TASKS_DIR, REPORTS_DIR, HISTORY_DIR)

# The required layout in check order: (path, "file" | "dir"). An absent artifact folder is
# the WARN `MISSING_ARTIFACT_DIR`, not a gate finding (`corpus/required.py`).
REQUIRED = (
    ("AGENTS.md", "file"),
    (CORPUS_DIR, "dir"),
    (POLICY_PATH, "file"),
    (STATE_DIR, "dir"),
    (PROJECT_PATH, "file"),
    (STATUS_PATH, "file"),
    *((rel, "dir") for rel in ARTIFACT_DIRS),
)


def inside(folder: str) -> str:
    """The prefix of every path inside FOLDER: `FOLDER/`."""
    return folder + "/"


def task_path(task_id: str) -> str:
    """The path of the Task with this ID (the active task's path, §2.4)."""
    return f"{TASKS_DIR}/{task_id}.md"


def report_path(report_id: str) -> str:
    """The path of the Report with this ID."""
    return f"{REPORTS_DIR}/{report_id}.md"
