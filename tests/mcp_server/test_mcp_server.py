"""The stdio MCP server (SPEC §11): trust-gated, read-only tools equal to the CLI's output.

Sessions run the real server as a subprocess (`python -m project_corpus mcp ...`) and talk to
it with the SDK's own stdio client, or with raw JSON-RPC lines to prove that stdout carries
protocol messages only. In-process tests use the SDK's in-memory `Client` on the same server
object. Importing the SDK takes seconds, so every test that needs it is marked `slow` and
imports it lazily.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Awaitable
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar

import anyio
import click
import pytest

from project_corpus.adapters.mcp_server import trust
from project_corpus.core.errors import ERRORS
from tests.conftest import MakeCorpus
from tests.conftest import Run

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp import types

T = TypeVar("T")
CLI = Callable[..., Run]
PROTOCOL_NAMES = [
    "corpus.context_query",
    "corpus.context_bundle",
    "corpus.context_doctor",
    "corpus.candidate_validate",
]
TOOL_NAMES = [name.replace(".", "_") for name in PROTOCOL_NAMES]
PORTABLE_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
BOTH = ("mcp.stdio", "corpus.context")
STATUS = ".project-corpus/state/STATUS.md"
POLICY = ".project-corpus/policy.toml"


# --- helpers -------------------------------------------------------------------------------


def grant_file(root: Path, capabilities: tuple[str, ...] = BOTH) -> Path:
    """A grant in the isolated $XDG_CONFIG_HOME (conftest's autouse fixture)."""
    return Path(str(trust.grant(root, list(capabilities))["path"]))


def mcp_args(root: Path, grant: Path, allow: tuple[str, ...]) -> list[str]:
    return ["mcp", "--root", str(root), "--trust", str(grant), *(f"--allow={a}" for a in allow)]


def child_env() -> dict[str, str]:
    """The isolated HOME, plus the interpreter's import path: the server must import the same
    package as this test (scripts/mutation.py points PYTHONPATH at a mutated copy)."""
    keys = ("HOME", "XDG_CONFIG_HOME", "PYTHONPATH")
    return {key: os.environ[key] for key in keys if key in os.environ}


def tree_state(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry under ROOT (links not followed): mode, size, mtime."""
    state = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [".", *dirnames, *filenames]:
            path = Path(dirpath, name)
            st = path.lstat()
            state[str(path.relative_to(root))] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return state


def run_stdio(
    root: Path,
    grant: Path,
    allow: tuple[str, ...],
    stderr: Path,
    script: Callable[[ClientSession], Awaitable[T]],
    args: list[str] | None = None,
    cwd: str | None = None,
) -> T:
    """Start the server subprocess (ARGS instead of the usual ones), initialize, run SCRIPT
    with the SDK's stdio client."""
    from mcp import ClientSession
    from mcp import StdioServerParameters
    from mcp import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "project_corpus", *(args or mcp_args(root, grant, allow))],
        env=child_env(),
        cwd=cwd,
    )

    async def main() -> T:
        with stderr.open("w", encoding="utf-8") as errlog:
            async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
                await s.initialize()
                return await script(s)

    return anyio.run(main)


def result_of(value: object) -> types.CallToolResult:
    from mcp import types

    assert isinstance(value, types.CallToolResult)
    return value


def error_code(result: types.CallToolResult) -> str:
    """The stable code of an error result (text and structured content agree)."""
    assert result.is_error is True
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    data = result.structured_content
    assert data is not None
    assert data["ok"] is False
    assert set(data) == {"ok", "error", "detail", "hint"}
    return str(data["error"])


def candidate(root: Path, project_id: str = "orbit-cache") -> dict[str, Any]:
    sha = hashlib.sha256((root / STATUS).read_bytes()).hexdigest()
    return {
        "schema_version": "1",
        "candidate_id": "c-canary-ratio",
        "project_id": project_id,
        "kind": "semantic_fact",
        "statement": "The W-TinyLFU canary serves 10% of read traffic.",
        "source_refs": [{"source_path": STATUS, "source_sha256": sha, "line_start": 11}],
        "created_at": "2026-11-25T10:00:00Z",
        "status": "candidate",
    }


# --- without the SDK -----------------------------------------------------------------------


def test_version_imports_no_optional_module() -> None:
    code = (
        "import sys\n"
        "from project_corpus.adapters.cli import main\n"
        "rc = main(['--version'])\n"
        "print(sorted(m for m in ('mcp', 'anyio', 'yaml', 'jsonschema') if m in sys.modules))\n"
        "raise SystemExit(rc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"project-corpus {__import__('project_corpus').__version__}",
        "[]",
    ]


BLOCK_IMPORTS = """
import sys

class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Missing())
from project_corpus.adapters.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("blocked", [("mcp", "mcp_types"), ("mcp", "mcp_types", "anyio")])
def test_missing_sdk_is_mcp_unavailable(example: Path, blocked: tuple[str, ...]) -> None:
    code = f"BLOCKED = {blocked!r}\n{BLOCK_IMPORTS}"
    argv = [sys.executable, "-c", code, *mcp_args(example, grant_file(example), BOTH)]
    proc = subprocess.run(
        argv, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    envelope = json.loads(proc.stderr)
    assert envelope["error"] == "MCP_UNAVAILABLE"
    assert envelope["detail"].startswith("`project-corpus mcp` needs the optional [mcp] extra")
    assert envelope["hint"] == (
        "install the [mcp] extra: pip install 'project-corpus-context[mcp] @ "
        "git+https://github.com/corpus-tools/project-corpus-context'"
    )


def test_mcp_arguments_code_is_registered() -> None:
    assert "MCP_ARGUMENTS" in ERRORS
    assert "MCP_UNAVAILABLE" in ERRORS


# --- refusing to start (in process: the refusal happens before stdio is touched) -----------


def _drift(root: Path) -> None:
    with (root / POLICY).open("a", encoding="utf-8") as handle:
        handle.write("# edited after the grant\n")


def _narrow_policy(root: Path) -> None:
    policy = root / POLICY
    policy.write_text(policy.read_text().replace(', "mcp.stdio"]', "]"), encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("case", "allow", "code"),
    [
        ("drift", BOTH, "TRUST_POLICY_DRIFT"),
        ("none", (), "TRUST_DENIED"),
        ("none", ("corpus.context",), "TRUST_DENIED"),
        ("none", ("mcp.stdio", "corpus.contex"), "TRUST_CAPABILITY"),
        ("ceiling", BOTH, "TRUST_DENIED"),
        ("policy", BOTH, "TRUST_DENIED"),
        ("missing", BOTH, "TRUST_MISSING"),
        ("inside", BOTH, "TRUST_PATH"),
        ("other-project", BOTH, "TRUST_PROJECT"),
        ("no-root", BOTH, "CONTEXT_ROOT"),
    ],
)
def test_refuses_to_start(
    example: Path, make_corpus: MakeCorpus, cli: CLI, case: str, allow: tuple[str, ...], code: str
) -> None:
    root, grant = example, grant_file(example)
    if case == "drift":
        _drift(example)
    elif case == "ceiling":
        grant = grant_file(example, ("corpus.context",))
    elif case == "policy":
        _narrow_policy(example)
        grant = grant_file(example)
    elif case == "missing":
        grant.unlink()
    elif case == "inside":
        grant = example / "grant.toml"
        grant.write_bytes(grant_file(example).read_bytes())
    elif case == "other-project":
        root = make_corpus()
    elif case == "no-root":
        root = example / "nowhere"
    run = cli(*mcp_args(root, grant, allow))
    assert (run.code, run.out) == (2, "")
    envelope = run.error()
    assert envelope["error"] == code
    assert str(root) in envelope["detail"]  # the error names the root that was used
    if code.startswith("TRUST_"):
        assert envelope["hint"], envelope  # every refusal says what to do


def test_a_missing_allow_is_hinted(example: Path) -> None:
    from project_corpus.adapters.mcp_server import server as mcp_server
    from project_corpus.core.errors import ContextError

    grant = str(grant_file(example))
    with pytest.raises(ContextError) as info:
        mcp_server.start_session(None, grant, frozenset({"corpus.context"}))
    assert info.value.code == "TRUST_DENIED"
    assert "--allow mcp.stdio" in (info.value.hint or "")
    session, _ = mcp_server.start_session(None, grant, frozenset({"mcp.stdio"}))
    assert session.root == str(example.resolve())  # the grant's recorded root, not the cwd
    with pytest.raises(ContextError) as info:
        mcp_server.authorize(session, mcp_server.TOOL_CAPABILITIES)
    assert info.value.code == "TRUST_DENIED"
    assert "--allow corpus.context" in (info.value.hint or "")


def test_root_defaults_to_the_grant_and_errors_name_it(
    example: Path, cli: CLI, monkeypatch: pytest.MonkeyPatch
) -> None:
    grant = grant_file(example)
    _drift(example)
    monkeypatch.chdir("/")
    run = cli("mcp", "--trust", grant, "--allow", "mcp.stdio")
    envelope = run.error()
    assert (run.code, envelope["error"]) == (2, "TRUST_POLICY_DRIFT")
    assert str(example.resolve()) in envelope["detail"]
    assert "trust grant" in envelope["hint"]


def test_protocol_tool_names_on_request(example: Path) -> None:
    from mcp import Client

    from project_corpus.adapters.mcp_server import server as mcp_server

    grant = str(grant_file(example))
    session, _ = mcp_server.start_session(None, grant, frozenset(BOTH), "protocol")

    async def main() -> list[str]:
        async with Client(mcp_server.build_server(session)) as client:
            listed = await client.list_tools(cache_mode="bypass")
            ok = await client.call_tool("corpus.context_doctor", {})
            assert result_of(ok).is_error is False
            return [tool.name for tool in listed.tools]

    assert anyio.run(main) == PROTOCOL_NAMES


@pytest.mark.slow
def test_refusal_from_a_real_process_leaves_stdout_empty(example: Path) -> None:
    grant = grant_file(example)
    _drift(example)
    argv = [sys.executable, "-m", "project_corpus", *mcp_args(example, grant, BOTH)]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False, env=child_env())
    assert (proc.returncode, proc.stdout) == (2, "")
    envelope = json.loads(proc.stderr)
    assert envelope["error"] == "TRUST_POLICY_DRIFT"
    assert "trust grant" in envelope["hint"]


# --- arguments (pure functions of the server module) ---------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("tool", "arguments", "code"),
    [
        ("corpus.context_query", {"query": "x", "index": "a.sqlite3"}, "MCP_ARGUMENTS"),
        ("corpus.context_query", {"query": "x", "root": "/"}, "MCP_ARGUMENTS"),
        ("corpus.context_query", {}, "MCP_ARGUMENTS"),
        ("corpus.context_query", None, "MCP_ARGUMENTS"),
        ("corpus.context_query", {"query": 5}, "MCP_ARGUMENTS"),
        ("corpus.context_query", {"query": "x", "limit": True}, "MCP_ARGUMENTS"),
        ("corpus.context_query", {"query": "x", "limit": "5"}, "MCP_ARGUMENTS"),
        ("corpus.context_query", {"query": "x", "limit": 5.0}, "MCP_ARGUMENTS"),
        ("corpus.context_query", {"query": "x", "limit": None}, "MCP_ARGUMENTS"),
        ("corpus.context_bundle", {"query": "x", "max_tokens": False}, "MCP_ARGUMENTS"),
        ("corpus.context_bundle", {"query": ["x"]}, "MCP_ARGUMENTS"),
        ("corpus.context_doctor", {"path": "."}, "MCP_ARGUMENTS"),
        ("corpus.candidate_validate", {"candidate": []}, "MCP_ARGUMENTS"),
        ("corpus.candidate_validate", {"candidate": "{}"}, "MCP_ARGUMENTS"),
        ("corpus.candidate_validate", {}, "MCP_ARGUMENTS"),
    ],
)
def test_malformed_arguments(tool: str, arguments: dict[str, Any] | None, code: str) -> None:
    from project_corpus.adapters.mcp_server import tools as mcp_tools
    from project_corpus.core.errors import ContextError

    with pytest.raises(ContextError) as info:
        mcp_tools.check_arguments(tool, mcp_tools.TOOLS[tool].params, arguments)
    assert info.value.code == code
    assert tool in info.value.detail


@pytest.mark.slow
def test_input_schemas_are_strict_and_have_no_paths() -> None:
    from project_corpus.adapters.mcp_server import server as mcp_server
    from project_corpus.adapters.mcp_server import tools as mcp_tools

    assert list(mcp_tools.TOOLS) == PROTOCOL_NAMES
    for name in PROTOCOL_NAMES:
        tool = mcp_server.tool_definition(name)
        schema = tool.input_schema
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False
        assert not {"root", "path", "index", "grant"} & set(schema["properties"])
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.destructive_hint is False
        assert tool.output_schema is None
    query = mcp_server.tool_definition("corpus.context_query").input_schema
    assert query["required"] == ["query"]
    assert query["properties"]["limit"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
        "default": 20,
        "description": "Maximum results.",
    }
    assert mcp_tools.json_type(None) == "null"
    assert mcp_tools.json_type(True) == "boolean"


@pytest.mark.slow
def test_mcp_bounds_equal_the_clis() -> None:
    """The tools' integer bounds and defaults are the CLI options' (one home: core.bounds)."""
    from project_corpus.adapters.cli import context_commands
    from project_corpus.adapters.mcp_server import server as mcp_server
    from project_corpus.core.bounds import BOUNDS
    from project_corpus.retrieval import bundle
    from project_corpus.retrieval import rank

    def cli_option(command: click.Command, name: str) -> click.Parameter:
        return next(p for p in command.params if p.name == name)

    for tool, key, command, (low, high) in (
        (
            "corpus.context_query",
            "limit",
            context_commands.query,
            (BOUNDS.limit.low, BOUNDS.limit.high),
        ),
        (
            "corpus.context_bundle",
            "max_tokens",
            context_commands.bundle,
            (BOUNDS.max_tokens.low, BOUNDS.max_tokens.high),
        ),
    ):
        schema = mcp_server.tool_definition(tool).input_schema["properties"][key]
        option = cli_option(command, key)
        assert (schema["minimum"], schema["maximum"]) == (low, high)
        assert str(schema["default"]) == option.default
        assert f"{low}..{high} (default {schema['default']})" in str(getattr(option, "help", ""))
    assert rank.check_limit(BOUNDS.limit.default) == BOUNDS.limit.default
    assert bundle.check_budget(BOUNDS.max_tokens.default) == BOUNDS.max_tokens.default


# --- in-process server (the same handlers, the SDK's in-memory client) ---------------------


@pytest.mark.slow
def test_in_process_tools_and_internal_errors(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp import Client

    from project_corpus.adapters.mcp_server import server as mcp_server
    from project_corpus.adapters.mcp_server import tools as mcp_tools
    from project_corpus.corpus.candidate import validate_candidate
    from project_corpus.corpus.snapshot import collect
    from project_corpus.retrieval.bundle import compile_bundle

    session, _ = mcp_server.start_session(str(example), str(grant_file(example)), frozenset(BOTH))
    corpus = collect(example)
    expected_bundle = compile_bundle(corpus, "rollback drill", 300)
    expected_candidate = validate_candidate(corpus, candidate(example))

    def broken(space: object, args: object) -> dict[str, object]:
        raise KeyError("a bug")

    async def main() -> None:
        async with Client(mcp_server.build_server(session)) as client:
            arguments = {"query": "rollback drill", "max_tokens": 300}
            bundle = result_of(await client.call_tool("corpus_context_bundle", arguments))
            data = dict(bundle.structured_content or {})
            assert data.pop("created_at")
            assert data == {k: v for k, v in expected_bundle.items() if k != "created_at"}
            arguments = {"candidate": candidate(example)}
            valid = result_of(await client.call_tool("corpus_candidate_validate", arguments))
            assert valid.structured_content == expected_candidate
            spec = mcp_tools.TOOLS["corpus.context_doctor"]
            monkeypatch.setitem(mcp_tools.TOOLS, "corpus.context_doctor", spec._replace(run=broken))
            bug = result_of(await client.call_tool("corpus_context_doctor", {}))
            assert error_code(bug) == "INTERNAL_ERROR"
            assert "KeyError" in (bug.structured_content or {})["detail"]

    anyio.run(main)


@pytest.mark.slow
def test_in_process_handlers_follow_policy_drift(example: Path) -> None:
    from mcp import Client
    from mcp import MCPError

    from project_corpus.adapters.mcp_server import server as mcp_server

    session, effective = mcp_server.start_session(
        str(example), str(grant_file(example)), frozenset(BOTH)
    )
    assert effective == frozenset(BOTH)
    original = (example / POLICY).read_bytes()

    async def main() -> None:
        async with Client(mcp_server.build_server(session)) as client:
            listed = await client.list_tools(cache_mode="bypass")
            assert [t.name for t in listed.tools] == TOOL_NAMES
            ok = result_of(await client.call_tool("corpus_context_query", {"query": "eviction"}))
            assert ok.is_error is False
            bad = await client.call_tool("corpus_context_query", {"query": "x", "limit": 0})
            assert error_code(result_of(bad)) == "QUERY_LIMIT"
            with pytest.raises(MCPError):
                await client.call_tool("corpus_context_write", {})
            _drift(example)
            assert (await client.list_tools(cache_mode="bypass")).tools == []
            denied = await client.call_tool("corpus_context_doctor", {})
            assert error_code(result_of(denied)) == "TRUST_POLICY_DRIFT"
            (example / POLICY).write_bytes(original)  # the approved bytes again: allowed again
            again = await client.call_tool("corpus_context_doctor", {})
            assert result_of(again).is_error is False

    anyio.run(main)


# --- stdio sessions (a real subprocess, the SDK's stdio client) ----------------------------


@pytest.mark.slow
def test_stdio_session_matches_cli_and_writes_nothing(
    example: Path, cli: CLI, tmp_path: Path
) -> None:
    from project_corpus.corpus.candidate import validate_candidate
    from project_corpus.corpus.snapshot import collect

    grant = grant_file(example)
    assert cli("context", "build", example).code == 0  # the CLI's query and bundle need it
    query_out = cli("context", "query", example, "eviction policy canary", "--limit", "7").out
    bundle_out = cli("context", "bundle", example, "eviction benchmark", "--max-tokens", "400")
    doctor_out = cli("context", "doctor", example).out
    good = candidate(example)
    expected_candidate = json.loads(json.dumps(validate_candidate(collect(example), good)))
    before = tree_state(example)
    original_policy = (example / POLICY).read_bytes()

    async def script(s: ClientSession) -> dict[str, Any]:
        from mcp import MCPError

        seen: dict[str, Any] = {"tools": (await s.list_tools()).tools}
        calls: dict[str, tuple[str, dict[str, Any]]] = {
            "query": ("corpus_context_query", {"query": "eviction policy canary", "limit": 7}),
            "bundle": ("corpus_context_bundle", {"query": "eviction benchmark", "max_tokens": 400}),
            "doctor": ("corpus_context_doctor", {}),
            "candidate": ("corpus_candidate_validate", {"candidate": good}),
            "foreign": ("corpus_candidate_validate", {"candidate": candidate(example, "other")}),
            "extra": ("corpus_context_query", {"query": "eviction", "index": "x.sqlite3"}),
            "type": ("corpus_context_query", {"query": "eviction", "limit": "7"}),
            "empty": ("corpus_context_query", {"query": " ?! "}),
            "long": ("corpus_context_query", {"query": "eviction " * 120_000}),
            "long_bundle": ("corpus_context_bundle", {"query": "x" * 4097}),
            "budget": ("corpus_context_bundle", {"query": "eviction", "max_tokens": 79}),
        }
        for key, (name, arguments) in calls.items():
            seen[key] = result_of(await s.call_tool(name, arguments))
        with pytest.raises(MCPError) as info:
            await s.call_tool("corpus_context_build", {})
        seen["unknown"] = info.value.code
        seen["tree"] = tree_state(example)
        _drift(example)
        seen["drift_tools"] = (await s.list_tools()).tools
        seen["drift"] = result_of(await s.call_tool("corpus_context_query", {"query": "eviction"}))
        (example / POLICY).write_bytes(original_policy)
        return seen

    seen = run_stdio(example, grant, BOTH, tmp_path / "stderr.txt", script)

    tools = {tool.name: tool for tool in seen["tools"]}
    assert sorted(tools) == sorted(TOOL_NAMES)
    assert all(tool.annotations.read_only_hint for tool in tools.values())
    for key in ("query", "bundle", "doctor", "candidate"):
        assert seen[key].is_error is False, seen[key].content
    assert seen["query"].content[0].text == query_out
    mcp_bundle = dict(seen["bundle"].structured_content)
    cli_bundle = json.loads(bundle_out.out)
    assert mcp_bundle.pop("created_at")
    assert cli_bundle.pop("created_at")
    assert mcp_bundle == cli_bundle
    assert seen["doctor"].content[0].text == doctor_out
    assert seen["candidate"].structured_content == expected_candidate
    assert error_code(seen["foreign"]) == "CANDIDATE_PROJECT"
    assert error_code(seen["extra"]) == "MCP_ARGUMENTS"
    assert error_code(seen["type"]) == "MCP_ARGUMENTS"
    assert error_code(seen["empty"]) == "QUERY_EMPTY"
    assert error_code(seen["long"]) == "QUERY_INVALID"
    assert error_code(seen["long_bundle"]) == "QUERY_INVALID"
    assert error_code(seen["budget"]) == "BUDGET_INVALID"
    assert seen["unknown"] == -32602
    assert seen["tree"] == before  # nothing written: no index, no cache, no audit
    assert seen["drift_tools"] == []
    assert error_code(seen["drift"]) == "TRUST_POLICY_DRIFT"
    stderr = (tmp_path / "stderr.txt").read_text(encoding="utf-8")
    assert "Traceback" not in stderr
    assert "project-corpus mcp: INFO serving" in stderr


@pytest.mark.slow
def test_started_from_slash_with_only_trust_and_allow(example: Path, tmp_path: Path) -> None:
    """What a client's config does: no --root, no cwd of the project."""
    grant = grant_file(example)
    args = ["mcp", "--trust", str(grant), "--allow", "mcp.stdio", "--allow", "corpus.context"]

    async def script(s: ClientSession) -> tuple[list[str], bool]:
        names = [tool.name for tool in (await s.list_tools()).tools]
        doctor = result_of(await s.call_tool("corpus_context_doctor", {}))
        return names, bool(doctor.is_error)

    names, is_error = run_stdio(example, grant, BOTH, tmp_path / "err.txt", script, args, "/")
    assert names == TOOL_NAMES
    assert all(PORTABLE_NAME.match(name) for name in names)
    assert is_error is False


def _raw_session(root: Path, grant: Path, allow: tuple[str, ...]) -> tuple[list[Any], str]:
    """Send JSON-RPC lines as a classic (2025-06-18) client would; return all stdout lines."""
    messages: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw-test", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "corpus_context_query", "arguments": {"query": "eviction"}},
        },
    ]
    argv = [sys.executable, "-m", "project_corpus", *mcp_args(root, grant, allow)]
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    replies: list[dict[str, Any]] = []
    try:
        for message in messages:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            while "id" in message and (not replies or replies[-1].get("id") != message["id"]):
                replies.append(json.loads(proc.stdout.readline()))  # await the answer
        rest, stderr = proc.communicate()  # closes stdin: the server exits
        replies.extend(json.loads(line) for line in rest.splitlines())
    finally:
        watchdog.cancel()
    assert proc.returncode == 0, stderr
    return replies, stderr


@pytest.mark.slow
def test_session_without_corpus_context_lists_no_tool(example: Path) -> None:
    before = tree_state(example)
    replies, stderr = _raw_session(example, grant_file(example), ("mcp.stdio",))
    assert all(reply["jsonrpc"] == "2.0" for reply in replies)  # stdout: protocol lines only
    by_id = {reply["id"]: reply for reply in replies}
    assert sorted(by_id) == [1, 2, 3]
    assert by_id[1]["result"]["serverInfo"]["name"] == "project-corpus"
    assert by_id[2]["result"]["tools"] == []
    denied = by_id[3]["result"]
    assert denied["isError"] is True
    assert denied["structuredContent"]["error"] == "TRUST_DENIED"
    assert "session --allow" in denied["structuredContent"]["detail"]
    assert "Traceback" not in stderr
    assert tree_state(example) == before
