"""Text views of the results that are not lint reports (docs/cli.md, people and machines):
query, bundle, build, receipt, eval, trust. Pure functions of the JSON-ready result.

`VIEWS` is the registry: result kind -> its renderer. Every string that came from the corpus
or the command line is escaped (`output.escape.terminal`); excerpts are cut to one line.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence

from project_corpus.core.records import SUMMARY_SEPARATOR
from project_corpus.output.escape import terminal
from project_corpus.output.import_view import import_view
from project_corpus.output.text import counted

EXCERPT_CHARS = 240
NOTE = "Non-authoritative pointers: read the primary source before relying on them."


def excerpt(text: object, limit: int = EXCERPT_CHARS) -> str:
    """TEXT on one line, whitespace collapsed, cut at LIMIT characters with an ellipsis."""
    flat = terminal(" ".join(str(text).split()))
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _items(value: object) -> list[Mapping[str, object]]:
    if not isinstance(value, Sequence):
        return []
    return [item for item in value if isinstance(item, Mapping)]


def where(item: Mapping[str, object]) -> str:
    """`path:line` (or `path:first-last`) of an item."""
    start, end = item.get("line_start"), item.get("line_end")
    lines = f"{start}" if start == end or end is None else f"{start}-{end}"
    return f"{terminal(str(item.get('source_path', '')))}:{lines}"


def item_lines(number: int, item: Mapping[str, object]) -> list[str]:
    section = terminal(str(item.get("section") or "")) or "(no section)"
    facts = f"{item.get('authority_class')}, {item.get('temporal_status')}"
    head = f"{number:>3}. {where(item)}  {section}  score {item.get('retrieval_score')} ({facts})"
    return [head, f"     {excerpt(item.get('text', ''))}"]


def query_view(result: Mapping[str, object]) -> str:
    results = _items(result.get("results"))
    query = excerpt(result.get("query", ""), 120)
    if not results:
        return f'No results for "{query}" in {result.get("project_id")}.\n'
    lines = [f'{counted(len(results), "result")} for "{query}" in {result.get("project_id")}:']
    for number, item in enumerate(results, 1):
        lines += item_lines(number, item)
    return "\n".join([*lines, NOTE]) + "\n"


def _mandatory(item: Mapping[str, object]) -> bool:
    reasons = item.get("selection_reasons")
    return isinstance(reasons, list) and any(str(r).startswith("mandatory_") for r in reasons)


def budget_line(result: Mapping[str, object]) -> str:
    budget = result.get("budget")
    data = budget if isinstance(budget, Mapping) else {}
    omitted = data.get("omitted")
    gone = ", ".join(f"{k} {v}" for k, v in omitted.items()) if isinstance(omitted, Mapping) else ""
    return (
        f"Budget: {data.get('estimated_tokens')} of {data.get('max_tokens')} tokens, "
        f"{result.get('serialized_bytes')} of {data.get('max_envelope_bytes')} bytes"
        + (f"; omitted: {gone}" if gone else "")
    )


def whole_item_lines(number: int, item: Mapping[str, object]) -> list[str]:
    """An item's head line and its whole text (a bundle's text is already budgeted); a
    mandatory summary shows each of its parts on a line of its own."""
    head = item_lines(number, item)[0]
    text = str(item.get("text", ""))
    parts = text.split(SUMMARY_SEPARATOR) if _mandatory(item) else text.splitlines()
    return [head, *(f"     {terminal(part.strip())}" for part in parts if part.strip())]


def read_lines(result: Mapping[str, object]) -> list[str]:
    """The mandatory reads: each source a line, with the sections to read."""
    listed = result.get("mandatory_reads")
    reads = [r for r in listed if isinstance(r, Mapping)] if isinstance(listed, list) else []
    lines = ["Read in full before relying on any of it:" if reads else "Read in full: (none)"]
    for read in reads:
        sections = read.get("required_sections")
        names = ", ".join(str(s) for s in sections) if isinstance(sections, list) else ""
        lines.append(
            f"  - {terminal(str(read.get('source_path', '')))}"
            + terminal(f" ({names})" if names else "")
        )
    return lines


def bundle_view(result: Mapping[str, object]) -> str:
    items = _items(result.get("items"))
    summaries = [item for item in items if _mandatory(item)]
    ranked = [item for item in items if not _mandatory(item)]
    query = excerpt(result.get("query", ""), 120)
    lines = [f'Context bundle for "{query}" in {result.get("project_id")}', "", "Summaries:"]
    for number, item in enumerate(summaries, 1):
        lines += whole_item_lines(number, item)
    lines += ["", "Items:" if ranked else "Items: none fit the budget"]
    for number, item in enumerate(ranked, 1):
        lines += whole_item_lines(number, item)
    lines += ["", *read_lines(result), budget_line(result)]
    lines.append(f"bundle_sha256 {result.get('bundle_sha256')}")
    return "\n".join(lines) + "\n"


def build_view(result: Mapping[str, object]) -> str:
    digest = str(result.get("source_snapshot_digest", ""))[:16]
    return (
        f"Indexed {result.get('source_count')} sources, {result.get('item_count')} items of "
        f"{result.get('project_id')} (index schema {result.get('index_schema_version')}, "
        f"snapshot {digest}…).\n"
    )


def eval_view(result: Mapping[str, object]) -> str:
    cases = _items(result.get("results"))
    verdict = "passed" if result.get("ok") else "failed"
    lines = [
        f"CorpusEval {verdict}: {result.get('case_count')} cases, pass rate "
        f"{result.get('pass_rate')}, source recall {result.get('source_recall_mean')}"
    ]
    for case in cases:
        mark = "PASS" if case.get("pass") else "FAIL"
        lines.append(f"  {mark}  {excerpt(case.get('name') or case.get('query', ''), 100)}")
    return "\n".join(lines) + "\n"


def scalar(value: object) -> str:
    """VALUE as JSON writes a scalar (`true`, `false`, `null`), other values as text."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return excerpt(value, 200)


def fields_view(result: Mapping[str, object], indent: str = "") -> str:
    """One `key: value` line per field (receipts, trust grants), nested objects indented
    under their key, a list of objects or of long texts one entry a line (nothing cut)."""
    lines = []
    for key, value in sorted(result.items()):
        if isinstance(value, Mapping):
            lines.append(f"{indent}{key}:")
            lines.append(fields_view(value, indent + "  ").rstrip("\n") or f"{indent}  (none)")
        elif isinstance(value, list) and any(_long(v) for v in value):
            lines.append(f"{indent}{key}:")
            lines += [_entry(v, indent + "  ") for v in value]
        elif isinstance(value, list):
            shown = ", ".join(scalar(v) for v in value)
            lines.append(f"{indent}{key}: {shown or '(none)'}")
        else:
            lines.append(f"{indent}{key}: {scalar(value)}")
    return "\n".join(lines) + "\n"


def _long(value: object) -> bool:
    return isinstance(value, Mapping) or len(str(value)) > 60


def _entry(value: object, indent: str) -> str:
    if isinstance(value, Mapping):
        text = fields_view(value, indent + "  ").rstrip("\n")
        return f"{indent}- " + text.lstrip()
    return f"{indent}- {excerpt(value, 400)}"


VIEWS: dict[str, Callable[[Mapping[str, object]], str]] = {
    "query": query_view,
    "bundle": bundle_view,
    "build": build_view,
    "eval": eval_view,
    "fields": fields_view,
    "import": import_view,
}
