"""project-corpus: Context Intelligence for a Project Corpus (Protocol V2)."""

from __future__ import annotations

__version__ = "0.1.0"
