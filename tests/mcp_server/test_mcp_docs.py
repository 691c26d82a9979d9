"""The client snippets in docs/mcp.md parse, and their arguments are the `mcp` command's own."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

from project_corpus.adapters.cli.admin_commands import mcp

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"
FENCE_RE = re.compile(
    r"^\*\*(?P<client>[^*]+)\*\*[^\n]*\n\n```(?P<lang>\w+)\n(?P<body>.*?)^```", re.M | re.S
)
CLIENTS = ("Claude Desktop", "Claude Code", "VS Code", "Copilot CLI", "Cursor", "Codex")


def snippets() -> dict[str, tuple[str, str]]:
    section = DOC.read_text(encoding="utf-8").split("## 3. ", 1)[1].split("\n## ", 1)[0]
    return {m["client"]: (m["lang"], m["body"]) for m in FENCE_RE.finditer(section)}


def servers(lang: str, body: str) -> list[dict[str, Any]]:
    """Each server entry of a snippet as {command, args}."""
    if lang == "sh":
        argv = shlex.split(body.replace("\\\n", " "))
        command_at = argv.index("--") + 1
        return [{"command": argv[command_at], "args": argv[command_at + 1 :]}]
    data = tomllib.loads(body) if lang == "toml" else json.loads(body)
    tables = [data.get(key) for key in ("mcpServers", "servers", "mcp_servers")]
    table = next(t for t in tables if isinstance(t, dict))
    return list(table.values())


def test_every_common_client_has_a_snippet() -> None:
    found = snippets()
    for client in CLIENTS:
        assert any(client in name for name in found), client


@pytest.mark.parametrize("client", sorted(snippets()))
def test_snippet_starts_the_server_with_its_own_options(client: str) -> None:
    lang, body = snippets()[client]
    entries = servers(lang, body)
    assert len(entries) == 1
    entry = entries[0]
    assert entry["command"] == "project-corpus"
    assert entry.get("type", "stdio") in ("stdio", "local")
    args = entry["args"]
    assert args[0] == "mcp"
    ctx = mcp.make_context("mcp", list(args[1:]))  # unknown options raise here
    assert Path(ctx.params["grant_path"]).is_absolute()  # clients start servers anywhere
    assert sorted(ctx.params["allow"]) == ["corpus.context", "mcp.stdio"]
    assert ctx.params["root"] is None  # the grant's root: no cwd, no placeholder to edit
