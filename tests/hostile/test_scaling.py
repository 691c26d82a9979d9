"""Every input dimension the limits allow costs at most ~5× at 4× its size (SPEC §13, #26).

Red-team round three found quadratic paths one dimension at a time: table rows (a line count
from the document's start per row), suppression directives and ignore rules (each finding
matched against all of them), headings (a section's items counted anew per word of its
path), one long source of distinct lines (every kept result tested against every other).
Here each dimension of `DIMENSIONS` plants a workload of size N and 4N in a small corpus
and times the commands that read it, in process: the cost above the same commands on the
corpus without the workload must grow at most ~5× (a linear pass 4×, a quadratic one 16×).
Each time is the minimum of a few runs (noise only ever adds). No absolute time limit.

`LIMITS` names every `MAX_*` constant of the package and every field of `BOUNDS`: the dimension rows that measure it,
or why it bounds no size that a command's cost could grow with. A new limit fails
`test_every_limit_has_a_row` until it has one.
"""

from __future__ import annotations

import ast
import gc
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from project_corpus.core.bounds import Bounds
from project_corpus.corpus.snapshot import collect
from project_corpus.doctor import memory_doctor
from project_corpus.index.store import build_index
from project_corpus.index.store import load_verified
from project_corpus.retrieval.bundle import compile_bundle
from project_corpus.retrieval.rank import query_corpus
from tests.conftest import BASE_FILES
from tests.conftest import report
from tests.conftest import write_files

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "project_corpus"
QUERY = "what is the eviction policy latency currently"
RATIO = 5.0
HISTORY = ".project-corpus/history/planted.md"
REPORTS = ".project-corpus/reports"
Files = dict[str, str | bytes | None]


def _doc(body: str) -> Files:
    return {HISTORY: f"# Planted eviction history\n\n{body}\n"}


def sources(n: int) -> Files:
    return {
        f"{REPORTS}/gen-{k:05d}.md": report(f"gen-{k:05d}", "2026-10-01", f"eviction {k} latency")
        for k in range(n)
    }


def lines(n: int) -> Files:
    return _doc("\n".join(f"Eviction policy line {k} keeps latency at {k} ms." for k in range(n)))


def line_length(n: int) -> Files:
    return _doc(" ".join(f"eviction{k % 97} latency" for k in range(n // 20)))


def table_rows(n: int) -> Files:
    rows = "".join(f"| eviction {k} | {k} ms |\n" for k in range(n))
    return _doc(f"| Policy | Latency |\n|---|---|\n{rows}")


def headings(n: int) -> Files:
    """Rising levels (2 to 6, again and again), each title and body naming the query."""
    return _doc(
        "".join(f"{'#' * (2 + k % 5)} Eviction {k}\npolicy {k} latency\n\n" for k in range(n))
    )


def list_depth(n: int) -> Files:
    """One list nested deeper and deeper (line k indented 2k): about N characters."""
    depth = int((n / 2) ** 0.5)
    return _doc("\n".join(f"{'  ' * k}- eviction {k} latency" for k in range(depth)))


def fences(n: int) -> Files:
    return _doc("\n\n".join(f"```\neviction {k}\nlatency\n```" for k in range(n)))


def references(n: int) -> Files:
    """Portable paths and relative links, resolving to nothing (each a finding)."""
    body = "\n".join(
        f"- see .project-corpus/reports/gone-{k}.md and [r](../reports/gone-{k}.md) eviction"
        for k in range(n)
    )
    return _doc(body)


def suppressions(n: int) -> Files:
    body = "\n\n".join(
        f"<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\nEviction {k} is currently slow."
        for k in range(n)
    )
    return _doc(body)


def ignore_rules(n: int) -> Files:
    """N `ignore` entries (none matching) over N findings: every finding was matched against
    every glob (3,000 × 3,000: 12 s)."""
    rules = "".join(
        f"  - paths: ['nothing-{k}/*a*b*']\n    codes: [VOLATILE_WITHOUT_FRESHNESS]\n"
        for k in range(n)
    )
    return {**findings(n), ".project-corpus/lint.yaml": f"ignore:\n{rules}" if n else None}


def findings(n: int) -> Files:
    return _doc("\n\n".join(f"Eviction {k} is currently slow." for k in range(n)))


def _read(root: Path) -> None:
    """query, bundle and doctor on ROOT (in process)."""
    corpus = collect(root)
    query_corpus(corpus, QUERY, 20)
    compile_bundle(corpus, QUERY, 4000)
    memory_doctor(root)


def _indexed(root: Path) -> None:
    """build, then query, bundle and `doctor --index` on the index just built."""
    build_index(collect(root))
    corpus = load_verified(root)
    query_corpus(corpus, QUERY, 20)
    compile_bundle(corpus, QUERY, 4000)
    memory_doctor(root, check_index=True)


class Dimension(NamedTuple):
    plant: Callable[[int], Files]  # the files of a workload of size N (0: none)
    size: int  # N: the base size, measured against 4N
    run: Callable[[Path], None] = _read


DIMENSIONS = {
    "sources": Dimension(sources, 100),
    "lines per source": Dimension(lines, 1500),
    "line length": Dimension(line_length, 150_000),
    "table rows": Dimension(table_rows, 1500),
    "headings and their levels": Dimension(headings, 800),
    "list depth": Dimension(list_depth, 200_000),
    "fenced blocks": Dimension(fences, 600),
    "references": Dimension(references, 400),
    "suppressions": Dimension(suppressions, 800),
    "ignore rules": Dimension(ignore_rules, 200),
    "findings": Dimension(findings, 800),
    "index rows": Dimension(lines, 1500, _indexed),
}

# Every `MAX_*` constant of the package: the rows of DIMENSIONS that grow up to it, or why
# no command's cost grows with it.
SNAPSHOT_LINES = ("lines per source", "table rows", "headings and their levels", "fenced blocks")
LIMITS: dict[str, tuple[str, ...] | str] = {
    "core.limits.MAX_SOURCES": ("sources",),
    "core.limits.MAX_TOTAL_BYTES": ("sources", "line length"),
    "core.limits.MAX_SOURCE_BYTES": ("line length", "list depth"),
    "core.limits.MAX_NONBLANK_LINES": (
        *SNAPSHOT_LINES,
        "references",
        "findings",
        "suppressions",
    ),
    "core.limits.MAX_INDEX_BYTES": ("index rows",),
    "core.limits.MAX_CONFIG_BYTES": ("ignore rules",),
    "core.limits.MAX_DEPTH": "folders: a walk holds at most two descriptors; 64 levels is a "
    "constant, and what the folders hold is `sources`",
    "core.limits.MAX_POLICY_BYTES": "policy scopes are matched once per source (`sources`); "
    "the usual `prefix/**` scopes by one `startswith`",
    "core.limits.MAX_VIEW_BYTES": "a generated view's first 2,048 bytes are read for a marker",
    "core.limits.MAX_INPUT_BYTES": "JSON inputs are parsed by `json`; their lists are bounded "
    "by MAX_CASES, MAX_LIST and MAX_REFS",
    "corpus.markdown.MAX_ITEM_CHARS": "a cut of an item's text, not an input limit",
    "corpus.markdown.MAX_PATH_TITLE": "a cut of a title in a section path, not an input limit",
    "core.limits.MAX_GITIGNORE_BYTES": "gitignore globs run on an automaton, linear in "
    "the path (tests/test_regex_linearity.py)",
    "doctor._inputs.MAX_POINTER_DEPTH": "a JSON-pointer depth in a finding, not an input size",
    "evaluate.dataset.MAX_LIST": "a bound on one eval case's lists",
    "evaluate.dataset.MAX_TEXT": "a bound on one eval case's text",
    "evaluate.dataset.MAX_PROBLEMS": "a bound on the problems a dataset error lists",
    "retrieval.receipt.MAX_CONSUMER_CHARS": "a bound on one receipt field",
    "retrieval.lists.MAX_CONTEXT_CHARS": "a cut of a list item's context, not an input limit",
    "core.bounds.BOUNDS.limit": "results per query (100): the duplicate tests are O(limit)",
    "core.bounds.BOUNDS.query_bytes": "one scan of the corpus per distinct stem prefix of the "
    "query: linear in its words",
    "core.bounds.BOUNDS.max_tokens": "a bundle's budget (output)",
    "core.bounds.BOUNDS.bundle_items": "a bundle's items (output)",
    "core.bounds.BOUNDS.envelope_bytes": "a bound on a bundle's size (output)",
    "core.bounds.BOUNDS.top_k": "results an eval case reads (output)",
    "core.bounds.BOUNDS.eval_cases": "eval cases: one search each on a shared analysis",
    "corpus.candidate.MAX_STATEMENT_CHARS": "a bound on one candidate field",
    "corpus.candidate.MAX_REFS": "a bound on one candidate's evidence list",
    "core.limits.MAX_BASELINE_BYTES": "a baseline report is parsed once by `json`; its "
    "findings are matched by fingerprint in a dict",
    "output.review.MAX_ROWS": "rows of a review (output)",
    "output.review.MAX_TEXT": "a cut of one review field (output)",
    "core.limits.MAX_LISTING_BYTES": "a bound on one `git ls-tree` listing, read once",
    "review.lines.MAX_DIFF_LINES": "difflib compares at most 5,000 lines a side (a bounded "
    "cost); a larger change counts as modified whole",
    "github.views.MAX_ROWS": "rows of a job summary (output)",
    "github.views.MAX_SECTION_BYTES": "bytes of a job summary (output)",
    "core.limits.MAX_GRANT_BYTES": "a trust grant is parsed once by `tomllib`",
    "importer.dates.MAX_GIT_BYTES": "a bound on one `git log` output, read once, parsed linearly",
    "importer.dates.MAX_HEAD_LINES": "lines looked at for a `Date:` line (a constant)",
    "importer.discover.MAX_WALK_ENTRIES": "entries the import walk lists before it stops and says so",
    "importer.discover.MAX_DEPTH": "folder levels the import walk enters (a constant)",
    "importer.names.MAX_SLUG": "a cut of a generated file name (output)",
    "importer.sections.MAX_FRONT_MATTER": "lines searched for the end of front matter (a constant)",
    "importer.write.MAX_RECORD_BYTES": "the import record is parsed once by `json`",
    "scaffold.agents.MAX_AGENTS_BYTES": "an owner's AGENTS.md is read once for the pointer heading",
}


def _planted(base: Path, name: str, files: Files) -> Path:
    root = base / name
    write_files(root, {**BASE_FILES})
    for folder in ("tasks", "reports", "history"):
        (root / ".project-corpus" / folder).mkdir(parents=True, exist_ok=True)
    write_files(root, {rel: text for rel, text in files.items() if text is not None})
    return root


def _cost(run: Callable[[Path], None], root: Path, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run(root)
        best = min(best, time.perf_counter() - start)
    return best


def growth(dimension: Dimension, base: Path) -> float:
    """Cost above the empty workload at 4N over the same at N."""
    roots = [_planted(base, f"n{n}", dimension.plant(n)) for n in (0, 1, 4)]
    for root in roots:
        dimension.run(root)  # warm: imports, compiled patterns, caches of the process
    # Without the cyclic collector, as the CLI runs (its rescans of the test process's heap
    # are neither the command's cost nor steady: they made 4× the directives cost 4.5×).
    gc.collect()
    gc.disable()
    try:
        empty, small, large = (_cost(dimension.run, root, 3) for root in roots)
    finally:
        gc.enable()
    return (large - empty) / max(small - empty, 1e-6)


@pytest.mark.parametrize("name", sorted(DIMENSIONS))
def test_four_times_the_size_costs_at_most_five_times(name: str, tmp_path: Path) -> None:
    dimension = DIMENSIONS[name]
    scaled = dimension._replace(plant=lambda n: dimension.plant(n * dimension.size))
    measured = growth(scaled, tmp_path)
    if measured > RATIO:  # a noisy neighbour: measure again; a quadratic path fails each time
        shutil.rmtree(tmp_path / "n0")
        measured = min(measured, growth(scaled, tmp_path / "again"))
    assert measured <= RATIO, f"{name}: {measured:.1f}× the cost at 4× the size"


def _limit_constants() -> set[str]:
    """`module.MAX_*` of every module-level constant named MAX_… in the package, and every
    field of `core.bounds.BOUNDS` (the caller-given bounds)."""
    found = {f"core.bounds.BOUNDS.{field}" for field in Bounds._fields}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                if isinstance(target, ast.Name) and target.id.startswith("MAX_"):
                    found.add(f"{module}.{target.id}")
    return found


def test_every_limit_has_a_row() -> None:
    constants = _limit_constants()
    assert sorted(constants - LIMITS.keys()) == [], "add each new limit to LIMITS"
    assert sorted(LIMITS.keys() - constants) == [], "LIMITS names a constant that is gone"
    measured = {row for rows in LIMITS.values() if isinstance(rows, tuple) for row in rows}
    assert measured == set(DIMENSIONS), "a dimension that measures no limit, or a typo"
