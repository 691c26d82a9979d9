"""Commands outside `context`: schema, trust grants and the MCP server."""

from __future__ import annotations

import click

from project_corpus.adapters.cli.examples import epilog
from project_corpus.adapters.cli.options import emit
from project_corpus.adapters.cli.options import emit_result
from project_corpus.adapters.cli.options import format_option
from project_corpus.adapters.cli.options import located
from project_corpus.adapters.cli.options import remember_root
from project_corpus.adapters.cli.options import resolve_format
from project_corpus.adapters.cli.options import root_arg
from project_corpus.core.about import MCP_INSTALL_HINT
from project_corpus.core.errors import EXIT_FINDINGS
from project_corpus.core.errors import EXIT_OK
from project_corpus.core.errors import ContextError
from project_corpus.core.formats import EXPLAIN_FORMATS
from project_corpus.core.formats import RESULT_FORMATS


@click.command(epilog=epilog("schema"))
@click.argument("name", required=False)
def schema(name: str | None) -> int:
    """Print a shipped JSON Schema (without NAME: list them)."""
    from project_corpus.core.schemas import schema_names
    from project_corpus.core.schemas import schema_text

    emit(schema_text(name) if name else "".join(f"{n}\n" for n in schema_names()))
    return EXIT_OK


@click.group(epilog=epilog("trust"))
def trust() -> None:
    """Trust grants: what an external runtime may do with a project (for MCP)."""


@trust.command(epilog=epilog("trust grant"))
@root_arg()
@click.option(
    "--capability",
    "capabilities",
    multiple=True,
    required=True,
    metavar="NAME",
    help="A capability to grant (repeatable).",
)
@click.option("--transport", "transports", multiple=True, default=("stdio-mcp",), show_default=True)
@click.option(
    "--out",
    "out",
    default=None,
    metavar="PATH",
    help="Grant file (default under $XDG_CONFIG_HOME).",
)
@format_option(*RESULT_FORMATS)
def grant(
    root: str | None,
    capabilities: tuple[str, ...],
    transports: tuple[str, ...],
    out: str | None,
    fmt: str,
) -> int:
    """Grant capabilities to ROOT; the grant is written outside the project."""
    from project_corpus.adapters.mcp_server import trust as trust_mod

    granted = trust_mod.grant(located(root), list(capabilities), tuple(transports), out)
    emit_result(granted, fmt, "fields")
    return EXIT_OK


@trust.command(epilog=epilog("trust show"))
@root_arg()
@click.option(
    "--grant", "grant_path", default=None, metavar="PATH", help="Grant file (default location)."
)
@format_option(*RESULT_FORMATS)
def show(root: str | None, grant_path: str | None, fmt: str) -> int:
    """Show the trust grant for ROOT and its effective capabilities."""
    from project_corpus.adapters.mcp_server import trust as trust_mod

    result = trust_mod.show(located(root), grant_path)
    emit_result(result, fmt, "fields")
    return EXIT_OK if result["ok"] else EXIT_FINDINGS  # a grant that denies: exit 1


@click.command(epilog=epilog("mcp"))
@click.option(
    "--root",
    "root",
    default=None,
    metavar="PATH",
    callback=remember_root,
    help="Project root (default: the grant's root).",
)
@click.option("--trust", "grant_path", required=True, metavar="GRANT", help="Trust grant file.")
@click.option(
    "--allow", "allow", multiple=True, metavar="CAPABILITY", help="Session capability (repeatable)."
)
@click.option(
    "--tool-names",
    "naming",
    type=click.Choice(["portable", "protocol"], case_sensitive=False),
    default="portable",
    show_default=True,
    help="portable: corpus_context_query...; protocol: the dotted corpus.context_query...",
)
def mcp(root: str | None, grant_path: str, allow: tuple[str, ...], naming: str) -> int:
    """Serve the corpus over stdio MCP (optional extra `project-corpus-context[mcp]`)."""
    try:
        from project_corpus.adapters.mcp_server.server import serve
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in ("mcp", "mcp_types", "anyio"):  # SDK + its deps
            raise ContextError(
                "MCP_UNAVAILABLE",
                f"`project-corpus mcp` needs the optional [mcp] extra, which is not installed "
                f"(missing module {exc.name!r})",
                hint=MCP_INSTALL_HINT,
            ) from None
        raise
    serve(root, grant_path, frozenset(allow), naming.lower())
    return EXIT_OK


@click.command(epilog=epilog("explain"))
@click.argument("code", required=False)
@format_option(*EXPLAIN_FORMATS)
def explain(code: str | None, fmt: str) -> int:
    """Explain a code: a doctor check's documentation, or an error code's meaning and hint
    (without CODE: list every check)."""
    from project_corpus.core.jsonio import pretty
    from project_corpus.doctor import CHECKS
    from project_corpus.doctor.explain import explain as explain_code
    from project_corpus.doctor.explain import explain_text

    if code is None:
        rows = [{"code": c.code, "name": c.name, "severity": c.severity} for c in CHECKS]
        text = "".join(f"{r['code']:<30} {r['severity']:<5} {r['name']}\n" for r in rows)
        emit(text if resolve_format(fmt) == "text" else pretty({"checks": rows}))
        return EXIT_OK
    data = explain_code(code)
    emit(explain_text(data) if resolve_format(fmt) == "text" else pretty(data))
    return EXIT_OK
