"""Bounded structural summaries of the mandatory sources of a bundle (docs/bundle.md).

A summary leads with what an agent acts on, so that what survives a small budget is what
matters: STATUS leads with its Exact Next Action and Blockers (whole), the active Task with
its objective and constraints, PROJECT with its name and objective; the other sections give
their first content line, and the metadata not named yet comes last. `split_budget` gives
STATUS the largest share. `docs/bundle.md` documents both.
"""

from __future__ import annotations

from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.core.records import SUMMARY_SEPARATOR
from project_corpus.core.records import Corpus
from project_corpus.core.records import Document
from project_corpus.core.records import Source
from project_corpus.core.records import Span
from project_corpus.corpus.items import make_item
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.markdown import COMMENT_RE
from project_corpus.corpus.markdown import FENCE_RE
from project_corpus.corpus.protocol import section_text
from project_corpus.corpus.vocabulary import ACCEPTANCE_CRITERIA
from project_corpus.corpus.vocabulary import BLOCKERS
from project_corpus.corpus.vocabulary import CONSTRAINTS
from project_corpus.corpus.vocabulary import CURRENT_VERIFIED_BASELINE
from project_corpus.corpus.vocabulary import DURABLE_SCOPE_BOUNDARIES
from project_corpus.corpus.vocabulary import EVIDENCE_REFERENCES
from project_corpus.corpus.vocabulary import EXACT_NEXT_ACTION
from project_corpus.corpus.vocabulary import INVARIANTS
from project_corpus.corpus.vocabulary import NON_GOALS
from project_corpus.corpus.vocabulary import OBJECTIVE
from project_corpus.corpus.vocabulary import PROJECT_SECTIONS
from project_corpus.corpus.vocabulary import SCOPE
from project_corpus.corpus.vocabulary import STATUS_SECTIONS
from project_corpus.corpus.vocabulary import TASK_ID
from project_corpus.corpus.vocabulary import TASK_SECTIONS
from project_corpus.retrieval.order import Result

SUMMARY_RESERVE = 8
MANDATORY_SCORE = 10_000
EMPTY_SECTION = "(empty)"
MISSING_SECTION = "(missing)"
# Shares of `max_tokens - SUMMARY_RESERVE`, in percent (see `split_budget`).
STATUS_SHARE_MIN = 40
STATUS_SHARE_MAX = 70
OTHER_SHARE = 15  # PROJECT and the active Task each; PROJECT gets both without a task
# The least PROJECT and the active Task keep when STATUS's lead needs the rest (their names).
OTHER_FLOOR = 16


class Part(NamedTuple):
    """One part of a summary: a metadata key, or an H2 section (whole or its first line)."""

    label: str
    section: bool = False
    whole: bool = False


class Mandatory(NamedTuple):
    """What the bounded summary of one mandatory source is made of, in order."""

    kind: str  # project | status | task
    parts: tuple[Part, ...]  # then every metadata line not named here, in document order
    sections: tuple[str, ...]  # the required sections (`mandatory_reads`)
    lead: int  # how many leading parts must survive a small budget whole


PROJECT_SUMMARY = Mandatory(
    "project",
    (
        Part("Logical-Name"),
        Part(OBJECTIVE, section=True, whole=True),
        Part(DURABLE_SCOPE_BOUNDARIES, section=True),
        Part(INVARIANTS, section=True),
        Part(NON_GOALS, section=True),
    ),
    PROJECT_SECTIONS,
    2,
)
STATUS_SUMMARY = Mandatory(
    "status",
    (
        Part(EXACT_NEXT_ACTION, section=True, whole=True),
        Part(BLOCKERS, section=True, whole=True),
        Part("Lifecycle-Status"),
        Part("Active-Task-ID"),
        Part("Last-Verified-At"),
        Part(CURRENT_VERIFIED_BASELINE, section=True),
        Part(EVIDENCE_REFERENCES, section=True),
    ),
    STATUS_SECTIONS,
    2,
)
TASK_SUMMARY = Mandatory(
    "task",
    (
        Part(TASK_ID),
        Part("Task-Status"),
        Part(OBJECTIVE, section=True, whole=True),
        Part(CONSTRAINTS, section=True, whole=True),
        Part(ACCEPTANCE_CRITERIA, section=True),
        Part(SCOPE, section=True),
    ),
    TASK_SECTIONS,
    4,
)


def content_lines(doc: Document, title: str) -> list[str]:
    """The content lines of the H2 section TITLE, trimmed, never reaching into the next section.

    Sub-headings, HTML comments (suppression markers) and fence lines are structure, not
    content; a section without content gives `(empty)`, an absent one `(missing)`.
    """
    headings = {h.line for h in doc.headings}
    lines = [
        line.strip()
        for number, line in section_text(doc, title)
        if number not in headings and not COMMENT_RE.match(line) and not FENCE_RE.match(line)
    ]
    if lines:
        return lines
    present = any(h.level == 2 and h.title == title for h in doc.headings)
    return [EMPTY_SECTION if present else MISSING_SECTION]


def first_content_line(doc: Document, title: str) -> str:
    """The first content line of the H2 section TITLE (see `content_lines`)."""
    return content_lines(doc, title)[0]


def summary_parts(doc: Document, spec: Mandatory) -> list[str]:
    """The `Label: value` parts of a summary, in order (a missing metadata key is left out)."""
    parts: list[str] = []
    named = set()
    for part in spec.parts:
        if part.section:
            lines = content_lines(doc, part.label)
            parts.append(f"{part.label}: {' '.join(lines if part.whole else lines[:1])}")
        elif (value := doc.meta_value(part.label)) is not None:
            parts.append(f"{part.label}: {value}".rstrip())
            named.add(part.label)
        else:
            named.add(part.label)
    for entry in doc.meta:
        if entry.key not in named:
            parts.append(f"{entry.key}: {entry.value}".rstrip())
            named.add(entry.key)
    return parts


def summary_text(doc: Document, spec: Mandatory) -> str:
    return SUMMARY_SEPARATOR.join(summary_parts(doc, spec))


def lead_tokens(doc: Document, spec: Mandatory) -> int:
    """Tokens of the part of a summary that must survive a small budget whole."""
    lead = SUMMARY_SEPARATOR.join(summary_parts(doc, spec)[: spec.lead])
    return -(-len(lead.encode("utf-8")) // 4)


def split_budget(max_tokens: int, status_lead: int, has_task: bool) -> dict[str, int]:
    """Token allowance of each summary: STATUS gets what its lead (Exact Next Action and
    Blockers) needs, at least 40 % of the budget left after the reserve, and at most 70 %
    unless its lead needs more; PROJECT and the active Task 15 % each (PROJECT 30 % without
    a task), shortened first (by tokens) so that STATUS's lead stays whole whatever the
    language, down to OTHER_FLOOR tokens each. What a summary leaves unused goes to ranked
    items."""
    total = max_tokens - SUMMARY_RESERVE
    others = 2 if has_task else 1
    cap = max(total * STATUS_SHARE_MAX // 100, min(status_lead, total - others * OTHER_FLOOR))
    status = min(max(status_lead, total * STATUS_SHARE_MIN // 100), cap)
    other = min(total * OTHER_SHARE // 100, (total - status) // 2)
    split = {"project": other if has_task else min(2 * other, total - status), "status": status}
    if has_task:
        split["task"] = other
    return {kind: max(1, tokens) for kind, tokens in split.items()}


def mandatory_sources(corpus: Corpus) -> list[tuple[Mandatory, Source]]:
    """PROJECT, STATUS and the active Task when it is a source of this project."""
    chosen = []
    for spec, path in ((PROJECT_SUMMARY, PROJECT_PATH), (STATUS_SUMMARY, STATUS_PATH)):
        source = corpus.source(path)
        if source is None:
            raise ContextError("CONTEXT_SCOPE", f"{path} is not a scoped source")
        chosen.append((spec, source))
    task = corpus.source(corpus.active_path) if corpus.active_path else None
    if task is not None and not task.foreign:
        chosen.append((TASK_SUMMARY, task))
    return chosen


def cut_to_bytes(text: str, limit: int) -> str:
    """TEXT cut to at most LIMIT UTF-8 bytes without splitting a character."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore").rstrip()


def mandatory_entry(
    spec: Mandatory, source: Source, allowance: int
) -> tuple[dict[str, object], dict[str, object]]:
    """(bundle item, mandatory read) of one mandatory source; the summary fits ALLOWANCE tokens."""
    text = cut_to_bytes(summary_text(source.doc, spec), allowance * 4)
    line_end = max(1, source.line_count)
    item = make_item(source, Span("summary", 1, line_end, "", 0, text))
    reasons = (f"mandatory_{spec.kind}", "bounded_authority_summary")
    read: dict[str, object] = {
        "source_path": source.path,
        "source_sha256": source.sha256,
        "reason": f"full_primary_{spec.kind}_read_required",
        "required_sections": list(spec.sections),
    }
    return Result(item, MANDATORY_SCORE, reasons).as_dict(), read


def mandatory_entries(
    corpus: Corpus, max_tokens: int
) -> list[tuple[dict[str, object], dict[str, object]]]:
    """The mandatory (item, read) pairs of a bundle of MAX_TOKENS, in bundle order."""
    specs = mandatory_sources(corpus)
    status = next(source for spec, source in specs if spec is STATUS_SUMMARY)
    split = split_budget(max_tokens, lead_tokens(status.doc, STATUS_SUMMARY), len(specs) == 3)
    return [mandatory_entry(spec, source, split[spec.kind]) for spec, source in specs]
