"""The one check of every ROOT a command takes (docs/security.md, #26 R3-7), made once into a
`Root` record (#32: "find the root once").

A ROOT comes from the command line, a grant file or the API: any bytes the shell passes. It
is checked once, before anything is read or written, and every way it can be unusable is a
stable CONTEXT_ROOT (exit 2): a name that is not UTF-8 (no output could show it), a name the
file system refuses as too long, a missing or non-directory or unreadable folder, a folder
inside `.project-corpus/`, and for `init` a link to nothing. The root is then resolved once
(links in its own path are followed, as a shell does); below it nothing is ever followed.

`open_root` makes the one `Root` record of a command: the resolved path, ROOT as given (for
messages and for paths shown from the current folder) and whether it holds `.project-corpus/`.
With no ROOT it is the nearest folder at or above the current one that holds
`.project-corpus/` (as git finds its repository); a ROOT given is used as given. Every
function that takes a root accepts the record and never resolves it again
(`resolve_root(Root)` is its path; `required.require_corpus(Root)` reads its flag).
"""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.corpus.layout import CORPUS_DIR

NAME_MAX = 255  # bytes of one path component (Linux, macOS, Windows)
PATH_MAX = 4096  # bytes of a whole path (Linux)
ROOT_HINT = "pass the project folder: the one that holds AGENTS.md and .project-corpus/"


def _shown(given: str) -> str:
    """GIVEN with every byte that is not UTF-8 written as `\\xNN`."""
    return os.fsencode(given).decode("utf-8", "backslashreplace")


def check_root_name(given: str) -> None:
    """CONTEXT_ROOT when GIVEN cannot name a root at all: not UTF-8, or too long."""
    try:
        encoded = given.encode("utf-8")
    except UnicodeEncodeError:
        raise ContextError(
            "CONTEXT_ROOT",
            f"{_shown(given)}: the path is not UTF-8",
            hint="rename the folder, or pass it through a UTF-8 link",
        ) from None
    if len(encoded) >= PATH_MAX or any(len(part) > NAME_MAX for part in encoded.split(b"/")):
        raise ContextError(
            "CONTEXT_ROOT",
            f"{given[:80]}…: the path is too long for the file system",
            hint=ROOT_HINT,
        )


class Root(NamedTuple):
    """A project root resolved once. As a path-like object it is ROOT as given."""

    path: str  # absolute, links in its own path resolved
    given: str  # as the command line or the caller named it ("." or "../.." when found upward)
    has_corpus: bool  # whether it holds `.project-corpus/` (checked once, when opened)

    def __fspath__(self) -> str:
        return self.given


def open_root(root: str | os.PathLike[str] | None = None) -> Root:
    """The `Root` record of ROOT (None: found upward from the current folder, as above)."""
    if isinstance(root, Root):
        return root
    given = found_upward() if root is None else os.fspath(root)
    path = _resolve(given)
    return Root(path, given, os.path.lexists(os.path.join(path, CORPUS_DIR)))


def found_upward() -> str:
    """The nearest folder at or above the current one that holds `.project-corpus/`, named
    from the current folder ("." when it is this one, or when there is none)."""
    here = os.path.realpath(os.curdir)
    folder = here
    while not os.path.lexists(os.path.join(folder, CORPUS_DIR)):
        parent = os.path.dirname(folder)
        if parent == folder:
            return os.curdir
        folder = parent
    return os.path.relpath(folder, here)


def resolve_root(root: str | os.PathLike[str]) -> str:
    """The project root, resolved once, as a `str` (links in its own path are allowed); a
    `Root` record's path as it is."""
    if isinstance(root, Root):
        return root.path
    return _resolve(os.fspath(root))


def _resolve(given: str) -> str:
    check_root_name(given)
    path = os.path.realpath(given)
    what = _root_problem(path)
    if what:
        raise ContextError("CONTEXT_ROOT", f"{given} {what}", hint=ROOT_HINT)
    _outside_corpus(given, path)
    return path


def resolve_new_root(root: str | os.PathLike[str]) -> str:
    """The root `init` writes into: an existing folder (checked as every command's ROOT) or
    a path to create; a link to nothing is refused, never created through."""
    given = os.fspath(root)
    check_root_name(given)
    if os.path.islink(given) and not os.path.exists(given):
        raise ContextError(
            "CONTEXT_ROOT",
            f"{given} is a link to nothing",
            hint="pass the folder itself, or create the link's target first",
        )
    path = os.path.realpath(given)
    if os.path.lexists(path):
        return resolve_root(path)
    _outside_corpus(given, path)
    existing = os.path.dirname(path)
    while not os.path.lexists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise ContextError(
            "CONTEXT_ROOT", f"{given}: {existing} is not a directory", hint=ROOT_HINT
        )
    return path


def _outside_corpus(given: str, path: str) -> None:
    parts = path.split(os.sep)  # ["", "home", ...]: the path is absolute
    if CORPUS_DIR in parts:
        project = os.path.join(os.sep, *parts[1 : parts.index(CORPUS_DIR)])
        project = project if os.path.isabs(given) else os.path.relpath(project)
        raise ContextError(
            "CONTEXT_ROOT",
            f"{given} is inside the corpus folder {CORPUS_DIR}/, not the project root",
            hint=f"use the project root instead: {project}",
        )


def _root_problem(path: str) -> str | None:
    """Why PATH cannot be the project root, or None (never an exception: a root behind a
    folder this user may not enter is a stable error, not a crash)."""
    try:
        st = os.stat(path)
    except PermissionError:
        return "cannot be reached: permission denied on the way"
    except OSError:
        return "does not exist"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    if not os.access(path, os.R_OK | os.X_OK):
        return "cannot be read: permission denied"
    return None
