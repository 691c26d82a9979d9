"""Without the [lsp] extra, `project-corpus lsp` is a stable error with an install hint."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.mcp_server.test_mcp_server import BLOCK_IMPORTS


@pytest.mark.parametrize("blocked", [("pygls",), ("lsprotocol",)])
def test_missing_extra_is_lsp_unavailable(blocked: tuple[str, ...]) -> None:
    code = f"BLOCKED = {blocked!r}\n{BLOCK_IMPORTS}"
    argv = [sys.executable, "-c", code, "lsp", "--stdio"]
    proc = subprocess.run(
        argv, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    envelope = json.loads(proc.stderr)
    assert envelope["error"] == "LSP_UNAVAILABLE"
    assert envelope["detail"].startswith("`project-corpus lsp` needs the optional [lsp] extra")
    assert envelope["hint"] == (
        "install the [lsp] extra: pip install 'project-corpus-context[lsp] @ "
        "git+https://github.com/corpus-tools/project-corpus-context'"
    )
