"""The JSON report: the CLI's JSON (sorted keys, indent 2, UTF-8 unescaped)."""

from __future__ import annotations

from collections.abc import Mapping

from project_corpus.core.jsonio import pretty


def render(report: Mapping[str, object]) -> str:
    return pretty(dict(report))
