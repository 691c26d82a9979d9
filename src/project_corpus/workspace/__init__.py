"""The one front door (SPEC §12, docs/architecture.md): `Workspace`, the library entry that
the CLI, the MCP server and the language server each call once per request and render.

`door.py` holds the class; `warm.py` what a warm workspace keeps between calls.
"""

from __future__ import annotations

from project_corpus.workspace.door import Workspace

__all__ = ["Workspace"]
