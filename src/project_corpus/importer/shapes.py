"""Memory known by its shape (docs/import.md, "By shape"): a Markdown file under a docs-like
folder (or at the root) that no path rule claims is read, and kept when its headings say what
it is — a decision record (Context / Decision / Consequences), a status or handoff (Current
state / Next steps / Blockers), a log (two or more dated headings) — in English or Russian.
Pure: a path or lines in, a role out.
"""

from __future__ import annotations

import re

from project_corpus.importer import dates
from project_corpus.importer.folders import in_template_folder
from project_corpus.importer.folders import is_template
from project_corpus.importer.sections import HEADING_RE
from project_corpus.importer.sections import normal_title

# Folders whose unclaimed Markdown is worth reading for its shape.
DOCS_DIRS = frozenset(
    [
        "docs",
        "doc",
        "documentation",
        "dev-docs",
        "devdocs",
        "design",
        "architecture",
        "handbook",
        "internal",
        "meta",
        "project",
        "wiki",
        "notes",
        "research",
        "memory",
        "context",
        "ai",
        "agent",
        "agents",
        ".ai",
        ".agent",
        ".agents",
        ".claude",
        ".github",
    ]
)
# Folders of reference text (often generated): never read for a shape.
REFERENCE_DIRS = frozenset(["api", "reference", "references", "generated", "examples"])
BOILERPLATE_STEMS = frozenset(
    [
        "readme",
        "license",
        "licence",
        "contributing",
        "code_of_conduct",
        "code-of-conduct",
        "security",
        "changelog",
        "authors",
        "notice",
        "support",
        "pull_request_template",
        "index",
    ]
)
_FORM_WORDS = frozenset(["template", "templates", "example", "examples", "sample", "samples"])
MAX_SHAPE_LINES = 5_000  # lines read for headings; a longer file is judged by its head


def _folded(*words: str) -> frozenset[str]:
    return frozenset(normal_title(w) for group in words for w in group.split("|"))


DECISION = _folded(
    "decision|decision outcome|the decision|decision made|chosen option|resolution",
    "решение|принятое решение|итоговое решение",
)
DECISION_CONTEXT = _folded(
    "context|context and problem statement|problem statement|background|problem",
    "consequences|implications|alternatives|alternatives considered|considered options",
    "контекст|предпосылки|проблема|последствия|альтернативы|рассмотренные варианты",
)
NEXT = _folded(
    "next steps|next step|next actions|next action|what's next|up next|todo next|next up",
    "следующие шаги|следующий шаг|дальнейшие шаги|что дальше|следующие действия",
)
CURRENT = _folded(
    "current state|current status|where we are|state of play|status|progress|done|completed",
    "what works|what's done|accomplished|current focus|recent changes",
    "текущее состояние|текущий статус|статус|прогресс|сделано|что сделано|готово",
    "где мы сейчас|текущий фокус|последние изменения",
)
# Headings a design document or an RFC has too: with blockers alone they say nothing.
LOOSE_CURRENT = _folded("status|progress|done|completed|статус|прогресс|готово")
BLOCKERS = _folded(
    "blockers|blocked|blockers and risks|risks|open questions|known issues|open issues",
    "блокеры|блокер|риски|открытые вопросы|препятствия|известные проблемы",
)


def candidate(folders: list[str], stem: str) -> bool:
    """Whether an unclaimed Markdown file is read for its shape: at the root or under a
    docs-like folder, not under reference or generated text, not project boilerplate."""
    if stem in BOILERPLATE_STEMS or REFERENCE_DIRS & set(folders):
        return False
    if is_template(stem) or in_template_folder(folders) or _FORM_WORDS & set(stem.split("-")):
        return False  # a blank or example form: its headings and dates are the form's
    return not folders or bool(DOCS_DIRS & set(folders))


def might_be_memory(text: str) -> bool:
    """A quick look at TEXT's heading lines (one C-speed scan, fences not told apart): False
    when even they say no memory kind, so most documentation is never split into lines."""
    return _judge([m.group(1).rstrip(" \t") for m in _QUICK_HEADING_RE.finditer(text)]) is not None


_QUICK_HEADING_RE = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*)$", re.MULTILINE)  # a line pattern
# A record's date line (`**Date:** 2025-10-14`, `Дата: 14.10.2025`, `Completed: …`): people
# date a record of work when they write it; a guide says when it was last updated, if at all.
_RECORD_DATE_RE = re.compile(
    r"^[ \t>*_-]*(?:date|created|completed|fixed|resolved|дата|создано|завершено)[ \t*_]*:(.*)$",
    re.MULTILINE | re.IGNORECASE,
)
HEAD_CHARS = 600  # a record dates itself in its first lines (all 42 found on 26 repositories
# lie in the first 400 characters); 2,000 cost 11 µs a page, 600 half that


def dated_record(text: str) -> str | None:
    """ "note" when TEXT's head holds a record's date line with a real date, else None."""
    for match in _RECORD_DATE_RE.finditer(text, 0, HEAD_CHARS):
        if dates.find_date(match.group(1)):
            return "note"
    return None


# A record's status line (`> Status: Research / Proposed`, `**Status**: ✅ done`,
# `Статус: принято`): a proposal, a design or a bug write-up says where it stands at its top;
# a guide does not.
_STATUS_LINE_RE = re.compile(
    r"^[ \t>*_-]*(?:status|статус|состояние)[ \t*_]*:[ \t*_]*[^ \t*_\n]",
    re.MULTILINE | re.IGNORECASE,
)
# Front-matter keys of a tracked work item (a backlog or board item, open or retired): a page
# of a site has a title, a date and tags, not an owner, a priority and a lane.
_TRACKING_KEY_RE = re.compile(
    r"^(priority|assignee|assignees|owner|lane|milestone|effort|estimate|severity|due)[ \t]*:",
    re.MULTILINE | re.IGNORECASE,
)


# Folders of proposals and design studies, where a status line marks a record (`Status:
# Proposed`); elsewhere in documentation a status line is as often a feature page's state.
STATUS_DIRS = frozenset("research design designs proposals rfc rfcs исследования".split())


def record_head(text: str, folders: list[str]) -> str | None:
    """ "note" when TEXT's head dates itself, is the front matter of a tracked work item (two
    tracking keys), or, in a proposals folder, states its status below any front matter."""
    if dated_record(text):
        return "note"
    body = 0
    if text.startswith("---\n"):
        keys = {m.group(1).lower() for m in _TRACKING_KEY_RE.finditer(text, 0, HEAD_CHARS)}
        if len(keys) >= 2:
            return "note"
        end = text.find("\n---", 3)
        body = end + 4 if end >= 0 else len(text)
    # A status in front matter (`status: draft`) is a site page's state, not a record's.
    if not STATUS_DIRS & set(folders):
        return None
    return "note" if _STATUS_LINE_RE.search(text, body, body + HEAD_CHARS) else None


def role(lines: tuple[str, ...]) -> str | None:
    """The role the headings of LINES give the file, or None when they say nothing."""
    return _judge(_headings(lines))


def _judge(headings: list[str]) -> str | None:
    if not headings:
        return None
    titles = _titles(headings)
    if titles & DECISION and titles & DECISION_CONTEXT:
        return "decision"
    if titles & NEXT and (titles & CURRENT or titles & BLOCKERS):
        return "handoff"
    if titles & (CURRENT - LOOSE_CURRENT) and titles & BLOCKERS:
        return "handoff"
    dated = sum(1 for title in headings if dates.find_date(title))
    return "log-file" if dated >= 2 else None


def _headings(lines: tuple[str, ...]) -> list[str]:
    """The ATX headings' titles, fenced lines aside (a quick scan, not a full parse: only
    lines that start with `#`, a fence character or a space are looked at)."""
    out: list[str] = []
    fence = ""
    for line in lines[:MAX_SHAPE_LINES]:
        if line[:1] not in _LEADS:
            continue
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = "" if fence == marker else (fence or marker)
        elif not fence and stripped.startswith("#"):
            match = HEADING_RE.match(line)
            if match:
                out.append(match.group(2) or "")
    return out


_LEADS = frozenset("#`~ ")


def _titles(headings: list[str]) -> set[str]:
    """Folded heading titles, and each title's part before a `:`, ` — ` or ` - `."""
    out: set[str] = set()
    for title in headings:
        out.add(normal_title(title))
        for mark in (":", " — ", " - "):
            if mark in title:
                out.add(normal_title(title.split(mark)[0]))
    return out
