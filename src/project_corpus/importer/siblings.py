"""The repository-level view (docs/import.md, "Layouts", "Beside memory"): once the path rules
have claimed what they know, an unclaimed Markdown file is judged by its neighbours.

- In a folder where most Markdown files are memory records (decisions, logs, plans, tasks —
  not mere references), the others are state references (an
  owner keeps memory together: `docs/context-reminder.md` beside the decisions); a folder's
  README or index is one when most of the Markdown below the folder is memory of any kind
  (it is the map of that memory).
- In a folder whose files are mostly records named by an ID or a date (`AOA-Q-0001-…`,
  `017-explorer-polish.md`, `2025-03-02.md`), each such file is a record: a task when the
  folder is named by a status (`ready/`, `done/`, `open/`), else a note (dated: an entry).

Project boilerplate (licence, contribution and conduct guides, security policy) and blank
forms stay out. Pure: paths in, roles out.
"""

from __future__ import annotations

import re

from project_corpus.importer.folders import is_template

# Stems of project boilerplate: never memory, whatever is beside them.
BOILERPLATE = frozenset(
    "license licence copying notice authors contributors contributing code-of-conduct "
    "security support maintainers governance codeowners funding pull-request-template "
    "issue-template third-party-notices".split()
)
INDEX_STEMS = frozenset(["readme", "index", "-index", "toc"])
# A record's name: a number of three or more digits, an ID (`ADR-12`, `AOA-Q-AGON-0001`), a date.
_RECORD_RE = re.compile(r"^(?:\d{3,}|[a-z]+(?:-[a-z]+)*-\d{2,}|\d{4}-?\d{2}-?\d{2})(?:[-_. ]|$)")
STATUS_DIRS = frozenset(
    "ready done todo doing open closed active in-progress wip pending blocked backlog "
    "completed finished next later icebox".split()
)
MIN_RECORDS = 3


# Roles that say a file is a record of the project's course, not just text about it: only
# these make a folder "mostly memory" (a folder of references would pull in user guides).
RECORD_ROLES = frozenset(
    "brief active progress handoff roadmap decision decision-log log-entry log-file "
    "postmortem changelog todo-file todo-item spec-tasks plan note".split()
)


def view(claimed: list[tuple[str, str]], unclaimed: list[tuple[str, str]]) -> dict[str, str]:
    """Roles for UNCLAIMED files ((path, kebab stem) pairs) from their neighbours, given the
    CLAIMED files ((path, role) pairs; both repository-relative, Markdown)."""
    here: dict[str, list[bool]] = {}  # folder -> claimed? per Markdown file directly in it
    below: dict[str, list[bool]] = {}  # folder -> claimed? per Markdown file at any depth
    records: dict[str, list[bool]] = {}  # folder -> record-named? per Markdown file in it
    flagged = [(p, r in RECORD_ROLES, True) for p, r in claimed]
    for path, record, is_claimed in flagged + [(p, False, False) for p, _ in unclaimed]:
        folder, _, name = path.rpartition("/")
        here.setdefault(folder, []).append(record)
        records.setdefault(folder, []).append(bool(_RECORD_RE.match(name.lower())))
        for parent in _parents(folder):
            below.setdefault(parent, []).append(is_claimed)
    roles: dict[str, str] = {}
    for path, stem in unclaimed:
        folder, _, name = path.rpartition("/")
        found = _role(stem, name.lower(), folder, here, below, records)
        if found:
            roles[path] = found
    return roles


def _role(
    stem: str,
    name: str,
    folder: str,
    here: dict[str, list[bool]],
    below: dict[str, list[bool]],
    records: dict[str, list[bool]],
) -> str | None:
    if stem in BOILERPLATE or is_template(stem):
        return None
    if stem in INDEX_STEMS:
        return "reference" if folder and _mostly(below.get(folder, []), 2) else None
    if _mostly(records[folder], MIN_RECORDS) and _RECORD_RE.match(name):
        return _record_role(folder, name)
    return "reference" if _mostly(here[folder], MIN_RECORDS) else None


def _record_role(folder: str, name: str) -> str:
    if folder.rpartition("/")[2].lower() in STATUS_DIRS:
        return "todo-item"
    return "log-entry" if re.match(r"^\d{4}-?\d{2}-?\d{2}", name) else "note"


def _mostly(flags: list[bool], least: int) -> bool:
    """At least LEAST true, and more than half."""
    count = sum(flags)
    return count >= least and 2 * count > len(flags)


def _parents(folder: str) -> list[str]:
    """FOLDER and every folder above it, the root (``) included."""
    parts = folder.split("/") if folder else []
    return ["/".join(parts[:i]) for i in range(len(parts), -1, -1)]
