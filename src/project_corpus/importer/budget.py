"""The corpus limits (docs/protocol.md §2.3) applied to a plan: what does not fit is left out
with the reason `limit`, never a crash.

PROJECT and STATUS always fit; then `state/` references, Tasks, Reports and History, newest
first within each, until the next document would pass a limit: sources, bytes or non-blank
lines of the scoped snapshot.
"""

from __future__ import annotations

from project_corpus.core.limits import MAX_NONBLANK_LINES
from project_corpus.core.limits import MAX_SOURCES
from project_corpus.core.limits import MAX_TOTAL_BYTES
from project_corpus.importer.records import Doc
from project_corpus.importer.records import Left
from project_corpus.importer.render import Rendered

ORDER = {"project": 0, "status": 1, "reference": 2, "task": 3, "report": 4, "history": 5}


def _priority(doc: Doc) -> tuple[int, str, str]:
    # Newest first: dates compare as text; an undated document sorts after the dated ones.
    inverted = "".join(chr(0x7F - ord(c)) for c in doc.date) if doc.date else "\x7f"
    return ORDER[doc.kind], inverted, doc.target


def within_limits(docs: list[Doc], rendered: dict[str, Rendered]) -> tuple[list[Doc], list[Left]]:
    """(documents that fit, in plan order; what was left out)."""
    count = lines = size = 0
    fitting: set[str] = set()
    left: list[Left] = []
    for doc in sorted((d for d in docs if d.target in rendered), key=_priority):
        text = rendered[doc.target]
        doc_lines = text.copied + text.added  # its non-blank lines, counted when rendered
        doc_bytes = len(text.data)
        limit = _passed(count + 1, lines + doc_lines, size + doc_bytes)
        if limit and doc.kind not in ("project", "status"):
            left += [Left(path, "limit", f"{doc.target}: {limit}") for path in doc.sources]
            continue
        count, lines, size = count + 1, lines + doc_lines, size + doc_bytes
        fitting.add(doc.target)
    return [d for d in docs if d.target in fitting], sorted(set(left))


def _passed(count: int, lines: int, size: int) -> str | None:
    if count > MAX_SOURCES:
        return f"the corpus would hold more than {MAX_SOURCES} documents"
    if lines > MAX_NONBLANK_LINES:
        return f"the corpus would hold more than {MAX_NONBLANK_LINES} non-blank lines"
    if size > MAX_TOTAL_BYTES:
        return f"the corpus would hold more than {MAX_TOTAL_BYTES} bytes"
    return None
