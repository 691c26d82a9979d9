"""Content of the sources: duplicates, volatile claims, timestamps, artifact shape, size.

Foreign sources are skipped (they are reported once, as PROJECT_ID_MISMATCH). Only prose
items are claims: paragraphs, list items and table rows; duplicates also count fenced code.
Metadata lines, headings and HTML comments are structure, not memory.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator
from itertools import accumulate
from operator import add
from operator import attrgetter
from operator import itemgetter

from project_corpus.core.records import Document
from project_corpus.core.records import Source
from project_corpus.core.records import Span
from project_corpus.core.timeparse import parse_timestamp
from project_corpus.corpus.classify import AUTHORITY_CLASSES
from project_corpus.corpus.classify import TIMESTAMP_KEYS
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.protocol import check_artifact
from project_corpus.doctor import _volatile as volatile
from project_corpus.doctor._config import LintConfig
from project_corpus.doctor.integrity import document_date
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import ContentScan
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check
from project_corpus.doctor.records import from_finding
from project_corpus.doctor.records import value_column
from project_corpus.retrieval.text import collapse_all
from project_corpus.retrieval.text import normalise

AUTHORITY_RANK = {name: rank for rank, name in enumerate(AUTHORITY_CLASSES)}
CLAIM_KINDS = frozenset({"paragraph", "list", "table"})
DUPLICATE_KINDS = CLAIM_KINDS | {"code"}
FRESHNESS = "Freshness-Requirement"
DATED_TYPES = ("report", "history")  # a log entry's own date dates its claims
FIRST, SECOND, META_KEY = itemgetter(0), itemgetter(1), attrgetter("key")
MIN_DUPLICATE_CHARS = 31  # "> 30 characters" of normalised text
WORD_RE = re.compile(r"\w")
# Possessive quantifiers: adjacent `\s*` runs would otherwise backtrack quadratically on a
# long line of spaces (the classes next to each other are disjoint, so nothing is lost).
TABLE_DELIMITER_RE = re.compile(r"^\s*+\|?\s*+:?-++:?\s*+(?:\|\s*+:?-++:?\s*+)*+\|?\s*+$")


def _own_sources(view: DoctorView) -> Iterator[Source]:
    return (source for source in view.corpus.sources if not source.foreign)


def _is_table_header(lines: tuple[str, ...], span: Span) -> bool:
    """A table row followed by a delimiter row (`|---|---|`): structure, not content."""
    return span.line_end < len(lines) and bool(TABLE_DELIMITER_RE.match(lines[span.line_end]))


@check("DUPLICATE_MEMORY_ITEM", "duplicate-memory-item", severity="WARN")
def duplicate_memory_item(view: DoctorView) -> Iterator[Issue]:
    """The same normalised text (over 30 characters) appears in more than one item.

    ## Why it matters
    Copies drift apart: when one is updated the other still states the old fact, and
    agents get both. Text is compared casefolded with collapsed whitespace; paragraphs,
    list items, table rows (not header rows) and fenced code count, metadata lines and
    headings do not. The most authoritative copy (CANONICAL first, HISTORY last; then by
    path and line) is kept; every other copy is reported, pointing at it.

    ## Fix
    Keep the text in one place and refer to it (by path, or a Report-ID) from the others.
    """
    spans: list[Span] = []  # the counted items of every source
    hashes: list[int] = []  # hash(normalise(span.text)) of each
    starts: list[int] = []  # where each source's items start in SPANS
    owners: list[Source] = []
    matcher = _matcher(view)
    for source in _own_sources(view):
        scan = _scan(view, source, matcher)
        starts.append(len(spans))
        owners.append(source)
        spans += scan.counted
        hashes += scan.hashes
    yield from _duplicates(spans, hashes, starts, owners)


def _scan(view: DoctorView, source: Source, matcher: volatile.Matcher | None) -> ContentScan:
    """SOURCE's content as the duplicate and volatile checks need it, scanned once per run
    (`content_scan`); MATCHER is `_matcher(view)`, worked out once per check."""
    found = view.scans.get(source.sha256)
    if found is None:  # the same bytes scan alike: keyed by content (a warm caller keeps it)
        found = content_scan(source.doc, matcher)
        view.scans[source.sha256] = found
    return found


def content_scan(doc: Document, matcher: volatile.Matcher | None) -> ContentScan:
    """DOC's counted items with the hash of each one's normalised text, and its volatile
    candidates with theirs, from its items (paragraphs, list items, table rows, code)
    casefolded once; the folded texts are not kept (docs/performance.md)."""
    lines = doc.lines
    folded = [(span, span.text.casefold()) for span in doc.spans if span.kind in DUPLICATE_KINDS]
    counted = [
        (span, text)
        for span, text in folded
        if len(span.text) >= MIN_DUPLICATE_CHARS
        and not (span.kind == "table" and _is_table_header(lines, span))
    ]
    spans = list(map(FIRST, counted))
    # normalise(span.text) of each, from the text folded once
    normalised = collapse_all(list(map(SECOND, counted)))
    candidates = _with_anchors(term_candidates(folded, matcher), spans, normalised)
    return ContentScan(spans, list(map(hash, normalised)), candidates)


def _with_anchors(
    candidates: list[tuple[Span, str]], counted: list[Span], normalised: list[str]
) -> list[tuple[Span, str]]:
    """(span, normalise(span.text)) of each of CANDIDATES (span, folded text): a counted
    item's is taken from NORMALISED (of the COUNTED spans), the others' are collapsed."""
    if not candidates:
        return []
    known = dict(zip(map(id, counted), normalised, strict=True))  # by identity: no hashing
    rest = iter(collapse_all([text for span, text in candidates if id(span) not in known]))
    return [(span, known[id(span)] if id(span) in known else next(rest)) for span, _ in candidates]


def scan_terms(config: LintConfig) -> object:
    """What `content_scan`'s matcher is made of under CONFIG (a warm caller's memo key)."""
    off = config.rules.get("VOLATILE_WITHOUT_FRESHNESS") == "off"
    return None if off else tuple(sorted(config.volatile_terms.items()))


def _matcher(view: DoctorView) -> volatile.Matcher | None:
    """The volatile terms in use; None when there are none or the check is off."""
    if view.config.rules.get("VOLATILE_WITHOUT_FRESHNESS") == "off":
        return None
    return volatile.compile_terms(volatile.effective_terms(view.config.volatile_terms))


def _duplicates(
    spans: list[Span], hashes: list[int], starts: list[int], owners: list[Source]
) -> Iterator[Issue]:
    """The copies among SPANS: texts whose hash is shared are normalised again and grouped
    by that text (equal hashes of different texts fall into different groups)."""
    counts = Counter(hashes)
    groups: dict[str, list[tuple[int, str, int]]] = {}  # (authority rank, path, line) of each
    for index in [i for i, key in enumerate(hashes) if counts[key] > 1]:
        source, span = owners[bisect_right(starts, index) - 1], spans[index]
        place = (AUTHORITY_RANK[source.authority_class], source.path, span.line_start)
        groups.setdefault(normalise(span.text), []).append(place)
    for text, group in groups.items():
        if len(text) < MIN_DUPLICATE_CHARS or not WORD_RE.search(text):
            continue
        # The copy that is kept: the most authoritative, then the first by path and line.
        original = min(group)
        for copy in group:
            if copy != original:
                where = f"same text as {original[1]}:{original[2]}"
                yield Issue("DUPLICATE_MEMORY_ITEM", copy[1], copy[2], where, text, normalised=True)


def _freshness_labelled(source: Source) -> bool:
    meta = source.doc.meta
    # Most sources have no such line: one scan of the keys in C first.
    return FRESHNESS in map(META_KEY, meta) and any(m.key == FRESHNESS and m.value for m in meta)


def _dated(source: Source) -> bool:
    """SOURCE's claims are dated: by a `Freshness-Requirement:` line, or (a Report or History
    entry) by its own date: `Created-At:`/`Date:` metadata or a dated file name (SPEC §8)."""
    if _freshness_labelled(source):
        return True
    return source.source_type in DATED_TYPES and document_date(source) is not None


@check("VOLATILE_WITHOUT_FRESHNESS", "volatile-without-freshness", severity="WARN")
def volatile_without_freshness(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A Task, Report or History item states a volatile claim without a freshness label.

    ## Why it matters
    "Currently 412k series" or "сейчас работает" is true only when written; read later
    it is a stale claim that looks current. Terms (whole words, any case): `currently`,
    `right now`, `at the moment`, `at present`, `as of now`, `today`, `live`, `сейчас`,
    `сегодня`, `в данный момент`, `на данный момент`, `текущ…` (any ending); configurable
    with `volatile_terms`. PROJECT and STATUS are exempt (STATUS is current by definition),
    and so is a Report or History entry with its own date (`Created-At:` or `Date:`
    metadata, or a dated file name such as `2026-12-01-standup.md`): a dated log entry dates
    its claims. One finding per item, at the line and column of its first volatile term.

    ## Fix
    Date the claim in the item (`as of 2026-11-01`, `verified 2026-11-01`,
    `по состоянию на 2026-11-01`, `проверено 2026-11-01`), give the document a
    `Freshness-Requirement:` metadata line saying how to re-verify it, or (a Report or
    History entry) date the document itself with a `Date:` or `Created-At:` line.
    """
    regex = volatile.compile_terms(volatile.effective_terms(view.config.volatile_terms))
    if regex is None:
        return
    details: dict[str, str] = {}  # thousands of findings name a dozen terms
    for source in view.corpus.sources:
        if source.source_type == "state" or source.foreign or _dated(source):
            continue
        # Each candidate comes with normalise(span.text), its anchor.
        for span, anchor, term, offset in _unlabelled_claims(
            _scan(view, source, regex).candidates, regex
        ):
            if term not in details:
                details[term] = (
                    f"volatile term {term!r} without a date label or Freshness-Requirement"
                )
            line, column = span_position(source.doc, span, offset)
            issue = (source.path, line, details[term], anchor)
            yield this.issue(*issue, normalised=True, column=column)


def _unlabelled_claims(
    candidates: list[tuple[Span, str]], matcher: volatile.Matcher
) -> list[tuple[Span, str, str, int]]:
    """(span, normalised text, first term, its offset in the span's text) of each claim with
    a volatile term and no date label."""
    found = []
    for span, anchor in candidates:
        # A candidate holds a key word already (`term_candidates`): no second pre-filter.
        match = volatile.first_match(span.text, matcher)
        if match and not volatile.has_date_label(span.text):
            found.append((span, anchor, " ".join(match.group(0).split()), match.start()))
    return found


def span_position(doc: Document, span: Span, offset: int) -> tuple[int, int]:
    """The line and 1-based column in DOC of OFFSET in SPAN's text (its lines joined by
    newlines, the whole stripped: the first line lost its indentation)."""
    text = span.text
    newline = text.rfind("\n", 0, offset)
    if newline >= 0:
        return span.line_start + text.count("\n", 0, offset), offset - newline
    first = doc.lines[span.line_start - 1] if span.line_start <= len(doc.lines) else ""
    return span.line_start, len(first) - len(first.lstrip()) + offset + 1


def term_candidates(
    folded_spans: list[tuple[Span, str]], matcher: volatile.Matcher | None
) -> list[tuple[Span, str]]:
    """The claims among FOLDED_SPANS (with their folded text) where a term's key word starts
    a word (one scan of all folded claims, joined by newlines); only these are matched
    against the terms."""
    if matcher is None:
        return []
    claims = [(span, text) for span, text in folded_spans if span.kind in CLAIM_KINDS]
    texts = [text for _, text in claims]
    positions = volatile.key_positions("\n".join(texts), matcher)
    if not positions:  # most sources
        return []
    # Where each claim starts in the joined text: its length plus one newline per claim.
    starts = list(map(add, [0, *accumulate(map(len, texts))], range(len(texts) + 1)))
    hits = sorted({bisect_right(starts, position) - 1 for position in positions})
    return [claims[index] for index in hits]


@check("INVALID_TIMESTAMP", "invalid-timestamp", severity="WARN")
def invalid_timestamp(view: DoctorView, this: Check) -> Iterator[Issue]:
    """A timestamp label's value is not an RFC 3339 date-time or a plain date.

    ## Why it matters
    `Created-At`, `Date`, `Created`, `Updated-At` and `Last-Verified-At` metadata give a
    source its timestamp, which orders recency and decides whether an uncited report is
    historical. An unparsable value is ignored, so the document silently has no date.
    `UNVERIFIED` is allowed for `Last-Verified-At` (STATUS's own line is checked by
    INVALID_METADATA).

    ## Fix
    Write `2026-09-17` or `2026-09-17T08:30:00Z`.
    """
    for source in view.corpus.sources:
        if source.foreign:
            continue
        for meta in source.doc.meta:
            if meta.key not in TIMESTAMP_KEYS or _timestamp_ok(source, meta.key, meta.value):
                continue
            yield this.issue(
                source.path,
                meta.line,
                f"{meta.key} {meta.value!r} is not an RFC 3339 date-time or a date",
                anchor=normalise(f"{meta.key}: {meta.value}"),
                column=value_column(source.doc, meta.line),
            )


def _timestamp_ok(source: Source, key: str, value: str) -> bool:
    if key == "Last-Verified-At" and (value == "UNVERIFIED" or source.path == STATUS_PATH):
        return True
    return parse_timestamp(value) is not None


@check("ARTIFACT_SHAPE", "artifact-shape", severity="WARN")
def artifact_shape(view: DoctorView) -> Iterator[Issue]:
    """A Task or Report lacks a required metadata key or section, or its ID differs from its stem.

    ## Why it matters
    Tasks need `Protocol-Version`, `Project-ID`, `Task-ID`, `Task-Status` and the sections
    `Objective`, `Scope`, `Constraints`, `Acceptance Criteria`; Reports need
    `Protocol-Version`, `Project-ID`, `Report-ID`, `Result` and `Summary`, `Evidence`,
    `Limitations`. The active task and report citations are found by ID and file stem.

    ## Fix
    Add what the detail names, or rename the file (or the ID) so that they agree.
    """
    for source in view.corpus.sources:
        if source.source_type in ("task", "report") and not source.foreign:
            for finding in check_artifact(source.doc, source.path, source.source_type):
                yield from_finding(finding)


@check("OVERSIZED_STATUS", "oversized-status", severity="WARN")
def oversized_status(view: DoctorView, this: Check) -> Iterator[Issue]:
    """STATUS is larger than 12,000 bytes (configurable with status_max_bytes).

    ## Why it matters
    STATUS is read in full at the start of every session; a long one buries the current
    state in history and eats the agent's context budget.

    ## Fix
    Move finished work to Reports or History and keep STATUS to the current state.
    """
    status = view.corpus.by_path.get(STATUS_PATH)
    limit = view.config.status_max_bytes
    if status is not None and status.size > limit:
        yield this.issue(
            STATUS_PATH,
            1,
            f"{status.size} bytes; at most {limit}",
            anchor=this.code,
        )


# This family's checks, in the order of docs/checks.md (the registry concatenates them).
CHECKS: tuple[Check, ...] = (
    duplicate_memory_item,
    volatile_without_freshness,
    invalid_timestamp,
    artifact_shape,
    oversized_status,
)
