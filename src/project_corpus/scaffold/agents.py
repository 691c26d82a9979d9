"""The AGENTS.md pointer: one short section that sends agents to the corpus, appended to an
owner's existing AGENTS.md by `init` and `import` (docs/getting-started.md, docs/import.md).

The owner's bytes are never changed: the section is appended once, after a line break when
the file does not end with one. A file that already holds the pointer's heading (in either
language) gets nothing.
"""

from __future__ import annotations

import contextlib
import os
import stat

from project_corpus.core.errors import ContextError

AGENTS_PATH = "AGENTS.md"
POINTER = {
    "en": (
        "## Project memory (Project Corpus)\n\n"
        "Durable agent memory lives in `.project-corpus/` (Project Corpus Protocol 2.0).\n"
        "Before any change, read `.project-corpus/state/PROJECT.md` (identity), then\n"
        "`.project-corpus/state/STATUS.md` (state), then the active task in"
        " `.project-corpus/tasks/`.\n"
    ),
    "ru": (
        "## Память проекта (Project Corpus)\n\n"
        "Долговременная память агентов хранится в `.project-corpus/` (Project Corpus Protocol"
        " 2.0).\n"
        "Перед любым изменением прочитайте `.project-corpus/state/PROJECT.md` (идентичность),"
        " затем\n"
        "`.project-corpus/state/STATUS.md` (состояние), затем активную задачу в"
        " `.project-corpus/tasks/`.\n"
    ),
}
POINTER_HEADINGS = tuple(text.split("\n", 1)[0] for text in POINTER.values())
MAX_AGENTS_BYTES = 8 * 1024 * 1024
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def has_pointer(text: str) -> bool:
    return any(line.rstrip("\r") in POINTER_HEADINGS for line in text.split("\n"))


def without_pointer(lines: tuple[str, ...]) -> tuple[str, ...]:
    """LINES up to the pointer section (an import reads the owner's AGENTS.md without it)."""
    for index, line in enumerate(lines):
        if line in POINTER_HEADINGS:
            end = index
            while end > 0 and not lines[end - 1].strip():
                end -= 1
            return lines[:end]
    return lines


def addition(existing: bytes, lang: str = "en") -> bytes:
    """The bytes to append to EXISTING: the pointer (after a blank line), or b"" when the
    file already has it."""
    text = existing.decode("utf-8", "replace")
    if has_pointer(text):
        return b""
    lead = "\n" if existing.endswith(b"\n") else "\n\n"
    return (lead + POINTER[lang]).encode("utf-8")


def read_agents(root: str) -> bytes | None:
    """The owner's AGENTS.md (None when absent); INIT_EXISTS when it is a link or not a file."""
    fd = os.open(root, _DIR_FLAGS)
    try:
        try:
            handle = os.open(AGENTS_PATH, _READ_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise _refused(exc.strerror or str(exc)) from None
        with os.fdopen(handle, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise _refused("not a regular file")
            return stream.read(MAX_AGENTS_BYTES + 1)
    finally:
        os.close(fd)


def append_pointer(root: str, lang: str = "en") -> bool:
    """Append the pointer to ROOT/AGENTS.md unless it is there; True when appended."""
    existing = read_agents(root)
    if existing is None:
        return False
    extra = addition(existing, lang)
    if not extra:
        return False
    fd = os.open(root, _DIR_FLAGS)
    try:
        out = os.open(AGENTS_PATH, _APPEND_FLAGS, dir_fd=fd)
    except OSError as exc:
        os.close(fd)
        raise _refused(exc.strerror or str(exc)) from None
    with contextlib.ExitStack() as stack:
        stack.callback(os.close, fd)
        stream = stack.enter_context(os.fdopen(out, "ab"))
        stream.write(extra)
    return True


def _refused(why: str) -> ContextError:
    return ContextError(
        "INIT_EXISTS",
        f"{AGENTS_PATH}: {why}; the pointer section was not appended",
        hint="AGENTS.md must be a regular file (a link is never written through)",
    )
