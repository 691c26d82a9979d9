"""Confined, no-follow filesystem access and atomic publication (SPEC §2.2, §4).

Every read starts from a directory descriptor of the resolved root and opens each path
component with O_NOFOLLOW, so no symbolic link anywhere below the root is ever followed,
and the opened file's `fstat` (not a prior `lstat`) decides whether it is a regular file.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from project_corpus.errors import ContextError

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK


class Entry(NamedTuple):
    """A directory entry met while walking: kind is file, dir, link or special."""

    path: str  # portable, relative to the root
    name: str
    kind: str


def resolve_root(root: str | os.PathLike[str]) -> Path:
    """The project root, resolved once (symlinks in the root's own path are allowed)."""
    path = Path(os.path.realpath(os.fspath(root)))
    if not path.is_dir():
        raise ContextError("CONTEXT_ROOT", f"{os.fspath(root)} is not a directory")
    return path


def _split(rel: str) -> list[str]:
    parts = rel.split("/")
    if not rel or any(p in ("", ".", "..") for p in parts) or "\\" in rel or "\0" in rel:
        raise ValueError(f"not a portable relative path: {rel!r}")
    return parts


@contextlib.contextmanager
def open_dir(root: Path, rel: str = "") -> Iterator[int]:
    """A descriptor of ROOT/rel, opened component by component without following links.

    Raises FileNotFoundError / NotADirectoryError / OSError(ELOOP) as the OS reports them.
    """
    fd = os.open(root, _DIR_FLAGS)
    try:
        for part in _split(rel) if rel else []:
            child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)


def entry_kind(dir_fd: int, name: str) -> str | None:
    """file, dir, link or special for NAME inside DIR_FD (None when it does not exist)."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    return _kind(st.st_mode)


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        return "file"
    return "special"


def read_at(
    dir_fd: int,
    name: str,
    max_bytes: int,
    *,
    label: str,
    link_code: str,
    limit_code: str = "CONTEXT_LIMIT",
) -> bytes:
    """Read a regular file NAME in DIR_FD, never following a link, at most MAX_BYTES."""
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        raise ContextError(
            link_code, f"{label}: cannot open without following links ({exc.strerror})"
        ) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ContextError(link_code, f"{label}: not a regular file")
        if st.st_size > max_bytes:
            raise ContextError(
                limit_code, f"{label}: {st.st_size} bytes exceeds the limit of {max_bytes}"
            )
        chunks = []
        remaining = max_bytes + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        if len(data) > max_bytes:
            raise ContextError(
                limit_code, f"{label}: grew past the limit of {max_bytes} bytes while read"
            )
        return data
    finally:
        os.close(fd)


def read_relative(
    root: Path, rel: str, max_bytes: int, *, code: str, limit_code: str | None = None
) -> bytes:
    """Read ROOT/rel confined to ROOT. Any link, missing or special file raises CODE."""
    try:
        parts = _split(rel)
    except ValueError:
        raise ContextError(code, f"{rel}: not a portable path inside the root") from None
    parent = "/".join(parts[:-1])
    try:
        with open_dir(root, parent) as dfd:
            return read_at(
                dfd, parts[-1], max_bytes, label=rel, link_code=code, limit_code=limit_code or code
            )
    except OSError as exc:
        raise ContextError(code, f"{rel}: {exc.strerror or exc}") from None


def walk(root: Path, rel_dir: str) -> Iterator[tuple[int, Entry]]:
    """Every entry below ROOT/rel_dir, depth first, names in code-point order.

    Yields (descriptor of the entry's directory, entry); the descriptor is valid until the
    next item is requested. Linked and special directories are yielded, never entered.
    """
    with open_dir(root, rel_dir) as fd:
        yield from _walk_fd(fd, rel_dir)


def _walk_fd(fd: int, rel_dir: str) -> Iterator[tuple[int, Entry]]:
    with os.scandir(fd) as it:
        names = sorted(entry.name for entry in it)
    for name in names:
        kind = entry_kind(fd, name)
        if kind is None:
            continue
        entry = Entry(f"{rel_dir}/{name}", name, kind)
        yield fd, entry
        if kind == "dir":
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError:
                yield fd, entry._replace(kind="link")
                continue
            try:
                yield from _walk_fd(child, entry.path)
            finally:
                os.close(child)


def portable_input_path(root: Path, user_path: str, code: str = "CONTEXT_INPUT_PATH") -> str:
    """A user-given file path (absolute or relative to the cwd) as a path inside ROOT."""
    absolute = os.path.abspath(user_path)
    raw_parts = user_path.replace("\\", "/").split("/")
    if ".." in raw_parts:
        raise ContextError(code, f"{user_path}: `..` is not allowed")
    for base in (str(root), os.path.abspath(os.getcwd())):
        candidate = absolute
        if base != str(root):
            # The cwd may reach the root through a link: map it onto the resolved root.
            real_cwd = os.path.realpath(base)
            if os.path.commonpath([real_cwd, str(root)]) != str(root):
                continue
            candidate = os.path.join(real_cwd, os.path.relpath(absolute, base))
        if os.path.commonpath([candidate, str(root)]) == str(root) and candidate != str(root):
            return os.path.relpath(candidate, root).replace(os.sep, "/")
    raise ContextError(code, f"{user_path}: must be a file inside the project root")


def write_exclusive(dir_fd: int, name: str, data: bytes, mode: int = 0o644) -> None:
    """Create NAME exclusively in DIR_FD (never through a link), write DATA and fsync."""
    fd = os.open(
        name,
        os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
        mode,
        dir_fd=dir_fd,
    )
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)


def publish(dir_fd: int, staging: str, target: str) -> None:
    """Atomically put STAGING in place of TARGET inside DIR_FD, then fsync the directory.

    When no target exists a hard link publishes without replacing anything (so a target
    created concurrently is never clobbered by a link); otherwise rename replaces it.
    """
    try:
        os.link(staging, target, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
    except FileExistsError:
        os.rename(staging, target, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError:
        os.rename(staging, target, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(staging, dir_fd=dir_fd)
    os.fsync(dir_fd)
