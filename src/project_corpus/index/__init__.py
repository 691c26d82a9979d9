"""The SQLite index: its tables (`schema`), and building, publishing, opening and verifying it
(`store`) (docs/architecture.md). Provenance only, never source text.
"""

from __future__ import annotations

from project_corpus.index.store import build_index
from project_corpus.index.store import open_index

__all__ = ["build_index", "open_index"]
