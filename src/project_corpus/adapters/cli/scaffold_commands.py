"""`project-corpus init` and `project-corpus new task|report`: create files, never change one."""

from __future__ import annotations

import click

from project_corpus.adapters.cli.examples import epilog
from project_corpus.adapters.cli.options import emit
from project_corpus.adapters.cli.options import format_option
from project_corpus.adapters.cli.options import located
from project_corpus.adapters.cli.options import resolve_format
from project_corpus.adapters.cli.options import root_arg
from project_corpus.core.formats import RESULT_FORMATS

LANG_OPTION = click.option(
    "--lang",
    type=click.Choice(["en", "ru"], case_sensitive=False),
    default="en",
    show_default=True,
    help="Language of the guidance text (keys and headings stay protocol English).",
)


@click.command(epilog=epilog("init"))
@root_arg(default=".")
@click.option(
    "--project-id", default=None, metavar="ID", help="Project ID (default: the folder name)."
)
@click.option(
    "--name", default=None, metavar="TEXT", help="Logical name (default: the folder name)."
)
@LANG_OPTION
@format_option(*RESULT_FORMATS)
def init(root: str, project_id: str | None, name: str | None, lang: str, fmt: str) -> int:
    """Start a Project Corpus in ROOT (default: the current folder); writes only new files."""
    from project_corpus.corpus.known_memory import import_hint
    from project_corpus.scaffold.create import init_corpus

    written = init_corpus(root, project_id=project_id, name=name, lang=lang.lower())
    _report(root, written, fmt, import_hint(root, root))
    return 0


def _report(root: str, written: list[str], fmt: str, hint: str | None = None) -> None:
    from project_corpus.core.jsonio import pretty
    from project_corpus.output.escape import terminal

    if resolve_format(fmt) == "json":
        extra = {"hint": hint} if hint else {}
        emit(pretty({"ok": True, "root": root, "written": written, **extra}))
        return
    # ROOT and the names come from the command line: shown escaped, as every text output.
    lines = [f"wrote {terminal(path)}" for path in written]
    lines += [f"note: {terminal(hint)}"] if hint else []
    emit("\n".join([*lines, f"next: project-corpus context doctor {terminal(root)}", ""]))


@click.command(epilog=epilog("new"))
@click.argument("kind", type=click.Choice(["task", "report"], case_sensitive=False))
@click.argument("artifact_id", metavar="ID")
@root_arg()
@click.option("--task", "task_id", default=None, metavar="ID", help="A report's Task-ID.")
@click.option(
    "--lang",
    type=click.Choice(["en", "ru"], case_sensitive=False),
    default=None,
    help="Language of the guidance text (default: the corpus's own, from PROJECT and STATUS).",
)
@format_option(*RESULT_FORMATS)
def new(
    kind: str, artifact_id: str, root: str | None, task_id: str | None, lang: str | None, fmt: str
) -> int:
    """Write a new Task or Report with every required key and section."""
    from project_corpus.scaffold.create import new_artifact

    if task_id is not None and kind.lower() != "report":
        raise click.UsageError("--task is only for a report")
    language = lang.lower() if lang else None
    where = located(root)
    rel = new_artifact(where, kind.lower(), artifact_id, task_id=task_id, lang=language)
    _report(where, [rel], fmt)
    return 0
