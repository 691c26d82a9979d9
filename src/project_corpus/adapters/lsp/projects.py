"""The projects an editor session has open: one warm `Workspace` per project root, and the
open documents of each as an overlay of unsaved text (docs/editors.md).

A `Projects` table owns the workspaces (at most `MAX_PROJECTS`, the least recently used one
dropped first) and knows, for each open document, its root and portable path. Only a document
below a root's `.project-corpus/` is a corpus document; its editor text is handed to the
doctor as bytes (`surrogatepass`: a lone surrogate becomes bytes that are not UTF-8, so the
doctor reports INVALID_ENCODING as it would for the file), never written anywhere.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import NamedTuple

from project_corpus.adapters.lsp.documents import find_root
from project_corpus.adapters.lsp.documents import portable_path
from project_corpus.workspace import Workspace

MAX_PROJECTS = 16


class Opened(NamedTuple):
    """An open corpus document as the editor has it."""

    uri: str
    path: str  # portable, below the root
    version: int | None
    text: str


class Project:
    """One project root: its warm workspace and whether a refresh is due or running."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.workspace = Workspace(root, warm=True)
        self.dirty = False
        self.running = False
        self.shown: set[str] = set()  # URIs holding this project's diagnostics


def overlay(opened: Iterable[Opened]) -> dict[str, bytes]:
    """The unsaved text of OPENED documents by portable path, as bytes."""
    return {doc.path: doc.text.encode("utf-8", "surrogatepass") for doc in opened}


class Projects:
    """The projects of a session by root, and where each open document belongs."""

    def __init__(self) -> None:
        self.by_root: OrderedDict[str, Project] = OrderedDict()
        self.located: dict[str, tuple[str, str] | None] = {}  # uri -> (root, portable path)

    def add_folder(self, folder: str) -> Project | None:
        """The project whose root is at or above FOLDER (made when new), or None."""
        root = find_root(folder)
        return self.project(root) if root is not None else None

    def project(self, root: str) -> Project:
        found = self.by_root.get(root)
        if found is None:
            found = self.by_root[root] = Project(root)
            while len(self.by_root) > MAX_PROJECTS:
                self.by_root.popitem(last=False)
        self.by_root.move_to_end(root)
        return found

    def locate(self, uri: str, path: str | None) -> tuple[Project, str] | None:
        """The project and portable path of the document URI (file PATH), or None when it
        is not a corpus document."""
        if uri not in self.located:
            root = find_root(path) if path else None
            rel = portable_path(root, path) if root and path else None
            self.located[uri] = (root, rel) if root and rel else None
        where = self.located[uri]
        return (self.project(where[0]), where[1]) if where else None

    def forget(self, uri: str) -> None:
        self.located.pop(uri, None)

    def covering(self, path: str) -> list[Project]:
        """The projects whose root holds PATH (a changed file)."""
        return [p for root, p in self.by_root.items() if path.startswith(root + "/")]
