"""The date of a memory file or entry (docs/import.md, "Dates"): its front matter, a `Date:`
line, a dated file name or heading, else the file's first commit in git.

Git runs with a fixed argument vector (never a shell) and `-c` overrides, so no repository
configuration runs a program: no fsmonitor, no signature verification, no pager, no external
diff or text conversion, no hooks; the environment drops the variables that point git
elsewhere (`review/git.py`'s tables). Its output is read with a bound; a repository that is not
git, a git that fails or an output past the bound leaves the dates unknown, never an error.
"""

from __future__ import annotations

import os
import re
import subprocess
from datetime import date

# The environment `review/git.py` gives git (a test holds the two equal): importing it would
# import the whole review package, 76 ms of a 2,000-file import's start-up.
REPOSITORY_VARIABLES = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
)
FIXED_VARIABLES = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_ALLOW_PROTOCOL": "none",
    "LC_ALL": "C",
}

DATE_RE = re.compile(r"(?<!\d)(\d{4})[-/._](\d{2})[-/._](\d{2})(?!\d)")
RU_DATE_RE = re.compile(r"(?<!\d)(\d{2})\.(\d{2})\.(\d{4})(?!\d)")
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


def find_date(text: str) -> str | None:
    """The first real calendar date in TEXT (`2024-05-01`, `2024/05/01`, `01.05.2024`)."""
    for match in DATE_RE.finditer(text):
        found = _valid(match.group(1), match.group(2), match.group(3))
        if found:
            return found
    for match in RU_DATE_RE.finditer(text):
        found = _valid(match.group(3), match.group(2), match.group(1))
        if found:
            return found
    return None


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


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in REPOSITORY_VARIABLES}
    return {**env, **FIXED_VARIABLES, "GIT_CONFIG_NOSYSTEM": "1"}


def git_first_dates(root: str) -> dict[str, str]:
    """{path relative to ROOT: date of the commit that first added it}, {} outside git."""
    argv = ["git", "--no-pager", "--literal-pathspecs"]
    for setting in GIT_CONFIG:
        argv += ["-c", setting]
    argv += ["-C", root, "log", "--no-ext-diff", "--no-textconv", "--no-renames"]
    argv += ["--diff-filter=A", "--format=%x01%cs", "--name-only", "-z", "--relative", "--", "."]
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_environment(),
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
