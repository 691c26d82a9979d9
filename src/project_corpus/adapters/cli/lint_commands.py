"""The linters: `context doctor` and `context candidate-validate`: arguments, one `Workspace`
call, a renderer. The text view's source lines come with the report (no file is read here)."""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Mapping
from typing import TYPE_CHECKING

import click

from project_corpus.adapters.cli.examples import epilog
from project_corpus.adapters.cli.options import Command
from project_corpus.adapters.cli.options import display_prefix
from project_corpus.adapters.cli.options import fail_on_option
from project_corpus.adapters.cli.options import format_option
from project_corpus.adapters.cli.options import index_option
from project_corpus.adapters.cli.options import located
from project_corpus.adapters.cli.options import output_option
from project_corpus.adapters.cli.options import remember_root
from project_corpus.adapters.cli.options import resolve_format
from project_corpus.adapters.cli.options import root_arg
from project_corpus.adapters.cli.options import use_color
from project_corpus.adapters.cli.options import write_output
from project_corpus.core.errors import EXIT_FINDINGS
from project_corpus.core.errors import EXIT_OK
from project_corpus.core.formats import REPORT_FORMATS

if TYPE_CHECKING:
    from project_corpus.output.text import SourceLine
    from project_corpus.output.text import TextOptions


def carried_lines(report: Mapping[str, object]) -> SourceLine:
    """(path, line) -> that line's text, from the lines the report carries (no file is read
    here: `Workspace.doctor(source_lines=True)` read them)."""
    carried = report.get("source_lines")
    lines = carried if isinstance(carried, Mapping) else {}

    def lookup(path: str, line: int) -> str | None:
        found = lines.get(path)
        return found.get(line) if isinstance(found, Mapping) else None

    return lookup


def text_options(
    root: str,
    report: Mapping[str, object],
    show_source: bool = True,
    statistics: bool = False,
    quiet: bool = False,
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
        carried_lines(report),
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


def report_options(
    root: str, report: Mapping[str, object], fmt: str, output: str | None, **text: bool
) -> TextOptions | None:
    """The options of the text format (none for a file: no colour), the github format's path
    prefix; None for json and sarif, whose paths stay ROOT-relative."""
    if fmt == "text":
        options = text_options(root, report, **text)
        return options._replace(color=False) if output is not None else options
    if fmt == "github":
        from project_corpus.output.text import TextOptions

        return TextOptions(prefix=display_prefix(root))
    return None


def _report(
    root: str, report: dict[str, object], fmt: str, output: str | None, **text: bool
) -> None:
    from project_corpus.output import render_report

    options = report_options(root, report, fmt, output, **text)
    color = options.color if options is not None and fmt == "text" else None
    write_output(root, render_report(report, fmt, options), output, color)


def _codes_option(name: str, help_text: str) -> Callable[[Command], Command]:
    return click.option(name, multiple=True, metavar="CODE[,CODE]", help=help_text)


@click.command(epilog=epilog("context doctor"))
@root_arg()
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
@format_option(*REPORT_FORMATS)
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
    root: str | None,
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
    from project_corpus.workspace import Workspace

    fmt = resolve_format(fmt, output)
    space = Workspace(located(root), index)
    report = space.doctor(
        check_index=index is not None,
        bundle=bundle_file,
        candidates=list(candidates),
        config=config,
        fail_on=fail_on.upper(),
        select=select,
        ignore=ignore,
        max_status_age=max_status_age,
        baseline=baseline,
        source_lines=fmt == "text",
    )
    text = {"show_source": show_source, "statistics": statistics, "quiet": quiet}
    _report(space.root.given, report, fmt, output, **text)
    return EXIT_OK if report["ok"] or exit_zero else EXIT_FINDINGS


@click.command(name="candidate-validate", epilog=epilog("context candidate-validate"))
@click.argument("root", required=False, metavar="[ROOT]", callback=remember_root)
@click.argument("files", nargs=-1, metavar="[FILE]...")
@click.option(
    "--input", "inputs", multiple=True, metavar="FILE", help="A candidate JSON file (repeatable)."
)
@format_option(*REPORT_FORMATS)
@output_option()
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when a candidate is invalid.")
def candidate_validate(
    root: str | None,
    files: tuple[str, ...],
    inputs: tuple[str, ...],
    fmt: str,
    output: str | None,
    exit_zero: bool,
) -> int:
    """Lint proposed memory candidates (default: .project-corpus/candidates/*.json). ROOT may
    be left out before the files: a first argument that is a `.json` or existing file is one."""
    from project_corpus.workspace import Workspace

    if root is not None and (root.endswith(".json") or os.path.isfile(root)):
        files = (root, *files)
        root = None
    fmt = resolve_format(fmt, output)
    space = Workspace(located(root))
    report = space.candidates([*inputs, *files], source_lines=fmt == "text")
    _report(space.root.given, report, fmt, output)
    return EXIT_OK if report["ok"] or exit_zero else EXIT_FINDINGS
