"""The optional stdio MCP server (SPEC §11): four read-only tools over the current sources.

`serve()` checks the trust grant before it touches stdin or stdout: the effective
capabilities (runtime hard limits ∩ grant ceiling ∩ policy `allow` ∩ session `--allow`)
must include `mcp.stdio`, else it raises the grant's `TRUST_*` code and nothing is served.
Every `tools/list` and `tools/call` recomputes them (one grant read, one policy read, one
stat), so a policy edited or a root replaced after start denies the very next call. A tool
is listed and callable only while `corpus.context` is effective too.

Each call reads the current scoped sources into an in-memory `Corpus` (`snapshot.collect`);
no index is read or written and nothing is written anywhere. Arguments are checked here,
exactly (the SDK does not validate them against the input schema): an unknown or missing key
or a wrong JSON type is `MCP_ARGUMENTS`; values are then checked by the library with the
CLI's codes (`QUERY_EMPTY`, `QUERY_LIMIT`, `BUDGET_INVALID`, `CANDIDATE_*`). Every such
failure is a tool result with `isError: true` whose JSON is the CLI's error envelope; an
unknown tool name is a JSON-RPC error. Logs go to stderr only.

This is the only module that imports the `mcp` SDK; the CLI imports it lazily.
"""

from __future__ import annotations

import gc
import json
import logging
import sys
import threading
from collections.abc import Callable
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from typing import NamedTuple

import anyio
import anyio.to_thread
from mcp import MCPError
from mcp import types
from mcp.server import Server
from mcp.server import ServerRequestContext
from mcp.server.stdio import stdio_server

from project_corpus import __version__
from project_corpus import trust
from project_corpus.candidate import validate_candidate
from project_corpus.corpus import fs
from project_corpus.corpus.snapshot import collect
from project_corpus.doctor import memory_doctor
from project_corpus.errors import ContextError
from project_corpus.errors import internal_error
from project_corpus.jsonio import pretty
from project_corpus.retrieval.bundle import DEFAULT_TOKENS
from project_corpus.retrieval.bundle import MAX_TOKENS
from project_corpus.retrieval.bundle import MIN_TOKENS
from project_corpus.retrieval.bundle import check_budget
from project_corpus.retrieval.bundle import compile_bundle
from project_corpus.retrieval.rank import DEFAULT_LIMIT
from project_corpus.retrieval.rank import MAX_LIMIT
from project_corpus.retrieval.rank import check_limit
from project_corpus.retrieval.rank import check_query
from project_corpus.retrieval.rank import query_index
from project_corpus.trust import grant_file

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
# retrieval keeps a module-level analysis cache; one call at a time keeps it coherent.
_CALL_LOCK = threading.Lock()


class Session(NamedTuple):
    """What a server session was started with; capabilities are recomputed from it per call.

    `names` maps each listed tool name to its protocol (registry) name.
    """

    root: Path
    grant_path: str
    allow: frozenset[str]
    names: Mapping[str, str]


class Param(NamedTuple):
    """One tool argument: its JSON type, whether it is required, extra schema keywords."""

    kind: str  # "string" | "integer" | "object"
    required: bool
    schema: Mapping[str, object]


Runner = Callable[[Path, Mapping[str, Any]], Mapping[str, object]]


class ToolSpec(NamedTuple):
    title: str
    description: str
    params: Mapping[str, Param]
    run: Runner


# --- the tools -----------------------------------------------------------------------------


def _query(root: Path, args: Mapping[str, Any]) -> Mapping[str, object]:
    limit = check_limit(args.get("limit", DEFAULT_LIMIT))
    check_query(args["query"])
    return query_index(collect(root), args["query"], limit)


def _bundle(root: Path, args: Mapping[str, Any]) -> Mapping[str, object]:
    budget = check_budget(args.get("max_tokens", DEFAULT_TOKENS))
    check_query(args["query"])
    return compile_bundle(collect(root), args["query"], budget)


def _doctor(root: Path, args: Mapping[str, Any]) -> Mapping[str, object]:
    return memory_doctor(root)


def _candidate(root: Path, args: Mapping[str, Any]) -> Mapping[str, object]:
    return validate_candidate(collect(root), args["candidate"])


_QUERY = Param("string", True, {"minLength": 1, "description": "What to look for."})

TOOLS: dict[str, ToolSpec] = {
    "corpus.context_query": ToolSpec(
        "Query the project corpus",
        "Ranked, de-duplicated pointers (path, lines, section, authority, temporal status) into "
        "the project's current scoped sources for a query; the same JSON as `project-corpus "
        "context query`. Non-authoritative: read the primary source before relying on it.",
        {
            "query": _QUERY,
            "limit": Param(
                "integer",
                False,
                {
                    "minimum": 1,
                    "maximum": MAX_LIMIT,
                    "default": DEFAULT_LIMIT,
                    "description": "Maximum results.",
                },
            ),
        },
        _query,
    ),
    "corpus.context_bundle": ToolSpec(
        "Compile a context bundle",
        "A token-budgeted, hash-stamped Context Bundle v1 for a query: bounded summaries of "
        "PROJECT, STATUS and the active task, then ranked excerpts; the same JSON as "
        "`project-corpus context bundle`. `mandatory_reads` lists the files to read in full.",
        {
            "query": _QUERY,
            "max_tokens": Param(
                "integer",
                False,
                {
                    "minimum": MIN_TOKENS,
                    "maximum": MAX_TOKENS,
                    "default": DEFAULT_TOKENS,
                    "description": "Excerpt token budget.",
                },
            ),
        },
        _bundle,
    ),
    "corpus.context_doctor": ToolSpec(
        "Lint the project corpus",
        "Memory Doctor over the current sources (no index): protocol conformance, links, "
        "supersession, freshness and shape findings with stable codes; the same JSON report as "
        "`project-corpus context doctor ROOT`. `ok` is false when a FAIL finding exists.",
        {},
        _doctor,
    ),
    "corpus.candidate_validate": ToolSpec(
        "Validate a memory candidate",
        "Check a proposed Candidate v1 object against the current sources (schema, project, "
        "evidence hashes and lines). Nothing is written or promoted: promotion stays an "
        "explicit owner action. An invalid candidate is an error result with its CANDIDATE_* code.",
        {"candidate": Param("object", True, {"description": "A Candidate v1 object."})},
        _candidate,
    ),
}


# Tool names: the protocol's dotted names, or the portable ones the model APIs behind the
# common clients accept (`^[a-zA-Z0-9_-]{1,64}$`): the dots become underscores.
TOOL_NAMINGS = ("portable", "protocol")


def tool_names(naming: str) -> dict[str, str]:
    """Listed name -> protocol name, for NAMING `portable` (default) or `protocol`."""
    if naming == "protocol":
        return {name: name for name in TOOLS}
    return {name.replace(".", "_"): name for name in TOOLS}


def input_schema(params: Mapping[str, Param]) -> dict[str, Any]:
    """The strict JSON Schema of a tool's arguments."""
    return {
        "type": "object",
        "properties": {key: {"type": p.kind, **p.schema} for key, p in params.items()},
        "required": [key for key, p in params.items() if p.required],
        "additionalProperties": False,
    }


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


# --- arguments -----------------------------------------------------------------------------

_KINDS: dict[str, Callable[[object], bool]] = {
    "string": lambda value: isinstance(value, str),
    "integer": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "object": lambda value: isinstance(value, dict),
}
_JSON_TYPES = (
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)


def json_type(value: object) -> str:
    """The JSON type name of a decoded value (bool before int: JSON has no 1 == true)."""
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), "null")


def _names(keys: list[str]) -> str:
    shown = ", ".join(repr(key[:64]) for key in keys[:5])
    return shown + (f" (+{len(keys) - 5} more)" if len(keys) > 5 else "")


def check_arguments(
    tool: str, params: Mapping[str, Param], arguments: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Exact keys and JSON types, or MCP_ARGUMENTS naming the first problem."""
    args = dict(arguments or {})
    allowed = ", ".join(params) or "none"
    unknown = sorted(set(args) - set(params))
    if unknown:
        raise ContextError(
            "MCP_ARGUMENTS", f"{tool}: unknown argument {_names(unknown)}; allowed: {allowed}"
        )
    missing = [key for key, p in params.items() if p.required and key not in args]
    if missing:
        raise ContextError("MCP_ARGUMENTS", f"{tool}: missing argument {_names(missing)}")
    for key, value in args.items():
        if not _KINDS[params[key].kind](value):
            raise ContextError(
                "MCP_ARGUMENTS",
                f"{tool}: `{key}` must be of type {params[key].kind}, got {json_type(value)}",
            )
    return args


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
            payload = spec.run(session.root, check_arguments(name, spec.params, arguments))
            authorize(session, TOOL_CAPABILITIES)  # the policy did not change while we read
    except ContextError as exc:
        LOG.info("%s: %s", name, exc.code)
        return exc.envelope(), True
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


def build_server(session: Session) -> Server[Any]:
    """A low-level SDK server whose handlers close over SESSION."""

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        available = await anyio.to_thread.run_sync(tools_available, session)
        tools = [tool_definition(name, listed) for listed, name in session.names.items()]
        return types.ListToolsResult(tools=tools if available else [])

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        name = session.names.get(params.name)
        if name is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        payload, is_error = await anyio.to_thread.run_sync(call, session, name, params.arguments)
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
        session = Session(fs.resolve_root(root), grant_path, allow, tool_names(naming))
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
