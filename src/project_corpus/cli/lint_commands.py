"""The linters: `context doctor` and `context candidate-validate`."""

from __future__ import annotations

import click

from project_corpus.cli.options import FORMATS
from project_corpus.cli.options import fail_on_option
from project_corpus.cli.options import index_option
from project_corpus.cli.options import root_arg
from project_corpus.cli.options import write_output


@click.command()
@root_arg()
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
@fail_on_option()
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
    write_output(render_report(report, fmt), output)
    return 0 if report["ok"] or exit_zero else 1


@click.command(name="candidate-validate")
@root_arg()
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
    from project_corpus.doctor.candidates import lint_candidates
    from project_corpus.output import render_report

    report = lint_candidates(root, [*inputs, *files])
    write_output(render_report(report, fmt), output)
    return 0 if report["ok"] or exit_zero else 1
