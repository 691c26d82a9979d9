"""The `context` commands that read the corpus: build, query, bundle, receipt, eval."""

from __future__ import annotations

import click

from project_corpus.cli.options import emit
from project_corpus.cli.options import emit_result
from project_corpus.cli.options import format_option
from project_corpus.cli.options import index_option
from project_corpus.cli.options import resolve_format
from project_corpus.cli.options import root_arg
from project_corpus.core.bounds import BOUNDS
from project_corpus.core.errors import EXIT_FINDINGS
from project_corpus.core.errors import EXIT_OK


@click.command()
@root_arg(default=".")
@index_option
@format_option("json", "text")
def build(root: str, index: str | None, fmt: str) -> int:
    """Build the provenance-only SQLite index of ROOT's scoped sources."""
    from project_corpus.corpus import fs
    from project_corpus.corpus.required import require_corpus
    from project_corpus.corpus.snapshot import collect
    from project_corpus.index.store import build_index
    from project_corpus.index.store import prepare_index_path

    root_path = fs.resolve_root(root)
    require_corpus(root_path, root)
    prepare_index_path(root_path, index)
    corpus = collect(root_path)
    emit_result(build_index(corpus, index), fmt, "build")
    return EXIT_OK


@click.command()
@root_arg()
@click.argument("query")
@index_option
@click.option(
    "--limit",
    default=str(BOUNDS.limit.default),
    metavar="N",
    help=BOUNDS.limit.help("Maximum results"),
)
@format_option("json", "text")
def query(root: str, query: str, index: str | None, limit: str, fmt: str) -> int:
    """Ranked pointers into ROOT's sources for QUERY (index must be current)."""
    from project_corpus.retrieval.entry import QueryRequest
    from project_corpus.retrieval.entry import run_query

    request = QueryRequest(root=root, query=query, limit=limit, index_path=index)
    emit_result(run_query(request), fmt, "query", root)
    return EXIT_OK


@click.command()
@root_arg()
@click.argument("query")
@index_option
@click.option(
    "--max-tokens",
    "max_tokens",
    default=str(BOUNDS.max_tokens.default),
    metavar="N",
    help=BOUNDS.max_tokens.help("Excerpt token budget"),
)
@format_option("json", "text")
def bundle(root: str, query: str, index: str | None, max_tokens: str, fmt: str) -> int:
    """Compile a token-budgeted, hash-stamped Context Bundle v1 for QUERY."""
    from project_corpus.retrieval.entry import BundleRequest
    from project_corpus.retrieval.entry import run_bundle

    request = BundleRequest(root=root, query=query, max_tokens=max_tokens, index_path=index)
    emit_result(run_bundle(request), fmt, "bundle", root)
    return EXIT_OK


@click.command()
@root_arg(default=".")
@click.option(
    "--bundle", "bundle_file", required=True, metavar="FILE", help="Bundle JSON file inside ROOT."
)
@click.option("--consumer", required=True, metavar="ID", help="Who the bundle was delivered to.")
@click.option(
    "--item", "items", multiple=True, metavar="ID", help="A delivered item ID (default: all)."
)
@format_option("json", "text")
def receipt(root: str, bundle_file: str, consumer: str, items: tuple[str, ...], fmt: str) -> int:
    """Make a Receipt v1 recording that a bundle was delivered."""
    from project_corpus.corpus import fs
    from project_corpus.corpus.inputs import load_json_input
    from project_corpus.retrieval.receipt import make_receipt

    _, data = load_json_input(fs.resolve_root(root), bundle_file)
    emit_result(make_receipt(data, consumer, list(items) or None), fmt, "fields")
    return EXIT_OK


@click.command(name="eval")
@root_arg(default=".")
@index_option
@click.option(
    "--dataset", required=True, metavar="FILE", help="CorpusEval v1 dataset JSON inside ROOT."
)
@format_option("json", "text", "markdown")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when a case fails.")
def eval_(root: str, index: str | None, dataset: str, fmt: str, exit_zero: bool) -> int:
    """Offline retrieval and bundle evaluation (CorpusEval v1), no LLM judge."""
    from project_corpus.evaluate import render_eval
    from project_corpus.evaluate import run_eval

    result = run_eval(root, index, dataset)
    fmt = resolve_format(fmt)
    if fmt == "text":
        emit_result(result, fmt, "eval")
    else:
        emit(render_eval(result, fmt))
    return EXIT_OK if result["ok"] or exit_zero else EXIT_FINDINGS
