"""The command line: parse options, call the library, render, return an exit code.

`main(argv) -> int` is the only place that writes to the terminal or maps results and
errors to exit codes: 0 ok, 1 findings, 2 a stable error (JSON envelope on stderr),
3 an internal error. Library modules are imported inside commands so that
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
from project_corpus.errors import ContextError

FORMATS = ("json", "text", "sarif", "github")


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
):
    cli.add_command(_command)


def _text_errors(argv: Sequence[str]) -> bool:
    args = list(argv)
    return any(a == "--format=text" for a in args) or any(
        a == "--format" and i + 1 < len(args) and args[i + 1] == "text" for i, a in enumerate(args)
    )


def _report_error(code: str, detail: str, hint: str | None, argv: Sequence[str]) -> None:
    from project_corpus.jsonio import pretty

    if _text_errors(argv):
        from project_corpus.output.escape import terminal

        message = f"error[{code}]: {terminal(detail)}" + (
            f"\n  hint: {terminal(hint)}" if hint else ""
        )
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
