"""The command line: parse options, call the library, render, return an exit code.

`main(argv) -> int` is the only place that writes to the terminal or maps results and
errors to exit codes (`errors.EXIT_CODES`): 0 ok, 1 findings, 2 a stable error (the JSON
envelope on stderr), 3 an internal error. Library modules are imported inside commands so that
`project-corpus --version` stays fast.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click

from project_corpus.adapters.cli.examples import epilog
from project_corpus.core.about import ISSUES_URL
from project_corpus.core.about import __version__
from project_corpus.core.errors import EXIT_ERROR
from project_corpus.core.errors import EXIT_INTERNAL
from project_corpus.core.errors import EXIT_OK
from project_corpus.core.errors import ContextError
from project_corpus.core.errors import envelope
from project_corpus.core.errors import internal_error


class LazyGroup(click.Group):
    """A group whose subcommands are imported when first asked for (click's documented
    pattern for lazily loaded subcommands): `context doctor` imports the linters' module
    only, not every command's options and the modules they pull in. Listing the commands
    (help, a misspelt name's suggestions) imports them all, so help and errors are those of
    a group holding every command."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})  # name -> "module:attribute"

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            for name in [cmd_name] if cmd_name in self.lazy else sorted(self.lazy):
                self._load(name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        for name in sorted(self.lazy):
            self._load(name)
        return super().list_commands(ctx)

    def _load(self, name: str) -> None:
        if name in self.commands:
            return
        module, _, attribute = self.lazy[name].partition(":")
        command = getattr(importlib.import_module(module), attribute)
        self.add_command(command, name)


_CLI = "project_corpus.adapters.cli."


@click.group(
    cls=LazyGroup,
    epilog=epilog(""),
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    lazy={
        "schema": f"{_CLI}admin_commands:schema",
        "trust": f"{_CLI}admin_commands:trust",
        "mcp": f"{_CLI}admin_commands:mcp",
        "lsp": f"{_CLI}lsp_command:lsp",
        "explain": f"{_CLI}admin_commands:explain",
        "init": f"{_CLI}scaffold_commands:init",
        "new": f"{_CLI}scaffold_commands:new",
        "import": f"{_CLI}import_command:import_",
    },
)
@click.version_option(
    __version__, "--version", prog_name="project-corpus", message="%(prog)s %(version)s"
)
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
@click.pass_obj
def cli(flags: dict[str, object] | None, debug: bool) -> None:
    """Context Intelligence for a Project Corpus (Protocol V2)."""
    if flags is not None:  # `main` passes a dict to learn the parsed global flags
        flags["debug"] = debug


@cli.group(
    cls=LazyGroup,
    epilog=epilog("context"),
    lazy={
        "build": f"{_CLI}context_commands:build",
        "query": f"{_CLI}context_commands:query",
        "bundle": f"{_CLI}context_commands:bundle",
        "receipt": f"{_CLI}context_commands:receipt",
        "doctor": f"{_CLI}lint_commands:doctor",
        "candidate-validate": f"{_CLI}lint_commands:candidate_validate",
        "review": f"{_CLI}review_commands:review",
        "eval": f"{_CLI}context_commands:eval_",
    },
)
def context() -> None:
    """Build, query and lint the non-authoritative context index."""


def _requested_format(argv: Sequence[str]) -> str:
    """The `--format` value on the command line ("auto" when none), lower case."""
    args = list(argv)
    for i, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if name in ("--format", "--output-format"):
            if equals:
                return value.lower()
            if i + 1 < len(args):
                return args[i + 1].lower()
    return "auto"


def _text_errors(argv: Sequence[str]) -> bool:
    """Errors as `error[CODE]` lines: with `--format text`, or `auto` and stderr a terminal."""
    from project_corpus.adapters.cli.options import is_terminal

    fmt = _requested_format(argv)
    return fmt == "text" or (fmt == "auto" and is_terminal(sys.stderr))


def _report_error(error: dict[str, object], argv: Sequence[str]) -> None:
    from project_corpus.core.jsonio import pretty

    if _text_errors(argv):
        from project_corpus.adapters.cli.options import use_color
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
    flags: dict[str, object] = {}  # the parsed --debug, and ROOT as given (`remember_root`)
    try:
        result = cli.main(args=args, prog_name="project-corpus", standalone_mode=False, obj=flags)
    except ContextError as exc:
        root = flags.get("root")
        _report_error(exc.envelope(root if isinstance(root, str) else None), args)
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
