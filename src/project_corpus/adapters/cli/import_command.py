"""`project-corpus import`: the memory a repository already keeps, as a corpus (docs/import.md)."""

from __future__ import annotations

import click

from project_corpus.adapters.cli.examples import epilog
from project_corpus.adapters.cli.options import emit_result
from project_corpus.adapters.cli.options import format_option
from project_corpus.adapters.cli.options import root_arg


@click.command("import", epilog=epilog("import"))
@root_arg(default=".")
@click.option(
    "--include",
    "include",
    multiple=True,
    metavar="GLOB",
    help="Also import files matching GLOB (repeatable; `**` crosses folders).",
)
@click.option(
    "--exclude",
    "exclude",
    multiple=True,
    metavar="GLOB",
    help="Leave out files matching GLOB (repeatable; wins over detection and --include).",
)
@click.option("--dry-run", is_flag=True, help="Print the plan; write nothing.")
@click.option("--prune", is_flag=True, help="Delete documents import wrote whose sources are gone.")
@format_option("json", "text")
def import_(
    root: str,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    dry_run: bool,
    prune: bool,
    fmt: str,
) -> int:
    """Convert the memory ROOT already keeps (memory banks, ADRs, CLAUDE.md, logs, TODOs,
    specs, changelogs) into a Project Corpus; writes only under .project-corpus/ and the
    AGENTS.md pointer."""
    from project_corpus.importer import ImportOptions
    from project_corpus.workspace import Workspace

    result = Workspace(root).import_(ImportOptions(include, exclude, dry_run, prune))
    emit_result(result, fmt, "import")
    return 0
