"""The GitHub Action's views (`action.py` runs the steps and does the I/O).

Pure functions from a `context doctor` / `candidate-validate` report to what the action shows:
the job-summary Markdown (counts, a capped table of findings linked to their lines, error
envelopes), workflow commands and SARIF locations prefixed with ROOT's path inside the
workspace, and the byte caps of the job summary. The step records (`Context`, `Completed`) live
here so both modules share them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from collections.abc import Mapping
from typing import NamedTuple
from urllib.parse import quote

from project_corpus.core.errors import EXIT_ERROR
from project_corpus.core.errors import EXIT_FINDINGS
from project_corpus.core.errors import EXIT_INTERNAL
from project_corpus.core.errors import EXIT_OK
from project_corpus.output.escape import markdown_cell
from project_corpus.output.escape import markdown_code
from project_corpus.output.github import escape_data
from project_corpus.output.github import escape_property

MAX_ROWS = 200
MAX_SECTION_BYTES = 256 * 1024
RESULT_WORDS = {
    EXIT_OK: "passed",
    EXIT_FINDINGS: "failed",
    EXIT_ERROR: "error",
    EXIT_INTERNAL: "internal error",
}


class Completed(NamedTuple):
    code: int
    out: str
    err: str


class Context(NamedTuple):
    """Everything a step reads from its environment."""

    env: Mapping[str, str]
    root: str
    prefix: str
    emit: Callable[[str], None]

    def input(self, name: str, default: str = "") -> str:
        key = "INPUT_" + name.upper().replace("-", "_")
        return self.env.get(key, "").strip() or default


# --- workflow commands and SARIF -----------------------------------------------------


def annotation(level: str, title: str, message: str) -> str:
    return f"::{level} title={escape_property(title)}::{escape_data(message)}\n"


def prefix_sarif(value: object, prefix: str) -> object:
    """Prefix every `%SRCROOT%`-relative artifact URI in a SARIF log with PREFIX."""
    if isinstance(value, list):
        return [prefix_sarif(v, prefix) for v in value]
    if not isinstance(value, dict):
        return value
    fixed = {k: prefix_sarif(v, prefix) for k, v in value.items()}
    location = fixed.get("artifactLocation")
    if (
        isinstance(location, dict)
        and isinstance(location.get("uri"), str)
        and location.get("uriBaseId", "%SRCROOT%") == "%SRCROOT%"
    ):
        fixed["artifactLocation"] = {**location, "uri": quote(prefix) + location["uri"]}
    return fixed


def cut_bytes(text: str, limit: int, note: str = "\n_…cut to fit the job summary._\n") -> str:
    """TEXT cut at a line boundary to at most LIMIT UTF-8 bytes, with NOTE when cut."""
    if len(text.encode("utf-8")) <= limit:
        return text
    budget = limit - len(note.encode("utf-8"))
    kept: list[str] = []
    used = 0
    for line in text.splitlines(keepends=True):
        size = len(line.encode("utf-8"))
        if used + size > budget:
            break
        kept.append(line)
        used += size
    return "".join(kept) + (note if budget >= 0 else "")


# --- the job summary -------------------------------------------------------------------


def line_link(env: Mapping[str, str], path: str, line: int) -> str:
    repo, sha = env.get("GITHUB_REPOSITORY", ""), env.get("GITHUB_SHA", "")
    label = markdown_cell(f"{path}:{line}")
    if not repo or not sha:
        return label
    server = env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
    return f"[{label}]({server}/{repo}/blob/{sha}/{quote(path)}#L{line})"


def visible_issues(report: Mapping[str, object]) -> list[dict[str, object]]:
    issues = report.get("issues")
    if not isinstance(issues, list):
        return []
    return [i for i in issues if isinstance(i, dict) and not i.get("suppressed")]


def issue_table(ctx: Context, issues: list[dict[str, object]]) -> str:
    """Counts by code, then a capped table of findings linked to their lines."""
    counts = Counter((str(i.get("code")), str(i.get("severity"))) for i in issues)
    lines = ["| code | severity | count |", "|---|---|---:|"]
    lines += [
        f"| {markdown_code(c)} | {markdown_cell(s)} | {n} |" for (c, s), n in sorted(counts.items())
    ]
    lines += ["", "| severity | code | location | message |", "|---|---|---|---|"]
    for issue in issues[:MAX_ROWS]:
        path = ctx.prefix + str(issue.get("path", ""))
        line = issue.get("line")
        where = line_link(ctx.env, path, line if isinstance(line, int) else 1)
        lines.append(
            f"| {markdown_cell(issue.get('severity'))} | {markdown_code(issue.get('code'))} "
            f"| {where} | {markdown_cell(issue.get('message', ''))} |"
        )
    if len(issues) > MAX_ROWS:
        lines.append(f"\n_Showing {MAX_ROWS} of {len(issues)} findings; see the log or SARIF._")
    return cut_bytes("\n".join(lines) + "\n", MAX_SECTION_BYTES)


def doctor_summary(ctx: Context, report: Mapping[str, object], code: int) -> str:
    summary = report.get("summary")
    counts = summary if isinstance(summary, dict) else {}
    fails, warns = counts.get("FAIL", 0), counts.get("WARN", 0)
    head = (
        f"## project-corpus doctor: {RESULT_WORDS.get(code, 'failed')}\n\n"
        f"Root {markdown_code(ctx.root)} · project {markdown_code(report.get('project_id'))} · "
        f"**{fails} FAIL**, **{warns} WARN**, {counts.get('suppressed', 0)} suppressed · "
        f"fail on {markdown_cell(ctx.input('fail-on', 'FAIL'))} · exit {code}\n\n"
    )
    issues = visible_issues(report)
    return head + (issue_table(ctx, issues) if issues else "No findings.\n") + "\n"


def error_summary(title: str, result: Completed) -> tuple[str, str]:
    """(summary markdown, annotation) for a command that stopped with an error envelope."""
    code = "INTERNAL_ERROR" if result.code == EXIT_INTERNAL else "ERROR"
    detail = result.err.strip()
    try:
        envelope = json.loads(result.err)
        code, detail = str(envelope["error"]), str(envelope["detail"])
    except (ValueError, KeyError, TypeError):
        pass
    markdown = f"## {title}: error\n\n{markdown_code(code)}: {markdown_cell(detail)}\n\n"
    return markdown, annotation("error", f"{title} {code}", detail)
