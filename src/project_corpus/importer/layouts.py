"""Which files hold memory, and in which role: detected by path and shape, with no
configuration (docs/import.md, "Layouts"). Pure tables and functions.

`role(path)` names a file's role from its repository-relative path; `WORDS` holds the
heading words (English and Russian) that map an owner's section onto a Protocol section.
The same well-known paths answer `corpus/known_memory.py`'s quick probe (the hint of `init`
and of "not a Project Corpus").
"""

from __future__ import annotations

import re

from project_corpus.corpus import vocabulary as V
from project_corpus.corpus.layout import CORPUS_DIR
from project_corpus.corpus.layout import IMPORT_STAGING_DIR
from project_corpus.importer.conventions import tool_role
from project_corpus.importer.folders import PROMPT_DIRS
from project_corpus.importer.folders import TOOLING_HIDDEN
from project_corpus.importer.folders import agent_dir_role
from project_corpus.importer.folders import bank_role
from project_corpus.importer.folders import dated_folder_role
from project_corpus.importer.folders import dated_role
from project_corpus.importer.folders import dated_tail_role
from project_corpus.importer.folders import folder_role
from project_corpus.importer.folders import in_template_folder
from project_corpus.importer.folders import is_template
from project_corpus.importer.folders import memory_hidden
from project_corpus.importer.folders import plain
from project_corpus.importer.naming import key_document
from project_corpus.importer.naming import name_role
from project_corpus.importer.naming import without_language

# Roles, and the artifact each file's own document is (`artifacts.py`): a kind with a folder.
# PROJECT is planned apart (`plan.py`) from one brief; any other brief (an archived memory
# bank's) is a state reference of its own, as a second overview is.
ROLE_KIND = {
    "brief": "reference",
    "overview": "reference",
    "readme": "reference",
    "active": "reference",
    "progress": "history",
    "handoff": "history",
    "rules": "reference",
    "reference": "reference",
    "roadmap": "reference",
    "spec-doc": "reference",
    "decision": "history",
    "decision-log": "history",
    "log-entry": "report",
    "log-file": "history",
    "postmortem": "report",
    "changelog": "history",
    "todo-file": "history",
    "todo-item": "task",
    "spec-tasks": "task",
    "included": "history",
    "plan": "history",
    "note": "history",
}
# Where STATUS's lines are looked for first (lower is earlier).
STATUS_PRIORITY = {"active": 0, "handoff": 1, "progress": 2, "rules": 3, "todo-file": 4}

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdc", ".mdx")
RULE_FILES = frozenset(
    [
        "claude.md",
        "claude.local.md",
        "agents.md",
        "agent.md",
        "gemini.md",
        "copilot-instructions.md",
        ".cursorrules",
        ".windsurfrules",
        ".clinerules",
        ".roorules",
    ]
)
# Agent tools' hidden folders whose `rules*/` (or `instructions/`) folders hold rules.
RULE_TOOL_DIRS = frozenset(
    [
        ".cursor",
        ".windsurf",
        ".roo",
        ".kilocode",
        ".continue",
        ".trae",
        ".amazonq",
        ".augment",
        ".junie",
        ".github",
        ".gemini",
        ".qwen",
        ".codex",
    ]
)
MEMORY_BANK_DIRS = frozenset(["memory-bank", "memory_bank", "memorybank", ".memory-bank"])
DECISION_DIRS = frozenset(
    [
        "adr",
        "adrs",
        "decisions",
        "decision-records",
        "architecture-decisions",
        "architecture-decision-records",
        "design-decisions",
        "rfcs",
        "rfc",
    ]
)
LOG_DIRS = frozenset(
    ["worklog", "worklogs", "work-log", "devlog", "devlogs", "dev-log", "sessions", "journal"]
)
LOG_STEMS = frozenset(
    ["log", "worklog", "work-log", "devlog", "dev-log", "journal", "notes", "session-log"]
)
TODO_DIRS = frozenset(["todos", "todo", "backlog", "ideas"])
TODO_STEMS = frozenset(["todo", "todos", "backlog", "ideas"])
POSTMORTEM_DIRS = frozenset(
    ["postmortems", "post-mortems", "postmortem", "incidents", "retrospectives", "retros"]
)
SPEC_ROOTS = (".kiro/specs/", ".spec-workflow/specs/")
HIDDEN_ALLOWED = frozenset(
    [
        ".cursor",
        ".kiro",
        ".spec-workflow",
        ".github",
        ".windsurf",
        ".clinerules",
        ".memory-bank",
        ".serena",
        ".planning",
        ".claude",
        ".ai",
        ".agent",
        ".agents",
        *RULE_TOOL_DIRS,
    ]
)
# Folders of other people's code or of build output: not entered, listed once with the reason.
SKIPPED_DIRS = frozenset(
    [
        "node_modules",
        "bower_components",
        "vendor",
        "vendored",
        "third_party",
        "third-party",
        "thirdparty",
        "site-packages",
        "__pycache__",
        "venv",
        "dist",
        "build",
    ]
)
GENERATED_DIRS = frozenset(
    ["_build", "_site", "apidocs", "api-docs", "javadoc", "typedoc", "doxygen", "htmlcov"]
)
BRIEF_STEMS = frozenset(["projectbrief", "project-brief", "brief", "project-overview"])
OVERVIEW_STEMS = frozenset(["overview", "vision", "prd", "about", "project", "idea"])
REFERENCE_STEMS = frozenset(
    ["architecture", "conventions", "glossary", "lessons-learned", "learnings", "memory", "skill"]
)
STATUS_STEMS = frozenset(["status", "current-status", "current-state", "project-status"])

_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def stem_key(name: str) -> str:
    """A file name's stem as `import` compares it: camelCase and `_` become `-`, lower."""
    return without_language(kebab(name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name))


def kebab(text: str) -> str:
    """camelCase, `_` and spaces as `-`, lower case."""
    return _CAMEL_RE.sub("-", text).replace("_", "-").replace(" ", "-").lower()


def walk_dir(name: str) -> bool:
    """Whether the walk enters a folder of this name."""
    if name in SKIPPED_DIRS or name in GENERATED_DIRS or name in (CORPUS_DIR, IMPORT_STAGING_DIR):
        return False
    if name in HIDDEN_ALLOWED or memory_hidden(name):
        return True
    return not name.startswith(".") or name.lower() not in TOOLING_HIDDEN


def vendored_dir(name: str) -> bool:
    """Whether a folder of this name holds vendored code or build output (listed as left
    out, never entered)."""
    return (name in SKIPPED_DIRS or name in GENERATED_DIRS) and name != "__pycache__"


def is_candidate_name(name: str) -> bool:
    lower = name.lower()
    return lower.endswith(MARKDOWN_SUFFIXES) or lower in RULE_FILES


def role(path: str) -> str | None:
    """The role of the file at PATH (repository-relative), or None when it holds no memory
    in a known layout."""
    lower = path.lower()
    parts = lower.split("/")
    folders = parts[:-1]
    stem = plain(stem_key(path.rsplit("/", 1)[-1]))
    if is_template(stem) or in_template_folder(folders):
        return None  # a blank form to fill in (`templates/`, `ISSUE_TEMPLATE/`), not memory
    rules = (_memory_bank, _spec, tool_role, _rules, _decisions, _logs, _todos, _postmortem)
    for rule in rules:
        found = rule(lower, folders, stem)
        if found:
            return found
    name = path.rsplit("/", 1)[-1]
    return (
        bank_role(stem)
        or _single_file(folders, stem)
        or folder_role(path.rpartition("/")[0], stem)
        or dated_role(folders, name)
        or name_role(folders, stem)
        or dated_folder_role(folders)
        or dated_tail_role(folders, name)
        or agent_dir_role(folders)
        or key_document(folders, name, name.lower().endswith(MARKDOWN_SUFFIXES))
    )


PROMPT_SUFFIXES = (".prompt.md", ".chatmode.md")


def _memory_bank(lower: str, folders: list[str], stem: str) -> str | None:
    if not MEMORY_BANK_DIRS & set(folders):
        return None
    if PROMPT_DIRS & set(folders) or lower.endswith(PROMPT_SUFFIXES):
        return None  # a prompt or chat-mode library kept in the bank: reusable prompts
    if stem in BRIEF_STEMS:
        return "brief"
    if stem in ("active-context", "current-context", "active"):
        return "active"
    if stem == "progress":
        return "progress"
    if stem in ("decision-log", "decisions"):
        return "decision-log"
    return "reference"


def _spec(lower: str, folders: list[str], stem: str) -> str | None:
    if not lower.startswith(SPEC_ROOTS):
        return None
    return "spec-tasks" if stem == "tasks" else "spec-doc"


def _rules(lower: str, folders: list[str], stem: str) -> str | None:
    name = lower.rsplit("/", 1)[-1]
    if name in RULE_FILES or name.endswith(".instructions.md"):
        return "rules"
    if lower.startswith(".clinerules/"):
        return "rules"
    for index, folder in enumerate(folders[:-1]):
        inner = folders[index + 1]
        if folder in RULE_TOOL_DIRS and inner.startswith(("rules", "instructions")):
            return "rules"
    return None


def _decisions(lower: str, folders: list[str], stem: str) -> str | None:
    inside = bool(DECISION_DIRS & set(folders)) or "architecture/decisions/" in lower
    if not inside:
        return "decision-log" if stem in ("decisions", "decision-log", "adr") else None
    if "template" in stem:
        return None
    return "decision"


def _logs(lower: str, folders: list[str], stem: str) -> str | None:
    if LOG_DIRS & set(folders):
        return "log-entry"
    return "log-file" if stem in LOG_STEMS else None


def _todos(lower: str, folders: list[str], stem: str) -> str | None:
    if TODO_DIRS & set(folders):
        return "todo-item"
    return "todo-file" if stem in TODO_STEMS else None


def _postmortem(lower: str, folders: list[str], stem: str) -> str | None:
    if POSTMORTEM_DIRS & set(folders):
        return "postmortem"
    if any(word in stem for word in ("postmortem", "post-mortem", "incident-report")):
        return "postmortem"
    return None


def _single_file(folders: list[str], stem: str) -> str | None:
    if "handoff" in stem or "hand-off" in stem or "handover" in stem:
        return "handoff"
    if stem in STATUS_STEMS:
        return "handoff"
    if stem == "progress":
        return "progress"
    if "roadmap" in stem or any("roadmap" in folder for folder in folders):
        return "roadmap"
    if stem in ("changelog", "changes", "release-notes", "releases"):
        return "changelog"
    if stem in BRIEF_STEMS:
        return "brief"
    if stem in OVERVIEW_STEMS:
        return "overview"
    if stem in REFERENCE_STEMS:
        return "reference"
    if stem == "readme" and not folders:
        return "readme"
    return None


def _words(*groups: str) -> tuple[str, ...]:
    return tuple(word.strip() for group in groups for word in group.split("|") if word.strip())


# Heading words, folded (`sections.normal_title`): a title equal to one, or starting with one
# followed by a space, maps onto the Protocol section.
WORDS = {
    V.EXACT_NEXT_ACTION: _words(
        "next steps|next step|next actions|next action|next|immediate next steps|up next",
        "what's next|whats next|immediate|upcoming|next focus|next tasks|todo|to do|backlog",
        "следующие шаги|следующий шаг|дальнейшие шаги|что дальше|далее|ближайшие шаги",
        "следующие действия|следующее действие|план действий",
    ),
    V.BLOCKERS: _words(
        "blockers|blocker|blocked|known issues|open issues|current blockers|risks and blockers",
        "блокеры|блокер|препятствия|известные проблемы|открытые проблемы|проблемы",
    ),
    V.CURRENT_VERIFIED_BASELINE: _words(
        "current state|current status|status|current focus|current work focus|what works",
        "current implementation status|project status|state|where we are|current phase",
        "current session status|current session|session status|in progress|current work",
        "текущее состояние|текущий статус|статус|состояние|текущий фокус|что работает",
        "текущая работа|где мы сейчас",
    ),
    V.EVIDENCE_REFERENCES: _words("evidence|verification|доказательства|проверка"),
    V.OBJECTIVE: _words(
        "overview|objective|objectives|goal|goals|purpose|vision|mission|about|summary",
        "project overview|project goals|introduction|what is|core requirements",
        "обзор|цель|цели|назначение|о проекте|описание|задача проекта",
    ),
    V.INVARIANTS: _words(
        "invariants|requirements|technical requirements|constraints|principles|rules",
        "success criteria|guarantees|инварианты|требования|ограничения|принципы|правила",
    ),
    V.DURABLE_SCOPE_BOUNDARIES: _words(
        "scope|scope boundaries|core components|components|boundaries|in scope",
        "область|границы|рамки|компоненты",
    ),
    V.NON_GOALS: _words(
        "non-goals|non goals|nongoals|out of scope|not in scope|not goals",
        "не цели|вне рамок|вне области|не входит",
    ),
}


def is_memory_dir(name: str) -> bool:
    """Whether a folder of this name holds memory (a link in its place is reported)."""
    lower = name.lower()
    return lower in MEMORY_BANK_DIRS | DECISION_DIRS | LOG_DIRS | TODO_DIRS | POSTMORTEM_DIRS
