"""Options and output helpers shared by the commands.

`--format auto` (every command's default) is text when stdout is a terminal and JSON
otherwise, so scripts, hooks and CI keep the JSON contract. Colour follows the same rule,
never with `NO_COLOR` set and always with `FORCE_COLOR` (no-color.org, force-color.org).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from collections.abc import Mapping
from typing import TextIO
from typing import TypeVar

import click

from project_corpus.core.records import SEVERITIES
from project_corpus.corpus.layout import CACHE_DIR
from project_corpus.corpus.layout import DEFAULT_INDEX_NAME

Command = TypeVar("Command", bound=Callable[..., object])


def emit(text: str, color: bool | None = None) -> None:
    click.echo(text, nl=False, color=color)


def format_option(*choices: str) -> Callable[[Command], Command]:
    """`--format auto|CHOICES` (any case), default auto; `--output-format` is ruff's name."""
    return click.option(
        "--format",
        "--output-format",
        "fmt",
        type=click.Choice(("auto", *choices), case_sensitive=False),
        default="auto",
        show_default=True,
        help="Output format; auto = text on a terminal, json otherwise.",
    )


def output_option(what: str = "report") -> Callable[[Command], Command]:
    """`--output FILE` (ruff's `--output-file` too): write the report to FILE."""
    return click.option(
        "--output",
        "--output-file",
        "output",
        default=None,
        metavar="FILE",
        help=f"Write the {what} to FILE.",
    )


def emit_result(result: Mapping[str, object], fmt: str, view: str, root: str | None = None) -> None:
    """RESULT as JSON, or as its text VIEW (`output.views.VIEWS`) when FMT resolves to text;
    with ROOT (as given), the text's source paths are written from the current folder, as
    the doctor's are (JSON keeps them ROOT-relative)."""
    if resolve_format(fmt) == "text":
        from project_corpus.output.views import VIEWS

        shown = from_here(result, display_prefix(root)) if root is not None else result
        emit(VIEWS[view](shown))
    else:
        from project_corpus.core.jsonio import pretty

        emit(pretty(result))


def display_prefix(root: str) -> str:
    """ROOT as the command line named it, `/`-terminated, to put before a ROOT-relative path
    ("" for the current folder): `mem/.project-corpus/state/STATUS.md` opens from here."""
    shown = os.path.normpath(root)
    if shown == os.curdir:
        return ""
    return shown.replace(os.sep, "/").rstrip("/") + "/"


def from_here(result: Mapping[str, object], prefix: str) -> Mapping[str, object]:
    """RESULT with the `source_path` of its results, items and mandatory reads behind PREFIX
    (a copy; the result itself is never changed)."""
    if not prefix:
        return result

    def moved(entries: object) -> object:
        if not isinstance(entries, list):
            return entries
        return [
            {**entry, "source_path": prefix + str(entry["source_path"])}
            if isinstance(entry, Mapping) and "source_path" in entry
            else entry
            for entry in entries
        ]

    keys = ("results", "items", "mandatory_reads")
    return {key: moved(value) if key in keys else value for key, value in result.items()}


def resolve_format(fmt: str, output: str | None = None) -> str:
    """The concrete format of `--format FMT` (auto: text on a terminal; a file gets json)."""
    fmt = fmt.lower()
    if fmt != "auto":
        return fmt
    return "text" if output is None and is_terminal(sys.stdout) else "json"


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def use_color(stream: TextIO | None = None) -> bool:
    """Colour on STREAM (default stdout): never with NO_COLOR, always with FORCE_COLOR."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    return is_terminal(sys.stdout if stream is None else stream)


def remember_root(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """Record ROOT as given, so that an error's hint can name it (`cli.app.main`)."""
    flags = ctx.find_root().obj
    if isinstance(flags, dict) and value is not None:
        flags["root"] = value
    return value


def located(root: str | None) -> str:
    """ROOT as given; none given: the nearest folder at or above the current one that holds
    `.project-corpus/` (as git finds its repository), named from here and recorded for the
    hints of errors (`corpus.roots.found_upward`)."""
    if root is not None:
        return root
    from project_corpus.corpus.roots import found_upward

    root = found_upward()
    flags = click.get_current_context().find_root().obj
    if isinstance(flags, dict):
        flags["root"] = root
    return root


def root_arg(default: str | None = None) -> Callable[[Command], Command]:
    """The ROOT argument, which may be left out: with a DEFAULT (`init`: ".") it is that,
    else `located` finds it upward."""
    return click.argument(
        "root",
        type=click.Path(file_okay=False, path_type=str),
        default=default,
        required=False,
        callback=remember_root,
    )


def root_then(name: str) -> Callable[[Command], Command]:
    """`[ROOT] NAME`: two positional arguments of which the first may be left out (click
    cannot say so: both are optional to it and `shifted` tells them apart)."""

    def decorate(command: Command) -> Command:
        command = click.argument(name, required=False, metavar=name.upper())(command)
        root = click.argument("root", required=False, metavar="[ROOT]", callback=remember_root)
        return root(command)

    return decorate


def shifted(root: str | None, value: str | None, name: str) -> tuple[str, str]:
    """(ROOT, VALUE) of `[ROOT] NAME`: one argument given is NAME and ROOT is found upward
    (`located`); none is click's missing-argument usage error."""
    if value is None:
        ctx = click.get_current_context()
        if root is None:
            param = next(p for p in ctx.command.params if p.name == name)
            raise click.MissingParameter(ctx=ctx, param=param)
        flags = ctx.find_root().obj
        if isinstance(flags, dict):
            flags.pop("root", None)  # it was NAME, not ROOT
        return located(None), root
    return located(root), value


index_option = click.option(
    "--index",
    "index",
    default=None,
    metavar="PATH",
    help=f"Index file inside ROOT/{CACHE_DIR}/ (default: {DEFAULT_INDEX_NAME}).",
)


def fail_on_option() -> Callable[[Command], Command]:
    return click.option(
        "--fail-on",
        "fail_on",
        type=click.Choice(SEVERITIES, case_sensitive=False),
        default="FAIL",
        help="Lowest severity that makes the run fail (default FAIL).",
    )


def write_output(root: str, text: str, output: str | None, color: bool | None = None) -> None:
    """TEXT to stdout, or to OUTPUT (never inside ROOT's corpus, never through a link)."""
    if output is None:
        emit(text, color)
        return
    from project_corpus.adapters.cli.outfile import write_report_file

    write_report_file(root, output, text)
