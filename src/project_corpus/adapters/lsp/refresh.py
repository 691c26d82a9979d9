"""Diagnostics kept current in the editor (docs/editors.md, "Diagnostics").

Every event that can change a finding (a document opened, changed, saved or closed in the
editor; a corpus file changed on disk, `workspace/didChangeWatchedFiles`) marks its project
dirty; one refresh per project runs at a time, on one worker thread, and runs again while
events arrived meanwhile (a burst of keystrokes costs one or two doctor runs, never a queue).
A refresh runs the warm `Workspace.doctor` with the open documents' unsaved text as an overlay
and publishes the diagnostics of every open document of the project, so a cross-document
finding (a reference, a supersession, a duplicate) follows a change of any file. Requests
(links, definitions, hovers, `lsp.requests`) read the snapshot of the same overlay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from project_corpus.adapters.lsp import diagnostics
from project_corpus.adapters.lsp.projects import Opened
from project_corpus.adapters.lsp.projects import Project
from project_corpus.adapters.lsp.projects import Projects
from project_corpus.adapters.lsp.projects import overlay
from project_corpus.core.about import __version__
from project_corpus.core.errors import ContextError
from project_corpus.corpus.layout import CORPUS_DIR

WATCHED = f"**/{CORPUS_DIR}/**"
T = TypeVar("T")


class CorpusServer(LanguageServer):
    """The pygls server with the session's projects and the one worker thread they share."""

    def __init__(self) -> None:
        super().__init__("project-corpus", __version__)
        self.projects = Projects()
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="project-corpus")
        self.refreshes: set[asyncio.Task[None]] = set()  # held: the loop keeps weak references

    def opened(self, project: Project) -> list[Opened]:
        """The open corpus documents of PROJECT, by URI."""
        found = []
        for uri, doc in sorted(self.workspace.text_documents.items()):
            where = self.projects.locate(uri, to_fs_path(uri))
            if where is not None and where[0] is project:
                found.append(Opened(uri, where[1], doc.version, doc.source))
        return found

    @property
    def encoding(self) -> str:
        """The position encoding agreed with the client (utf-16 unless it asked for another)."""
        agreed = self.workspace.position_encoding
        return str(getattr(agreed, "value", agreed) or "utf-16")

    async def run(self, call: Callable[[], T]) -> T:
        """CALL's result, computed on the worker thread (the event loop keeps reading)."""
        return await asyncio.get_running_loop().run_in_executor(self.worker, call)


def schedule(ls: CorpusServer, project: Project) -> None:
    """Mark PROJECT dirty and start its refresh unless one is running."""
    project.dirty = True
    if not project.running:
        project.running = True
        task = asyncio.get_running_loop().create_task(refresh(ls, project))
        ls.refreshes.add(task)
        task.add_done_callback(ls.refreshes.discard)


async def refresh(ls: CorpusServer, project: Project) -> None:
    try:
        while project.dirty:
            project.dirty = False
            opened = ls.opened(project)
            call = partial(project.workspace.doctor, overlay=overlay(opened))
            try:
                report = await ls.run(call)
            except ContextError as exc:
                failed = [diagnostics.error_diagnostic(exc, project.root)]
                publish(ls, project, {doc.uri: failed for doc in opened}, opened)
                continue
            publish(ls, project, shown(ls, report, opened), opened)
    finally:
        project.running = False


def shown(
    ls: CorpusServer, report: dict[str, object], opened: list[Opened]
) -> dict[str, list[types.Diagnostic]]:
    """The diagnostics of each open document, from REPORT."""
    entries = diagnostics.by_path(report)
    found: dict[str, list[types.Diagnostic]] = {}
    for doc in opened:
        lines = doc.text.split("\n")
        shown_here = entries.get(doc.path, [])
        marks = [diagnostics.mark(entry, lines) for entry in shown_here]
        ranges = diagnostics.client_ranges(lines, marks, ls.encoding)
        found[doc.uri] = [
            diagnostics.diagnostic(entry, at, where)
            for entry, at, where in zip(shown_here, marks, ranges, strict=True)
        ]
    return found


def publish(
    ls: CorpusServer,
    project: Project,
    found: dict[str, list[types.Diagnostic]],
    opened: list[Opened],
) -> None:
    """Send FOUND; clear what this project showed on documents no longer open."""
    versions = {doc.uri: doc.version for doc in opened}
    for uri in sorted(project.shown - found.keys()):
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))
    for uri, shown_here in sorted(found.items()):
        params = types.PublishDiagnosticsParams(uri, shown_here, versions.get(uri))
        ls.text_document_publish_diagnostics(params)
    project.shown = set(found)


def changed(ls: CorpusServer, uri: str) -> None:
    where = ls.projects.locate(uri, to_fs_path(uri))
    if where is not None:
        schedule(ls, where[0])


def closed(ls: CorpusServer, uri: str) -> None:
    where = ls.projects.locate(uri, to_fs_path(uri))
    ls.projects.forget(uri)
    if where is not None:
        schedule(ls, where[0])
    else:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))


def watched(ls: CorpusServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A corpus file changed on disk: refresh the projects that hold it."""
    due: dict[str, Project] = {}
    for change in params.changes:
        path = to_fs_path(change.uri)
        for project in ls.projects.covering(path) if path else ():
            due[project.root] = project
    for _, project in sorted(due.items()):
        schedule(ls, project)


def initialized(ls: CorpusServer) -> None:
    """Open a workspace per folder that belongs to a project; ask for file events."""
    folders = [to_fs_path(f.uri) for f in ls.workspace.folders.values()]
    folders.append(ls.workspace.root_path)
    for folder in sorted({f for f in folders if f}):
        ls.projects.add_folder(folder)
    capabilities = ls.client_capabilities.workspace
    watching = capabilities.did_change_watched_files if capabilities else None
    if watching is not None and watching.dynamic_registration:
        watcher = types.FileSystemWatcher(glob_pattern=WATCHED)
        options = types.DidChangeWatchedFilesRegistrationOptions(watchers=[watcher])
        method = types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        registration = types.Registration(id=WATCHED, method=method, register_options=options)
        ls.client_register_capability(types.RegistrationParams([registration]))
