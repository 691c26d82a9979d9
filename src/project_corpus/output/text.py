"""The text report: one `path:line: CODE message` line per unsuppressed finding, then a
summary line. Stable for pre-commit hooks, editors and problem matchers:

    .project-corpus/state/STATUS.md:4: INVALID_METADATA A metadata value is invalid...
    project-corpus: 1 FAIL, 0 WARN, 0 suppressed in 9 sources, 2 candidates; failed

The summary line never starts with `path:line:`.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence

from project_corpus.output.escape import terminal


def issues_of(report: Mapping[str, object]) -> list[Mapping[str, object]]:
    """The report's unsuppressed issues, in report order."""
    issues = report.get("issues")
    assert isinstance(issues, Sequence)
    return [issue for issue in issues if isinstance(issue, Mapping) and not issue.get("suppressed")]


def line(issue: Mapping[str, object]) -> str:
    """One finding on one line; the path and message have their control characters escaped."""
    path, message = terminal(str(issue["path"])), terminal(str(issue["message"]))
    return f"{path}:{issue['line']}: {issue['code']} {message}"


def summary_line(report: Mapping[str, object]) -> str:
    counts = report.get("summary")
    assert isinstance(counts, Mapping)
    verdict = "ok" if report.get("ok") else "failed"
    checked = f"{report.get('source_count', 0)} sources"
    if report.get("candidate_count"):
        checked += f", {report['candidate_count']} candidates"
    return (
        f"project-corpus: {counts['FAIL']} FAIL, {counts['WARN']} WARN, "
        f"{counts['suppressed']} suppressed in {checked}; {verdict}"
    )


def render(report: Mapping[str, object]) -> str:
    lines = [line(issue) for issue in issues_of(report)]
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"
