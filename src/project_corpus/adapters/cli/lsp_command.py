"""`project-corpus lsp`: the language server (optional extra `project-corpus[lsp]`,
docs/editors.md). The command only checks that the extra is there and hands off."""

from __future__ import annotations

import click

from project_corpus.adapters.cli.examples import epilog
from project_corpus.core.about import LSP_INSTALL_HINT
from project_corpus.core.errors import EXIT_OK
from project_corpus.core.errors import ContextError

# The extra's modules: pygls and what it brings (lsprotocol, cattrs, attrs).
EXTRA_MODULES = ("pygls", "lsprotocol", "cattrs", "attrs")


@click.command(epilog=epilog("lsp"))
@click.option(
    "--stdio", is_flag=True, help="Talk over stdin/stdout (the default; editors often pass it)."
)
def lsp(stdio: bool) -> int:
    """Serve diagnostics, quick fixes and links to editors over stdio (needs the [lsp] extra)."""
    try:
        from project_corpus.adapters.lsp.server import serve
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in EXTRA_MODULES:
            raise ContextError(
                "LSP_UNAVAILABLE",
                f"`project-corpus lsp` needs the optional [lsp] extra, which is not installed "
                f"(missing module {exc.name!r})",
                hint=LSP_INSTALL_HINT,
            ) from None
        raise
    serve()
    return EXIT_OK
