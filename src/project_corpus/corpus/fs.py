"""Confined, no-follow filesystem access and atomic publication (docs/protocol.md,
docs/architecture.md).

Every read starts from a directory descriptor of the resolved root and opens each path
component with O_NOFOLLOW, so no symbolic link anywhere below the root is ever followed,
and the opened file's `fstat` (not a prior `lstat`) decides whether it is a regular file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_DEPTH
from project_corpus.corpus.roots import resolve_root as resolve_root

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
# Folders below a source root deeper than this are CONTEXT_LIMIT (no corpus needs more;
# the re-open cost of the walk grows with depth).


class Entry(NamedTuple):
    """A directory entry met while walking: kind is file, dir, link or special."""

    path: str  # portable, relative to the root
    name: str
    kind: str


def _split(rel: str) -> list[str]:
    parts = rel.split("/")
    if not rel or any(p in ("", ".", "..") for p in parts) or "\\" in rel or "\0" in rel:
        raise ValueError(f"not a portable relative path: {rel!r}")
    return parts


@contextlib.contextmanager
def open_dir(root: str, rel: str = "") -> Iterator[int]:
    """A descriptor of ROOT/rel, opened component by component without following links.

    Raises FileNotFoundError / NotADirectoryError / OSError(ELOOP) as the OS reports them.
    """
    fd = _open_chain(root, rel)
    try:
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


def display_name(name: str) -> str | None:
    """NAME as portable text, or None when it holds bytes that are not UTF-8.

    `os.scandir` decodes undecodable bytes to lone surrogates; such a name cannot be written
    to JSON, SQLite or a terminal, so it is shown with each byte escaped (`bad\\xff.md`).
    """
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return name


def escaped_name(name: str) -> str:
    """NAME with every byte that is not UTF-8 written as `\\xNN`."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _open_error(exc: OSError, label: str, link_code: str) -> ContextError:
    if isinstance(exc, PermissionError):
        return ContextError("SOURCE_PERMISSION", f"{label}: permission denied")
    if exc.errno == errno.ELOOP:
        return ContextError(link_code, f"{label}: a symbolic link is never followed")
    return ContextError(link_code, f"{label}: cannot be opened ({exc.strerror or exc})")


def read_at(
    dir_fd: int,
    name: str,
    max_bytes: int,
    *,
    label: str,
    link_code: str,
    limit_code: str = "CONTEXT_LIMIT",
    hard_links: bool = False,
) -> bytes:
    """Read a regular file NAME in DIR_FD, never following a link, at most MAX_BYTES.

    A file with more than one name (a hard link, which may share its content with a file
    outside the root) is refused with LINK_CODE unless HARD_LINKS; an unreadable file is
    SOURCE_PERMISSION.
    """
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        raise _open_error(exc, label, link_code) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ContextError(link_code, f"{label}: not a regular file")
        if st.st_nlink > 1 and not hard_links:
            raise ContextError(
                link_code, f"{label}: a hard link ({st.st_nlink} names) is never read"
            )
        if st.st_size > max_bytes:
            raise ContextError(
                limit_code, f"{label}: {st.st_size} bytes exceeds the limit of {max_bytes}"
            )
        data = _read_bounded(fd, max_bytes, st.st_size)
        if len(data) > max_bytes:
            raise ContextError(
                limit_code, f"{label}: grew past the limit of {max_bytes} bytes while read"
            )
        return data
    finally:
        os.close(fd)


def _read_bounded(fd: int, max_bytes: int, size: int) -> bytes:
    """At most MAX_BYTES + 1 bytes of FD; SIZE, the size it had, is read in one call (the
    index: one read and no joining copy of its megabytes)."""
    chunks = []
    remaining = max_bytes + 1
    step = max(size + 1, 1 << 16)
    while remaining > 0:
        chunk = os.read(fd, min(remaining, step))
        step = 1 << 20
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_relative(
    root: str, rel: str, max_bytes: int, *, code: str, limit_code: str | None = None
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
    except PermissionError:
        raise ContextError("SOURCE_PERMISSION", f"{rel}: permission denied") from None
    except OSError as exc:
        raise ContextError(code, f"{rel}: {exc.strerror or exc}") from None


class _Frame(NamedTuple):
    rel_dir: str
    pending: list[str]  # names still to visit, last first
    files: frozenset[str]  # names the directory lists as regular files: no `lstat` for them
    identity: tuple[int, int]  # (st_dev, st_ino), to re-open the same directory


def walk(root: str, rel_dir: str) -> Iterator[tuple[int, Entry]]:
    """Every entry below ROOT/rel_dir, depth first, names in code-point order.

    Yields (descriptor of the entry's directory, entry); the descriptor is valid until the
    next item is requested. Linked and special directories are yielded, never entered.
    Kinds besides file, dir, link and special: `unreadable` (permission denied; never
    entered) and `badname` (a folder or `.md` name that is not UTF-8; its path is escaped
    and it is never entered or read). Entries that vanish while walked are left out.

    The walk is iterative and holds at most two descriptors: a parent is re-opened from the
    root (no-follow, identity checked) when its subtree is done, so neither the stack nor the
    descriptor table grows with depth; deeper than MAX_DEPTH folders is CONTEXT_LIMIT.
    """
    try:
        fd = _open_chain(root, rel_dir)
    except PermissionError:
        yield -1, Entry(rel_dir, rel_dir.rpartition("/")[2], "unreadable")
        return
    stack = [_Frame(rel_dir, *_names(fd), _identity(fd))]
    try:
        while stack:
            frame = stack[-1]
            if not frame.pending:
                stack.pop()
                os.close(fd)
                fd = -1
                if stack:
                    fd = _reopen(root, stack[-1])
                continue
            entry = _entry(fd, frame, frame.pending.pop())
            if entry.kind != "gone":
                yield fd, entry
            if entry.kind == "dir":
                fd, entry = _descend(fd, entry, stack)
                if entry.kind not in ("dir", "gone"):
                    yield fd, entry
    finally:
        if fd >= 0:
            os.close(fd)


def _open_chain(root: str, rel: str) -> int:
    fd = os.open(root, _DIR_FLAGS)
    reached = False
    try:
        for part in _split(rel) if rel else []:
            child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = child
        reached = True
    finally:
        if not reached:  # a refused component (or an interrupt): close what is open
            os.close(fd)
    return fd


def _names(fd: int) -> tuple[list[str], frozenset[str]]:
    entries = list(os.scandir(fd))  # read to its end, which closes it
    files = frozenset(entry.name for entry in entries if entry.is_file(follow_symlinks=False))
    return sorted((entry.name for entry in entries), reverse=True), files


def _identity(fd: int) -> tuple[int, int]:
    st = os.fstat(fd)
    return st.st_dev, st.st_ino


def _entry(dir_fd: int, frame: _Frame, name: str) -> Entry:
    try:
        mode = stat.S_IFREG if name in frame.files else 0  # `read_at` checks the open file
        kind = _kind(mode or os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        kind = "gone"
    except PermissionError:
        kind = "unreadable"
    if kind != "gone" and display_name(name) is None:
        shown = escaped_name(name)
        # Only a folder or a would-be source matters; other files are never read.
        kind = "badname" if kind == "dir" or shown.endswith(".md") else "gone"
        return Entry(f"{frame.rel_dir}/{shown}", shown, kind)
    return Entry(f"{frame.rel_dir}/{name}", name, kind)


def _descend(fd: int, entry: Entry, stack: list[_Frame]) -> tuple[int, Entry]:
    """Enter directory ENTRY of FD: (its descriptor, entry) or (FD, entry of another kind)."""
    if len(stack) > MAX_DEPTH:
        raise ContextError(
            "CONTEXT_LIMIT", f"depth: {entry.path} is nested more than {MAX_DEPTH} folders deep"
        )
    try:
        child = os.open(entry.name, _DIR_FLAGS, dir_fd=fd)
    except PermissionError:
        return fd, entry._replace(kind="unreadable")
    except FileNotFoundError:
        return fd, entry._replace(kind="gone")
    except OSError:
        return fd, entry._replace(kind="link")  # swapped for a link or a file since the stat
    try:
        frame = _Frame(entry.path, *_names(child), _identity(child))
    except PermissionError:
        os.close(child)
        return fd, entry._replace(kind="unreadable")
    stack.append(frame)
    os.close(fd)
    return child, entry


def _reopen(root: str, frame: _Frame) -> int:
    fd = _open_chain(root, frame.rel_dir)
    if _identity(fd) != frame.identity:
        os.close(fd)
        raise ContextError(
            "SOURCE_LINK", f"{frame.rel_dir}: the folder was replaced while it was read"
        )
    return fd


def portable_input_path(root: str, user_path: str, code: str = "CONTEXT_INPUT_PATH") -> str:
    """A user-given file path (absolute or relative to the cwd) as a path inside ROOT.

    A relative path is taken against `os.getcwd()`, which the kernel already gives resolved
    (never through a link), so it compares with the resolved root as it is.
    """
    absolute = os.path.abspath(user_path)
    if ".." in user_path.replace("\\", "/").split("/"):
        raise ContextError(code, f"{user_path}: `..` is not allowed")
    if not os.path.lexists(absolute):
        raise ContextError(
            code,
            f"{user_path}: no such file",
            hint=f"paths are relative to the current folder ({os.getcwd()})",
        )
    if os.path.commonpath([absolute, root]) == root and absolute != root:
        return os.path.relpath(absolute, root).replace(os.sep, "/")
    raise ContextError(
        code,
        f"{user_path}: must be a file inside the project root",
        hint=f"move or copy the file into {root} (paths are relative to the current folder)",
    )


def write_exclusive(dir_fd: int, name: str, data: bytes, mode: int = 0o644) -> None:
    """Create NAME exclusively in DIR_FD (never through a link), write DATA and fsync.

    O_CREAT | O_EXCL already refuses any existing NAME, a link included (POSIX: EEXIST,
    the link is not followed), so O_NOFOLLOW would be a second guard no test could tell.
    """
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode, dir_fd=dir_fd)
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
    except OSError:  # FileExistsError, or a file system without hard links
        os.rename(staging, target, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(staging, dir_fd=dir_fd)
    os.fsync(dir_fd)
