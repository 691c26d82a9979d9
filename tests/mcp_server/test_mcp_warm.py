"""A warm MCP session (docs/mcp.md, docs/performance.md "The warm path"): through the real SDK
stdio client, an edit, a new file, a deletion and a narrowed read scope between two calls are
each seen by the very next call, and every call's output equals the CLI's on the same tree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

import pytest

from tests.conftest import MakeCorpus
from tests.mcp_server.test_mcp_server import BOTH
from tests.mcp_server.test_mcp_server import CLI
from tests.mcp_server.test_mcp_server import error_code
from tests.mcp_server.test_mcp_server import grant_file
from tests.mcp_server.test_mcp_server import result_of
from tests.mcp_server.test_mcp_server import run_stdio
from tests.workspace.test_warm import QUERY
from tests.workspace.test_warm import SEEN
from tests.workspace.test_warm import STEPS
from tests.workspace.test_warm import change
from tests.workspace.test_warm import cli_outputs
from tests.workspace.test_warm import result_paths

if TYPE_CHECKING:
    from mcp import ClientSession


async def mcp_outputs(s: ClientSession) -> dict[str, object]:
    """The same calls as `cli_outputs`, over MCP (a bundle without `created_at`)."""
    query = result_of(await s.call_tool("corpus_context_query", {"query": QUERY, "limit": 8}))
    arguments = {"query": QUERY, "max_tokens": 400}
    bundle = result_of(await s.call_tool("corpus_context_bundle", arguments))
    doctor = result_of(await s.call_tool("corpus_context_doctor", {}))
    assert [query.is_error, bundle.is_error, doctor.is_error] == [False, False, False]
    bundle_data = json.loads(bundle.content[0].text)  # type: ignore[union-attr]
    bundle_data.pop("created_at")
    return {
        "query": query.content[0].text,  # type: ignore[union-attr]
        "bundle": bundle_data,
        "doctor": doctor.content[0].text,  # type: ignore[union-attr]
    }


@pytest.mark.slow
def test_each_change_is_seen_by_the_next_call_of_one_session(
    make_corpus: MakeCorpus, cli: CLI, tmp_path: Path
) -> None:
    root = make_corpus()
    grant = grant_file(root)

    async def script(s: ClientSession) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for step in STEPS:
            if step == "scope":
                change(root, step)  # a policy change ends the session's rights ...
                denied = result_of(await s.call_tool("corpus_context_doctor", {}))
                seen["drift"] = error_code(denied)
                grant_file(root)  # ... until the owner approves the new policy again
            elif step != "start":
                change(root, step)
            seen[step] = (await mcp_outputs(s), cli_outputs(cli, root))
        return seen

    seen = run_stdio(root, grant, BOTH, tmp_path / "stderr.txt", script)
    assert seen["drift"] == "TRUST_POLICY_DRIFT"
    for step in STEPS:
        got, expected = seen[step]
        assert got == expected, step
        present, absent = SEEN[step]
        paths = result_paths(got["query"])
        assert present <= paths, step
        assert not absent & paths, step
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text(encoding="utf-8")
