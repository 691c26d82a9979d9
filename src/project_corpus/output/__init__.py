"""Pure renderers of a doctor / candidate-validate report (SPEC §8).

`RENDERERS` is the registry: format name -> function(report) -> text.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping

from project_corpus.errors import ContextError
from project_corpus.output import github
from project_corpus.output import json_
from project_corpus.output import sarif
from project_corpus.output import text

Renderer = Callable[[Mapping[str, object]], str]

RENDERERS: dict[str, Renderer] = {
    "json": json_.render,
    "text": text.render,
    "sarif": sarif.render,
    "github": github.render,
}


def render_report(report: Mapping[str, object], fmt: str) -> str:
    """REPORT as FMT (json, text, sarif or github)."""
    renderer = RENDERERS.get(fmt)
    if renderer is None:
        raise ContextError("USAGE_ERROR", f"unknown format {fmt!r}; one of: {', '.join(RENDERERS)}")
    return renderer(report)
