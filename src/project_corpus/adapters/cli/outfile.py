"""`--output FILE` of the report commands: never inside the corpus, never through a link.

A report written over `state/STATUS.md` would replace memory with lint output, and a link
planted at the output path would redirect the write anywhere the user can write. So the
target's folder is resolved, a target inside ROOT/.project-corpus/ is refused, an existing
link is refused, and a new regular file is written to a temporary name in the same folder
and renamed over the target (a link planted in between is replaced, never followed).
Devices and pipes (`/dev/null`, a FIFO) are written in place: they cannot be renamed over.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from project_corpus.core.errors import ContextError
from project_corpus.corpus.layout import CORPUS_DIR

OUTSIDE = "write the report outside the corpus folder, e.g. --output lint-report.txt"


def _refuse(output: str, detail: str, hint: str | None = None) -> ContextError:
    return ContextError("OUTPUT_PATH", f"{output}: {detail}", hint=hint)


def _target(root: str, output: str) -> Path:
    """OUTPUT with its folder resolved; OUTPUT_PATH when it lies inside the corpus folder."""
    path = Path(output)
    if not path.name or path.name in (".", ".."):
        raise _refuse(output, "not a file name")
    target = Path(os.path.realpath(path.parent)) / path.name
    corpus = Path(os.path.realpath(Path(root) / CORPUS_DIR))
    if target == corpus or corpus in target.parents:
        raise _refuse(output, f"inside {CORPUS_DIR}/, which the tool never writes", OUTSIDE)
    return target


def write_report_file(root: str, output: str, text: str) -> None:
    """Write TEXT to OUTPUT as described above; OUTPUT_PATH (exit 2) on any refusal."""
    target = _target(root, output)
    data = text.encode("utf-8")
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = 0
    except OSError as exc:
        raise _refuse(output, exc.strerror or str(exc)) from None
    if stat.S_ISLNK(mode):
        raise _refuse(output, "a symbolic link; the report is never written through one")
    try:
        if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            _write_in_place(target, data)
        else:
            _replace(target, data)
    except OSError as exc:
        raise _refuse(output, exc.strerror or str(exc)) from None


def _write_in_place(target: Path, data: bytes) -> None:
    # A device or pipe swapped for a link after the `lstat` is refused (ELOOP), not followed.
    fd = os.open(target, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _replace(target: Path, data: bytes) -> None:
    tmp = target.parent / f".{target.name}.{os.getpid()}.tmp"
    # O_EXCL refuses a link planted at the temporary name (EEXIST, never followed).
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    fd = os.open(tmp, flags, 0o644)
    replaced = False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
        replaced = True
    finally:
        if not replaced:  # any failure, an interrupt included: leave no temporary file
            tmp.unlink(missing_ok=True)
