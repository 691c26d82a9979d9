"""Options and output helpers shared by the commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from project_corpus.errors import ContextError

Command = TypeVar("Command", bound=Callable[..., object])


FORMATS = ("json", "text", "sarif", "github")


def emit(text: str) -> None:
    click.echo(text, nl=False)


def root_arg() -> Callable[[Command], Command]:
    return click.argument("root", type=click.Path(file_okay=False, path_type=str))


index_option = click.option(
    "--index",
    "index",
    default=None,
    metavar="PATH",
    help="Index file inside ROOT/.project-corpus/cache/ (default: context.sqlite3).",
)


def fail_on_option() -> Callable[[Command], Command]:
    return click.option(
        "--fail-on",
        "fail_on",
        type=click.Choice(["FAIL", "WARN"]),
        default="FAIL",
        help="Lowest severity that makes the run fail (default FAIL).",
    )


def write_output(text: str, output: str | None) -> None:
    if output is None:
        emit(text)
        return
    try:
        with open(output, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as exc:
        raise ContextError("OUTPUT_PATH", f"{output}: {exc.strerror or exc}") from None
