"""The date of a memory file or entry (docs/import.md, "Dates"): its front matter, a `Date:`
line, a dated file name or heading, else the file's first commit in git.

Git runs as `context review` runs it (`core/gitenv.py`: the work tree found by its `.git`
entry and named with `--git-dir`/`--work-tree`, the hardened environment) with `-c` overrides,
so no repository configuration runs a program: no fsmonitor, no signature verification, no
pager, no external diff or text conversion, no hooks; no system configuration is read.
Its output is read with a bound; a repository that is not git, a git that fails or an output
past the bound leaves the dates unknown, never an error.
"""

from __future__ import annotations

import os
import re
import subprocess
from datetime import date

from project_corpus.core.gitenv import environment
from project_corpus.core.gitenv import git_argv
from project_corpus.core.gitenv import work_tree_top

DATE_RE = re.compile(r"(?<!\d)(\d{4})[-/._](\d{2})[-/._](\d{2})(?!\d)")
RU_DATE_RE = re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?![\d.]*\d)")
SLASH_RE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])")
EN_MONTHS = "january february march april may june july august september october november december"
RU_MONTHS = "января февраля марта апреля мая июня июля августа сентября октября ноября декабря"
MONTHS = {
    **{name: n for n, name in enumerate(EN_MONTHS.split(), 1)},
    **{name[:3]: n for n, name in enumerate(EN_MONTHS.split(), 1)},
    "sept": 9,
    **{name: n for n, name in enumerate(RU_MONTHS.split(), 1)},
}
_MONTH = r"([^\W\d_]{3,9})\.?"
MONTH_DAY_RE = re.compile(rf"(?<!\w){_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})(?!\d)")
DAY_MONTH_RE = re.compile(rf"(?<![\w.])(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH},?\s+(\d{{4}})(?!\d)")
DATE_LINE_RE = re.compile(
    r"^[\s*_>-]*(?:date|created|created-at|created_at|updated|last updated|дата)[\s*_]*:",
    re.IGNORECASE,
)
MAX_HEAD_LINES = 30
MAX_GIT_BYTES = 64 * 1024 * 1024
GIT_CONFIG = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "log.showSignature=false",
    "core.pager=cat",
    "diff.external=",
    "core.quotePath=false",
)


def find_date(text: str, order: str | None = None) -> str | None:
    """The first real calendar date in TEXT: `2024-05-01`, `2024/05/01`, day first with dots
    (`1.05.2024`, `01.05.2024`), a month name (`May 1, 2024`, `1 May 2024`, `1 мая 2024`),
    or with slashes (`5/1/2024`) month first or day first: as ORDER (`mdy`/`dmy`, what the
    whole file says, `slash_order`) says, else only when a number above 12 decides it."""
    for match in DATE_RE.finditer(text):
        found = _valid(match.group(1), match.group(2), match.group(3))
        if found:
            return found
    for match in RU_DATE_RE.finditer(text):
        found = _valid(match.group(3), match.group(2), match.group(1))
        if found:
            return found
    return _named(text) or _slashed(text, order)


def _named(text: str) -> str | None:
    for match in MONTH_DAY_RE.finditer(text):
        month = MONTHS.get(match.group(1).casefold())
        found = _valid(match.group(3), str(month), match.group(2)) if month else None
        if found:
            return found
    for match in DAY_MONTH_RE.finditer(text):
        month = MONTHS.get(match.group(2).casefold().replace("ё", "е"))
        found = _valid(match.group(3), str(month), match.group(1)) if month else None
        if found:
            return found
    return None


def _slashed(text: str, order: str | None) -> str | None:
    for match in SLASH_RE.finditer(text):
        first, second, year = match.groups()
        wanted = order or _decided(int(first), int(second))
        if wanted is None:
            continue
        month, day = (first, second) if wanted == "mdy" else (second, first)
        found = _valid(year, month, day)
        if found:
            return found
    return None


def _decided(first: int, second: int) -> str | None:
    """`mdy` or `dmy` when one of the two numbers can only be a day, else None."""
    if first > 12 >= second:
        return "dmy"
    if second > 12 >= first:
        return "mdy"
    return None


def slash_order(titles: list[str]) -> str | None:
    """The order of a file's slash dates: the one its dates that decide (a number above 12)
    all agree on; None when none decides or they disagree (its ambiguous dates stay unread)."""
    seen = {
        _decided(int(m.group(1)), int(m.group(2))) for t in titles for m in SLASH_RE.finditer(t)
    }
    seen.discard(None)
    return seen.pop() if len(seen) == 1 else None


def _valid(year: str, month: str, day: str) -> str | None:
    try:
        return date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        return None


def text_date(lines: tuple[str, ...], front_matter: int) -> str | None:
    """A date from the front matter, or a `Date:` line among the first lines."""
    for index in range(min(len(lines), max(front_matter, MAX_HEAD_LINES))):
        line = lines[index]
        if DATE_LINE_RE.match(line):
            found = find_date(line)
            if found:
                return found
    return None


def name_date(path: str) -> str | None:
    return find_date(path.rsplit("/", 1)[-1])


def _log_argv(root: str) -> list[str] | None:
    """The `git log` of ROOT's files, in the work tree that holds ROOT (None outside one, or
    inside a `.git` folder)."""
    top = work_tree_top(root)
    if top is None or ".git" in os.path.relpath(root, top).split(os.sep):
        return None
    args = ["--no-pager"]
    for setting in GIT_CONFIG:
        args += ["-c", setting]
    args += ["log", "--no-ext-diff", "--no-textconv", "--no-renames", "--diff-filter=A"]
    args += ["--format=%x01%cs", "--name-only", "-z", "--relative", "--", "."]
    return git_argv(os.path.join(top, ".git"), top, args)


def git_first_dates(root: str) -> dict[str, str]:
    """{path relative to ROOT: date of the commit that first added it}, {} outside git."""
    resolved = os.path.realpath(root)
    argv = _log_argv(resolved)
    if argv is None:
        return {}
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**environment(), "GIT_CONFIG_NOSYSTEM": "1"},
            cwd=resolved,
        )
    except OSError:
        return {}
    assert proc.stdout is not None
    with proc:
        out = proc.stdout.read(MAX_GIT_BYTES + 1)
        if len(out) > MAX_GIT_BYTES:
            proc.kill()
            return {}
        if proc.wait() != 0:
            return {}
    return _parse_log(out)


def _parse_log(out: bytes) -> dict[str, str]:
    """Newest commit first: the last date seen for a path is its first commit's."""
    dates: dict[str, str] = {}
    current = ""
    for field in out.decode("utf-8", "surrogateescape").split("\0"):
        field = field.strip("\n")
        if field.startswith("\x01"):
            head, _, path = field[1:].partition("\n")
            current = head.strip()
            field = path
        if field and current:
            dates[field] = current
    return dates
