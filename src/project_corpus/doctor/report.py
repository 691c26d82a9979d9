"""From raw issues to the doctor report (docs/doctor.md): severity, suppression, fingerprint, order.

The report is plain JSON-ready data; `project_corpus.output` renders it as JSON, text,
SARIF or GitHub workflow commands.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from operator import itemgetter

from project_corpus.core.digest import sha256_hex
from project_corpus.core.errors import ContextError
from project_corpus.core.errors import printable
from project_corpus.core.records import SEVERITIES
from project_corpus.core.records import Corpus
from project_corpus.core.versions import INDEX_SCHEMA_VERSION
from project_corpus.doctor._config import DEFAULT
from project_corpus.doctor._config import LintConfig
from project_corpus.doctor._suppress import NO_DIRECTIVES
from project_corpus.doctor._suppress import Directives
from project_corpus.doctor._suppress import Ignores
from project_corpus.doctor._suppress import parse_directives
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import LoadedJSON
from project_corpus.retrieval.text import normalise

FINGERPRINT_KEY = "projectCorpus/v1"


def fingerprint(code: str, path: str, anchor: str, occurrence: int = 1) -> str:
    """Stable identity of a finding: code, path and normalised anchor text, never the line.
    Identical findings in one file are told apart by their order (`occurrence` ≥ 2)."""
    return _fingerprint(code, path, normalise(anchor), occurrence)


def _fingerprint(code: str, path: str, normalised: str, occurrence: int) -> str:
    text = f"{code}\0{path}\0{normalised}"
    if occurrence > 1:
        text = f"{text}\0{occurrence}"
    return sha256_hex(text.encode("utf-8", "backslashreplace"))[:32]


def message(check: Check, detail: str) -> str:
    """One sentence: the check's summary, then the detail."""
    summary = check.summary.rstrip(".")
    if not detail:
        return summary + "."
    return f"{summary}: {detail.rstrip('.')}."


def _one_line(text: str) -> str:
    return printable(" ".join(text.split()))


class _Texts:
    """Cleaned messages, details and paths: thousands of findings share a few of each, so
    each is cleaned once (memo tables)."""

    def __init__(self) -> None:
        self.lines: dict[str, str] = {}
        self.messages: dict[tuple[str, str], str] = {}
        self.paths: dict[str, str] = {}

    def one_line(self, raw: str) -> str:
        found = self.lines.get(raw)
        if found is None:
            found = self.lines[raw] = _one_line(raw)
        return found

    def message(self, check: Check, issue: Issue) -> str:
        if issue.message:
            return self.one_line(issue.message)
        key = (issue.code, issue.detail)
        found = self.messages.get(key)
        if found is None:
            found = self.messages[key] = _one_line(message(check, issue.detail))
        return found

    def path(self, path: str) -> str:
        found = self.paths.get(path)
        if found is None:
            found = self.paths[path] = printable(path)
        return found


class _Suppressor:
    """Decides whether an issue is suppressed, parsing each source's directives once."""

    def __init__(
        self, corpus: Corpus | None, config: LintConfig, used: set[tuple[str, int, str]]
    ) -> None:
        self.corpus, self.used = corpus, used
        self.ignores = Ignores(config)
        self.cache: dict[str, Directives] = {}

    def active(self, path: str) -> bool:
        """Whether an issue at PATH may be suppressed at all (a directive or an ignore)."""
        return bool(self._directives(path).directives or self.ignores)

    def kind(self, check: Check, issue: Issue) -> str | None:
        if check.gate:
            return None
        directives = self._directives(issue.path)
        directive = directives.covering(issue.code, issue.line) if directives.directives else None
        if directive is not None:
            self.used.add((issue.path, directive.line, issue.code))
            return "inSource"
        if self.ignores and self.ignores.covers(issue.code, issue.path):
            return "external"
        return None

    def _directives(self, path: str) -> Directives:
        found = self.cache.get(path)
        if found is None:
            source = self.corpus.by_path.get(path) if self.corpus else None
            found = self.cache[path] = parse_directives(source.doc) if source else NO_DIRECTIVES
        return found


# The report's order: path, line, code, then the anchor (the fields of `Issue`).
_ORDER = itemgetter(1, 2, 0, 4)


def finalize(
    issues: Sequence[Issue],
    checks: Mapping[str, Check],
    config: LintConfig,
    corpus: Corpus | None,
    used: set[tuple[str, int, str]] | None = None,
) -> list[dict[str, object]]:
    """Report entries for ISSUES, sorted by (path, line, code); a `column` only when known.
    Every directive that suppressed one is added to USED as (path, directive line, code)."""
    suppressor = _Suppressor(corpus, config, set() if used is None else used)
    seen: dict[tuple[str, str, str], int] = {}
    entries = []
    texts = _Texts()
    severities = {code: config.rules.get(code, check.severity) for code, check in checks.items()}
    path, shown, active = None, "", False  # sorted by path: each path's facts once
    for issue in sorted(issues, key=_ORDER):
        code, _, line, detail, anchor, _, extra, normalised, column = issue
        if issue.path != path:
            path, shown, active = issue.path, texts.path(issue.path), suppressor.active(issue.path)
        check = checks[code]
        anchor = anchor if normalised else normalise(anchor)
        key = (code, path, anchor)
        occurrence = seen[key] = seen.get(key, 0) + 1
        suppression = suppressor.kind(check, issue) if active else None
        entry: dict[str, object] = {
            "code": code,
            "severity": severities[code],
            "path": shown,
            "line": max(1, line),
            "message": texts.message(check, issue),
            "detail": texts.one_line(detail),
            "fingerprint": _fingerprint(code, path, anchor, occurrence),
            "suppressed": suppression is not None,
            "suppression": suppression,
        }
        if extra or column:
            entry.update(((("column", column),) if column else ()) + extra)
        entries.append(entry)
    return entries


def fail_on_level(fail_on: str) -> str:
    """`--fail-on` as a severity (any case); USAGE_ERROR for anything else."""
    level = fail_on.upper()
    if level not in SEVERITIES:
        raise ContextError("USAGE_ERROR", f"--fail-on must be FAIL or WARN, not {level!r}")
    return level


def fails(entry: Mapping[str, object], fail_on: str) -> bool:
    """Whether ENTRY fails a run with `--fail-on FAIL_ON`: the one rule of the doctor, the
    candidate linter and the review (an unsuppressed finding at or above FAIL_ON)."""
    severity = entry["severity"]
    if entry["suppressed"] or severity not in SEVERITIES:
        return False
    return SEVERITIES.index(str(severity)) <= SEVERITIES.index(fail_on)


def summary(entries: Sequence[Mapping[str, object]]) -> dict[str, int]:
    active = [e for e in entries if not e["suppressed"]]
    return {
        "FAIL": sum(1 for e in active if e["severity"] == "FAIL"),
        "WARN": sum(1 for e in active if e["severity"] == "WARN"),
        "suppressed": len(entries) - len(active),
    }


def build_report(
    corpus: Corpus,
    entries: list[dict[str, object]],
    *,
    skipped: Sequence[str],
    fail_on: str,
    candidate_count: int,
) -> dict[str, object]:
    counts = summary(entries)
    ok = not any(fails(entry, fail_on) for entry in entries)
    return {
        "ok": ok,
        "project_id": corpus.project_id or None,
        "index_schema_version": INDEX_SCHEMA_VERSION,
        "source_count": len(corpus.sources),
        "candidate_count": candidate_count,
        "issues": entries,
        "summary": counts,
        "checks_skipped": sorted(skipped),
        "non_authoritative": True,
    }


def candidate_count(files: Sequence[LoadedJSON]) -> int:
    return sum(len(f.value) if isinstance(f.value, list) else 1 for f in files)


def lint_report(
    corpus: Corpus, issues: Sequence[Issue], count: int, checks: Mapping[str, Check]
) -> dict[str, object]:
    """The candidate-validate report (same shape as the doctor's, no configuration)."""
    entries = finalize(issues, checks, DEFAULT, None)
    return build_report(corpus, entries, skipped=(), fail_on="FAIL", candidate_count=count)
