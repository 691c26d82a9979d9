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
from collections.abc import Iterator
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_SOURCE_BYTES
from project_corpus.corpus import fs
from project_corpus.importer import layouts
from project_corpus.importer import sections
from project_corpus.importer import shapes
from project_corpus.importer import siblings
from project_corpus.importer.folders import BANK_ROLES
from project_corpus.importer.records import Left
from project_corpus.importer.records import Source

MAX_WALK_ENTRIES = 200_000  # entries listed before the walk stops (a plan, not a hang)
MAX_DEPTH = 32
BY_SHAPE = "?shape"  # the role of a file read to be judged by its headings (`shapes.py`)
NOT_MEMORY = "not in a known memory layout"


class Found(NamedTuple):
    """What the walk saw: candidate paths with their roles, and files left out."""

    paths: list[tuple[str, str]]  # (path, role)
    left: list[Left]


def glob_parts(pattern: str) -> tuple[str, ...]:
    """A glob as git and ruff read it, as path segments: `**` crosses folders, `*` and `?`
    do not; a pattern without `/` (or ending in `/`) also matches anything below what it
    names, and one without `/` a name at any depth."""
    parts = tuple(p for p in pattern.strip("/").split("/") if p)
    if "/" not in pattern.strip("/"):
        return ("**", *parts, "**")
    return (*parts, "**") if pattern.endswith("/") else parts


def glob_match(parts: tuple[str, ...], path: str) -> bool:
    """Whether PATH matches the glob PARTS: a table over (segment, component), each cell one
    segment-to-name comparison, so no pattern can take more than their product (no regular
    expression that a pattern of many `*` could make backtrack)."""
    names = path.split("/")
    reach = {0}  # how many components the segments so far can have consumed
    for part in parts:
        if part == "**":
            reach = set(range(min(reach), len(names) + 1)) if reach else set()
        else:
            reach = {i + 1 for i in reach if i < len(names) and _name_match(part, names[i])}
    return len(names) in reach


def _name_match(pattern: str, name: str) -> bool:
    """`*` and `?` wildcards within one name (the two-pointer algorithm: at most
    len(pattern) * len(name) steps, a name being at most 255 bytes)."""
    p = n = 0
    star, mark = -1, 0
    while n < len(name):
        if p < len(pattern) and pattern[p] in ("?", name[n]):
            p, n = p + 1, n + 1
        elif p < len(pattern) and pattern[p] == "*":
            star, mark, p = p, n, p + 1
        elif star >= 0:
            mark += 1
            p, n = star + 1, mark
        else:
            return False
    return all(c == "*" for c in pattern[p:])


def matches_any(path: str, patterns: list[tuple[str, ...]]) -> bool:
    return any(glob_match(parts, path) for parts in patterns)


def walk(root: str, include: list[str], exclude: list[str]) -> Found:
    """Every candidate memory file under ROOT (sorted), and what was left out and why."""
    includes = [glob_parts(p) for p in include]
    excludes = [glob_parts(p) for p in exclude]
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
                left.append(Left(path, "not-memory", NOT_MEMORY))
        else:
            paths.append((path, named or "included"))
    paths, left = _banks(paths, left)
    return Found(sorted(paths), sorted(left))


def _banks(
    paths: list[tuple[str, str]], left: list[Left]
) -> tuple[list[tuple[str, str]], list[Left]]:
    """A folder holding two or more memory-bank files is a memory bank, whatever its name
    (`cline_docs/`, `.roo/`, a team's own): its other Markdown files are references. Then the
    repository-level view (`siblings.py`) judges unclaimed files by their neighbours; every
    other unclaimed Markdown file under a docs-like folder is read for its shape."""
    bank_files: dict[str, int] = {}
    for path, _ in paths:
        folder, _, name = path.rpartition("/")
        if layouts.stem_key(name) in BANK_ROLES:
            bank_files[folder] = bank_files.get(folder, 0) + 1
    banks = {folder for folder, count in bank_files.items() if count >= 2}
    unclaimed = [
        (e.path, layouts.stem_key(e.path.rpartition("/")[2]))
        for e in left
        if e.reason == "not-memory" and e.path.rpartition("/")[0] not in banks
    ]
    beside = siblings.view(paths, unclaimed)
    kept: list[Left] = []
    for entry in left:
        folder, _, name = entry.path.rpartition("/")
        if entry.reason != "not-memory":
            kept.append(entry)
        elif folder in banks:
            paths.append((entry.path, "reference"))
        elif entry.path in beside:
            paths.append((entry.path, beside[entry.path]))
        elif shapes.candidate(folder.lower().split("/") if folder else [], layouts.stem_key(name)):
            paths.append((entry.path, BY_SHAPE))
        else:
            kept.append(entry)
    return paths, kept


_KIND_DETAIL = {
    "vendored": "vendored code or build output: the folder is not entered",
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
            met = _meet(path, name, kind, depth, stack)
            if met is not None:
                yield (fs.escaped_name(path) if met == "bad-name" else path), met


def _meet(path: str, name: str, kind: str, depth: int, stack: list[tuple[str, int]]) -> str | None:
    """What the walk reports of one entry (None: nothing); a folder to enter goes on STACK."""
    if fs.display_name(name) is None:
        return "bad-name" if name.lower().endswith(layouts.MARKDOWN_SUFFIXES) else None
    if kind == "dir":
        if layouts.walk_dir(name) and depth < MAX_DEPTH:
            stack.append((path, depth + 1))
            return None
        return "vendored" if layouts.vendored_dir(name) else None
    if layouts.is_candidate_name(name) or (kind == "link" and layouts.is_memory_dir(name)):
        return kind
    return None


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
    dated = shapes.record_head(text, path.lower().split("/")[:-1]) if role == BY_SHAPE else None
    judged = role == BY_SHAPE and not dated and not shapes.might_be_memory(text)
    lines = () if judged else sections.split(text)
    if role == BY_SHAPE:
        role = shapes.role(lines) or dated or ""
        if not role:
            return Left(path, "not-memory", NOT_MEMORY + "; its headings say no memory kind")
    return Source(path, role, lines, hashlib.sha256(data).hexdigest())
