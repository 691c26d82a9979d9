"""Pure renderers of a memory review (`context review`, docs/review.md).

`REVIEW_RENDERERS` is the registry: format -> function. Markdown is for a job summary or a pull
request comment: the STATUS changes first (what an agent will act on next), then tasks,
reports, the policy, candidates and findings, each capped (a suppressed new finding is marked
so); text is the same in plain lines, each new unsuppressed finding a line
`path:line:col: SEVERITY CODE message` like the doctor's; github is workflow commands for the
**new** findings only, then one summary line. Every path may be shown with PREFIX (the root's
path inside the repository, for the GitHub Action).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence

from project_corpus.core.errors import ContextError
from project_corpus.core.jsonio import pretty
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.output.escape import markdown_cell
from project_corpus.output.escape import markdown_code
from project_corpus.output.escape import terminal
from project_corpus.output.github import annotation
from project_corpus.output.github import escape_data

MAX_ROWS = 50
MAX_TEXT = 160
Row = Mapping[str, object]


def _rows(value: object) -> list[Row]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, Sequence) else []


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _group(report: Row, key: str) -> Row:
    value = report.get(key)
    return value if isinstance(value, Mapping) else {}


def _short(value: object) -> str:
    """A value on one line, cut to MAX_TEXT characters (lists joined by commas)."""
    if value is None:
        return "—"
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _where(prefix: str, path: object, line: object) -> str:
    return f"{prefix}{path}:{line}" if isinstance(line, int) else f"{prefix}{path}"


def headline(report: Row) -> str:
    """One line: the verdict and the counts that need a person."""
    summary = _group(report, "summary")
    verdict = "passed" if report.get("ok") else "failed"
    parts = [
        f"{summary.get('status_changes', 0)} STATUS change(s)",
        f"{summary.get('new_findings', 0)} new finding(s)",
        f"{summary.get('fixed_findings', 0)} fixed",
        f"{summary.get('unchanged_findings', 0)} unchanged",
    ]
    if summary.get("needs_owner_review"):
        parts.append(f"{summary['needs_owner_review']} policy change(s) need an owner's review")
    if summary.get("invalid_candidates"):
        parts.append(f"{summary['invalid_candidates']} invalid candidate(s)")
    return f"project-corpus review: {verdict}: " + "; ".join(parts)


def _side(side: Row) -> str:
    if side.get("working_tree"):
        return "the working tree"
    commit = str(side.get("commit") or "")[:12]
    return f"{side.get('revision')} ({commit})"


# --- markdown ---------------------------------------------------------------------------


def _capped(lines: list[str], total: int) -> list[str]:
    if total > MAX_ROWS:
        lines.append(f"\n_…and {total - MAX_ROWS} more; see the JSON review._")
    return lines


def _md_status(report: Row, prefix: str) -> list[str]:
    changes = _rows(report.get("status_changes"))
    if not changes:
        return ["### STATUS", "", "No change to STATUS.", ""]
    lines = ["### STATUS", "", "| field | before | after | head line |", "|---|---|---|---|"]
    for c in changes[:MAX_ROWS]:
        where = _where(prefix, STATUS_PATH, c.get("line")) if c.get("line") else "—"
        lines.append(
            f"| **{markdown_cell(c.get('field'))}** | {markdown_cell(_short(c.get('before')))} "
            f"| {markdown_cell(_short(c.get('after')))} | {markdown_code(where)} |"
        )
    return [*_capped(lines, len(changes)), ""]


def _artifact_lines(
    group: Row, prefix: str, code: Callable[[object], str], cell: Callable[[object], str]
) -> list[str]:
    """One list item per task or report change: paths through CODE, other text through CELL."""
    lines = []
    for label in ("added", "removed"):
        for a in _rows(group.get(label)):
            state = f", {a.get('state')}" if a.get("state") else ""
            what = cell(f"({a.get('id')}{state})")
            lines.append(f"- {label} {code(prefix + str(a.get('path')))} {what}")
    for a in _rows(group.get("changed")):
        fields = [
            f"{f.get('field')}: {_short(f.get('before'))} → {_short(f.get('after'))}"
            for f in _rows(a.get("fields"))
        ] or ["text changed"]
        lines.append(f"- changed {code(prefix + str(a.get('path')))}: " + cell("; ".join(fields)))
    for a in _rows(group.get("newly_superseded")):
        by = ", ".join(code(prefix + str(p)) for p in _list(a.get("superseded_by"))) or "—"
        lines.append(f"- newly superseded {code(prefix + str(a.get('path')))} by {by}")
    return lines


def _md_artifacts(report: Row, prefix: str) -> list[str]:
    out: list[str] = []
    for key, title in (("tasks", "Tasks"), ("reports", "Reports")):
        lines = _artifact_lines(_group(report, key), prefix, markdown_code, markdown_cell)
        if lines:
            out += [f"### {title}", "", *_capped(lines[:MAX_ROWS], len(lines)), ""]
    return out


def _md_policy(report: Row) -> list[str]:
    changes = _rows(report.get("policy_changes"))
    if not changes:
        return []
    lines = ["### Policy", "", "| field | change | owner review |", "|---|---|---|"]
    for c in changes:
        added, removed = _list(c.get("added")), _list(c.get("removed"))
        if added or removed:
            what = " ".join([*(f"+{a}" for a in added), *(f"−{r}" for r in removed)])
        else:
            what = f"{_short(c.get('before'))} → {_short(c.get('after'))}"
        flag = "**needed**" if c.get("needs_owner_review") else "—"
        lines.append(f"| {markdown_code(c.get('field'))} | {markdown_cell(what)} | {flag} |")
    return [*lines, ""]


def _md_candidates(report: Row, prefix: str) -> list[str]:
    candidates = _rows(report.get("candidates"))
    if not candidates:
        return []
    lines = ["### Candidates", ""]
    for c in candidates[:MAX_ROWS]:
        verdict = (
            "valid"
            if c.get("valid")
            else f"**invalid** ({len(_rows(c.get('problems')))} problem(s))"
        )
        cites = [
            f"{markdown_code(_where(prefix, r.get('source_path'), r.get('line_start')))}"
            + (" **modified in this change**" if r.get("modified_in_change") else "")
            for r in _rows(c.get("refs"))
        ]
        line = f"- {c.get('change')} {markdown_code(prefix + str(c.get('path')))}: {verdict}"
        lines.append(line + (f"; cites {', '.join(cites)}" if cites else ""))
    return [*_capped(lines, len(candidates)), ""]


def _md_findings(report: Row, prefix: str) -> list[str]:
    findings = _group(report, "findings")
    new = _rows(findings.get("new"))
    counts = (
        f"**{len(new)} new**, {len(_rows(findings.get('fixed')))} fixed, "
        f"{len(_rows(findings.get('unchanged')))} unchanged (fail on {report.get('fail_on')})."
    )
    lines = ["### Findings", "", counts, ""]
    if new:
        lines += ["| severity | code | location | message |", "|---|---|---|---|"]
        for i in new[:MAX_ROWS]:
            where = _where(prefix, i.get("path"), i.get("line"))
            severity = markdown_cell(i.get("severity"))
            if i.get("suppressed"):
                severity = f"~~{severity}~~ suppressed"
            lines.append(
                f"| {severity} | {markdown_code(i.get('code'))} "
                f"| {markdown_code(where)} | {markdown_cell(i.get('message'))} |"
            )
        lines = [*_capped(lines, len(new)), ""]
    return lines


def render_markdown(report: Row, prefix: str = "") -> str:
    base, head = _group(report, "base"), _group(report, "head")
    mark = "✅" if report.get("ok") else "❌"
    lines = [
        f"## {mark} {markdown_cell(headline(report))}",
        "",
        f"Base {markdown_cell(_side(base))} → head {markdown_cell(_side(head))} · project "
        f"{markdown_code(report.get('project_id'))}",
        "",
        *_md_status(report, prefix),
        *_md_artifacts(report, prefix),
        *_md_policy(report),
        *_md_candidates(report, prefix),
        *_md_findings(report, prefix),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"


# --- text and github --------------------------------------------------------------------


def render_text(report: Row, prefix: str = "") -> str:
    lines = [
        headline(report),
        f"base {_side(_group(report, 'base'))} -> head {_side(_group(report, 'head'))}",
    ]
    for c in _rows(report.get("status_changes")):
        where = f" ({_where(prefix, STATUS_PATH, c['line'])})" if c.get("line") else ""
        lines.append(
            f"STATUS {c.get('field')}{where}: {_short(c.get('before'))} -> {_short(c.get('after'))}"
        )
    for key in ("tasks", "reports"):
        changes = _artifact_lines(_group(report, key), prefix, str, str)
        lines += [f"{key[:-1]}: {line[2:]}" for line in changes]
    for c in _rows(report.get("policy_changes")):
        flag = " [needs owner review]" if c.get("needs_owner_review") else ""
        lines.append(
            f"policy {c.get('field')}: {_short(c.get('before'))} -> {_short(c.get('after'))}{flag}"
        )
    for c in _rows(report.get("candidates")):
        modified = [r for r in _rows(c.get("refs")) if r.get("modified_in_change")]
        note = f"; {len(modified)} cited line(s) modified in this change" if modified else ""
        verdict = "valid" if c.get("valid") else "invalid"
        lines.append(f"candidate {c.get('change')} {prefix}{c.get('path')}: {verdict}{note}")
    for i in _rows(_group(report, "findings").get("new")):
        if not i.get("suppressed"):
            lines.append(_finding_line(i, prefix))
    return "".join(terminal(line) + "\n" for line in lines)


def _finding_line(issue: Row, prefix: str) -> str:
    """`path:line:col: SEVERITY CODE message`, as the doctor's text report writes a finding."""
    line, column = issue.get("line"), issue.get("column")
    place = f"{prefix}{issue.get('path')}:{line if isinstance(line, int) else 1}"
    place += f":{column if isinstance(column, int) and column > 0 else 1}:"
    return f"{place} {issue.get('severity')} {issue.get('code')} {issue.get('message')}"


def render_github(report: Row, prefix: str = "") -> str:
    """Annotations on the new, unsuppressed findings only, then the headline as a notice."""
    new = [i for i in _rows(_group(report, "findings").get("new")) if not i.get("suppressed")]
    lines = [annotation({**i, "path": prefix + str(i.get("path"))}) for i in new]
    lines.append(f"::notice title=project-corpus review::{escape_data(headline(report))}")
    return "\n".join(lines) + "\n"


def render_json(report: Row, prefix: str = "") -> str:
    return pretty(dict(report))


REVIEW_RENDERERS: dict[str, Callable[[Row, str], str]] = {
    "json": render_json,
    "markdown": render_markdown,
    "text": render_text,
    "github": render_github,
}


def render_review(report: Row, fmt: str, prefix: str = "") -> str:
    """REPORT as FMT (json, markdown, text or github)."""
    render = REVIEW_RENDERERS.get(fmt)
    if render is None:
        raise ContextError(
            "USAGE_ERROR", f"unknown format {fmt!r}; one of: {', '.join(REVIEW_RENDERERS)}"
        )
    return render(report, prefix)
