"""Requests on an open document: links, definitions, hovers, quick fixes (docs/editors.md).

Navigation reads the warm snapshot with the editor's unsaved text (`Workspace.snapshot`), on
the session's worker thread; quick fixes read only the document's text as the editor has it.
"""

from __future__ import annotations

import datetime
from functools import partial
from typing import NamedTuple

from lsprotocol import types
from pygls.uris import from_fs_path
from pygls.uris import to_fs_path

from project_corpus.adapters.lsp import diagnostics
from project_corpus.adapters.lsp import fixes
from project_corpus.adapters.lsp import navigation
from project_corpus.adapters.lsp.documents import file_path
from project_corpus.adapters.lsp.projects import Project
from project_corpus.adapters.lsp.projects import overlay
from project_corpus.adapters.lsp.refresh import CorpusServer
from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.core.records import Source
from project_corpus.corpus.markdown import parse_document


async def snapshot(ls: CorpusServer, uri: str) -> tuple[Project, str, Corpus] | None:
    """The project, portable path and current snapshot (with the editor's text) of URI."""
    where = ls.projects.locate(uri, to_fs_path(uri))
    if where is None:
        return None
    project, path = where
    call = partial(project.workspace.snapshot, overlay(ls.opened(project)))
    try:
        corpus = await ls.run(call)
    except ContextError:
        return None
    return project, path, corpus


class Target(NamedTuple):
    """A link of an open document, its target's URI and the target's source."""

    link: navigation.Link
    uri: str
    source: Source


async def document_links(ls: CorpusServer, uri: str) -> list[Target]:
    """The links of URI with each target."""
    found = await snapshot(ls, uri)
    if found is None:
        return []
    project, path, corpus = found
    source = corpus.by_path.get(path)
    if source is None:
        return []
    return [
        Target(link, from_fs_path(file_path(project.root, link.target)) or "", target)
        for link in navigation.links(path, source.doc, corpus)
        for target in [corpus.by_path[link.target]]
    ]


def link_ranges(ls: CorpusServer, uri: str, links: list[navigation.Link]) -> list[types.Range]:
    """The client ranges of LINKS in the open document URI."""
    lines = ls.workspace.text_documents[uri].source.split("\n")
    marks = [diagnostics.Mark(k.line - 1, k.column - 1, k.column - 1 + k.length) for k in links]
    return diagnostics.client_ranges(lines, marks, ls.encoding)


def cursor(ls: CorpusServer, uri: str, position: types.Position) -> tuple[int, int]:
    """The 1-based line and column (characters) of the client's POSITION in URI."""
    lines = ls.workspace.text_documents[uri].source.split("\n")
    at = ls.workspace.position_codec.position_from_client_units(lines, position)
    return at.line + 1, at.character + 1


async def link_at(ls: CorpusServer, uri: str, position: types.Position) -> Target | None:
    """The link under the client's POSITION in URI, or None."""
    if uri not in ls.workspace.text_documents:
        return None
    line, column = cursor(ls, uri, position)
    found = await document_links(ls, uri)
    hit = navigation.at([target.link for target in found], line, column)
    return next((target for target in found if target.link == hit), None) if hit else None


def code_actions(ls: CorpusServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    where = ls.projects.locate(uri, to_fs_path(uri))
    if where is None or uri not in ls.workspace.text_documents:
        return []
    source = ls.workspace.text_documents[uri].source
    lines = source.split("\n")
    text = fixes.Text(tuple(lines), parse_document(source))
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    actions = []
    for diagnostic in params.context.diagnostics:
        finding = as_finding(diagnostic)
        for fix in fixes.fixes(where[1], text, finding, today) if finding else ():
            edit = types.WorkspaceEdit(changes={uri: text_edits(ls, lines, fix)})
            kind = types.CodeActionKind.QuickFix
            action = types.CodeAction(fix.title, kind=kind, diagnostics=[diagnostic], edit=edit)
            actions.append(action)
    return actions


def text_edits(ls: CorpusServer, lines: list[str], fix: fixes.Fix) -> list[types.TextEdit]:
    """FIX's edits in the client's position units."""
    starts = [(e.line, e.start) for e in fix.edits]
    ends = [(e.end_line, e.end) for e in fix.edits]
    at = diagnostics.client_positions(lines, starts + ends, ls.encoding)
    return [
        types.TextEdit(types.Range(at[start], at[end]), e.text)
        for e, start, end in zip(fix.edits, starts, ends, strict=True)
    ]


def as_finding(diagnostic: types.Diagnostic) -> fixes.Finding | None:
    """What a fix needs of one of our diagnostics (its `data`), or None."""
    data = diagnostic.data
    if diagnostic.source != diagnostics.SOURCE or not isinstance(data, dict):
        return None
    try:
        numbers = [int(data[key]) for key in ("line", "start", "end")]
    except (KeyError, TypeError, ValueError):
        return None
    code = diagnostic.code if isinstance(diagnostic.code, str) else ""
    return fixes.Finding(code, str(data.get("detail", "")), *numbers)
