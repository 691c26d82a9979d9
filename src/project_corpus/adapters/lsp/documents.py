"""Which project an editor's document belongs to, and its portable path there (docs/editors.md).

A document's root is found as the CLI finds ROOT (`corpus.roots.found_upward`, from the
document's folder instead of the current one): the nearest folder at or above it that holds
`.project-corpus/` (a link named so too: the doctor then reports it). Its portable path is the path
below that root with `/` separators; only a path below `.project-corpus/` is a corpus document.
Nothing here reads a file: folders are only stat-ed (no link below the root is followed).
"""

from __future__ import annotations

import os

from project_corpus.corpus.layout import CORPUS_DIR

# Folders climbed from a document to its root: deeper trees are not a corpus an editor shows.
MAX_CLIMB = 64


def holds_corpus(folder: str) -> bool:
    """Whether FOLDER holds `.project-corpus/` (as `found_upward` asks: any entry so named)."""
    try:
        return os.path.lexists(os.path.join(folder, CORPUS_DIR))
    except ValueError:  # a NUL in the name
        return False


def find_root(path: str) -> str | None:
    """The nearest folder at or above PATH (a file or a folder) that holds the corpus,
    resolved (links in its own path followed, as `resolve_root` does); None when none does."""
    folder = os.path.abspath(path)
    if not os.path.isdir(folder) or os.path.islink(folder):
        folder = os.path.dirname(folder)
    for _ in range(MAX_CLIMB):
        if os.path.basename(folder) != CORPUS_DIR and holds_corpus(folder):
            return os.path.realpath(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None


def portable_path(root: str, path: str) -> str | None:
    """PATH (an absolute file path) relative to ROOT with `/`, when it lies below ROOT's
    `.project-corpus/`; else None. The folder part is resolved (an editor may name the root
    through a link), the file name never is."""
    for folder in (os.path.dirname(os.path.abspath(path)), _real(os.path.dirname(path))):
        if folder is None:
            continue
        rel = os.path.relpath(os.path.join(folder, os.path.basename(path)), root)
        parts = rel.split(os.sep)
        if parts[0] == CORPUS_DIR and ".." not in parts and len(parts) > 1:
            return "/".join(parts)
    return None


def _real(folder: str) -> str | None:
    try:
        return os.path.realpath(folder)
    except (OSError, ValueError):
        return None


def file_path(root: str, portable: str) -> str:
    """The absolute path of the portable path PORTABLE below ROOT."""
    return os.path.join(root, *portable.split("/"))
