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

from project_corpus.importer.folders import in_fixture_folder
from project_corpus.importer.folders import in_template_folder
from project_corpus.importer.folders import is_template

# Stems of project boilerplate: never memory, whatever is beside them.
BOILERPLATE = frozenset(
    "license licence copying notice authors contributors contributing code-of-conduct "
    "security support maintainers governance codeowners funding pull-request-template "
    "issue-template third-party-notices".split()
)
INDEX_STEMS = frozenset(["readme", "index", "-index", "toc"])
# A record's name: a number of three or more digits (`017-…`), an upper-case ID (`ADR-12-…`,
# `AOA-Q-AGON-0001-…`, `DESIGN001-…`), a zero-padded one (`story-007`), a date. `page-17` is a page.
_RECORD_RE = re.compile(
    r"^(?:\d{3,}|[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d{2,}|[A-Z]{2,}\d{3,}|(?:[a-z]+-)+0\d{2,}"
    r"|\d{4}-?\d{2}-?\d{2})"
    r"(?:[-_. ]|$)"
)
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
    CLAIMED files ((path, role) pairs; both repository-relative, Markdown). Records first:
    what they claim counts as memory for the rest."""
    kept = [(p, s) for p, s in unclaimed if s not in BOILERPLATE and not _form(p, s)]
    roles = _records([p for p, _ in claimed], [p for p, _ in kept])
    rest = [(p, s) for p, s in kept if p not in roles]
    here: dict[str, list[bool]] = {}  # folder -> a record? per Markdown file directly in it
    below: dict[str, list[bool]] = {}  # folder -> claimed? per Markdown file at any depth
    flagged = [(p, r in RECORD_ROLES, True) for p, r in [*claimed, *roles.items()]]
    # A folder's index describes it: it never counts against the memory share.
    plain = [(p, False, False) for p, s in rest if s not in INDEX_STEMS]
    for path, record, is_claimed in flagged + plain:
        folder = path.rpartition("/")[0]
        here.setdefault(folder, []).append(record)
        for parent in _parents(folder):
            below.setdefault(parent, []).append(is_claimed)
    for path, stem in rest:
        folder = path.rpartition("/")[0]
        if stem in INDEX_STEMS:
            beside = bool(folder) and _mostly(below.get(folder, []), 2)
        else:
            beside = _mostly(here.get(folder, []), MIN_RECORDS)
        if beside:
            roles[path] = "reference"
    return roles


def _form(path: str, stem: str) -> bool:
    """Whether a file is a blank form or test data: a template, or kept under a form folder
    (`templates/0.5/default/docs/adr/ADR-0001.md`) or a fixture folder (`tests/fixtures/`)."""
    folder = path.rpartition("/")[0]
    if is_template(stem) or in_fixture_folder(folder):
        return True
    return in_template_folder(folder.lower().split("/"))


def _records(claimed: list[str], unclaimed: list[str]) -> dict[str, str]:
    """Roles of the UNCLAIMED files named as records in folders mostly of records."""
    named: dict[str, list[bool]] = {}  # folder -> record-named? per Markdown file in it
    for path in claimed + unclaimed:
        folder, _, name = path.rpartition("/")
        named.setdefault(folder, []).append(bool(_RECORD_RE.match(name)))
    return {
        path: _record_role(path)
        for path in unclaimed
        if _RECORD_RE.match(path.rpartition("/")[2])
        and _mostly(named[path.rpartition("/")[0]], MIN_RECORDS)
    }


def _record_role(path: str) -> str:
    folder, _, name = path.rpartition("/")
    if folder.rpartition("/")[2].lower() in STATUS_DIRS:
        return "todo-item"
    return "log-entry" if re.match(r"^\d{4}-?\d{2}-?\d{2}", name.lower()) else "note"


def _mostly(flags: list[bool], least: int) -> bool:
    """At least LEAST true, and more than half."""
    count = sum(flags)
    return count >= least and 2 * count > len(flags)


def _parents(folder: str) -> list[str]:
    """FOLDER and every folder above it, the root (``) included."""
    parts = folder.split("/") if folder else []
    return ["/".join(parts[:i]) for i in range(len(parts), -1, -1)]
