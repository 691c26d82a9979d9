"""GitHub Actions workflow commands: one annotation per unsuppressed finding.

    ::error file=.project-corpus/state/STATUS.md,line=4,title=INVALID_METADATA::A metadata...

FAIL -> `::error`, WARN -> `::warning`. Data escapes `%`, CR and LF; properties also `:`
and `,` (as the Actions toolkit does). GitHub shows at most 10 error and 10 warning
annotations per step; when a report has more, a `::notice` says so and the full text
report follows, so no finding is lost from the log.
"""

from __future__ import annotations

from collections.abc import Mapping

from project_corpus.output import text
from project_corpus.output.escape import terminal

ANNOTATIONS_PER_KIND = 10
COMMANDS = {"FAIL": "error", "WARN": "warning"}  # by severity (models.SEVERITIES)


def escape_data(value: str) -> str:
    """VALUE for a workflow command: `%`, CR and LF encoded, other controls escaped (the one
    home of this escaping; the GitHub Action's logic imports it)."""
    encoded = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return terminal(encoded)


def escape_property(value: str) -> str:
    """A workflow command's property value: data escaping plus `:` and `,`."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(issue: Mapping[str, object], prefix: str = "") -> str:
    """One workflow command; PREFIX (ROOT's path from the workspace, "/"-terminated) goes
    before the ROOT-relative path, so GitHub finds the file in the checkout."""
    command = COMMANDS.get(str(issue["severity"]), "warning")
    place: list[tuple[str, object]] = [("file", prefix + str(issue["path"]))]
    place.append(("line", issue["line"]))
    if "column" in issue:
        place.append(("col", issue["column"]))
    props = ",".join(
        f"{key}={escape_property(str(value))}" for key, value in (*place, ("title", issue["code"]))
    )
    return f"::{command} {props}::{escape_data(str(issue['message']))}"


def render(report: Mapping[str, object], options: text.TextOptions | None = None) -> str:
    """The annotations (paths prefixed with OPTIONS.prefix, the CLI's ROOT as given; the
    Action passes none and prefixes ROOT's path in the workspace itself)."""
    prefix = options.prefix if options is not None else ""
    issues = text.issues_of(report)
    lines = [annotation(issue, prefix) for issue in issues]
    per_kind = [sum(1 for i in issues if i["severity"] == s) for s in COMMANDS]
    if any(count > ANNOTATIONS_PER_KIND for count in per_kind):
        lines.append(overflow_notice(len(issues)))
        plain = text.TextOptions(prefix=prefix)
        lines.extend(text.render(report, plain).rstrip("\n").split("\n"))
    else:
        lines.append(text.summary_line(report))
    return "\n".join(lines) + "\n"


def overflow_notice(count: int) -> str:
    return (
        f"::notice title=project-corpus::{count} findings; GitHub shows at most "
        f"{ANNOTATIONS_PER_KIND} errors and {ANNOTATIONS_PER_KIND} warnings per step. "
        "The full report follows."
    )
