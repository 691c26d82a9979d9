"""The command line: parse options, call the library, render, return an exit code.

`main(argv) -> int` is the only place that writes to the terminal or maps results and
errors to exit codes: 0 ok, 1 findings, 2 a stable error (JSON envelope on stderr),
3 an internal error. Library modules are imported inside commands so that
`project-corpus --version` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from collections.abc import Sequence
from typing import TypeVar

import click

from project_corpus import __version__
from project_corpus.errors import ContextError

Command = TypeVar("Command", bound=Callable[..., object])

ISSUES_URL = "https://github.com/project-corpus/project-corpus/issues"
FORMATS = ("json", "text", "sarif", "github")


def _emit(text: str) -> None:
    click.echo(text, nl=False)


def _root_arg() -> Callable[[Command], Command]:
    return click.argument("root", type=click.Path(file_okay=False, path_type=str))


index_option = click.option(
    "--index",
    "index",
    default=None,
    metavar="PATH",
    help="Index file inside ROOT/.project-corpus/cache/ (default: context.sqlite3).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(
    __version__, "--version", prog_name="project-corpus", message="%(prog)s %(version)s"
)
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
def cli(debug: bool) -> None:
    """Context Intelligence for a Project Corpus (Protocol V2)."""


@cli.group()
def context() -> None:
    """Build, query and lint the non-authoritative context index."""


@context.command()
@_root_arg()
@index_option
def build(root: str, index: str | None) -> int:
    """Build the provenance-only SQLite index of ROOT's scoped sources."""
    from project_corpus import fs
    from project_corpus.index import build_index
    from project_corpus.index import prepare_index_path
    from project_corpus.jsonio import pretty
    from project_corpus.snapshot import collect

    root_path = fs.resolve_root(root)
    prepare_index_path(root_path, index)
    _emit(pretty(build_index(collect(root_path), index)))
    return 0


@context.command()
@_root_arg()
@click.argument("query")
@index_option
@click.option("--limit", default="20", metavar="N", help="Maximum results, 1..100 (default 20).")
def query(root: str, query: str, index: str | None, limit: str) -> int:
    """Ranked pointers into ROOT's sources for QUERY (index must be current)."""
    from project_corpus.index import load_verified
    from project_corpus.jsonio import pretty
    from project_corpus.retrieval import check_limit
    from project_corpus.retrieval import check_query
    from project_corpus.retrieval import query_index

    check_limit(limit)
    check_query(query)
    _emit(pretty(query_index(load_verified(root, index), query, int(limit))))
    return 0


@context.command()
@_root_arg()
@click.argument("query")
@index_option
@click.option(
    "--max-tokens",
    "max_tokens",
    default="1200",
    metavar="N",
    help="Excerpt token budget, 80..20000 (default 1200).",
)
def bundle(root: str, query: str, index: str | None, max_tokens: str) -> int:
    """Compile a token-budgeted, hash-stamped Context Bundle v1 for QUERY."""
    from project_corpus.bundle import check_budget
    from project_corpus.bundle import compile_bundle
    from project_corpus.index import load_verified
    from project_corpus.jsonio import pretty
    from project_corpus.retrieval import check_query

    budget = check_budget(max_tokens)
    check_query(query)
    _emit(pretty(compile_bundle(load_verified(root, index), query, budget)))
    return 0


@context.command()
@_root_arg()
@click.option(
    "--bundle", "bundle_file", required=True, metavar="FILE", help="Bundle JSON file inside ROOT."
)
@click.option("--consumer", required=True, metavar="ID", help="Who the bundle was delivered to.")
@click.option(
    "--item", "items", multiple=True, metavar="ID", help="A delivered item ID (default: all)."
)
def receipt(root: str, bundle_file: str, consumer: str, items: tuple[str, ...]) -> int:
    """Make a Receipt v1 recording that a bundle was delivered."""
    from project_corpus import fs
    from project_corpus.jsonio import load_json_input
    from project_corpus.jsonio import pretty
    from project_corpus.receipt import make_receipt

    _, data = load_json_input(fs.resolve_root(root), bundle_file)
    _emit(pretty(make_receipt(data, consumer, list(items) or None)))
    return 0


def _fail_on_option() -> Callable[[Command], Command]:
    return click.option(
        "--fail-on",
        "fail_on",
        type=click.Choice(["FAIL", "WARN"]),
        default="FAIL",
        help="Lowest severity that makes the run fail (default FAIL).",
    )


@context.command()
@_root_arg()
@index_option
@click.option(
    "--bundle", "bundle_file", default=None, metavar="FILE", help="Also check this bundle JSON."
)
@click.option(
    "--candidate", "candidates", multiple=True, metavar="FILE", help="Also check candidate files."
)
@click.option("--config", "config", default=None, metavar="FILE", help="Lint configuration (YAML).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="json", help="Output format.")
@click.option("--output", "output", default=None, metavar="FILE", help="Write the report to FILE.")
@_fail_on_option()
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings fail the run.")
def doctor(
    root: str,
    index: str | None,
    bundle_file: str | None,
    candidates: tuple[str, ...],
    config: str | None,
    fmt: str,
    output: str | None,
    fail_on: str,
    exit_zero: bool,
) -> int:
    """Memory Doctor: lint ROOT's corpus (and index, bundle, candidates). Never repairs."""
    from project_corpus.doctor import memory_doctor
    from project_corpus.output import render_report

    report = memory_doctor(
        root,
        index=index,
        check_index=index is not None,
        bundle=bundle_file,
        candidates=list(candidates),
        config=config,
        fail_on=fail_on,
    )
    _write(render_report(report, fmt), output)
    return 0 if report["ok"] or exit_zero else 1


@context.command(name="candidate-validate")
@_root_arg()
@click.argument("files", nargs=-1)
@click.option(
    "--input", "inputs", multiple=True, metavar="FILE", help="A candidate JSON file (repeatable)."
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="json", help="Output format.")
@click.option("--output", "output", default=None, metavar="FILE", help="Write the report to FILE.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when a candidate is invalid.")
def candidate_validate(
    root: str,
    files: tuple[str, ...],
    inputs: tuple[str, ...],
    fmt: str,
    output: str | None,
    exit_zero: bool,
) -> int:
    """Lint proposed memory candidates (default: .project-corpus/candidates/*.json)."""
    from project_corpus.candidate import lint_candidates
    from project_corpus.output import render_report

    report = lint_candidates(root, [*inputs, *files])
    _write(render_report(report, fmt), output)
    return 0 if report["ok"] or exit_zero else 1


@context.command(name="eval")
@_root_arg()
@index_option
@click.option(
    "--dataset", required=True, metavar="FILE", help="CorpusEval v1 dataset JSON inside ROOT."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "markdown"]),
    default="json",
    help="Output format.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when a case fails.")
def eval_(root: str, index: str | None, dataset: str, fmt: str, exit_zero: bool) -> int:
    """Offline retrieval and bundle evaluation (CorpusEval v1), no LLM judge."""
    from project_corpus.evaluate import render_eval
    from project_corpus.evaluate import run_eval

    result = run_eval(root, index, dataset)
    _emit(render_eval(result, fmt))
    return 0 if result["ok"] or exit_zero else 1


@cli.command()
@click.argument("name", required=False)
def schema(name: str | None) -> int:
    """Print a shipped JSON Schema (without NAME: list them)."""
    from project_corpus.schemas import schema_names
    from project_corpus.schemas import schema_text

    _emit(schema_text(name) if name else "".join(f"{n}\n" for n in schema_names()))
    return 0


@cli.group()
def trust() -> None:
    """Trust grants: what an external runtime may do with a project (for MCP)."""


@trust.command()
@_root_arg()
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
def grant(
    root: str, capabilities: tuple[str, ...], transports: tuple[str, ...], out: str | None
) -> int:
    """Grant capabilities to ROOT; the grant is written outside the project."""
    from project_corpus import trust as trust_mod
    from project_corpus.jsonio import pretty

    _emit(pretty(trust_mod.grant(root, list(capabilities), tuple(transports), out)))
    return 0


@trust.command()
@_root_arg()
@click.option(
    "--grant", "grant_path", default=None, metavar="PATH", help="Grant file (default location)."
)
def show(root: str, grant_path: str | None) -> int:
    """Show the trust grant for ROOT and its effective capabilities."""
    from project_corpus import trust as trust_mod
    from project_corpus.jsonio import pretty

    _emit(pretty(trust_mod.show(root, grant_path)))
    return 0


@cli.command()
@click.option("--root", "root", default=".", show_default=True, help="Project root.")
@click.option("--trust", "grant_path", required=True, metavar="GRANT", help="Trust grant file.")
@click.option(
    "--allow", "allow", multiple=True, metavar="CAPABILITY", help="Session capability (repeatable)."
)
def mcp(root: str, grant_path: str, allow: tuple[str, ...]) -> int:
    """Serve the corpus over stdio MCP (optional extra `project-corpus[mcp]`)."""
    try:
        from project_corpus.mcp_server import serve
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in ("mcp", "mcp_types", "anyio"):  # SDK + its deps
            raise ContextError(
                "MCP_UNAVAILABLE",
                f"the `mcp` SDK is not installed (no module named {exc.name!r})",
                hint="pip install 'project-corpus[mcp]'",
            ) from None
        raise
    serve(root, grant_path, frozenset(allow))
    return 0


def _write(text: str, output: str | None) -> None:
    if output is None:
        _emit(text)
        return
    try:
        with open(output, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as exc:
        raise ContextError("OUTPUT_PATH", f"{output}: {exc.strerror or exc}") from None


def _text_errors(argv: Sequence[str]) -> bool:
    args = list(argv)
    return any(a == "--format=text" for a in args) or any(
        a == "--format" and i + 1 < len(args) and args[i + 1] == "text" for i, a in enumerate(args)
    )


def _report_error(code: str, detail: str, hint: str | None, argv: Sequence[str]) -> None:
    from project_corpus.jsonio import pretty

    if _text_errors(argv):
        message = f"error[{code}]: {detail}" + (f"\n  hint: {hint}" if hint else "")
        click.echo(message, err=True)
    else:
        envelope = {"ok": False, "error": code, "detail": detail, "hint": hint}
        click.echo(pretty(envelope), err=True, nl=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 findings, 2 error, 3 internal error)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        result = cli.main(args=args, prog_name="project-corpus", standalone_mode=False)
    except ContextError as exc:
        _report_error(exc.code, exc.detail, exc.hint, args)
        return 2
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        _report_error("USAGE_ERROR", exc.format_message(), "see `project-corpus --help`", args)
        return 2
    except click.exceptions.Abort:
        _report_error("USAGE_ERROR", "aborted", None, args)
        return 2
    except Exception as exc:  # the one broad handler: anything else is a bug
        if "--debug" in args:
            import traceback

            traceback.print_exc()
        _report_error(
            "INTERNAL_ERROR",
            f"{type(exc).__name__}: {exc}",
            f"this is a bug; rerun with --debug and report it at {ISSUES_URL}",
            args,
        )
        return 3
    return result if isinstance(result, int) else 0
