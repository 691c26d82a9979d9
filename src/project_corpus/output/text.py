"""The text report, as flake8 and ruff print theirs: one `path:line:col: CODE message` line
per unsuppressed finding, the offending source line under it (`--no-show-source` drops it),
optionally a count per code (`--statistics`), then a summary line (`--quiet` drops it):

    .project-corpus/state/STATUS.md:4:1: INVALID_METADATA A metadata value is invalid...
        Lifecycle-Status: RUNNING
        ^
    project-corpus: 1 FAIL, 0 WARN, 0 suppressed in 9 sources, 2 candidates; failed

Findings are about a line, so the column is that of the line's first non-blank character
(1 when the source cannot be read). The summary line never starts with `path:line:`; source
lines are indented, so a problem matcher for `path:line:col:` never mistakes one for a
finding. Colour (ANSI) only when asked for: the CLI decides (a terminal, `NO_COLOR`,
`FORCE_COLOR`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import NamedTuple

from project_corpus.output.escape import terminal

SourceLine = Callable[[str, int], "str | None"]
STYLES = {"FAIL": "1;31", "WARN": "1;33", "path": "1", "dim": "2", "ok": "1;32"}
INDENT = "    "


class TextOptions(NamedTuple):
    show_source: bool = True
    statistics: bool = False
    quiet: bool = False
    color: bool = False
    source_line: SourceLine | None = None  # (path, line) -> the line's text, or None


PLAIN = TextOptions()


def paint(text: str, style: str, options: TextOptions) -> str:
    return f"\x1b[{STYLES[style]}m{text}\x1b[0m" if options.color else text


def issues_of(report: Mapping[str, object]) -> list[Mapping[str, object]]:
    """The report's unsuppressed issues, in report order."""
    issues = report.get("issues")
    assert isinstance(issues, Sequence)
    return [issue for issue in issues if isinstance(issue, Mapping) and not issue.get("suppressed")]


def one_line(text: object) -> str:
    """TEXT on one line (control characters escaped: `output.escape.terminal`)."""
    return terminal(str(text))


def _source(issue: Mapping[str, object], options: TextOptions) -> str | None:
    line = issue.get("line")
    if options.source_line is None or not isinstance(line, int):
        return None
    return options.source_line(str(issue["path"]), line)


def line(issue: Mapping[str, object], options: TextOptions = PLAIN) -> str:
    """`path:line:col: CODE message`, and the source line with a caret when shown."""
    source = _source(issue, options)
    text = source.expandtabs(4) if source is not None else ""
    col = len(text) - len(text.lstrip()) + 1 if text.strip() else 1
    where = paint(f"{one_line(issue['path'])}:{issue['line']}:{col}:", "path", options)
    code = paint(str(issue["code"]), str(issue.get("severity", "WARN")), options)
    head = f"{where} {code} {one_line(issue['message'])}"
    if not options.show_source or source is None:
        return head
    caret = paint(" " * (col - 1) + "^", "dim", options)
    return f"{head}\n{INDENT}{one_line(text.rstrip())}\n{INDENT}{caret}"


def statistics(issues: Sequence[Mapping[str, object]]) -> list[str]:
    """One `count  CODE  SEVERITY` line per code, most frequent first (flake8 --statistics)."""
    counts = Counter((str(i["code"]), str(i.get("severity", ""))) for i in issues)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [f"{count:<6} {code} {severity}" for (code, severity), count in ordered]


def summary_line(report: Mapping[str, object], options: TextOptions = PLAIN) -> str:
    counts = report.get("summary")
    assert isinstance(counts, Mapping)
    verdict = paint("ok", "ok", options) if report.get("ok") else paint("failed", "FAIL", options)
    checked = f"{report.get('source_count', 0)} sources"
    if report.get("candidate_count"):
        checked += f", {report['candidate_count']} candidates"
    return (
        f"project-corpus: {counts['FAIL']} FAIL, {counts['WARN']} WARN, "
        f"{counts['suppressed']} suppressed in {checked}; {verdict}"
    )


def render(report: Mapping[str, object], options: TextOptions = PLAIN) -> str:
    issues = issues_of(report)
    lines = [line(issue, options) for issue in issues]
    if options.statistics:
        lines.extend(statistics(issues))
    if not options.quiet:
        lines.append(summary_line(report, options))
    return "".join(f"{text}\n" for text in lines)
