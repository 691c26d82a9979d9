"""The records of an import: options, sources read, documents planned, files left out."""

from __future__ import annotations

from typing import NamedTuple


class ImportOptions(NamedTuple):
    """What `project-corpus import` was asked (docs/import.md)."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    dry_run: bool = False
    prune: bool = False


class Source(NamedTuple):
    """One owner's file, read once: repository-relative path, role, lines, SHA-256."""

    path: str
    role: str
    lines: tuple[str, ...]
    sha256: str


class Left(NamedTuple):
    """A file the import does not use, with a stable reason and a sentence."""

    path: str
    reason: str
    detail: str


class Block(NamedTuple):
    """A piece of a document: added text (`path` empty), or source lines [start, end) of
    `path` copied verbatim, ATX headings moved by `shift` levels."""

    text: str = ""
    path: str = ""
    start: int = 0
    end: int = 0
    shift: int = 0


class Doc(NamedTuple):
    """A planned document: its portable path, kind, the sources it copies from, its blocks."""

    target: str
    kind: str  # project | status | reference | task | report | history
    sources: tuple[str, ...]
    blocks: tuple[Block, ...]
    date: str | None = None


def add(text: str) -> Block:
    return Block(text=text)


def copy(path: str, start: int, end: int, shift: int = 0) -> Block:
    return Block(path=path, start=start, end=end, shift=shift)
