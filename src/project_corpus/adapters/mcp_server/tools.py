"""The MCP server's tools, without the SDK (`server.py` serves them).

Each tool is a `ToolSpec`: title, description, its arguments (`Param`: JSON type, required,
extra schema keywords, with the bounds the CLI checks) and its one `Workspace` call.
`check_arguments` checks a call's arguments exactly (the SDK does not validate them against
the input schema): an unknown or missing key or a wrong JSON type is `MCP_ARGUMENTS`.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any
from typing import NamedTuple

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.errors import ContextError
from project_corpus.workspace import Workspace


class Param(NamedTuple):
    """One tool argument: its JSON type, whether it is required, extra schema keywords."""

    kind: str  # "string" | "integer" | "object"
    required: bool
    schema: Mapping[str, object]


Runner = Callable[[Workspace, Mapping[str, Any]], Mapping[str, object]]


class ToolSpec(NamedTuple):
    title: str
    description: str
    params: Mapping[str, Param]
    run: Runner


# --- the tools -----------------------------------------------------------------------------


# Every call asks the session's warm `Workspace` with `fresh=True`: the current sources,
# re-read and re-hashed, with what it parsed and analysed before kept warm; no index is read.


def _query(space: Workspace, args: Mapping[str, Any]) -> Mapping[str, object]:
    return space.query(args["query"], args.get("limit", BOUNDS.limit.default), fresh=True)


def _bundle(space: Workspace, args: Mapping[str, Any]) -> Mapping[str, object]:
    return space.bundle(
        args["query"], args.get("max_tokens", BOUNDS.max_tokens.default), fresh=True
    )


def _doctor(space: Workspace, args: Mapping[str, Any]) -> Mapping[str, object]:
    return space.doctor()


def _candidate(space: Workspace, args: Mapping[str, Any]) -> Mapping[str, object]:
    return space.validate_candidate(args["candidate"])


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
                    "minimum": BOUNDS.limit.low,
                    "maximum": BOUNDS.limit.high,
                    "default": BOUNDS.limit.default,
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
                    "minimum": BOUNDS.max_tokens.low,
                    "maximum": BOUNDS.max_tokens.high,
                    "default": BOUNDS.max_tokens.default,
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
