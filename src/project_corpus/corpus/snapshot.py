"""collect(): the scoped snapshot, read once, classified (docs/protocol.md).

A `Tree` (the working tree, or a git revision for `context review`) yields each candidate
source's bytes once; this module enforces the limits while they arrive, parses and classifies
them, and returns a `Corpus` that every command shares. Reading bytes and parsing them are
separate, so both trees share every rule of the snapshot.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING
from typing import NamedTuple

from project_corpus.core.digest import sha256_hex
from project_corpus.core.errors import ContextError
from project_corpus.core.jsonio import canonical_sha256
from project_corpus.core.limits import MAX_NONBLANK_LINES
from project_corpus.core.limits import MAX_POLICY_BYTES
from project_corpus.core.limits import MAX_SOURCE_BYTES
from project_corpus.core.limits import MAX_SOURCES
from project_corpus.core.limits import MAX_TOTAL_BYTES
from project_corpus.core.records import Corpus
from project_corpus.core.records import Document
from project_corpus.core.records import Finding
from project_corpus.core.records import Policy
from project_corpus.corpus import classify
from project_corpus.corpus import fs
from project_corpus.corpus import references
from project_corpus.corpus import required
from project_corpus.corpus.layout import CORPUS_DIR
from project_corpus.corpus.layout import POLICY_PATH
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.layout import SOURCE_ROOTS
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.policy import EMPTY_POLICY
from project_corpus.corpus.policy import ID_RE
from project_corpus.corpus.policy import in_scope
from project_corpus.corpus.policy import parse_policy
from project_corpus.corpus.policy import policy_line
from project_corpus.corpus.protocol import check_artifact_version
from project_corpus.corpus.protocol import check_project
from project_corpus.corpus.protocol import check_status
from project_corpus.corpus.supersession import relations
from project_corpus.corpus.supersession import superseded_paths
from project_corpus.corpus.tree import Limits
from project_corpus.corpus.tree import Problem
from project_corpus.corpus.tree import Tree
from project_corpus.corpus.worktree import WorkTree

if TYPE_CHECKING:
    from project_corpus.corpus.memo import SnapshotMemo


class RawSource(NamedTuple):
    path: str
    sha256: str
    size: int
    source_type: str
    doc: Document


class SourceReader:
    """Parses the bytes a `Tree` yields under the limits; collects problems in the doctor's
    mode (raises them in strict mode)."""

    def __init__(self, strict: bool, parsed: dict[str, Document] | None = None) -> None:
        self.strict = strict
        self.parsed = parsed or {}  # sha256 -> document, of an earlier snapshot (`SnapshotMemo`)
        self.documents: dict[str, Document] = {}  # sha256 -> document, of this snapshot
        self.findings: list[Finding] = []
        self.sources: list[RawSource] = []
        self.total_bytes = 0
        self.nonblank = 0

    def problem(self, code: str, path: str, detail: str, line: int = 1, column: int = 0) -> None:
        if self.strict:
            raise ContextError(code, f"{path}: {detail}")
        finding = Finding(code, path, line, detail, anchor=f"{code}:{path}", column=column)
        self.findings.append(finding)

    def read(self, tree: Tree, rel_dir: str, source_type: str, scopes: tuple[str, ...]) -> None:
        """Every source of TREE below REL_DIR, parsed (or its problem recorded)."""
        limits = Limits(MAX_SOURCE_BYTES, MAX_SOURCES, MAX_TOTAL_BYTES)
        for found in tree.sources(rel_dir, scopes, limits):
            if isinstance(found, Problem):
                self.problem(found.code, found.path, found.detail)
            else:
                self.add(found.path, source_type, found.data)

    def add(self, path: str, source_type: str, data: bytes) -> None:
        """One source's bytes: counted, decoded, parsed, its lines counted."""
        if len(self.sources) >= MAX_SOURCES:
            raise ContextError("CONTEXT_LIMIT", f"sources: more than {MAX_SOURCES} scoped sources")
        if len(data) > MAX_SOURCE_BYTES:
            raise ContextError(
                "CONTEXT_LIMIT",
                f"source_bytes: {path}: {len(data)} bytes exceeds the limit of {MAX_SOURCE_BYTES}",
            )
        self.total_bytes += len(data)
        if self.total_bytes > MAX_TOTAL_BYTES:
            raise ContextError(
                "CONTEXT_LIMIT",
                f"snapshot_bytes: more than {MAX_TOTAL_BYTES} bytes in scoped sources",
            )
        sha = sha256_hex(data)
        doc = self.documents.get(sha) or self.parsed.get(sha)
        if doc is None:  # bytes not parsed before (a memo hit decoded once already)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                code = "SOURCE_ENCODING" if self.strict else "INVALID_ENCODING"
                line, column = byte_position(data, exc.start)
                where = f"not UTF-8 at byte {exc.start} (line {line}, column {column})"
                self.problem(code, path, where, line, column)
                return
            doc = parse_document(text)
        self.documents[sha] = doc
        self.nonblank += doc.nonblank_lines
        if self.nonblank > MAX_NONBLANK_LINES:
            raise ContextError(
                "CONTEXT_LIMIT", f"nonblank_lines: more than {MAX_NONBLANK_LINES} non-blank lines"
            )
        self.sources.append(RawSource(path, sha, len(data), source_type, doc))


def byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """The line and 1-based column (in characters) of byte OFFSET of DATA, whose bytes before
    OFFSET are valid UTF-8 (OFFSET is where decoding first failed)."""
    start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, len(data[start:offset].decode("utf-8")) + 1


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small acyclic records.

    A 50,000-line corpus makes ~100,000 tuples; without the pause the collector rescans the
    growing heap again and again (a third of `collect`'s time). Records here hold no cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def collect(
    root: str | os.PathLike[str], *, strict: bool = True, memo: SnapshotMemo | None = None
) -> Corpus:
    """Read the scoped snapshot of ROOT.

    strict (every context command but doctor): a conformance problem raises
    PROTOCOL_NONCONFORMANT, a link SOURCE_LINK, bad UTF-8 SOURCE_ENCODING. Not strict (the
    doctor): those problems are returned as `Corpus.findings` and reading goes on. Every
    source is parsed from the bytes just read: nothing stored (the index) shapes a document.
    MEMO (a long-lived caller's, `corpus.memo`) spares parsing the bytes it has parsed before
    (the same bytes, the same document), and gives back its own `Corpus` when nothing it was
    made of changed; every source is still read and hashed.
    """
    with paused_gc():
        return _collect(root, strict, memo)


def _collect(root: str | os.PathLike[str], strict: bool, memo: SnapshotMemo | None) -> Corpus:
    root_path = fs.resolve_root(root)
    if strict:  # the doctor and `new` ask for it themselves, before their configuration
        required.require_corpus(root_path, root)
    return snapshot_of(WorkTree(root_path), strict=strict, memo=memo)


def snapshot_of(tree: Tree, *, strict: bool, memo: SnapshotMemo | None = None) -> Corpus:
    """The scoped snapshot of TREE (the working tree, or a git revision), as `collect`."""
    findings, warnings = required.required_paths(tree.kind)
    policy, policy_findings = _read_policy(tree, findings)
    findings.extend(policy_findings)
    reader = SourceReader(strict, memo.documents if memo else None)
    read = False
    try:
        for rel_dir, source_type in SOURCE_ROOTS.items():
            if tree.kind(rel_dir) == "dir":
                reader.read(tree, rel_dir, source_type, policy.read)
        read = True
    finally:
        if memo is not None:  # this snapshot's documents only (none when reading failed)
            memo.keep(reader.documents if read else {})
    findings.extend(reader.findings)
    raw = sorted(reader.sources, key=lambda s: s.path)
    findings.extend(required.path_findings([s.path for s in raw], strict))
    by_path = {s.path: s for s in raw}
    findings.extend(_scope_findings(policy, policy_findings, by_path))
    findings.extend(_canonical_findings(by_path, policy))
    findings.extend(tree.generated_views())
    if strict and findings:
        raise _nonconformant(findings)
    findings.extend(warnings)
    project_id = _project_id(by_path, strict)
    if memo is None:
        return _assemble(tree.root, project_id, policy, raw, findings)
    made_of = (tree.root, policy.sha256, tuple(s[:4] for s in raw), tuple(findings))
    return memo.corpus(
        strict, made_of, lambda: _assemble(tree.root, project_id, policy, raw, findings)
    )


def _nonconformant(findings: list[Finding]) -> ContextError:
    """PROTOCOL_NONCONFORMANT: the detail lists the sorted unique codes (SPEC §1.3), the hint
    says where the first problem is and how to see them all."""
    codes = ", ".join(sorted({f.code for f in findings}))
    first = min(findings, key=lambda f: (f.path, f.line, f.code))
    where = f"{first.path}:{max(1, first.line)}: {first.code}"
    where += f" {first.detail}" if first.detail else ""
    hint = f"first: {where}; `project-corpus context doctor {{root}}` lists every finding"
    return ContextError("PROTOCOL_NONCONFORMANT", codes, hint=hint)


def _assemble(
    root: str, project_id: str, policy: Policy, raw: list[RawSource], findings: list[Finding]
) -> Corpus:
    status = next((s.doc for s in raw if s.path == STATUS_PATH), None)
    active_id, active_path, last_verified = classify.status_facts(status)
    active_doc = next((s.doc for s in raw if s.path == active_path), None)
    table = references.targets((s.path, s.doc) for s in raw)
    cited = references.cited_reports(status, active_path, active_doc, table)
    sources = [
        classify.classify(
            s.path,
            s.sha256,
            s.size,
            s.source_type,
            s.doc,
            project_id,
            active_path,
            cited,
            last_verified,
        )
        for s in raw
    ]
    rels = relations(sources, active_path)
    superseded = superseded_paths(rels)
    sources = [
        s._replace(temporal_status="superseded") if s.path in superseded else s for s in sources
    ]
    return Corpus(
        root=root,
        project_id=project_id,
        policy=policy,
        sources=tuple(sources),
        relations=tuple(rels),
        snapshot_digest=canonical_sha256({s.path: s.sha256 for s in sources}),
        active_task_id=active_id,
        active_path=active_path,
        last_verified_at=last_verified,
        findings=tuple(findings),
        by_path={s.path: s for s in sources},
    )


def _read_policy(tree: Tree, findings: list[Finding]) -> tuple[Policy, list[Finding]]:
    if any(f.path in (POLICY_PATH, CORPUS_DIR) for f in findings):
        return EMPTY_POLICY, []
    try:
        data = tree.read(POLICY_PATH, MAX_POLICY_BYTES, "POLICY_PARSE")
    except ContextError as exc:
        return EMPTY_POLICY, [
            Finding("POLICY_PARSE", POLICY_PATH, 1, exc.detail, anchor="POLICY_PARSE")
        ]
    return parse_policy(data)


def _scope_findings(
    policy: Policy, policy_findings: list[Finding], by_path: dict[str, RawSource]
) -> list[Finding]:
    if not policy.sha256 or any(
        f.code in ("POLICY_PARSE", "POLICY_SCHEMA") for f in policy_findings
    ):
        return []  # no readable policy: its absence is reported, not scopes against it
    missing = [p for p in (PROJECT_PATH, STATUS_PATH) if not in_scope(p, policy.read)]
    return [
        Finding(
            "CONTEXT_SCOPE",
            POLICY_PATH,
            1,
            f"{p} is not in the read scope",
            anchor=f"CONTEXT_SCOPE:{p}",
        )
        for p in missing
    ]


def _canonical_findings(by_path: dict[str, RawSource], policy: Policy) -> list[Finding]:
    findings: list[Finding] = []
    project = by_path.get(PROJECT_PATH)
    status = by_path.get(STATUS_PATH)
    if project:
        findings.extend(check_project(project.doc))
    if status:
        findings.extend(check_status(status.doc))
    for source in by_path.values():
        if source.source_type in ("task", "report"):
            findings.extend(check_artifact_version(source.doc, source.path))
    project_id = project.doc.meta_value("Project-ID") if project else None
    if not project_id:
        return findings
    if status:
        findings.extend(_mismatch(STATUS_PATH, status.doc, project_id))
    if ID_RE.match(policy.project_id) and policy.project_id != project_id:
        findings.append(
            Finding(
                "PROJECT_ID_MISMATCH",
                POLICY_PATH,
                policy_line(policy, "project_id"),
                f"policy project_id {policy.project_id!r} != PROJECT {project_id!r}",
                anchor="PROJECT_ID_MISMATCH:policy",
            )
        )
    return findings


def _mismatch(path: str, doc: Document, project_id: str) -> list[Finding]:
    for entry in doc.meta:
        if entry.key == "Project-ID" and entry.value != project_id:
            return [
                Finding(
                    "PROJECT_ID_MISMATCH",
                    path,
                    entry.line,
                    f"Project-ID {entry.value!r} != PROJECT {project_id!r}",
                    anchor=f"PROJECT_ID_MISMATCH:{path}",
                )
            ]
    return []


def _project_id(by_path: dict[str, RawSource], strict: bool) -> str:
    project = by_path.get(PROJECT_PATH)
    value = project.doc.meta_value("Project-ID") if project else None
    if value is None or not ID_RE.match(value):
        if strict:
            raise ContextError("CONTEXT_PROJECT_ID", f"{PROJECT_PATH} has no valid Project-ID")
        return ""
    return value
