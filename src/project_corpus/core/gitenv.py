"""How the tool runs git, one home: the environment and the argument vector's head.

Git runs as a subprocess with a fixed argument vector (never a shell). The repository is
found here, not by git: the nearest folder at or above ROOT that holds a `.git` entry (what a
clone or a linked worktree has, and what no commit can put in a tree), and every call names
it with `--git-dir` and `--work-tree`, so a bare repository committed under ROOT is never
used, and `safe.bareRepository=explicit` refuses one anyway. The environment is the user's
with the variables that would point git at another repository removed (GIT_DIR,
GIT_WORK_TREE…), prompts off, no optional locks, no replace objects, no grafts
(`GIT_GRAFT_FILE` is the empty device), and no transport protocol allowed, so a partial clone
cannot fetch a missing object from the network. `context review` and `import` both use it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

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
    "GIT_GRAFT_FILE": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_ALLOW_PROTOCOL": "none",
    "LC_ALL": "C",
}


def environment() -> dict[str, str]:
    """The user's environment without REPOSITORY_VARIABLES, with FIXED_VARIABLES."""
    env = {k: v for k, v in os.environ.items() if k not in REPOSITORY_VARIABLES}
    return {**env, **FIXED_VARIABLES}


def git_argv(git_dir: str, top: str, args: Sequence[str]) -> list[str]:
    """`git` naming GIT_DIR and the work tree TOP explicitly, then ARGS."""
    return [
        "git",
        f"--git-dir={git_dir}",
        f"--work-tree={top}",
        "--literal-pathspecs",
        "-c",
        "safe.bareRepository=explicit",
        "-c",
        "core.fsmonitor=false",
        *args,
    ]


def work_tree_top(root: str) -> str | None:
    """The nearest folder at or above ROOT (resolved) holding a `.git` entry, or None."""
    folder = root
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
