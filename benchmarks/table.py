"""The text table `run.py` prints: one row per case, the floors first."""

from __future__ import annotations

from cases import RSS_TARGET_MB


def _cell(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def render_table(report: dict[str, object]) -> str:
    corpus = report["corpus"]
    assert isinstance(corpus, dict)
    lines = [
        f"project-corpus {report['tool_version'] or '(unavailable)'} | Python {report['python']} "
        f"| SQLite {report['sqlite']} | {report['platform']} | {report['cpu_count']} CPUs",
        f"corpus {corpus['root']}: {corpus['sources']} sources, {corpus['non_blank_lines']} "
        f"non-blank lines, {corpus['bytes']} bytes; median of {report['repeat']} "
        f"interleaved rounds after a warm-up round; {report['bytecode'] or 'no bytecode'}",
    ]
    if report["note"]:
        lines.append(f"note: {report['note']}")
    lines.append(f"peak RSS measured by {report['rss_method']}")
    head = ("command", "median s", "of", "vs", "ratio", "target", "peak RSS MB", "result")
    rows = [head]
    results = report["results"]
    assert isinstance(results, list)
    for r in results:
        target = "-" if r["target_ratio"] is None else f"<={r['target_ratio']:g}x"
        rows.append(
            (
                r["name"],
                _cell(r["median_s"], ".3f"),
                r["metric"],
                r["baseline"] or "-",
                _cell(r["ratio"], ".2f") + ("x" if r["ratio"] is not None else ""),
                target,
                _cell(r["peak_rss_mb"], ".1f"),
                r["status"],
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for n, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append(f"targets: peak RSS <= {RSS_TARGET_MB:g} MB for every project-corpus command")
    lines.extend(_errors(results))
    return "\n".join(lines)


def _errors(results: list[dict[str, object]]) -> list[str]:
    out = []
    for r in results:
        if r["error"]:
            out.append(f"\n{r['name']} failed (exit {r['returncode']}): {r['command']}")
            out.extend("    " + line for line in str(r["error"]).splitlines()[-20:])
    return out
