"""The working tree as a `Tree`: confined, no-follow reads below the resolved root.

The walk reads each candidate source exactly once through `fs` (no link is followed) and
enforces the per-source limit while reading; `corpus.snapshot` parses what it yields.

An OVERLAY (an editor's unsaved text, `project-corpus lsp`) replaces the bytes of sources the
walk finds: only a regular file in read scope that the walk reached is ever overlaid, so an
overlay names nothing outside the corpus and never makes a source appear; its bytes then go
through the same limits and UTF-8 check as the file's would (`snapshot.SourceReader.add`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from collections.abc import Mapping

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Finding
from project_corpus.corpus import fs
from project_corpus.corpus import required
from project_corpus.corpus.policy import in_scope
from project_corpus.corpus.policy import may_hold
from project_corpus.corpus.tree import Limits
from project_corpus.corpus.tree import Problem
from project_corpus.corpus.tree import RawFile


class WorkTree:
    """The files below ROOT (already resolved) as they are on disk, or as OVERLAY has them
    (portable path -> bytes, for sources only: see the module docstring)."""

    def __init__(self, root: str, overlay: Mapping[str, bytes] | None = None) -> None:
        self._root = root
        self._overlay = overlay or {}

    @property
    def root(self) -> str:
        return self._root

    def kind(self, rel: str) -> str | None:
        return required.path_kind(self._root, rel)

    def read(self, rel: str, max_bytes: int, code: str) -> bytes:
        return fs.read_relative(self._root, rel, max_bytes, code=code)

    def generated_views(self) -> list[Finding]:
        return required.generated_views(self._root)

    def sources(
        self, rel_dir: str, scopes: tuple[str, ...], limits: Limits
    ) -> Iterator[RawFile | Problem]:
        # Every `prefix/**` scope (the usual policy): one `startswith` call per source.
        prefixes = tuple(scope[:-2] for scope in scopes if scope.endswith("/**"))
        fast = prefixes if len(prefixes) == len(scopes) else None
        for dir_fd, entry in fs.walk(self._root, rel_dir):
            if entry.kind == "file":
                path = entry.path
                if path.endswith(".md") and (
                    path.startswith(fast) if fast is not None else in_scope(path, scopes)
                ):
                    data = self._overlay.get(path)
                    if data is None:
                        yield _read(dir_fd, entry, limits.source_bytes)
                    else:  # the editor's text of a file the walk found (checked by `add`)
                        yield RawFile(path, data)
            elif entry.kind != "dir" and _could_hold_sources(dir_fd, entry, scopes):
                yield _refused(entry)


def _read(dir_fd: int, entry: fs.Entry, max_bytes: int) -> RawFile | Problem:
    path = entry.path
    try:
        data = fs.read_at(dir_fd, entry.name, max_bytes, label=path, link_code="SOURCE_LINK")
    except ContextError as exc:
        if exc.code == "CONTEXT_LIMIT":
            raise ContextError("CONTEXT_LIMIT", f"source_bytes: {exc.detail}") from None
        if exc.code != "SOURCE_LINK":
            raise
        return Problem("SOURCE_LINK", path, exc.detail.removeprefix(f"{path}: "))
    return RawFile(path, data)


def _refused(entry: fs.Entry) -> Problem:
    if entry.kind == "unreadable":
        raise ContextError(
            "SOURCE_PERMISSION",
            f"{entry.path}: permission denied",
            hint="make it readable (e.g. `chmod u+rX`) or move it out of the read scope",
        )
    if entry.kind == "badname":
        return Problem("SOURCE_PATH", entry.path, "the name is not UTF-8 (shown escaped)")
    return Problem("SOURCE_LINK", entry.path, f"a {entry.kind} is never followed")


def _could_hold_sources(dir_fd: int, entry: fs.Entry, scopes: tuple[str, ...]) -> bool:
    """A link, special, unreadable or misnamed entry that would be a source, or a folder
    that could hold sources (a link's target is only stat-ed, never read)."""
    if entry.name.endswith(".md") and in_scope(entry.path, scopes):
        return True
    if entry.kind in ("unreadable", "badname"):
        return may_hold(entry.path, scopes)
    try:
        is_dir = stat.S_ISDIR(os.stat(entry.name, dir_fd=dir_fd).st_mode)
    except OSError:
        return False
    return is_dir and may_hold(entry.path, scopes)
