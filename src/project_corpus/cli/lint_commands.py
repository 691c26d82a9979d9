"""The linters: `context doctor` and `context candidate-validate`."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from project_corpus.cli.options import FORMATS
from project_corpus.cli.options import Command
from project_corpus.cli.options import display_prefix
from project_corpus.cli.options import fail_on_option
from project_corpus.cli.options import format_option
from project_corpus.cli.options import index_option
from project_corpus.cli.options import output_option
from project_corpus.cli.options import resolve_format
from project_corpus.cli.options import root_arg
from project_corpus.cli.options import use_color
from project_corpus.cli.options import write_output
from project_corpus.core.errors import EXIT_FINDINGS
from project_corpus.core.errors import EXIT_OK

if TYPE_CHECKING:
    from project_corpus.output.text import TextOptions

MAX_SOURCE_BYTES = 4 * 1024 * 1024


def source_lines(root: str) -> Callable[[str, int], str | None]:
    """(path, line) -> that line of ROOT/path, read confined to ROOT (None when unreadable)."""
    from project_corpus.core.errors import ContextError
    from project_corpus.corpus import fs

    resolved = fs.resolve_root(root)
    cache: dict[str, list[str]] = {}

    def lookup(path: str, line: int) -> str | None:
        if path not in cache:
            try:
                data = fs.read_relative(resolved, path, MAX_SOURCE_BYTES, code="SOURCE_LINK")
                cache[path] = text_lines(data)
            except (ContextError, OSError):
                cache[path] = []
        lines = cache[path]
        return lines[line - 1] if 0 < line <= len(lines) else None

    return lookup


def text_lines(data: bytes) -> list[str]:
    """DATA's lines when it is text (strict UTF-8 without NUL); none for a binary file such
    as a corrupt index, whose bytes are no "source line" to show."""
    if b"\0" in data:
        return []
    try:
        return data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return []


def text_options(
    root: str, show_source: bool = True, statistics: bool = False, quiet: bool = False
) -> TextOptions:
    """The text report's options: paths from the current folder (ROOT as given), each code's
    summary and fix from the check registry."""
    from project_corpus.doctor import CHECKS
    from project_corpus.output.text import RuleText
    from project_corpus.output.text import TextOptions

    rules = {check.code: RuleText(check.summary, with_root(check.fix, root)) for check in CHECKS}
    return TextOptions(
        show_source,
        statistics,
        quiet,
        use_color(),
        source_lines(root),
        prefix=display_prefix(root),
        rules=rules,
    )


def with_root(text: str, root: str) -> str:
    """TEXT with the `ROOT` of each `project-corpus …` command in it replaced by ROOT as
    given (a fix's command can then be copied and run as it is)."""
    if "ROOT" not in text:
        return text
    import re
    from shlex import quote

    shown = quote(os.path.normpath(root))
    command = re.compile(r"`project-corpus [^`]*`")
    return command.sub(lambda m: re.sub(r"\bROOT\b", shown, m.group(0)), text)


def report_options(root: str, fmt: str, output: str | None, **text: bool) -> TextOptions | None:
    """The options of the text format (none for a file: no colour), the github format's path
    prefix; None for json and sarif, whose paths stay ROOT-relative."""
    if fmt == "text":
        options = text_options(root, **text)
        return options._replace(color=False) if output is not None else options
    if fmt == "github":
        from project_corpus.output.text import TextOptions

        return TextOptions(prefix=display_prefix(root))
    return None


def _report(
    root: str, report: dict[str, object], fmt: str, output: str | None, **text: bool
) -> None:
    from project_corpus.output import render_report

    options = report_options(root, fmt, output, **text)
    color = options.color if options is not None and fmt == "text" else None
    write_output(root, render_report(report, fmt, options), output, color)


def _codes_option(name: str, help_text: str) -> Callable[[Command], Command]:
    return click.option(name, multiple=True, metavar="CODE[,CODE]", help=help_text)


@click.command()
@root_arg(default=".")
@index_option
@click.option(
    "--bundle", "bundle_file", default=None, metavar="FILE", help="Also check this bundle JSON."
)
@click.option(
    "--candidate", "candidates", multiple=True, metavar="FILE", help="Also check candidate files."
)
@click.option("--config", "config", default=None, metavar="FILE", help="Lint configuration (YAML).")
@click.option(
    "--baseline",
    "baseline",
    default=None,
    metavar="FILE",
    help="An earlier doctor JSON or SARIF report: report only findings it lacks.",
)
@_codes_option("--select", "Report only these checks (codes or names; repeatable).")
@_codes_option("--ignore", "Do not report these checks (codes or names; repeatable).")
@format_option(*FORMATS)
@output_option()
@fail_on_option()
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings fail the run.")
@click.option("--statistics", is_flag=True, help="Text: add a count per code.")
@click.option("-q", "--quiet", is_flag=True, help="Text: print findings only (no summary).")
@click.option(
    "--show-source/--no-show-source", default=True, help="Text: print each offending line."
)
@click.option(
    "--max-status-age",
    "max_status_age",
    type=click.IntRange(min=0),
    default=None,
    metavar="DAYS",
    help="Turn on STATUS_AGE: warn when STATUS was verified more than DAYS days ago.",
)
def doctor(
    root: str,
    index: str | None,
    bundle_file: str | None,
    candidates: tuple[str, ...],
    config: str | None,
    baseline: str | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    fmt: str,
    output: str | None,
    fail_on: str,
    exit_zero: bool,
    statistics: bool,
    quiet: bool,
    show_source: bool,
    max_status_age: int | None,
) -> int:
    """Memory Doctor: lint ROOT's corpus (and index, bundle, candidates). Never repairs."""
    from project_corpus.doctor import memory_doctor

    report = memory_doctor(
        root,
        index=index,
        check_index=index is not None,
        bundle=bundle_file,
        candidates=list(candidates),
        config=config,
        fail_on=fail_on.upper(),
        select=select,
        ignore=ignore,
        max_status_age=max_status_age,
        baseline=baseline,
    )
    fmt = resolve_format(fmt, output)
    text = {"show_source": show_source, "statistics": statistics, "quiet": quiet}
    _report(root, report, fmt, output, **text)
    return EXIT_OK if report["ok"] or exit_zero else EXIT_FINDINGS


@click.command(name="candidate-validate")
@root_arg()
@click.argument("files", nargs=-1)
@click.option(
    "--input", "inputs", multiple=True, metavar="FILE", help="A candidate JSON file (repeatable)."
)
@format_option(*FORMATS)
@output_option()
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
    from project_corpus.doctor.candidates import lint_candidates

    report = lint_candidates(root, [*inputs, *files])
    _report(root, report, resolve_format(fmt, output), output)
    return EXIT_OK if report["ok"] or exit_zero else EXIT_FINDINGS
