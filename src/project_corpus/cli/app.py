"""The command line: parse options, call the library, render, return an exit code.

`main(argv) -> int` is the only place that writes to the terminal or maps results and
errors to exit codes (`errors.EXIT_CODES`): 0 ok, 1 findings, 2 a stable error (the JSON
envelope on stderr), 3 an internal error. Library modules are imported inside commands so that
`project-corpus --version` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from project_corpus import __version__
from project_corpus.about import ISSUES_URL
from project_corpus.cli import admin_commands
from project_corpus.cli import context_commands
from project_corpus.cli import lint_commands
from project_corpus.cli import scaffold_commands
from project_corpus.errors import EXIT_ERROR
from project_corpus.errors import EXIT_INTERNAL
from project_corpus.errors import EXIT_OK
from project_corpus.errors import ContextError
from project_corpus.errors import envelope
from project_corpus.errors import internal_error


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(
    __version__, "--version", prog_name="project-corpus", message="%(prog)s %(version)s"
)
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
@click.pass_obj
def cli(flags: dict[str, bool] | None, debug: bool) -> None:
    """Context Intelligence for a Project Corpus (Protocol V2)."""
    if flags is not None:  # `main` passes a dict to learn the parsed global flags
        flags["debug"] = debug


@cli.group()
def context() -> None:
    """Build, query and lint the non-authoritative context index."""


for _command in (
    context_commands.build,
    context_commands.query,
    context_commands.bundle,
    context_commands.receipt,
    lint_commands.doctor,
    lint_commands.candidate_validate,
    context_commands.eval_,
):
    context.add_command(_command)
for _command in (
    admin_commands.schema,
    admin_commands.trust,
    admin_commands.mcp,
    admin_commands.explain,
    scaffold_commands.init,
    scaffold_commands.new,
):
    cli.add_command(_command)


def _requested_format(argv: Sequence[str]) -> str:
    """The `--format` value on the command line ("auto" when none), lower case."""
    args = list(argv)
    for i, arg in enumerate(args):
        if arg.startswith("--format="):
            return arg.partition("=")[2].lower()
        if arg == "--format" and i + 1 < len(args):
            return args[i + 1].lower()
    return "auto"


def _text_errors(argv: Sequence[str]) -> bool:
    """Errors as `error[CODE]` lines: with `--format text`, or `auto` and stderr a terminal."""
    from project_corpus.cli.options import is_terminal

    fmt = _requested_format(argv)
    return fmt == "text" or (fmt == "auto" and is_terminal(sys.stderr))


def _report_error(error: dict[str, object], argv: Sequence[str]) -> None:
    from project_corpus.jsonio import pretty

    if _text_errors(argv):
        from project_corpus.cli.options import use_color
        from project_corpus.output.escape import terminal

        code, detail, hint = error["error"], str(error["detail"]), error["hint"]
        color = use_color(sys.stderr)
        label = click.style(f"error[{code}]", fg="red", bold=True) if color else f"error[{code}]"
        message = f"{label}: {terminal(detail)}" + (
            f"\n  hint: {terminal(str(hint))}" if hint else ""
        )
        click.echo(message, err=True, color=color)
    else:
        click.echo(pretty(error), err=True, nl=False)


def _usage_hint(exc: click.ClickException) -> str:
    """`see `project-corpus context query --help``: the failing command's own help."""
    ctx = getattr(exc, "ctx", None)
    path = ctx.command_path if isinstance(ctx, click.Context) else "project-corpus"
    return f"see `{path} --help`"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 findings, 2 error, 3 internal error)."""
    args = list(sys.argv[1:] if argv is None else argv)
    flags: dict[str, bool] = {}
    try:
        result = cli.main(args=args, prog_name="project-corpus", standalone_mode=False, obj=flags)
    except ContextError as exc:
        _report_error(exc.envelope(), args)
        return EXIT_ERROR
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        usage = envelope("USAGE_ERROR", exc.format_message(), _usage_hint(exc))
        _report_error(usage, args)
        return EXIT_ERROR
    except click.exceptions.Abort:
        _report_error(envelope("USAGE_ERROR", "aborted", None), args)
        return EXIT_ERROR
    except Exception as exc:  # the one broad handler: anything else is a bug
        if flags.get("debug"):
            import traceback

            traceback.print_exc()
        hint = f"this is a bug; rerun with --debug and report it at {ISSUES_URL}"
        _report_error(internal_error(exc, hint), args)
        return EXIT_INTERNAL
    return result if isinstance(result, int) else EXIT_OK
