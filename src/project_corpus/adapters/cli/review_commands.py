"""`context review`: what a change does to the memory (docs/review.md)."""

from __future__ import annotations

import click

from project_corpus.adapters.cli.examples import epilog
from project_corpus.adapters.cli.options import fail_on_option
from project_corpus.adapters.cli.options import format_option
from project_corpus.adapters.cli.options import located
from project_corpus.adapters.cli.options import output_option
from project_corpus.adapters.cli.options import resolve_format
from project_corpus.adapters.cli.options import root_arg
from project_corpus.adapters.cli.options import write_output
from project_corpus.core.errors import EXIT_FINDINGS
from project_corpus.core.errors import EXIT_OK
from project_corpus.core.formats import REVIEW_FORMATS


@click.command(epilog=epilog("context review"))
@root_arg()
@click.option("--base", "base", required=True, metavar="REV", help="The revision to compare with.")
@click.option(
    "--head",
    "head",
    default=None,
    metavar="REV",
    help="The changed revision (default: the working tree).",
)
@click.option(
    "--merge-base",
    "merge_base",
    is_flag=True,
    help="Compare with the merge base of BASE and HEAD, as a pull request's diff does.",
)
@click.option("--config", "config", default=None, metavar="FILE", help="Lint configuration (YAML).")
@format_option(*REVIEW_FORMATS)
@output_option("review")
@fail_on_option()
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when new findings fail the run.")
def review(
    root: str | None,
    base: str,
    head: str | None,
    merge_base: bool,
    config: str | None,
    fmt: str,
    output: str | None,
    fail_on: str,
    exit_zero: bool,
) -> int:
    """Review what a change does to ROOT's memory: STATUS, tasks, reports, policy,
    candidates and new, fixed and unchanged findings between BASE and HEAD."""
    from project_corpus.output.review import render_review
    from project_corpus.workspace import Workspace

    space = Workspace(located(root))
    report = space.review(base, head, fail_on=fail_on.upper(), merge_base=merge_base, config=config)
    fmt = resolve_format(fmt, output)
    write_output(space.root.given, render_review(report, fmt), output)
    return EXIT_OK if report["ok"] or exit_zero else EXIT_FINDINGS
