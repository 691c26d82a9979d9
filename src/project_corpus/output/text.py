"""The text report, as flake8 and ruff print theirs: one `path:line:col: SEVERITY CODE message`
line per unsuppressed finding; in the full view (the default) the offending source line, a
caret under the column and a `help:` line with the check's fix follow it (`--no-show-source`
gives the concise view: finding lines only); optionally a count per code (`--statistics`),
then a summary line (`--quiet` drops it):

    mem/.project-corpus/state/STATUS.md:4:19: FAIL INVALID_METADATA A metadata value is...
        Lifecycle-Status: RUNNING
                          ^
        help: Write the value the detail asks for.
    project-corpus: 1 FAIL, 0 WARN, 0 suppressed in 9 sources, 2 candidates; failed

Paths are written from the current folder (`TextOptions.prefix` is ROOT as the command line
named it), so a shell, an editor's quickfix or a terminal's link can open them; JSON and
SARIF stay ROOT-relative. The column is the finding's own (the token that causes it) or,
for a finding about a whole line, that line's first non-blank character (1 when the source
cannot be read). Every finding line carries its severity (FAIL or WARN), so a piped or
uncoloured log still says which line blocked the run. The summary line never starts with
`path:line:`; source, caret and help lines are indented, so a problem matcher for
`path:line:col:` never mistakes one for a finding. Colour (ANSI) only when asked for: the
CLI decides (a terminal, `NO_COLOR`, `FORCE_COLOR`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import NamedTuple

from project_corpus.output.escape import terminal

SourceLine = Callable[[str, int], "str | None"]
# A finding line, as docs/doctor.md documents it for problem matchers and scripts: the path
# (from the current folder), line, column, severity, code, message. Nothing else matches it.
FINDING_LINE = (
    r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): (?P<severity>FAIL|WARN) "
    r"(?P<code>[A-Z][A-Z0-9_]*) (?P<message>.*)$"
)
STYLES = {"FAIL": "1;31", "WARN": "1;33", "path": "1", "dim": "2", "ok": "1;32"}
INDENT = "    "
# The source line under a finding is shown as a window of at most this many characters
# around the column (`…` where it was cut): 2,000 findings on one long line print 2,000
# windows, not 2,000 copies of the line.
SOURCE_WINDOW = 120


class RuleText(NamedTuple):
    """What the text report says about a code besides its findings: the check's one-line
    summary (`--statistics`) and its fix (the `help:` line), each "" when unknown."""

    summary: str = ""
    fix: str = ""


class TextOptions(NamedTuple):
    show_source: bool = True
    statistics: bool = False
    quiet: bool = False
    color: bool = False
    source_line: SourceLine | None = None  # (path, line) -> the line's text, or None
    prefix: str = ""  # ROOT as named on the command line, with a trailing "/" ("" for ".")
    rules: Mapping[str, RuleText] = {}  # code -> its summary and fix


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
    """`path:line:col: SEVERITY CODE message`; in the full view the source line with a caret
    under the column and the `help:` line follow."""
    source = _source(issue, options)
    col = _column(issue, source)
    severity = str(issue.get("severity", "WARN"))
    place = f"{one_line(options.prefix + str(issue['path']))}:{issue['line']}:{col}:"
    where = paint(place, "path", options)
    head = f"{where} {paint(severity, severity, options)} {issue['code']} "
    head += one_line(issue["message"])
    if not options.show_source:
        return head
    rows = [head]
    if source is not None:
        shown, under = window(source, col)
        rows.append(f"{INDENT}{shown}")
        rows.append(f"{INDENT}{paint(' ' * under + '^', 'dim', options)}")
    fix = options.rules.get(str(issue["code"]), RuleText()).fix
    if fix:
        rows.append(f"{INDENT}{paint('help:', 'dim', options)} {one_line(fix)}")
    return "\n".join(rows)


def window(source: str, col: int) -> tuple[str, int]:
    """(the part of SOURCE around column COL, at most SOURCE_WINDOW characters, escaped and
    tab-expanded, `…` where cut; the caret's offset in it)."""
    start = max(0, min(col - 1 - SOURCE_WINDOW // 2, len(source) - SOURCE_WINDOW))
    end = start + SOURCE_WINDOW
    before = "…" if start > 0 else ""
    rest = source[end : end + 4 * SOURCE_WINDOW]  # never the whole line: once per finding
    after = "…" if rest.strip() or len(source) > end + len(rest) else ""
    part = source[start:end]
    head = one_line(part[: col - 1 - start].expandtabs(4))
    shown = one_line(part.expandtabs(4).rstrip())
    return f"{before}{shown}{after}", len(before) + len(head)


def _column(issue: Mapping[str, object], source: str | None) -> int:
    """The finding's own column when it has one (within its line), else the line's first
    non-blank character; 1 when the source cannot be read."""
    column = issue.get("column")
    if isinstance(column, int) and column > 0:
        return column if source is None else min(column, len(source) + 1)
    if source is None or not source.strip():
        return 1
    return len(source) - len(source.lstrip()) + 1


def statistics(
    issues: Sequence[Mapping[str, object]], rules: Mapping[str, RuleText] | None = None
) -> list[str]:
    """One `count SEVERITY CODE summary` line per code, most frequent first (as flake8's
    `--statistics`: the count, then the code and its message; the check's summary, or the
    first finding's message when the code has none)."""
    counts = Counter((str(i["code"]), str(i.get("severity", ""))) for i in issues)
    first: dict[str, str] = {}
    for issue in issues:
        first.setdefault(str(issue["code"]), one_line(issue["message"]))
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    known = rules or {}
    return [
        f"{count:<6} {severity} {code} {known.get(code, RuleText()).summary or first[code]}"
        for (code, severity), count in ordered
    ]


def summary_line(report: Mapping[str, object], options: TextOptions = PLAIN) -> str:
    counts = report.get("summary")
    assert isinstance(counts, Mapping)
    verdict = paint("ok", "ok", options) if report.get("ok") else paint("failed", "FAIL", options)
    checked = counted(int(str(report.get("source_count", 0))), "source")
    if report.get("candidate_count"):
        checked += ", " + counted(int(str(report["candidate_count"])), "candidate")
    baseline = report.get("baseline")
    if isinstance(baseline, Mapping):  # --baseline: the counts are of new findings only
        unchanged, absent = len(baseline["unchanged"]), len(baseline["absent"])
        checked += f"; {unchanged} unchanged, {absent} absent since the baseline"
        if baseline.get("dropped"):
            checked += f" ({baseline['dropped']} baseline entries dropped: not a corpus path)"
    return (
        f"project-corpus: {counts['FAIL']} FAIL, {counts['WARN']} WARN, "
        f"{counts['suppressed']} suppressed in {checked}; {verdict}"
    )


def counted(number: int, noun: str) -> str:
    """`1 result`, `2 results`: NUMBER and NOUN, plural unless one."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


def render(report: Mapping[str, object], options: TextOptions = PLAIN) -> str:
    issues = issues_of(report)
    lines = [line(issue, options) for issue in issues]
    if options.statistics:
        lines.extend(statistics(issues, options.rules))
    if not options.quiet:
        lines.append(summary_line(report, options))
    return "".join(f"{text}\n" for text in lines)
