"""Active task, authority and temporal classes, timestamps (docs/protocol.md).

Which reports are cited is decided by `references.cited_reports`, the resolver the doctor
uses too."""

from __future__ import annotations

from project_corpus.core.records import Document
from project_corpus.core.records import Source
from project_corpus.core.timeparse import parse_timestamp
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.layout import task_path
from project_corpus.corpus.policy import ID_RE

TIMESTAMP_KEYS = ("Created-At", "Date", "Created", "Updated-At", "Last-Verified-At")

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
    active_path = task_path(active_id) if active_id else None
    verified = status.meta_value("Last-Verified-At")
    return active_id, active_path, parse_timestamp(verified) if verified else None


def source_timestamp(doc: Document) -> str | None:
    for entry in doc.meta:
        if entry.key in TIMESTAMP_KEYS:
            parsed = parse_timestamp(entry.value)
            if parsed:
                return parsed
    return None


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
    if source_type == "state":  # a durable reference document (SPEC §2.5)
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
