"""Writing an import: only under `.project-corpus/` (plus the AGENTS.md pointer), never over
a file somebody edited, never deleting without `--prune` (docs/import.md, "Re-running").

`.project-corpus/import-record.json` records the SHA-256 of every file the import wrote. A
planned file is created when absent, left alone when its bytes are already right, rewritten
only when its current bytes are the ones recorded (nobody edited it since), and otherwise kept
and reported. A recorded file the plan no longer has is stale: deleted with `--prune` when
unedited, else kept and reported. Files are written through folder descriptors opened without
following links, to a staging name first, then renamed into place.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.corpus import fs
from project_corpus.corpus.layout import CORPUS_DIR

RECORD_PATH = f"{CORPUS_DIR}/import-record.json"
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
    actions = [_planned(root, path, data, record) for path, data in sorted(files.items())]
    for path in sorted(set(record) - set(files)):
        existing = current(root, path)
        if existing is None:
            continue
        if sha256(existing) != record[path]:
            actions.append(Action(path, "stale-edited"))
        else:
            actions.append(Action(path, "prune" if prune else "stale"))
    return actions


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


def apply(root: str, actions: list[Action]) -> None:
    for act in actions:
        if act.action in WRITES:
            write_file(root, act.path, act.data)
        elif act.action == "prune":
            _remove(root, act.path)


def write_file(root: str, path: str, data: bytes) -> None:
    """Put DATA at PATH (created folders included) atomically, never through a link."""
    *folders, name = path.split("/")
    with _folder(root, folders) as fd:
        staging = f".{name}.import-tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(staging, dir_fd=fd)
        fs.write_exclusive(fd, staging, data)
        fs.publish(fd, staging, name)


def _remove(root: str, path: str) -> None:
    *folders, name = path.split("/")
    with _folder(root, folders) as fd, contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=fd)


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
