"""Pure renderers of a doctor / candidate-validate report (docs/doctor.md).

`RENDERERS` is the registry: format name -> the module whose `render(report)` writes it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from collections.abc import Mapping
from typing import TYPE_CHECKING

from project_corpus.core.errors import ContextError
from project_corpus.core.formats import REPORT_RENDERERS

if TYPE_CHECKING:
    from project_corpus.output.text import TextOptions

Renderer = Callable[[Mapping[str, object]], str]

# format name -> the module (in this package) whose `render(report)` writes it
# (`core.formats`, the one registry of formats); a command imports only the renderer it uses.
RENDERERS: dict[str, str] = REPORT_RENDERERS


def render_report(
    report: Mapping[str, object], fmt: str, options: TextOptions | None = None
) -> str:
    """REPORT as FMT (json, text, sarif or github); OPTIONS shape the text format (and give
    the github format its path prefix)."""
    module = RENDERERS.get(fmt)
    if module is None:
        raise ContextError("USAGE_ERROR", f"unknown format {fmt!r}; one of: {', '.join(RENDERERS)}")
    if fmt == "text" and options is not None:
        from project_corpus.output import text

        return text.render(report, options)
    if fmt == "github" and options is not None:
        from project_corpus.output import github

        return github.render(report, options)
    render: Renderer = importlib.import_module(f"{__name__}.{module}").render
    return render(report)
