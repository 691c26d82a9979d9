"""`python -m project_corpus`."""

from __future__ import annotations

from project_corpus.console import run

run()
