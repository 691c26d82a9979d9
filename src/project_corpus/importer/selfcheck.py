"""The Protocol gate on each rendered document before anything is written (docs/import.md).

PROJECT and STATUS get the conformance checks the doctor runs (`corpus/protocol.py`); a Task
or Report must name Protocol 2.0 and this project; no document may carry a `Supersedes:` line
the doctor would call invalid (an owner's line such as `Supersedes: ADR-3`). A document with
a problem is left out with the reason `nonconformant`, so the corpus the import writes has no
FAIL finding of its making.
"""

from __future__ import annotations

from project_corpus.core.records import Document
from project_corpus.core.versions import PROTOCOL_VERSION
from project_corpus.corpus.markdown import fenced_line_numbers
from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.protocol import check_project
from project_corpus.corpus.protocol import check_status
from project_corpus.corpus.supersession import SUPERSEDES_RE
from project_corpus.corpus.supersession import TARGET_ROOTS
from project_corpus.importer.records import Doc


def conformance_problem(doc: Doc, text: str, project_id: str = "") -> str | None:
    """Why DOC would fail the doctor's gate, or None."""
    if doc.kind not in ("project", "status") and not _suspect(text):
        return None  # nothing an owner's line could break (most documents: no parse needed)
    parsed = parse_document(text)
    if doc.kind in ("project", "status"):
        check = check_project if doc.kind == "project" else check_status
        findings = list(check(parsed))
        if findings:
            return f"{findings[0].code} {findings[0].detail}"
    elif doc.kind in ("task", "report"):
        for entry in parsed.meta:
            if entry.key == "Protocol-Version" and entry.value != PROTOCOL_VERSION:
                return f"Protocol-Version {entry.value!r} in the owner's lines"
            if entry.key == "Project-ID" and project_id and entry.value != project_id:
                return f"Project-ID {entry.value!r} in the owner's lines"
    return _supersedes_problem(doc, parsed)


def _suspect(text: str) -> bool:
    """Whether TEXT holds a line the gate must look at: `Supersedes:`, or a second
    `Protocol-Version:` / `Project-ID:` line (an owner's, in the metadata region)."""
    return (
        text.startswith("Supersedes:")
        or "\nSupersedes:" in text
        or text.count("\nProtocol-Version:") > 1
        or text.count("\nProject-ID:") > 1
    )


def _supersedes_problem(doc: Doc, parsed: Document) -> str | None:
    fenced = fenced_line_numbers(parsed)
    for number, line in enumerate(parsed.lines, start=1):
        if not line.startswith("Supersedes:") or number in fenced:
            continue
        match = SUPERSEDES_RE.match(line)
        target = match.group(1) if match else ""
        valid = (
            doc.kind not in ("project", "status", "reference")
            and target.startswith(TARGET_ROOTS)
            and target.endswith(".md")
            and ".." not in target.split("/")
            and ":" not in target
            and "\\" not in target
        )
        if not valid:
            return f"line {number}: an owner's `Supersedes:` line the Protocol reads as invalid"
    return None
