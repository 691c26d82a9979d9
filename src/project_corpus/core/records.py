"""Plain records shared by every part of the tool.

Everything here is immutable data. Behaviour lives in module-level functions elsewhere:
`protocol` parses documents, `snapshot.collect` builds a `Corpus`, `items` cuts sources into
`Item`s, `index` stores provenance, `retrieval` ranks items.
"""

import re
from typing import NamedTuple

from project_corpus.core.digest import sha256_hex

FRESHNESS_REQUIREMENT = "READ_PRIMARY_SOURCE_BEFORE_AUTHORITY_CLAIM"
# Joins the parts of a bundle's mandatory summary (the text view splits on it again).
SUMMARY_SEPARATOR = " | "
# A SHA-256 digest as the tool writes it: 64 lowercase hex digits (the JSON Schemas' pattern).
SHA256_RE = re.compile(r"^[0-9a-f]{64}\Z")
# The severities of a finding, most severe first (docs/doctor.md): the one list every part reads.
SEVERITIES = ("FAIL", "WARN")


class MetaLine(NamedTuple):
    """One `Key: value` line of a document's metadata block."""

    key: str
    value: str
    line: int


class Heading(NamedTuple):
    """An ATX heading outside fenced code."""

    level: int
    title: str
    line: int


class Span(NamedTuple):
    """Where one item lies in its document and its text (docs/retrieval.md); `items` adds the
    source's provenance to make an `Item`, the doctor reads spans directly.

    `kind` is the block the item comes from: meta, heading, list, table, code, comment or
    paragraph. `section` is the heading path (H2 and deeper, joined with " > "),
    `section_line` the line of the heading that opened it (0 when none).
    """

    kind: str
    line_start: int
    line_end: int
    section: str
    section_line: int
    text: str


class Document(NamedTuple):
    """A parsed Markdown document: its lines (1-based numbering is `index + 1`), the
    (first, last) lines of each fenced code block, its items' spans in line order, and the
    (line, section path) of each heading of level 2 or deeper, made once by the parser."""

    lines: tuple[str, ...]
    meta: tuple[MetaLine, ...]
    headings: tuple[Heading, ...]
    fences: tuple[tuple[int, int], ...]
    spans: tuple[Span, ...]
    nonblank_lines: int
    section_paths: tuple[tuple[int, str], ...]

    def meta_line(self, key: str) -> MetaLine | None:
        """The first metadata line with exactly this key."""
        return next((entry for entry in self.meta if entry.key == key), None)

    def meta_value(self, key: str) -> str | None:
        """The value of the first metadata line with exactly this key."""
        entry = self.meta_line(key)
        return None if entry is None else entry.value


class Finding(NamedTuple):
    """A located problem found by the engine (conformance, links, supersession...).

    `anchor` is the normalised text a fingerprint is computed from (not the line number),
    so that a finding keeps its identity when unrelated edits move lines. `column` is the
    1-based column (in characters) of what causes it, 0 when it is about the line or file.
    """

    code: str
    path: str
    line: int
    detail: str
    anchor: str = ""
    column: int = 0


class Source(NamedTuple):
    """One scoped source document with its classification."""

    path: str
    sha256: str
    size: int
    source_type: str  # state | task | report | history
    authority_class: str
    temporal_status: str
    timestamp: str | None  # normalised YYYY-MM-DDTHH:MM:SSZ
    project_id: str  # the document's Project-ID, or the corpus project ID when it has none
    foreign: bool  # a Task/Report naming another project
    doc: Document

    @property
    def line_count(self) -> int:
        return len(self.doc.lines)


class Relation(NamedTuple):
    """A `Supersedes:` line: source -> target, with its validity.

    validity: "valid" (implies supersession), "invalid", "orphan" or "cyclic".
    """

    source: str
    target: str
    line: int
    validity: str
    detail: str


def item_id(path: str, line_start: int, line_end: int, text: str) -> str:
    """First 20 hex characters of SHA-256 over `path \0 line_start \0 line_end \0 text`."""
    raw = f"{path}\0{line_start}\0{line_end}\0{text}".encode()
    return sha256_hex(raw)[:20]


class Item(NamedTuple):
    """A contiguous span of non-blank lines inside one section, with provenance.

    `item_id` is derived from the path, the span and the text, so it is computed when asked
    for: a query over 50,000 lines needs the IDs of its results only.
    """

    project_id: str
    text: str
    source_path: str
    source_sha256: str
    source_type: str
    authority_class: str
    temporal_status: str
    timestamp: str | None
    section: str
    section_line: int
    line_start: int
    line_end: int
    kind: str  # the block kind it came from; not part of the public item schema

    @property
    def item_id(self) -> str:
        return item_id(self.source_path, self.line_start, self.line_end, self.text)

    def as_dict(self) -> dict[str, object]:
        """The public item fields (docs/retrieval.md), `non_authoritative` included."""
        return {
            "item_id": self.item_id,
            "project_id": self.project_id,
            "text": self.text,
            "source_path": self.source_path,
            "source_sha256": self.source_sha256,
            "source_type": self.source_type,
            "authority_class": self.authority_class,
            "temporal_status": self.temporal_status,
            "timestamp": self.timestamp,
            "section": self.section,
            "section_line": self.section_line,
            "line_start": self.line_start,
            "line_end": self.line_end,
            "non_authoritative": True,
        }


class Policy(NamedTuple):
    """A parsed `policy.toml` (docs/protocol.md). Fields are best effort when findings exist."""

    policy_version: str
    project_id: str
    profile: str
    allow: tuple[str, ...]
    read: tuple[str, ...]
    write: tuple[str, ...]
    requirements: dict[str, bool]
    sha256: str
    lines: dict[str, int]  # line of each top-level key/table in the file, for findings


class Corpus(NamedTuple):
    """The scoped snapshot: everything a context command needs, read once.

    With `collect(strict=False)` (the doctor's mode) `findings` holds the conformance and
    link problems met on the way, and `project_id` may be "" when PROJECT is unusable.
    `sources` includes foreign sources; `items` are of every source, foreign included
    (retrieval filters by project), and are made on first use: the doctor reads the
    documents' spans and never needs them. `by_path` holds the same sources keyed by path.
    A NamedTuple, not a dataclass: `dataclasses` and a frozen class cost a small-corpus
    command ~1.3 ms of its start (docs/performance.md).
    """

    root: str
    project_id: str
    policy: Policy
    sources: tuple[Source, ...]
    relations: tuple[Relation, ...]
    snapshot_digest: str
    active_task_id: str | None
    active_path: str | None
    last_verified_at: str | None
    findings: tuple[Finding, ...]
    by_path: dict[str, Source]

    def source(self, path: str) -> Source | None:
        return self.by_path.get(path)

    def source_map(self) -> dict[str, str]:
        """{path: sha256} over all scoped sources (the snapshot digest's input)."""
        return {src.path: src.sha256 for src in self.sources}
