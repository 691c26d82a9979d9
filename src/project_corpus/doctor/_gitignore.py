"""A small, documented subset of gitignore matching (for CACHE_NOT_IGNORED). Pure functions.

Supported: blank lines and `#` comments are skipped; `!` negates (the last matching
pattern wins); a trailing `/` matches directories only; a pattern with a `/` at its start
or middle is anchored to the directory of its `.gitignore`, otherwise it matches a name at
any depth; `*` and `?` do not cross `/`, `**` does; `[...]` classes as in fnmatch. As in
git, nothing below an ignored directory can be re-included. Not supported: escaped
trailing spaces and `\\#`/`\\!` escapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

# Pattern steps: one character each, or a wildcard. Matching simulates all positions in the
# steps at once (a set of states), so a glob such as `*a*a*a*a*b` costs
# O(len(path) * len(glob)) instead of the exponential backtracking of a translated regex.
STAR = "*"  # any run of characters except `/`
ANY_RUN = "**"  # any run of characters, `/` included
DIRS = "**/"  # nothing, or any run of characters ending with `/`
ONE = "?"  # one character except `/`


class Pattern(NamedTuple):
    steps: tuple[str, ...]  # literal characters (as "=c") and the wildcards above
    negated: bool
    dir_only: bool


def _translate(glob: str) -> list[str]:
    steps = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            steps.append(DIRS)
            i += 3
        elif glob.startswith("**", i):
            steps.append(ANY_RUN)
            i += 2
        else:
            steps.append(glob[i] if glob[i] in (STAR, ONE) else "=" + glob[i])
            i += 1
    return steps


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
    steps = _translate(text.lstrip("/"))
    return Pattern(tuple(steps if anchored else [DIRS, *steps]), negated, dir_only)


def _closure(steps: tuple[str, ...], states: set[int]) -> set[int]:
    """STATES plus every state reachable by skipping wildcards that may match nothing."""
    todo, done = list(states), set(states)
    while todo:
        state = todo.pop()
        if state < len(steps) and steps[state] in (STAR, ANY_RUN, DIRS) and state + 1 not in done:
            done.add(state + 1)
            todo.append(state + 1)
    return done


def _advance(steps: tuple[str, ...], states: set[int], char: str) -> set[int]:
    after = set()
    for state in states:
        step = steps[state] if state < len(steps) else ""
        if step == ANY_RUN or (step == STAR and char != "/"):
            after.add(state)
        elif step == DIRS:
            after.update((state, state + 1) if char == "/" else (state,))
        elif (step == ONE and char != "/") or step == "=" + char:
            after.add(state + 1)
    return _closure(steps, after)


def matches(pattern: Pattern, path: str) -> bool:
    """True when PATTERN matches the whole of PATH."""
    states = _closure(pattern.steps, {0})
    for char in path:
        states = _advance(pattern.steps, states, char)
        if not states:
            return False
    return len(pattern.steps) in states


def parse(text: str) -> tuple[Pattern, ...]:
    return tuple(p for p in (compile_line(line) for line in text.split("\n")) if p is not None)


def _state(patterns: Sequence[Pattern], rel: str, is_dir: bool) -> bool | None:
    """True (ignored), False (re-included) or None (no pattern matched)."""
    state = None
    for pattern in patterns:
        if (is_dir or not pattern.dir_only) and matches(pattern, rel):
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
