"""Protocol V2 conformance of the canonical documents and artifacts (docs/protocol.md).

Pure functions over parsed `Document`s: each returns located `Finding`s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from project_corpus.core.records import Document
from project_corpus.core.records import Finding
from project_corpus.core.timeparse import parse_timestamp
from project_corpus.core.versions import PROTOCOL_VERSION
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.policy import ID_RE
from project_corpus.corpus.vocabulary import EVIDENCE_CLASSES
from project_corpus.corpus.vocabulary import EXACT_NEXT_ACTION
from project_corpus.corpus.vocabulary import LIFECYCLE
from project_corpus.corpus.vocabulary import PROJECT_KEYS
from project_corpus.corpus.vocabulary import PROJECT_SECTIONS
from project_corpus.corpus.vocabulary import REPORT_ID
from project_corpus.corpus.vocabulary import REPORT_KEYS
from project_corpus.corpus.vocabulary import REPORT_SECTIONS
from project_corpus.corpus.vocabulary import STATUS_KEYS
from project_corpus.corpus.vocabulary import STATUS_SECTIONS
from project_corpus.corpus.vocabulary import TASK_ID
from project_corpus.corpus.vocabulary import TASK_KEYS
from project_corpus.corpus.vocabulary import TASK_SECTIONS

ABSOLUTE_ROOT_RE = re.compile(
    r"^\s*(filesystem-root|project-root|physical-root)\s*:\s*(/|[a-z]:[\\/]|\\\\)", re.IGNORECASE
)
GENERATED_MARKER = "NON_AUTHORITATIVE_VIEW"


def _finding(code: str, path: str, line: int, detail: str) -> Finding:
    return Finding(code, path, line, detail, anchor=f"{code}:{detail}")


def check_metadata(doc: Document, path: str, keys: tuple[str, ...]) -> Iterator[Finding]:
    """Missing and duplicate keys, Protocol-Version and ID grammar of the standard keys."""
    seen: set[str] = set()
    for entry in doc.meta:
        if entry.key in seen and entry.key in keys:
            yield _finding("INVALID_METADATA", path, entry.line, f"duplicate {entry.key}")
        seen.add(entry.key)
    for key in keys:
        if key not in seen:
            yield _finding("MISSING_METADATA", path, 1, key)
    for entry in doc.meta:
        if entry.key == "Protocol-Version" and entry.value != PROTOCOL_VERSION:
            yield _version_finding(path, entry.line, entry.value)
        elif entry.key in ("Project-ID", TASK_ID, REPORT_ID) and not ID_RE.match(entry.value):
            yield _finding(
                "INVALID_METADATA",
                path,
                entry.line,
                f"{entry.key} {entry.value!r} is not a valid ID",
            )


def _version_finding(path: str, line: int, value: str) -> Finding:
    return _finding(
        "INVALID_METADATA", path, line, f"Protocol-Version {value!r} is not {PROTOCOL_VERSION}"
    )


def check_artifact_version(doc: Document, path: str) -> Iterator[Finding]:
    """A Task's or Report's `Protocol-Version` other than 2.0: the gate's INVALID_METADATA, as
    in PROJECT and STATUS (a missing key is only ARTIFACT_SHAPE, `check_artifact`)."""
    for entry in doc.meta:
        if entry.key == "Protocol-Version" and entry.value != PROTOCOL_VERSION:
            yield _version_finding(path, entry.line, entry.value)


def check_sections(doc: Document, path: str, required: tuple[str, ...]) -> Iterator[Finding]:
    """Each required H2 exactly once, in order (SECTION_ORDER only when all occur once)."""
    lines: dict[str, list[int]] = {name: [] for name in required}
    for heading in doc.headings:
        if heading.level == 2 and heading.title in lines:
            lines[heading.title].append(heading.line)
    for name in required:
        if not lines[name]:
            yield _finding("MISSING_SECTION", path, 1, name)
        for extra in lines[name][1:]:
            yield _finding("DUPLICATE_SECTION", path, extra, name)
    if all(len(found) == 1 for found in lines.values()):
        order = sorted(required, key=lambda name: lines[name][0])
        for expected, actual in zip(required, order, strict=True):
            if expected != actual:
                yield _finding(
                    "SECTION_ORDER", path, lines[actual][0], f"expected {', '.join(required)}"
                )
                break


def section_text(doc: Document, title: str) -> list[tuple[int, str]]:
    """(line, text) of the non-blank lines of the first H2 section with this title."""
    start = next((h.line for h in doc.headings if h.level == 2 and h.title == title), None)
    if start is None:
        return []
    end = next(
        (h.line - 1 for h in doc.headings if h.line > start and h.level <= 2), len(doc.lines)
    )
    return [(n, doc.lines[n - 1]) for n in range(start + 1, end + 1) if doc.lines[n - 1].strip()]


def _role_overlap(doc: Document, path: str, foreign: tuple[str, ...]) -> Iterator[Finding]:
    for heading in doc.headings:
        if heading.level == 2 and heading.title in foreign:
            yield _finding("ROLE_OVERLAP", path, heading.line, heading.title)


def check_project(doc: Document) -> Iterator[Finding]:
    yield from check_metadata(doc, PROJECT_PATH, PROJECT_KEYS)
    logical = doc.meta_value("Logical-Name")
    if logical is not None and not logical:
        where = next(m.line for m in doc.meta if m.key == "Logical-Name")
        yield _finding("INVALID_METADATA", PROJECT_PATH, where, "Logical-Name is empty")
    yield from check_sections(doc, PROJECT_PATH, PROJECT_SECTIONS)
    yield from _role_overlap(doc, PROJECT_PATH, STATUS_SECTIONS)
    for number, line in enumerate(doc.lines, start=1):
        if ABSOLUTE_ROOT_RE.match(line):
            yield _finding(
                "PROJECT_ABSOLUTE_ROOT", PROJECT_PATH, number, line.split(":", 1)[0].strip()
            )


def check_status(doc: Document) -> Iterator[Finding]:
    yield from check_metadata(doc, STATUS_PATH, STATUS_KEYS)
    for entry in doc.meta:
        problem = _status_value_problem(entry.key, entry.value)
        if problem:
            yield _finding("INVALID_METADATA", STATUS_PATH, entry.line, problem)
    yield from check_sections(doc, STATUS_PATH, STATUS_SECTIONS)
    yield from _role_overlap(doc, STATUS_PATH, PROJECT_SECTIONS)
    if doc.meta_value("Lifecycle-Status") == "ACTIVE" and not has_next_action(doc):
        line = next(m.line for m in doc.meta if m.key == "Lifecycle-Status")
        yield _finding(
            "INVALID_METADATA", STATUS_PATH, line, "ACTIVE status needs a real Exact Next Action"
        )


def _status_value_problem(key: str, value: str) -> str | None:
    if key == "Lifecycle-Status" and value not in LIFECYCLE:
        return f"Lifecycle-Status {value!r} is not one of {', '.join(LIFECYCLE)}"
    if key == "Evidence-Class" and value not in EVIDENCE_CLASSES:
        return f"Evidence-Class {value!r} is not one of {', '.join(EVIDENCE_CLASSES)}"
    if key == "Active-Task-ID" and value != "NONE" and not ID_RE.match(value):
        return f"Active-Task-ID {value!r} is neither NONE nor a valid ID"
    if key == "Last-Verified-At" and value != "UNVERIFIED" and not is_utc_datetime(value):
        return f"Last-Verified-At {value!r} is neither an RFC 3339 UTC time nor UNVERIFIED"
    return None


def is_utc_datetime(value: str) -> bool:
    return (
        "T" in value.upper()
        and parse_timestamp(value) is not None
        and (value.upper().endswith("Z") or value.endswith(("+00:00", "-00:00")))
    )


def has_next_action(doc: Document) -> bool:
    content = [text.strip() for _, text in section_text(doc, EXACT_NEXT_ACTION)]
    return any(text and text.strip("-*+ .").upper() not in ("", "NONE") for text in content)


def check_artifact(doc: Document, path: str, source_type: str) -> Iterator[Finding]:
    """Task/Report shape (doctor's ARTIFACT_SHAPE): keys, sections, ID equal to the stem."""
    keys, sections, id_key = (
        (TASK_KEYS, TASK_SECTIONS, TASK_ID)
        if source_type == "task"
        else (REPORT_KEYS, REPORT_SECTIONS, REPORT_ID)
    )
    present = {entry.key for entry in doc.meta}
    titles = {heading.title for heading in doc.headings if heading.level == 2}
    missing = [k for k in keys if k not in present] + [n for n in sections if n not in titles]
    for name in missing:
        yield _finding("ARTIFACT_SHAPE", path, 1, f"missing {name}")
    value = doc.meta_value(id_key)
    stem = path.rsplit("/", 1)[-1][: -len(".md")]
    if value is not None and value != stem:
        line = next(m.line for m in doc.meta if m.key == id_key)
        yield _finding(
            "ARTIFACT_SHAPE", path, line, f"{id_key} {value!r} differs from file stem {stem!r}"
        )


def check_generated(path: str, text: str) -> Iterator[Finding]:
    if GENERATED_MARKER not in text[:512]:
        yield _finding(
            "GENERATED_VIEW_UNMARKED", path, 1, f"no {GENERATED_MARKER} in the first 512 characters"
        )
