"""Memory known by the words of its own file name, anywhere (docs/import.md, "Layouts",
"By name"): records named by what they hold (`LANDING_LOG`, `DEPLOYMENT_RECORD`,
`verification-ledger`, `OWNER_REQUESTS`, `migration-report-2025-01-08`), in English, Russian
and Russian transliterated into Latin letters (`dorozhnaya-karta-i-beklog`,
`adr-zhurnal-reshenij`), a translation's language suffix (`activeContext.zh-CN.md`) read
as its original's name, and key documents named in capitals (`ARCHITECTURE.md`; not a how-to,
`MODEL_API.md`). Pure: a name in, a role out.
"""

from __future__ import annotations

import functools
import re

# A language suffix before the extension: `.ru`, `.zh-cn`, `.pt-br`, `.zh-hans` (ISO 639-1
# codes people use for translated docs).
_LANGUAGES = (
    "en ru uk be kk zh ja ko de fr es it pt pl tr nl sv fi da no nb cs sk hu ro bg sr hr el "
    "ar he fa hi bn vi id ms th"
).split()
_LANGUAGE_RE = re.compile(r"\.(?:" + "|".join(_LANGUAGES) + r")(?:-[a-z]{2,4})?$")
# Trailing parts that say nothing of the kind: a number, a date's parts, an export's hash.
_TAIL_RE = re.compile(r"^(?:\d+|v\d+|[0-9a-f]{6,}|final|draft|old|new|copy)$")
_HASHLIKE_RE = re.compile(r"\d")
# Month names ending a dated name (`improvements-sept-2025`): part of the date, not the kind.
_MONTHS = frozenset(
    "jan feb mar apr jun jul aug sep sept oct nov january february march april june july "
    "august september october november december".split()
)

# A file-name word (first or last of its words) and the role of the file.
NAME_WORDS = {
    **dict.fromkeys(
        "log logs ledger journal diary worklog devlog "
        "журнал дневник лог реестр zhurnal dnevnik reestr".split(),
        "log-file",
    ),
    **dict.fromkeys(
        "report reports record records minutes assessment audit retro retrospective "
        "отчет отчёт отчеты отчёты итоги ретроспектива протокол "
        "otchet otchety otchyot itogi retrospektiva".split(),
        "note",
    ),
    **dict.fromkeys(
        "requests queue tasks todo todos backlog issues "
        "задачи бэклог беклог очередь запросы zadachi zadacha beklog bjeklog".split(),
        "todo-file",
    ),
    # One task's brief, named by what it asks (`auth_refactor_codex_task`, `задача-миграция`).
    **dict.fromkeys("task задача".split(), "todo-item"),
    **dict.fromkeys(
        "adr adrs rfc decision decisions resheniya reshenij reshenie resheniy решения "
        "решение".split(),
        "decision",
    ),
    **dict.fromkeys("roadmap".split(), "roadmap"),
    **dict.fromkeys(
        "plan plans plany план планы prd planning planirovanie планирование".split(), "plan"
    ),
    **dict.fromkeys("notes scratchpad zametki заметки".split(), "log-file"),
    **dict.fromkeys("lessons learnings findings".split(), "note"),
    # Russian names a study head noun first (`issledovanie-kesha`, `исследование-кэша`).
    **dict.fromkeys("issledovanie исследование".split(), "note"),
    **dict.fromkeys("story".split(), "todo-item"),
    **dict.fromkeys(
        "postmortem postmortems incident incidents rca инцидент разбор razbor".split(), "postmortem"
    ),
    **dict.fromkeys("debrief recap writeup retro ретро".split(), "note"),
    **dict.fromkeys("proposal sprint спринт".split(), "plan"),
    **dict.fromkeys("status sostoyanie статус состояние".split(), "note"),
}
# Last words that name a record of work on the project when something precedes them
# (`auth-flow-fixes`, `pr-1245-summary`, `root-cause-analysis`): alone (`SUMMARY.md`, a book's
# table of contents; `analysis.md`) they name nothing.
WORK_WORDS = dict.fromkeys(
    "summary fix fixes fixed analysis investigation thoughts progress solution "
    "improvements review issue research study "
    "svodka analiz ispravlenie сводка анализ исправление".split(),
    "note",
)
# Two-word names, wherever they stand in the file name.
NAME_PAIRS = {
    "dorozhnaya-karta": "roadmap",
    "дорожная-карта": "roadmap",
    "current-state": "handoff",
    "next-steps": "handoff",
    "sleduyushchie-shagi": "handoff",
    "sleduyushie-shagi": "handoff",
    "следующие-шаги": "handoff",
    "state-snapshot": "handoff",
    "decision-log": "decision-log",
    "zhurnal-reshenij": "decision-log",
    "журнал-решений": "decision-log",
    # A register of technical debt, or one item of it: a record of work owed.
    "technical-debt": "note",
    "tech-debt": "note",
    "tehnicheskij-dolg": "note",
    "технический-долг": "note",
}
# Folders of test data, samples and fixtures (a name there is a fixture's), of a product's
# user documentation, reference or web site (a page named `incidents` documents a feature,
# `dns-records` an API), of source code (`src/`, `lib/`: a module's notes) and of an agent's
# reusable prompts (`commands/`): a name there says nothing of the owner's memory.
FIXTURE_DIRS = frozenset(
    "fixtures fixture testdata test-data __tests__ __fixtures__ samples examples example "
    "mocks snapshots __snapshots__ guide guides user-guide tutorials tutorial how-to howto "
    "manual content site website blog posts _posts commands prompts chatmodes api reference "
    "references "
    "generated src lib pkg cmd".split()
)
# Words that make any folder a fixture's (`bad-examples/`, `test-fixtures/`).
_FIXTURE_WORDS = frozenset("fixtures fixture examples samples mocks testdata".split())
# Words that count first too: a decision, a roadmap or a plan is often named kind first
# (`adr-…`, `plan-…`), a backlog by what it lists (`TASKS-billing-audit`, `todo.machine`), and
# Russian puts the head noun first (`otchet-o-zapuske`, `журнал-сборок`); other words count
# last only (`…-log`, `…-requests`).
_LEADING = frozenset(
    "adr adrs decision decisions resheniya reshenij reshenie resheniy решения решение roadmap "
    "prd rfc sprint спринт razbor разбор plan plans plany план планы zhurnal журнал dnevnik "
    "дневник reestr реестр otchet otchety "
    "otchyot отчет отчёт отчеты отчёты itogi итоги zametki заметки zadachi задачи beklog бэклог "
    "беклог задача planning planirovanie планирование issledovanie исследование tasks todo todos "
    "backlog".split()
)

# Last words of a guide: a name that starts with a record's word and ends with one of these
# (`adr-guide`, `todo-workflow`, `plan-howto`) explains how such records are kept.
_GUIDE_WORDS = frozenset(
    "guide guidelines workflow howto how tutorial usage instructions process conventions "
    "format rukovodstvo instrukciya руководство инструкция как".split()
)


@functools.lru_cache(maxsize=4096)
def _fixture_folder(name: str) -> bool:
    """Whether a folder's name holds a fixture word (`bad-examples`); asked once per name."""
    return bool(_FIXTURE_WORDS & set(re.split(r"[-_.]", name)))


def without_language(stem: str) -> str:
    """A (kebab, lower) stem without a translation's language suffix (`x.zh-cn` -> `x`)."""
    return _LANGUAGE_RE.sub("", stem)


def name_role(folders: list[str], stem: str) -> str | None:
    """The role the words of a file's own (kebab) name give it, or None."""
    if FIXTURE_DIRS & set(folders) or any(_fixture_folder(f) for f in folders):
        return None
    words = _words(stem)
    if not words:
        return None
    joined = "-".join(words)
    for pair, found in NAME_PAIRS.items():
        if joined == pair or joined.startswith(pair + "-") or f"-{pair}" in joined:
            return found
    alone = stem == words[0]  # `SUMMARY.md`; `summary-2025-01-08.md` is a dated record
    last = NAME_WORDS.get(words[-1]) or (None if alone else WORK_WORDS.get(words[-1]))
    if last == "todo-item" and _GUIDE_WORDS & set(words):
        return None  # `how-to-write-a-task`, `task-guide-task`: a guide to writing tasks
    if last:
        return last
    if words[0] not in _LEADING or words[-1] in _GUIDE_WORDS:
        return None  # `adr-guide`, `todo-workflow`: a guide to keeping such records
    return NAME_WORDS.get(words[0])


def _words(stem: str) -> list[str]:
    """The words of a stem, its meaningless tail (numbers, dates, hashes) dropped."""
    words = [word for word in re.split(r"[-_. ]+", stem) if word]
    while words and _is_tail(words[-1]):
        words.pop()
    return words


def _is_tail(word: str) -> bool:
    """A number, a version or a hash (hex with a digit in it), not a hex-looking word
    (`facade`); a month's name."""
    if word in _MONTHS:
        return True
    if not _TAIL_RE.match(word):
        return False
    return bool(_HASHLIKE_RE.search(word)) or word in ("final", "draft", "old", "new", "copy")


# Capitalised names that are project boilerplate, not memory.
BOILERPLATE = frozenset(
    [
        "README",
        "LICENSE",
        "LICENCE",
        "CONTRIBUTING",
        "CODE_OF_CONDUCT",
        "SECURITY",
        "AUTHORS",
        "NOTICE",
        "COPYING",
        "SUPPORT",
        "MAINTAINERS",
        "GOVERNANCE",
        "CODEOWNERS",
        "PULL_REQUEST_TEMPLATE",
        "ISSUE_TEMPLATE",
        "THIRD_PARTY_NOTICES",
    ]
)


# Last words of an ALL-CAPS name that make it user documentation, not a key project document.
USER_DOC_WORDS = frozenset(
    "API FAQ QUICKSTART INSTALL INSTALLATION SETUP TUTORIAL TESTING USAGE HOWTO УСТАНОВКА "
    "НАСТРОЙКА".split()
)


def key_document(folders: list[str], name: str, markdown: bool) -> str | None:
    """An ALL-CAPS Markdown file at the root or under `docs/` (ARCHITECTURE.md,
    OPERATIONS.md): owners name their key documents so; boilerplate aside."""
    base = name.rsplit(".", 1)[0]
    base = base[: len(without_language(base.lower()))]  # `REPORT.zh-CN` -> `REPORT`
    if folders[:1] not in ([], ["docs"]) or not markdown:
        return None
    if len(base) < 4 or not base.isupper() or base in BOILERPLATE:
        return None
    if base.replace("-", "_").rsplit("_", 1)[-1] in USER_DOC_WORDS:
        return None  # `MODEL_API.md`, `STORAGE_SETUP.md`: a user's how-to, read for its shape
    return "reference"
