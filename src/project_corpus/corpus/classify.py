"""Active task, citations, authority and temporal classes, timestamps (SPEC §2.4, §2.5)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from project_corpus.corpus.policy import ID_RE
from project_corpus.corpus.protocol import section_text
from project_corpus.models import PROJECT_PATH
from project_corpus.models import STATUS_PATH
from project_corpus.models import Document
from project_corpus.models import Source
from project_corpus.timeparse import parse_timestamp

TIMESTAMP_KEYS = ("Created-At", "Date", "Created", "Updated-At", "Last-Verified-At")
REPORT_PATH_RE = re.compile(r"\.project-corpus/reports/[^\s`'\"<>()\[\]|,;*]+")
ID_TOKEN_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")

AUTHORITY_CLASSES = (
    "CANONICAL",
    "ACTIVE_TASK",
    "CITED_REPORT",
    "SCOPED_REPORT",
    "OTHER_TASK",
    "OTHER_STATE",
    "HISTORY",
)
TEMPORAL_STATUSES = ("current", "scoped", "historical", "superseded", "unknown")


def status_facts(status: Document | None) -> tuple[str | None, str | None, str | None]:
    """(active task ID, active path, normalised Last-Verified-At) from STATUS."""
    if status is None:
        return None, None, None
    active = status.meta_value("Active-Task-ID")
    active_id = active if active and active != "NONE" and ID_RE.match(active) else None
    active_path = f".project-corpus/tasks/{active_id}.md" if active_id else None
    verified = status.meta_value("Last-Verified-At")
    return active_id, active_path, parse_timestamp(verified) if verified else None


def source_timestamp(doc: Document) -> str | None:
    for entry in doc.meta:
        if entry.key in TIMESTAMP_KEYS:
            parsed = parse_timestamp(entry.value)
            if parsed:
                return parsed
    return None


def _cited_paths(text: Iterable[str]) -> set[str]:
    found = set()
    for line in text:
        for match in REPORT_PATH_RE.findall(line):
            path = match.rstrip(".:")
            if path.endswith(".md"):
                found.add(path)
    return found


def _id_tokens(text: Iterable[str]) -> set[str]:
    return {token.rstrip(".") for line in text for token in ID_TOKEN_RE.findall(line)}


def cited_reports(
    status: Document | None, active: Document | None, reports: list[tuple[str, Document]]
) -> set[str]:
    """Paths of reports cited by STATUS or the active Task (SPEC §2.4)."""
    paths: set[str] = set()
    tokens: set[str] = set()
    if status is not None:
        paths |= _cited_paths(status.lines)
        tokens |= _id_tokens(text for _, text in section_text(status, "Evidence References"))
    if active is not None:
        paths |= _cited_paths(active.lines)
        tokens |= _id_tokens(active.lines)
    cited = set()
    for path, doc in reports:
        stem = path.rsplit("/", 1)[-1][: -len(".md")]
        report_id = doc.meta_value("Report-ID")
        if path in paths or stem in tokens or (report_id and report_id in tokens):
            cited.add(path)
    return cited


def authority_class(path: str, source_type: str, active_path: str | None, cited: set[str]) -> str:
    if path in (PROJECT_PATH, STATUS_PATH):
        return "CANONICAL"
    if path == active_path:
        return "ACTIVE_TASK"
    if source_type == "report":
        return "CITED_REPORT" if path in cited else "SCOPED_REPORT"
    return {"history": "HISTORY", "task": "OTHER_TASK"}.get(source_type, "OTHER_STATE")


def temporal_status(
    path: str,
    source_type: str,
    active_path: str | None,
    cited: set[str],
    timestamp: str | None,
    last_verified: str | None,
) -> str:
    """Before supersession (applied afterwards, as it wins over every other rule)."""
    if path in (PROJECT_PATH, STATUS_PATH) or path == active_path:
        return "current"
    if source_type in ("history", "task"):
        return "historical"
    if source_type == "report":
        older = timestamp is not None and last_verified is not None and timestamp < last_verified
        return "historical" if path not in cited and older else "scoped"
    return "unknown"


def classify(
    path: str,
    sha256: str,
    size: int,
    source_type: str,
    doc: Document,
    project_id: str,
    active_path: str | None,
    cited: set[str],
    last_verified: str | None,
) -> Source:
    timestamp = source_timestamp(doc)
    own_id = doc.meta_value("Project-ID")
    foreign = source_type in ("task", "report") and own_id is not None and own_id != project_id
    return Source(
        path,
        sha256,
        size,
        source_type,
        authority_class(path, source_type, active_path, cited),
        temporal_status(path, source_type, active_path, cited, timestamp, last_verified),
        timestamp,
        own_id if foreign and own_id else project_id,
        foreign,
        doc,
    )
