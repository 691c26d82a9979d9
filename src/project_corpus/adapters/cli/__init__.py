"""The command line (a thin click shell over the library)."""

from __future__ import annotations

from project_corpus.adapters.cli.app import main

__all__ = ["main"]
