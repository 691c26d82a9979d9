"""Memory kept under names no tool fixes (docs/import.md, "Layouts", "Anywhere"): memory-bank
file names in any folder (Cline's `cline_docs/`, Roo's and Cursor's banks, a team's own
folder), and folders whose name says what they keep (`logs/`, `dev-notes/`, `status-reports/`)
at any depth. Pure: a path in, a role out.
"""

from __future__ import annotations

import functools
import re

# Memory-bank file names (kebab), wherever they are, and the role each plays.
BANK_ROLES = {
    "projectbrief": "brief",
    "project-brief": "brief",
    "active-context": "active",
    "activecontext": "active",
    "progress": "progress",
    "decision-log": "decision-log",
    "decisionlog": "decision-log",
    "product-context": "reference",
    "productcontext": "reference",
    "system-patterns": "reference",
    "systempatterns": "reference",
    "tech-context": "reference",
    "techcontext": "reference",
    "user-profile": "reference",
    "userprofile": "reference",
}
# A word in a folder's name (split at `-`, `_`, `.` and spaces) and the role of the files in it.
FOLDER_WORDS = {
    **dict.fromkeys(
        "log logs journal journals diary diaries session sessions worklog worklogs devlog "
        "devlogs standup standups meetings handoff handoffs handover handovers".split(),
        "log-entry",
    ),
    **dict.fromkeys(
        "report reports results status retro retros retrospective retrospectives".split(),
        "log-entry",
    ),
    **dict.fromkeys(
        "postmortem postmortems post-mortems incident incidents rca rcas".split(), "postmortem"
    ),
    **dict.fromkeys("notes knowledge kb wiki learnings lessons".split(), "note"),
    **dict.fromkeys("decision decisions adr adrs".split(), "decision"),
    **dict.fromkeys(
        "plan plans planning proposals sprint sprints iterations epic phases spriny "
        "спринты".split(),
        "plan",
    ),
    **dict.fromkeys("releases release-notes debriefs reviews findings".split(), "log-entry"),
    **dict.fromkeys("backlog backlogs todo todos tasks".split(), "todo-item"),
    # Work items set aside or retired (`graveyard/`, `icebox/`): still the record of why.
    **dict.fromkeys("graveyard icebox retired abandoned".split(), "todo-item"),
    # A work breakdown structure (`docs/wbs/phase-1.md`).
    **dict.fromkeys("wbs".split(), "plan"),
    # Records kept one per file: issues, tickets, stories, quests, requests, ledgers, audits.
    **dict.fromkeys(
        "issues tickets quests epics requests zadachi beklog задачи бэклог".split(), "todo-item"
    ),
    **dict.fromkeys(
        "stories ledger ledgers records audits assessments istorii истории".split(), "note"
    ),
    # Records of work done on the project: fixes, solutions, debugging sessions, analyses,
    # audits, implementation write-ups, technical debt; initiatives and design records.
    **dict.fromkeys(
        "fixes solutions debugging investigations analyses audits implementations debt "
        "ispravleniya исправления".split(),
        "note",
    ),
    **dict.fromkeys(
        "initiative initiatives designs delivery iniciativy инициативы".split(), "plan"
    ),
    # Requirements kept one per file (`docs/product-requirements/`, `api-requirements/`).
    **dict.fromkeys("requirements trebovaniya требования".split(), "spec-doc"),
    **dict.fromkeys("roadmap roadmaps milestones".split(), "roadmap"),
    **dict.fromkeys("steering guidelines conventions".split(), "reference"),
    # Russian
    **dict.fromkeys(
        "журнал журналы дневник логи лог сессии отчет отчеты отчёт отчёты статус".split(),
        "log-entry",
    ),
    **dict.fromkeys("заметки знания вики".split(), "note"),
    **dict.fromkeys("решения".split(), "decision"),
    **dict.fromkeys("планы план".split(), "plan"),
    # Russian transliterated into Latin letters (Notion and wiki exports name files so)
    **dict.fromkeys(
        "zhurnal zhurnaly dnevnik logi sessii otchet otchety otchyoty status".split(), "log-entry"
    ),
    **dict.fromkeys("zametki znaniya wiki".split(), "note"),
    **dict.fromkeys("resheniya reshenija".split(), "decision"),
    **dict.fromkeys("plany".split(), "plan"),
    **dict.fromkeys("инциденты постмортемы".split(), "postmortem"),
}
# Singular words that name a record folder only under documentation (`docs/analysis/`,
# `docs/audit/`): in code (`mechanics/audit/`, `utils/analysis/`) they name a module.
DOC_FOLDER_WORDS = {
    **dict.fromkeys("analysis audit analiz анализ аудит".split(), "note"),
    # Measurements written up (`docs/perf/`, `docs/benchmarks/`): in code, a benchmark suite.
    # (`docs/performance/` is more often a guide to making the product fast.)
    **dict.fromkeys("perf benchmark benchmarks benchmarki бенчмарки".split(), "note"),
    **dict.fromkeys("context kontekst контекст".split(), "reference"),
}
DOC_ROOTS = frozenset(["docs", "doc", "documentation", "wiki", "notes"])
# Words that make a hidden folder of no known tool worth entering (`.context/`, `.agent-os/`).
HIDDEN_WORDS = frozenset(
    "memory memories context agent agents ai llm notes docs knowledge wiki journal devlog "
    "worklog decisions handoff specs plans".split()
)
# Agent tools' own folders: what they keep in Markdown is the agent's memory or rules.
AGENT_DIRS = frozenset(
    ".claude .ai .agent .agents .roo .kilocode .junie .gemini .codex .cursor .windsurf .trae "
    ".augment .amazonq .continue .qwen".split()
)
# Hidden folders entered for their memory-named files only: a forge's own (issue forms,
# workflows), never an agent's memory as a whole.
FORGE_DIRS = frozenset([".github", ".gitlab", ".gitea", ".forgejo", ".azuredevops", ".circleci"])
# Hidden folders of caches, editors, environments and site or build tools: never entered.
TOOLING_HIDDEN = frozenset(
    ".git .hg .svn .venv .env .tox .nox .cache .pytest_cache .mypy_cache .ruff_cache "
    ".hypothesis .ipynb_checkpoints .idea .vscode .vs .fleet .history .trash .yarn "
    ".pnpm-store .npm .next .nuxt .svelte-kit .turbo .angular .expo .parcel-cache .gradle .m2 "
    ".mvn .terraform .serverless .vercel .netlify .firebase .aws-sam .dart_tool .pub-cache "
    ".bundle .cargo .stack-work .eggs .sass-cache .jekyll-cache .docusaurus .vitepress "
    ".vuepress .storybook .changeset .husky .devcontainer .direnv .local .config .obsidian "
    ".pixi .conda .uv .gems".split()
)
PROMPT_DIRS = frozenset(["commands", "prompts", "hooks", "output-styles", "chatmodes"])
# Folders of test data: a record-like name or folder word there is a fixture's.
_FIXTURE_WORDS = frozenset("fixture fixtures testdata mocks __fixtures__ __snapshots__".split())
_NUMBER_RE = re.compile(r"^\d{1,4}[-_.]+(?=[a-z])")
# File names in such folders that describe the folder, not a memory entry.
FOLDER_NOISE = frozenset(["readme", "index", "-index", "template", "-template", "toc", "summary"])
# Folders of web-site content: a dated file there is a post, not a journal entry.
SITE_DIRS = frozenset(["_posts", "posts", "blog", "_drafts", "content", "website", "site"])
_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SPLIT_RE = re.compile(r"[-_. ]+")
_DATED_NAME_RE = re.compile(r"^(?:\d{4}[-_.]?\d{2}[-_.]?\d{2})(?!\d)")
_DATED_TAIL_RE = re.compile(r"(?<![0-9])[-_.]20\d{2}[-_.]\d{2}[-_.]\d{2}$")


def is_template(stem: str) -> bool:
    """Whether a (kebab) stem names a blank form: `template`, `_template`, `adr-template`,
    `ADR-0000-template` — a short name with the word; `skill-not-a-template` is prose."""
    words = [word for word in stem.strip("_-").split("-") if word]
    return ("template" in words and len(words) <= 3) or stem.strip("_-") == "templates"


def in_template_folder(folders: list[str]) -> bool:
    """Whether a path's folders hold a form's folder (`templates/`, `ISSUE_TEMPLATE/`,
    `adr-templates/`); `prompt-templates-lifecycle/` is an initiative about templates."""
    return any(_form_folder(folder) for folder in folders)


@functools.lru_cache(maxsize=4096)
def _form_folder(name: str) -> bool:
    """Whether one folder name is a form folder's (asked once per name: 2,000 files in a
    few hundred folders would otherwise split the same names 13,000 times)."""
    return is_template(_SPLIT_RE.sub("-", name.lower()))


def plain(stem: str) -> str:
    """A stem without a leading number (`09-decisions` -> `decisions`)."""
    return _NUMBER_RE.sub("", stem)


def agent_dir_role(folders: list[str]) -> str | None:
    """Markdown inside an agent tool's own folder (`.claude/`, `.roo/`…) or any other hidden
    folder at the root that is no forge's or build tool's (`.codegpt/`, a tool's own
    `.repo-seed/`) is a reference; reusable prompts (`commands/`, `prompts/`) are not memory."""
    if not folders or PROMPT_DIRS & set(folders):
        return None
    top = folders[0]
    hidden = top.startswith(".") and top not in FORGE_DIRS
    return "reference" if top in AGENT_DIRS or hidden else None


def memory_hidden(name: str) -> bool:
    """Whether a hidden folder's name says it keeps memory (`.context`, `.agent-os`)."""
    words = _SPLIT_RE.split(name.lower().strip("."))
    return name.startswith(".") and any(word in HIDDEN_WORDS for word in words)


def bank_role(stem: str) -> str | None:
    """The role of a file named as a memory bank names its files, in any folder."""
    return BANK_ROLES.get(stem)


def folder_role(folder: str, stem: str) -> str | None:
    """The role the nearest folder whose name says what it keeps gives the file, or None.
    A file that describes the folder (README, index, a template) is no entry."""
    if stem in FOLDER_NOISE or is_template(stem) or in_fixture_folder(folder):
        return None
    found = _nearest_word(folder)
    if found == "note" and _DATED_NAME_RE.match(stem):
        return "log-entry"  # a dated note is an entry
    return found


@functools.lru_cache(maxsize=4096)
def _nearest_word(folder: str) -> str | None:
    """The role a word in the nearest of FOLDER's names gives (camelCase read as `-`).
    Under documentation a folder named `analysis` or `audit` keeps analyses or audits; in
    code it is a module of that name."""
    names = folder.split("/")
    for index in range(len(names) - 1, -1, -1):
        documented = any(name.lower() in DOC_ROOTS for name in names[:index])
        for word in _SPLIT_RE.split(_CAMEL_RE.sub("-", names[index]).lower().strip(".")):
            found = FOLDER_WORDS.get(word) or (DOC_FOLDER_WORDS.get(word) if documented else None)
            if found:
                return found
    return None


def dated_role(folders: list[str], name: str) -> str | None:
    """A Markdown file whose name starts with a date (`2025-03-02-deploy.md`) is a journal
    entry wherever it is kept, web-site posts aside."""
    if SITE_DIRS & set(folders) or not _DATED_NAME_RE.match(name):
        return None
    return "log-entry"


@functools.lru_cache(maxsize=4096)
def in_fixture_folder(folder: str) -> bool:
    """Whether FOLDER (a repository-relative path) lies under test data (`tests/fixtures/`,
    `test-fixtures/`, `testdata/`): what is kept there imitates records, it records nothing."""
    return any(_FIXTURE_WORDS & set(_SPLIT_RE.split(name.lower())) for name in folder.split("/"))


def dated_folder_role(folders: list[str]) -> str | None:
    """Markdown directly in a folder whose name starts with a date (`2026-08-14-appsec-review/`,
    `meetings/2025-03-02/`) is an entry of that dated record, its README the record's first
    page; web-site posts and test data aside."""
    if not folders or SITE_DIRS & set(folders) or not _DATED_NAME_RE.match(folders[-1]):
        return None
    return None if in_fixture_folder("/".join(folders)) else "log-entry"


def dated_tail_role(folders: list[str], name: str) -> str | None:
    """A Markdown file whose name ends with a full date (`session-review-2025-10-01.md`) is
    a journal entry too (people date records, not guides), once its name words have said
    nothing (`migration-report-2025-01-08.md` is a report); web-site posts aside."""
    if SITE_DIRS & set(folders) or not _DATED_TAIL_RE.search(name.rsplit(".", 1)[0]):
        return None
    return "log-entry"
