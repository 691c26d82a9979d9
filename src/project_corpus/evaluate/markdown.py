"""Markdown rendering of a CorpusEval v1 result, for a pull request or a CI job summary.

A header with the pass rate and the aggregate rates, one table row per case (name, ✅/❌,
failing metrics) and a table of per-metric pass rates. Cell text is escaped so that a `|`,
a line break, a control character, a link, an image or HTML in a case name can never break
the table or reach the reader (`output.escape.markdown_cell`).
"""

from __future__ import annotations

from project_corpus.output.escape import markdown_cell

PASS_MARK = "✅"
FAIL_MARK = "❌"


def _percent(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value * 100:.1f}%"
    return "untested"


def _number(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:.3f}"
    return "untested"


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _header(result: dict[str, object]) -> list[str]:
    results = _list(result.get("results"))
    passed = sum(1 for r in results if isinstance(r, dict) and r.get("pass") is True)
    mark = PASS_MARK if result.get("ok") is True else FAIL_MARK
    project = markdown_cell(str(result.get("project_id", "")))
    return [
        f"## {mark} CorpusEval: {project}: {passed}/{len(results)} cases passed "
        f"({_percent(result.get('pass_rate'))})",
        "",
        f"- Source recall (mean): {_number(result.get('source_recall_mean'))}",
        f"- Forbidden contamination rate: {_percent(result.get('forbidden_contamination_rate'))}",
        "- Project/policy isolation pass rate: "
        f"{_percent(result.get('project_policy_isolation_pass_rate'))}",
        "",
    ]


def _case_rows(result: dict[str, object]) -> list[str]:
    rows = ["| # | case | pass | failing metrics |", "|---:|---|:---:|---|"]
    for case in _list(result.get("results")):
        if not isinstance(case, dict):
            continue
        failed = ", ".join(markdown_cell(str(m)) for m in _list(case.get("failed_metrics")))
        mark = PASS_MARK if case.get("pass") is True else FAIL_MARK
        name = markdown_cell(str(case.get("name", "")))
        rows.append(f"| {case.get('case_index')} | {name} | {mark} | {failed} |")
    return [*rows, ""]


def _metric_rows(result: dict[str, object]) -> list[str]:
    rates = result.get("metric_pass_rates")
    rows = ["| metric | pass rate |", "|---|---:|"]
    for name, rate in sorted(rates.items()) if isinstance(rates, dict) else []:
        rows.append(f"| {markdown_cell(str(name))} | {_percent(rate)} |")
    return [*rows, ""]


def _problem_lines(result: dict[str, object]) -> list[str]:
    lines = []
    for case in _list(result.get("results")):
        if isinstance(case, dict) and case.get("pass") is not True:
            name = markdown_cell(str(case.get("name", "")))
            lines += [f"- **{name}**: {markdown_cell(str(p))}" for p in _list(case.get("problems"))]
    return ["### Failures", "", *lines, ""] if lines else []


def render_markdown(result: dict[str, object]) -> str:
    """The whole Markdown report (ends with a newline)."""
    lines = [*_header(result), *_case_rows(result), *_metric_rows(result), *_problem_lines(result)]
    lines.append("_Non-authoritative: read the primary sources before any authority claim._")
    return "\n".join(lines) + "\n"
