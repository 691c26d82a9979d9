"""The optional stdio MCP server (docs/mcp.md): four read-only tools over the current sources.

`serve()` checks the trust grant before it touches stdin or stdout: the effective
capabilities (runtime hard limits ∩ grant ceiling ∩ policy `allow` ∩ session `--allow`)
must include `mcp.stdio`, else it raises the grant's `TRUST_*` code and nothing is served.
Every `tools/list` and `tools/call` recomputes them (one grant read, one policy read, one
stat), so a policy edited or a root replaced after start denies the very next call. A tool
is listed and callable only while `corpus.context` is effective too.

Each call asks the session's warm `Workspace` (`workspace.door`) with `fresh=True`: it
re-reads and re-hashes the current scoped sources and re-parses only what changed, keeping
the rest warm in memory; no index is read or written and nothing is written anywhere.
Arguments are checked exactly by `tools.check_arguments` (the SDK does not validate them
against the input schema): an unknown or missing key or a wrong JSON type is
`MCP_ARGUMENTS`; values are then checked by the library with the CLI's codes (`QUERY_EMPTY`,
`QUERY_LIMIT`, `BUDGET_INVALID`, `CANDIDATE_*`). Every such failure is a tool result with
`isError: true` whose JSON is the CLI's error envelope; an unknown tool name is a JSON-RPC
error. Logs go to stderr only.

The tools themselves (arguments, bounds, the Workspace call each makes, the argument checks)
are in `tools.py`. This is the only module that imports the `mcp` SDK; the CLI imports it
lazily.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import sys
import threading
from collections.abc import Callable
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from typing import NamedTuple
from typing import TypeVar

import anyio
from mcp import MCPError
from mcp import types
from mcp.server import Server
from mcp.server import ServerRequestContext
from mcp.server.stdio import stdio_server

from project_corpus.adapters.mcp_server import grant_file
from project_corpus.adapters.mcp_server import trust
from project_corpus.adapters.mcp_server.tools import TOOLS
from project_corpus.adapters.mcp_server.tools import check_arguments
from project_corpus.adapters.mcp_server.tools import input_schema
from project_corpus.adapters.mcp_server.tools import tool_names
from project_corpus.core.about import __version__
from project_corpus.core.errors import ContextError
from project_corpus.core.errors import internal_error
from project_corpus.core.jsonio import pretty
from project_corpus.workspace import Workspace

LOG = logging.getLogger("project_corpus.mcp")
SERVER_NAME = "project-corpus"
START_CAPABILITIES = ("mcp.stdio",)
TOOL_CAPABILITIES = ("mcp.stdio", "corpus.context")
READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
INSTRUCTIONS = (
    "Pointers into a Project Corpus (Protocol V2). Every result is non-authoritative: read the "
    "primary source it names before making an authority claim."
)
# One call at a time: the capability checks around a call and the call itself are one step.
_CALL_LOCK = threading.Lock()


class Session(NamedTuple):
    """What a server session was started with; capabilities are recomputed from it per call.

    `names` maps each listed tool name to its protocol (registry) name; `workspace` keeps
    the session's warm state (one per session).
    """

    root: str
    grant_path: str
    allow: frozenset[str]
    names: Mapping[str, str]
    workspace: Workspace


def tool_definition(name: str, listed: str | None = None) -> types.Tool:
    """Tool NAME (a protocol name) as listed under LISTED (default: NAME itself)."""
    spec = TOOLS[name]
    return types.Tool(
        name=listed or name,
        title=spec.title,
        description=spec.description,
        input_schema=input_schema(spec.params),
        annotations=READ_ONLY,
    )


# --- capabilities --------------------------------------------------------------------------


def authorize(session: Session, capabilities: tuple[str, ...]) -> frozenset[str]:
    """Recompute the effective capabilities now; raise the TRUST_* code of a missing one."""
    grant = grant_file.load_grant(session.grant_path, root=session.root)
    effective, denials = trust.effective_capabilities(session.root, grant, session.allow)
    for capability in capabilities:  # the grant's transports are always ["stdio-mcp"] (v1)
        trust.require(capability, effective, denials)
    return effective


def tools_available(session: Session) -> bool:
    """Whether the tools may be listed right now (a denial is logged, not raised)."""
    try:
        authorize(session, TOOL_CAPABILITIES)
    except ContextError as exc:
        LOG.warning("tools not listed: %s: %s", exc.code, exc.detail)
        return False
    return True


def call(
    session: Session, name: str, arguments: Mapping[str, Any] | None
) -> tuple[Mapping[str, object], bool]:
    """Run tool NAME: (payload, is_error). Every failure becomes the error envelope."""
    spec = TOOLS[name]
    try:
        with _CALL_LOCK:
            authorize(session, TOOL_CAPABILITIES)
            payload = spec.run(session.workspace, check_arguments(name, spec.params, arguments))
            authorize(session, TOOL_CAPABILITIES)  # the policy did not change while we read
    except ContextError as exc:
        LOG.info("%s: %s", name, exc.code)
        return exc.envelope(session.root), True
    except Exception as exc:  # the server's one broad handler (cli.main's counterpart)
        LOG.error(
            "%s: internal error %s: %s (a bug; please report it)", name, type(exc).__name__, exc
        )
        return internal_error(exc, "this is a bug; report it"), True
    LOG.info("%s: ok", name)
    return payload, False


def tool_result(payload: Mapping[str, object], is_error: bool) -> types.CallToolResult:
    """The CLI's JSON as text, and the same data as structured content."""
    text = pretty(payload)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=json.loads(text),
        is_error=is_error,
    )


# --- the server ----------------------------------------------------------------------------


T = TypeVar("T")


def build_server(session: Session) -> Server[Any]:
    """A low-level SDK server whose handlers close over SESSION.

    Calls run in one worker thread of the session's own, so that the event loop keeps
    answering pings and cancellations meanwhile. One thread, not a pool's: the C allocator
    keeps an arena per thread, and a warm corpus rebuilt in ever other threads left the
    server's peak RSS growing by ~10 MB per edit (docs/performance.md, "The warm path")."""
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="project-corpus-call")

    async def in_worker(function: Callable[..., T], *args: object) -> T:
        return await asyncio.wrap_future(worker.submit(function, *args))

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        available = await in_worker(tools_available, session)
        tools = [tool_definition(name, listed) for listed, name in session.names.items()]
        return types.ListToolsResult(tools=tools if available else [])

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        name = session.names.get(params.name)
        if name is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        payload, is_error = await in_worker(call, session, name, params.arguments)
        return tool_result(payload, is_error)

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def start_session(
    root: str | None, grant_path: str, allow: frozenset[str], naming: str = "portable"
) -> tuple[Session, frozenset[str]]:
    """Resolve ROOT (default: the root the grant records) and require `mcp.stdio` now.

    Raises ContextError naming the root that was used (nothing is served).
    """
    if root is None:
        root = str(grant_file.load_grant(grant_path)["physical_root"])
    try:
        space = Workspace(root, warm=True)
        session = Session(space.root.path, grant_path, allow, tool_names(naming), space)
        return session, authorize(session, START_CAPABILITIES)
    except ContextError as exc:
        if root in exc.detail:
            raise
        raise ContextError(exc.code, f"{exc.detail} (project root: {root})", exc.hint) from None


def _configure_logging() -> None:
    """Our log lines go to stderr (stdout carries protocol messages only)."""
    if not LOG.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("project-corpus mcp: %(levelname)s %(message)s"))
        LOG.addHandler(handler)
        LOG.setLevel(logging.INFO)
        LOG.propagate = False


async def _run(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(
    root: str | None, grant_path: str, allow: frozenset[str], naming: str = "portable"
) -> None:
    """`project-corpus mcp`: check the grant, then serve stdio MCP until stdin closes."""
    session, effective = start_session(root, grant_path, allow, naming)
    gc.enable()  # a long-lived process: the console entry turned the collector off
    _configure_logging()
    LOG.info("serving %s; effective capabilities: %s", session.root, " ".join(sorted(effective)))
    if "corpus.context" not in effective:
        LOG.warning("corpus.context is not effective: no tools are listed")
    try:
        anyio.run(_run, build_server(session))
    except KeyboardInterrupt:
        LOG.info("interrupted")
