"""A real LSP client session with `project-corpus lsp` over stdio (pygls' LanguageClient)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from tests.mcp_server.test_mcp_server import child_env

T = TypeVar("T")
TIMEOUT = 60.0
# What an editor that watches files says (VS Code, Neovim ≥ 0.10): the server may register.
CAPABILITIES = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(
        did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
            dynamic_registration=True
        )
    )
)


class Session:
    """The client, and every `publishDiagnostics` it received (the last per URI)."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.published: dict[str, types.PublishDiagnosticsParams] = {}
        self.arrived = asyncio.Event()
        self.versions: dict[str, int] = {}
        self.registrations: list[types.RegistrationParams] = []

    def receive(self, params: types.PublishDiagnosticsParams) -> None:
        self.published[params.uri] = params
        self.arrived.set()

    async def wait(
        self, uri: str, ready: Callable[[types.PublishDiagnosticsParams], bool]
    ) -> list[types.Diagnostic]:
        """The diagnostics of URI once a publication satisfies READY."""

        async def until() -> list[types.Diagnostic]:
            while True:
                found = self.published.get(uri)
                if found is not None and ready(found):
                    return list(found.diagnostics)
                self.arrived.clear()
                await self.arrived.wait()

        return await asyncio.wait_for(until(), TIMEOUT)

    async def current(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics of URI for its last version sent."""
        version = self.versions[uri]
        return await self.wait(uri, lambda p: p.version == version)

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.as_uri()
        body = path.read_text(encoding="utf-8") if text is None else text
        self.versions[uri] = 1
        item = types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=body)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(item))
        return uri

    def change(self, uri: str, text: str) -> None:
        """Replace the whole text of URI (unsaved)."""
        self.versions[uri] += 1
        document = types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri])
        whole = types.TextDocumentContentChangeWholeDocument(text=text)
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(document, [whole]))


REPO = Path(__file__).resolve().parents[2]


def server_argv() -> tuple[str, ...]:
    """`python -m project_corpus lsp`, under coverage when this test process is measured: the
    server is a child process, and its data file lands beside the run's own, which the run
    combines (`--parallel-mode`); `serve_measured.py` returns where the command `_exit`s."""
    server = ("-m", "project_corpus", "lsp")
    try:
        import coverage
    except ImportError:  # pragma: no cover - the test extra ships coverage
        return (sys.executable, *server)
    measured = coverage.Coverage.current()
    if measured is None:
        return (sys.executable, *server)
    data = Path(measured.config.data_file)
    data = data if data.is_absolute() else REPO / data
    rcfile = str(REPO / "pyproject.toml")
    return (sys.executable, "-m", "coverage", "run", "--parallel-mode", f"--rcfile={rcfile}",
            f"--data-file={data}", str(Path(__file__).with_name("serve_measured.py")))  # fmt: skip


def run_session(root: Path, script: Callable[[Session], Awaitable[T]]) -> T:
    """Start `project-corpus lsp`, initialize with ROOT as the workspace folder, run SCRIPT."""

    async def main() -> T:
        client = LanguageClient("project-corpus-tests", "1")
        session = Session(client)

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: types.PublishDiagnosticsParams) -> None:
            session.receive(params)

        @client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            session.registrations.append(params)

        await client.start_io(*server_argv(), env=child_env())
        try:
            folder = types.WorkspaceFolder(uri=root.as_uri(), name=root.name)
            params = types.InitializeParams(
                capabilities=CAPABILITIES,
                root_uri=root.as_uri(),
                workspace_folders=[folder],
            )
            await asyncio.wait_for(client.initialize_async(params), TIMEOUT)
            client.initialized(types.InitializedParams())
            return await script(session)
        finally:
            await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
            client.exit(None)
            await client.stop()
            await ended_cleanly(client)

    return asyncio.run(main())


async def ended_cleanly(client: LanguageClient) -> None:
    """The server exited 0 after `shutdown` and `exit`, with no traceback on stderr."""
    server = client._server  # the subprocess pygls started (no public accessor)
    assert server is not None
    assert server.stderr is not None
    errors = (await asyncio.wait_for(server.stderr.read(), TIMEOUT)).decode("utf-8", "replace")
    assert await asyncio.wait_for(server.wait(), TIMEOUT) == 0, errors
    assert "Traceback" not in errors


def apply(text: str, edits: Sequence[types.TextEdit]) -> str:
    """TEXT with EDITS applied (positions in UTF-16 units, as the client negotiated none)."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        units, chars = 0, 0
        while units < position.character and chars < len(line):
            units += 2 if ord(line[chars]) > 0xFFFF else 1
            chars += 1
        return before + chars

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))[::-1]:
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text


def codes(found: Sequence[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in found)
