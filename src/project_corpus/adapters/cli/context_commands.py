"""The `context` commands that read the corpus: build, query, bundle, receipt, eval.

Each is an adapter (SPEC §12 "One front door"): its arguments, one `Workspace` call, a
renderer.
"""

from __future__ import annotations

import click

from project_corpus.adapters.cli.examples import epilog
from project_corpus.adapters.cli.options import emit
from project_corpus.adapters.cli.options import emit_result
from project_corpus.adapters.cli.options import format_option
from project_corpus.adapters.cli.options import index_option
from project_corpus.adapters.cli.options import located
from project_corpus.adapters.cli.options import resolve_format
from project_corpus.adapters.cli.options import root_arg
from project_corpus.adapters.cli.options import root_then
from project_corpus.adapters.cli.options import shifted
from project_corpus.core.bounds import BOUNDS
from project_corpus.core.errors import EXIT_FINDINGS
from project_corpus.core.errors import EXIT_OK
from project_corpus.core.formats import EVAL_FORMATS
from project_corpus.core.formats import RESULT_FORMATS

fresh_option = click.option(
    "--fresh",
    is_flag=True,
    help="Answer from the current sources without an index (nothing is written).",
)


def _index(index: str | None, fresh: bool) -> str | None:
    if fresh and index is not None:
        raise click.UsageError("--fresh reads no index: pass --fresh or --index, not both")
    return index


@click.command(epilog=epilog("context build"))
@root_arg()
@index_option
@format_option(*RESULT_FORMATS)
def build(root: str | None, index: str | None, fmt: str) -> int:
    """Build the provenance-only SQLite index of ROOT's scoped sources."""
    from project_corpus.workspace import Workspace

    emit_result(Workspace(located(root), index).build(), fmt, "build")
    return EXIT_OK


@click.command(epilog=epilog("context query"))
@root_then("query")
@index_option
@fresh_option
@click.option(
    "--limit",
    default=str(BOUNDS.limit.default),
    metavar="N",
    help=BOUNDS.limit.help("Maximum results"),
)
@format_option(*RESULT_FORMATS)
def query(
    root: str | None, query: str | None, index: str | None, fresh: bool, limit: str, fmt: str
) -> int:
    """Ranked pointers into ROOT's sources for QUERY (index must be current, or --fresh)."""
    from project_corpus.workspace import Workspace

    given, asked = shifted(root, query, "query")
    space = Workspace(given, _index(index, fresh))
    emit_result(space.query(asked, limit, fresh=fresh), fmt, "query", space.root.given)
    return EXIT_OK


@click.command(epilog=epilog("context bundle"))
@root_then("query")
@index_option
@fresh_option
@click.option(
    "--max-tokens",
    "max_tokens",
    default=str(BOUNDS.max_tokens.default),
    metavar="N",
    help=BOUNDS.max_tokens.help("Excerpt token budget"),
)
@format_option(*RESULT_FORMATS)
def bundle(
    root: str | None, query: str | None, index: str | None, fresh: bool, max_tokens: str, fmt: str
) -> int:
    """Compile a token-budgeted, hash-stamped Context Bundle v1 for QUERY."""
    from project_corpus.workspace import Workspace

    given, asked = shifted(root, query, "query")
    space = Workspace(given, _index(index, fresh))
    emit_result(space.bundle(asked, max_tokens, fresh=fresh), fmt, "bundle", space.root.given)
    return EXIT_OK


@click.command(epilog=epilog("context receipt"))
@root_arg()
@click.option(
    "--bundle", "bundle_file", required=True, metavar="FILE", help="Bundle JSON file inside ROOT."
)
@click.option("--consumer", required=True, metavar="ID", help="Who the bundle was delivered to.")
@click.option(
    "--item", "items", multiple=True, metavar="ID", help="A delivered item ID (default: all)."
)
@format_option(*RESULT_FORMATS)
def receipt(
    root: str | None, bundle_file: str, consumer: str, items: tuple[str, ...], fmt: str
) -> int:
    """Make a Receipt v1 recording that a bundle was delivered."""
    from project_corpus.workspace import Workspace

    emit_result(Workspace(located(root)).receipt(bundle_file, consumer, items), fmt, "fields")
    return EXIT_OK


@click.command(name="eval", epilog=epilog("context eval"))
@root_arg()
@index_option
@click.option(
    "--dataset", required=True, metavar="FILE", help="CorpusEval v1 dataset JSON inside ROOT."
)
@format_option(*EVAL_FORMATS)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when a case fails.")
def eval_(root: str | None, index: str | None, dataset: str, fmt: str, exit_zero: bool) -> int:
    """Offline retrieval and bundle evaluation (CorpusEval v1), no LLM judge."""
    from project_corpus.workspace import Workspace

    result = Workspace(located(root), index).evaluate(dataset)
    fmt = resolve_format(fmt)
    if fmt == "text":
        emit_result(result, fmt, "eval")
    else:
        from project_corpus.evaluate import render_eval

        emit(render_eval(result, fmt))
    return EXIT_OK if result["ok"] or exit_zero else EXIT_FINDINGS
