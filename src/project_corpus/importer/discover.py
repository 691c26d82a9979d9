"""Finding and reading the owner's memory files, confined to ROOT (docs/import.md).

The walk never follows a link: folders are listed with `lstat` semantics, a linked folder
or file is left out with the reason `link`, a special file with `special`. Files are read
with the corpus's no-follow reads (`corpus/fs.py`), at most `MAX_SOURCE_BYTES` each, and must
be strict UTF-8 (`encoding` otherwise). Every Markdown file the walk sees and does not use is
listed with its reason, so the plan says what it left out.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.corpus import fs
from project_corpus.corpus.snapshot import MAX_SOURCE_BYTES
from project_corpus.importer import layouts
from project_corpus.importer import sections
from project_corpus.importer.records import Left
from project_corpus.importer.records import Source

MAX_WALK_ENTRIES = 200_000  # entries listed before the walk stops (a plan, not a hang)
MAX_DEPTH = 32


class Found(NamedTuple):
    """What the walk saw: candidate paths with their roles, and files left out."""

    paths: list[tuple[str, str]]  # (path, role)
    left: list[Left]


def glob_re(pattern: str) -> re.Pattern[str]:
    """A glob as git and ruff read it: `**` crosses folders, `*` and `?` do not; a pattern
    without `/` matches a file name at any depth."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        else:
            char = pattern[i]
            out.append({"*": "[^/]*", "?": "[^/]"}.get(char, re.escape(char)))
            i += 1
    body = "".join(out)
    prefix = "" if "/" in pattern.rstrip("/") else "(?:.*/)?"
    suffix = "(?:/.*)?" if pattern.endswith("/") or "/" not in pattern else ""
    return re.compile(f"^{prefix}{body.rstrip('/')}{suffix}\\Z")


def matches_any(path: str, patterns: list[re.Pattern[str]]) -> bool:
    return any(p.match(path) for p in patterns)


def walk(root: str, include: list[str], exclude: list[str]) -> Found:
    """Every candidate memory file under ROOT (sorted), and what was left out and why."""
    includes = [glob_re(p) for p in include]
    excludes = [glob_re(p) for p in exclude]
    paths: list[tuple[str, str]] = []
    left: list[Left] = []
    for path, kind in _entries(root):
        if kind == "limit":
            left.append(Left(path, "limit", f"the walk stops after {MAX_WALK_ENTRIES} entries"))
            break
        named = layouts.role(path)
        included = matches_any(path, includes)
        if matches_any(path, excludes):
            left.append(Left(path, "excluded", "matches an --exclude pattern"))
        elif kind != "file":
            left.append(Left(path, kind, _KIND_DETAIL[kind]))
        elif named is None and not included:
            if path.lower().endswith(layouts.MARKDOWN_SUFFIXES):
                left.append(Left(path, "not-memory", "not in a known memory layout"))
        else:
            paths.append((path, named or "included"))
    return Found(sorted(paths), sorted(left))


_KIND_DETAIL = {
    "link": "a symbolic link is never followed",
    "special": "not a regular file",
    "unreadable": "permission denied",
    "bad-name": "the name is not UTF-8",
}


def _entries(root: str) -> Iterator[tuple[str, str]]:
    """(path, kind) of the files and links the walk meets, depth first, sorted by name.
    Folders are opened from ROOT component by component without following a link."""
    stack: list[tuple[str, int]] = [("", 0)]
    seen = 0
    while stack:
        rel, depth = stack.pop()
        try:
            with fs.open_dir(root, rel) as fd:
                listing = [(e.name, _kind(e)) for e in os.scandir(fd)]
        except OSError:
            yield rel, "unreadable"
            continue
        for name, kind in sorted(listing, reverse=True):
            seen += 1
            if seen > MAX_WALK_ENTRIES:
                yield rel, "limit"
                return
            path = f"{rel}/{name}" if rel else name
            if fs.display_name(name) is None:
                if name.lower().endswith(layouts.MARKDOWN_SUFFIXES):
                    yield fs.escaped_name(path), "bad-name"
            elif kind == "dir":
                if layouts.walk_dir(name) and depth < MAX_DEPTH:
                    stack.append((path, depth + 1))
            elif layouts.is_candidate_name(name) or (
                kind == "link" and layouts.is_memory_dir(name)
            ):
                yield path, kind


def _kind(entry: os.DirEntry[str]) -> str:
    """The entry's kind from the listing's own type (no `lstat` per entry where the file
    system reports one); a file is opened no-follow and checked again when read."""
    try:
        if entry.is_symlink():
            return "link"
        if entry.is_dir(follow_symlinks=False):
            return "dir"
        return "file" if entry.is_file(follow_symlinks=False) else "special"
    except OSError:
        return "unreadable"


def read_all(root: str, paths: list[tuple[str, str]]) -> Iterator[Source | Left]:
    """Each (path, role) of PATHS read as a Source, or why it is left out. A folder is
    opened once for all its files (no link followed on the way)."""
    by_folder: dict[str, list[tuple[str, str]]] = {}
    for path, role in paths:
        by_folder.setdefault(path.rpartition("/")[0], []).append((path, role))
    for folder, members in sorted(by_folder.items()):
        try:
            with fs.open_dir(root, folder) as fd:
                for path, role in members:
                    yield _read_at(fd, path, role)
        except OSError as exc:
            why = "unreadable" if isinstance(exc, PermissionError) else "link"
            yield from (Left(path, why, f"{folder}: cannot be opened") for path, _ in members)


def _read_at(fd: int, path: str, role: str) -> Source | Left:
    """The file at PATH (in the folder FD) as a Source, or why it is left out."""
    try:
        data = fs.read_at(
            fd,
            path.rpartition("/")[2],
            MAX_SOURCE_BYTES,
            label=path,
            link_code="SOURCE_LINK",
            limit_code="CONTEXT_LIMIT",
        )
    except ContextError as exc:
        reason = {"CONTEXT_LIMIT": "oversized", "SOURCE_PERMISSION": "unreadable"}
        return Left(path, reason.get(exc.code, "link"), exc.detail.partition(": ")[2])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Left(path, "encoding", f"not UTF-8 (byte {exc.start})")
    if "\0" in text:
        return Left(path, "encoding", "holds NUL bytes (a binary file)")
    lines = sections.split(text)
    return Source(path, role, lines, hashlib.sha256(data).hexdigest())
