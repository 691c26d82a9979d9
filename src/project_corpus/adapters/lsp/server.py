"""`project-corpus lsp`: the features a client sees, wired to `refresh` and `requests`
(docs/editors.md). Stdio only; logs go to stderr, never to the protocol stream.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys

from lsprotocol import types

from project_corpus.adapters.lsp import navigation
from project_corpus.adapters.lsp import requests
from project_corpus.adapters.lsp.refresh import CorpusServer
from project_corpus.adapters.lsp.refresh import changed
from project_corpus.adapters.lsp.refresh import closed
from project_corpus.adapters.lsp.refresh import initialized
from project_corpus.adapters.lsp.refresh import watched

QUICK_FIX = types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])


def make_server() -> CorpusServer:
    """A server with every feature registered (no I/O yet)."""
    ls = CorpusServer()
    _sync(ls)
    _navigation(ls)

    @ls.feature(types.TEXT_DOCUMENT_CODE_ACTION, QUICK_FIX)
    def code_action(ls: CorpusServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return requests.code_actions(ls, params)

    return ls


def _sync(ls: CorpusServer) -> None:
    @ls.feature(types.INITIALIZED)
    def on_initialized(ls: CorpusServer, params: types.InitializedParams) -> None:
        initialized(ls)

    @ls.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CorpusServer, params: types.DidOpenTextDocumentParams) -> None:
        changed(ls, params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CorpusServer, params: types.DidChangeTextDocumentParams) -> None:
        changed(ls, params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: CorpusServer, params: types.DidSaveTextDocumentParams) -> None:
        changed(ls, params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CorpusServer, params: types.DidCloseTextDocumentParams) -> None:
        closed(ls, params.text_document.uri)

    @ls.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(ls: CorpusServer, params: types.DidChangeWatchedFilesParams) -> None:
        watched(ls, params)


def _navigation(ls: CorpusServer) -> None:
    @ls.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
    async def document_link(
        ls: CorpusServer, params: types.DocumentLinkParams
    ) -> list[types.DocumentLink]:
        uri = params.text_document.uri
        if uri not in ls.workspace.text_documents:
            return []
        found = await requests.document_links(ls, uri)
        ranges = requests.link_ranges(ls, uri, [hit.link for hit in found])
        return [
            types.DocumentLink(where, target=hit.uri)
            for hit, where in zip(found, ranges, strict=True)
        ]

    @ls.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: CorpusServer, params: types.DefinitionParams) -> list[types.Location]:
        hit = await requests.link_at(ls, params.text_document.uri, params.position)
        if hit is None:
            return []
        start = types.Position(0, 0)
        return [types.Location(hit.uri, types.Range(start, start))]

    @ls.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: CorpusServer, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        hit = await requests.link_at(ls, uri, params.position)
        if hit is None:
            return None
        text = types.MarkupContent(types.MarkupKind.Markdown, navigation.hover(hit.source))
        return types.Hover(text, requests.link_ranges(ls, uri, [hit.link])[0])


def serve() -> None:
    """Serve over stdin/stdout until the client exits."""
    gc.enable()  # a long-lived process: the console entry turned the collector off
    ls = make_server()
    # pygls closes the stream it writes to when the client exits: a duplicate of stdout, so
    # the console entry's last flush of `sys.stdout` finds it open.
    stdout = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    try:
        ls.start_io(sys.stdin.buffer, stdout)
    finally:
        ls.worker.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(OSError, ValueError):
            stdout.close()
