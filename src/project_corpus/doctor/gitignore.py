"""A small, documented subset of gitignore matching (for CACHE_NOT_IGNORED). Pure functions.

Supported: blank lines and `#` comments are skipped; `!` negates (the last matching
pattern wins); a trailing `/` matches directories only; a pattern with a `/` at its start
or middle is anchored to the directory of its `.gitignore`, otherwise it matches a name at
any depth; `*` and `?` do not cross `/`, `**` does; `[...]` classes as in fnmatch. As in
git, nothing below an ignored directory can be re-included. Not supported: escaped
trailing spaces and `\\#`/`\\!` escapes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple


class Pattern(NamedTuple):
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool


def _translate(glob: str) -> str:
    out = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        else:
            out.append({"*": "[^/]*", "?": "[^/]"}.get(glob[i], re.escape(glob[i])))
            i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def compile_line(line: str) -> Pattern | None:
    """One .gitignore line as a pattern matching paths relative to that file's directory."""
    text = line.rstrip("\r").rstrip(" ")
    if not text or text.startswith("#"):
        return None
    negated = text.startswith("!")
    text = text[1:] if negated else text
    dir_only = text.endswith("/")
    text = text.rstrip("/")
    if not text:
        return None
    anchored = "/" in text
    body = _translate(text.lstrip("/"))
    prefix = "" if anchored else "(?:.*/)?"
    return Pattern(re.compile(f"^{prefix}{body}$", re.DOTALL), negated, dir_only)


def parse(text: str) -> tuple[Pattern, ...]:
    return tuple(p for p in (compile_line(line) for line in text.split("\n")) if p is not None)


def _state(patterns: Sequence[Pattern], rel: str, is_dir: bool) -> bool | None:
    """True (ignored), False (re-included) or None (no pattern matched)."""
    state = None
    for pattern in patterns:
        if (is_dir or not pattern.dir_only) and pattern.regex.match(rel):
            state = not pattern.negated
    return state


def is_ignored(path: str, is_dir: bool, files: Sequence[tuple[str, Sequence[Pattern]]]) -> bool:
    """Whether PATH (relative to the repository root) is ignored by FILES, a list of
    (directory of the .gitignore relative to the root, "" for the root; its patterns)
    ordered from the root down. Each ancestor directory is tested first."""
    parts = path.split("/")
    for depth in range(1, len(parts) + 1):
        prefix = "/".join(parts[:depth])
        state = None
        for base, patterns in files:
            if base and not prefix.startswith(base + "/"):
                continue
            rel = prefix[len(base) + 1 :] if base else prefix
            found = _state(patterns, rel, is_dir or depth < len(parts))
            state = found if found is not None else state
        if state:
            return True
    return False
