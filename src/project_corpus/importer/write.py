"""Writing an import: only under `.project-corpus/` (plus the AGENTS.md pointer), never over
a file somebody edited, never deleting without `--prune` (docs/import.md, "Re-running").

`.project-corpus/import-record.json` records the SHA-256 of every file the import wrote. A
planned file is created when absent, left alone when its bytes are already right, rewritten
only when its current bytes are the ones recorded (nobody edited it since), and otherwise kept
and reported. A recorded file the plan no longer has is stale: deleted with `--prune` when
unedited, else kept and reported. Files are written through folder descriptors opened without
following links, to a staging name first, then renamed into place.

A first import (no `.project-corpus/` yet) builds the whole tree, the record included, in one
staging folder beside it, `.project-corpus.import-tmp/`, and renames that folder into place
once: all or nothing for the whole corpus, and no staging name and rename per file (half the
cost of writing 1,100 files). A staging folder an interrupted run left is removed first.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
from collections.abc import Iterator
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.corpus import fs
from project_corpus.corpus.layout import CORPUS_DIR
from project_corpus.corpus.layout import IMPORT_STAGING_DIR

RECORD_PATH = f"{CORPUS_DIR}/import-record.json"
STAGING_DIR = IMPORT_STAGING_DIR
RECORD_VERSION = 1
MAX_RECORD_BYTES = 8 * 1024 * 1024
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class Action(NamedTuple):
    """What happens to one path: create, update, unchanged, kept-edited, kept-existing,
    prune, stale, stale-edited."""

    path: str
    action: str
    data: bytes = b""


WRITES = ("create", "update")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_record(root: str) -> dict[str, str]:
    """{path: SHA-256} of what earlier imports wrote ({} when there is no usable record)."""
    try:
        raw = fs.read_relative(root, RECORD_PATH, MAX_RECORD_BYTES, code="SOURCE_LINK")
        value = json.loads(raw.decode("utf-8"))
    except (ContextError, ValueError):
        return {}
    files = value.get("files") if isinstance(value, dict) else None
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def current(root: str, path: str) -> bytes | None:
    """The bytes at PATH (None when absent); a link or special file is IMPORT_WRITE."""
    try:
        return fs.read_relative(root, path, 64 * 1024 * 1024, code="IMPORT_WRITE")
    except ContextError as exc:
        if exc.code == "IMPORT_WRITE" and "No such file" in exc.detail:
            return None
        raise


def decide(root: str, files: dict[str, bytes], record: dict[str, str], prune: bool) -> list[Action]:
    present = existing_names(root, {p.rpartition("/")[0] for p in files})
    actions = [
        _planned(root, path, data, record) if path in present else Action(path, "create", data)
        for path, data in sorted(files.items())
    ]
    for path in sorted(set(record) - set(files)):
        existing = current(root, path)
        if existing is None:
            continue
        if sha256(existing) != record[path]:
            actions.append(Action(path, "stale-edited"))
        else:
            actions.append(Action(path, "prune" if prune else "stale"))
    return actions


def existing_names(root: str, folders: set[str]) -> set[str]:
    """The paths that exist (as anything) in FOLDERS, each listed once without following a
    link: a planned file in no listing is created without a read (most of a first import)."""
    found: set[str] = set()
    for folder in folders:
        try:
            with fs.open_dir(root, folder) as fd:
                names = os.listdir(fd)
        except (OSError, ValueError):
            continue  # absent, or a link or a file in the way (writing refuses it)
        found.update(f"{folder}/{name}" if folder else name for name in names)
    return found


def _planned(root: str, path: str, data: bytes, record: dict[str, str]) -> Action:
    existing = current(root, path)
    if existing is None:
        return Action(path, "create", data)
    if existing == data:
        return Action(path, "unchanged", data)
    if path in record and sha256(existing) == record[path]:
        return Action(path, "update", data)
    return Action(path, "kept-edited" if path in record else "kept-existing", data)


def new_record(actions: list[Action], record: dict[str, str]) -> dict[str, str]:
    """The record after ACTIONS: what is now ours with its hash; an edited file keeps the hash
    it was written with (so it stays edited); a pruned one leaves the record."""
    out: dict[str, str] = {}
    for act in actions:
        if act.action in (*WRITES, "unchanged"):
            out[act.path] = sha256(act.data)
        elif act.action in ("kept-edited", "stale", "stale-edited") and act.path in record:
            out[act.path] = record[act.path]
    return out


def record_bytes(files: dict[str, str]) -> bytes:
    doc = {"files": dict(sorted(files.items())), "record_version": RECORD_VERSION}
    return (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode("utf-8")


def apply(root: str, actions: list[Action], record: bytes) -> None:
    """Carry out ACTIONS and leave RECORD (the record's new bytes) last: into a staging tree
    renamed into place at once when there is no corpus yet, else one folder at a time."""
    if _no_corpus(root):
        ours = CORPUS_DIR + "/"
        inside = [a for a in actions if a.path.startswith(ours)]
        _apply_staged(root, [*inside, Action(RECORD_PATH, "create", record)])
        _apply_in_place(root, [a for a in actions if not a.path.startswith(ours)])
        return
    _apply_in_place(root, actions)
    if current(root, RECORD_PATH) != record:
        write_file(root, RECORD_PATH, record)


def _no_corpus(root: str) -> bool:
    try:
        with fs.open_dir(root) as fd:
            os.lstat(CORPUS_DIR, dir_fd=fd)
    except FileNotFoundError:
        return True
    except OSError:
        return False  # writing reports what is in the way
    return False


def _apply_in_place(root: str, actions: list[Action]) -> None:
    """One folder at a time: the folder is opened once (no link followed), each file written
    to a staging name and renamed into place, the folder synced once. Files are not synced
    one by one: that cost 6 s of 9 on 1,100 files (the sources stay, and a re-run rewrites
    what a power cut lost)."""
    by_folder: dict[str, list[Action]] = {}
    for act in actions:
        if act.action in (*WRITES, "prune"):
            by_folder.setdefault(act.path.rpartition("/")[0], []).append(act)
    for folder, acts in sorted(by_folder.items()):
        with _folder(root, folder.split("/") if folder else []) as fd:
            for act in acts:
                name = act.path.rpartition("/")[2]
                if act.action == "prune":
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(name, dir_fd=fd)
                else:
                    _put(fd, name, act.data)
            os.fsync(fd)


def _apply_staged(root: str, actions: list[Action]) -> None:
    """Create every file of ACTIONS (all under the corpus folder) in the staging folder,
    sync its folders, and rename it to the corpus folder; on any failure remove it."""
    by_folder: dict[str, list[Action]] = {}
    for act in actions:
        if act.action in WRITES:  # all of them: nothing exists where nothing was
            by_folder.setdefault(act.path.rpartition("/")[0], []).append(act)
    with _folder(root, []) as top:
        _remove_staging(top)
        try:
            for folder, acts in sorted(by_folder.items()):
                parts = [STAGING_DIR, *folder.split("/")[1:]]
                with _folder(root, parts) as fd:
                    for act in acts:
                        _create(fd, act.path.rpartition("/")[2], act.data)
                    os.fsync(fd)
            os.rename(STAGING_DIR, CORPUS_DIR, src_dir_fd=top, dst_dir_fd=top)
        except BaseException:
            _remove_staging(top)
            raise
        os.fsync(top)


def _remove_staging(top: int) -> None:
    """Remove the staging folder in TOP (an interrupted run's), never following a link."""
    try:
        mode = os.lstat(STAGING_DIR, dir_fd=top).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(STAGING_DIR, dir_fd=top)
    else:
        os.unlink(STAGING_DIR, dir_fd=top)


def _create(fd: int, name: str, data: bytes) -> None:
    """A new file NAME in the folder FD (a fresh staging folder: nothing to replace)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    out = os.open(name, flags, 0o644, dir_fd=fd)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(out, view) :]
    finally:
        os.close(out)


def write_file(root: str, path: str, data: bytes) -> None:
    """Put DATA at PATH (created folders included) atomically, never through a link."""
    *folders, name = path.split("/")
    with _folder(root, folders) as fd:
        _put(fd, name, data)
        os.fsync(fd)


def _put(fd: int, name: str, data: bytes) -> None:
    staging = f".{name}.import-tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    try:
        out = os.open(staging, flags, 0o644, dir_fd=fd)
    except FileExistsError:  # left by an interrupted run
        os.unlink(staging, dir_fd=fd)
        out = os.open(staging, flags, 0o644, dir_fd=fd)
    with os.fdopen(out, "wb") as stream:
        stream.write(data)
    os.replace(staging, name, src_dir_fd=fd, dst_dir_fd=fd)


@contextlib.contextmanager
def _folder(root: str, folders: list[str]) -> Iterator[int]:
    try:
        fd = os.open(root, _DIR_FLAGS)
    except OSError as exc:
        raise ContextError("IMPORT_WRITE", f"{root}: {exc.strerror}") from None
    try:
        for index, folder in enumerate(folders):
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder, 0o777, dir_fd=fd)
            try:
                child = os.open(folder, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                where = "/".join(folders[: index + 1])
                raise ContextError(
                    "IMPORT_WRITE",
                    f"{where}: {exc.strerror} (a link or a file where a folder must be)",
                ) from None
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)
