"""A git revision as a `corpus.tree.Tree`: the snapshot of a commit, read from objects.

The same rules as the working tree (docs/protocol.md, "Confinement"; docs/review.md): only
`.md` blobs in the revision's own read scope are read; a symbolic link (mode 120000) is never
read or resolved — one that would be a source, or that could stand for a folder of sources,
is `SOURCE_LINK`, as is a submodule; a name that is not UTF-8 is `SOURCE_PATH`; sizes come
from the listing, so a source over the limit is refused before any byte of it is read.
"""

from __future__ import annotations

import stat
from collections.abc import Iterator

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_VIEW_BYTES
from project_corpus.core.records import Finding
from project_corpus.corpus import fs
from project_corpus.corpus.layout import GENERATED_DIR
from project_corpus.corpus.layout import inside
from project_corpus.corpus.policy import in_scope
from project_corpus.corpus.policy import may_hold
from project_corpus.corpus.protocol import check_generated
from project_corpus.corpus.tree import Limits
from project_corpus.corpus.tree import Problem
from project_corpus.corpus.tree import RawFile
from project_corpus.review.git import Repository
from project_corpus.review.git import TreeEntry
from project_corpus.review.git import read_blobs

# git writes an entry's mode as its file type bits in octal: a tree is S_IFDIR (040000), a
# symbolic link S_IFLNK (120000), a submodule ("gitlink") both (160000).
KINDS = {
    f"{stat.S_IFDIR:06o}": "dir",
    f"{stat.S_IFLNK:06o}": "link",
    f"{stat.S_IFDIR | stat.S_IFLNK:06o}": "special",
}
NEVER_FOLLOWED = {"link": "a symbolic link", "special": "a submodule"}


def entry_kind(entry: TreeEntry) -> str:
    """file, dir, link or special (a submodule, or any mode git may add)."""
    if entry.mode in KINDS:
        return KINDS[entry.mode]
    return "file" if entry.kind == "blob" else "special"


class GitTree:
    """The files of ENTRIES (`git.list_corpus` of one commit) below ROOT."""

    def __init__(self, root: str, repo: Repository, entries: dict[str, TreeEntry]) -> None:
        self._root, self.repo, self.entries = root, repo, entries

    @property
    def root(self) -> str:
        return self._root

    def kind(self, rel: str) -> str | None:
        entry = self.entries.get(rel)
        return entry_kind(entry) if entry else None

    def read(self, rel: str, max_bytes: int, code: str) -> bytes:
        entry = self.entries.get(rel)
        kind = entry_kind(entry) if entry else None
        if entry is None or kind != "file":
            what = "is missing" if kind is None else f"is {NEVER_FOLLOWED.get(kind, 'a folder')}"
            raise ContextError(code, f"{rel}: {what}")
        if entry.size > max_bytes:
            raise ContextError(code, f"{rel}: {entry.size} bytes exceeds the limit of {max_bytes}")
        return read_blobs(self.repo, [entry.oid])[0]

    def below(self, rel_dir: str) -> list[tuple[str, TreeEntry]]:
        """The entries below REL_DIR, in path order."""
        prefix = inside(rel_dir)
        return sorted((p, e) for p, e in self.entries.items() if p.startswith(prefix))

    def sources(
        self, rel_dir: str, scopes: tuple[str, ...], limits: Limits
    ) -> Iterator[RawFile | Problem]:
        wanted: list[tuple[str, TreeEntry]] = []
        for path, entry in self.below(rel_dir):
            problem = _problem(path, entry_kind(entry), scopes)
            if problem is not None:
                yield problem
            elif entry_kind(entry) == "file" and path.endswith(".md") and in_scope(path, scopes):
                wanted.append((path, entry))
        _check_sizes(wanted, limits)
        blobs = read_blobs(self.repo, [entry.oid for _, entry in wanted])
        for (path, _), data in zip(wanted, blobs, strict=True):
            yield RawFile(path, data)

    def generated_views(self) -> list[Finding]:
        if self.kind(GENERATED_DIR) != "dir":
            return []
        views = [(p, e) for p, e in self.below(GENERATED_DIR) if p.endswith(".md")]
        findings: list[Finding] = []
        readable = []
        for path, entry in views:
            kind = entry_kind(entry)
            if kind == "file" and entry.size <= MAX_VIEW_BYTES:
                readable.append((path, entry))
            elif kind != "dir":
                what = NEVER_FOLLOWED.get(kind, f"over {MAX_VIEW_BYTES} bytes")
                detail = f"{path}: {what}; never read"
                findings.append(Finding("GENERATED_VIEW_UNMARKED", path, 1, detail, anchor=path))
        blobs = read_blobs(self.repo, [entry.oid for _, entry in readable])
        for (path, _), data in zip(readable, blobs, strict=True):
            findings.extend(check_generated(path, data[:2048].decode("utf-8", "replace")))
        return findings


def _problem(path: str, kind: str, scopes: tuple[str, ...]) -> Problem | None:
    """The problem of an entry that would be a source but cannot be read as one, or None.

    A link's target is never resolved, so a link counts as a possible folder of sources
    unless its name has a suffix other than `.md`."""
    name = path.rpartition("/")[2]
    would_be_source = path.endswith(".md") and in_scope(path, scopes)
    if fs.display_name(path) is None:
        if (kind == "dir" or path.endswith(".md")) and may_hold(path, scopes):
            return Problem("SOURCE_PATH", fs.escaped_name(path), "the name is not UTF-8")
        return None
    if kind not in NEVER_FOLLOWED:
        return None
    folder_like = may_hold(path, scopes) and (
        "." not in name.lstrip(".") or name.endswith(".md") or kind == "special"
    )
    if would_be_source or folder_like:
        return Problem("SOURCE_LINK", path, f"{NEVER_FOLLOWED[kind]} is never followed")
    return None


def _check_sizes(wanted: list[tuple[str, TreeEntry]], limits: Limits) -> None:
    """The limits, from the listing's sizes, before any blob is read."""
    if len(wanted) > limits.sources:
        raise ContextError("CONTEXT_LIMIT", f"sources: more than {limits.sources} scoped sources")
    total = 0
    for path, entry in wanted:
        if entry.size > limits.source_bytes:
            raise ContextError(
                "CONTEXT_LIMIT",
                f"source_bytes: {path}: {entry.size} bytes exceeds the limit of "
                f"{limits.source_bytes}",
            )
        total += entry.size
    if total > limits.total_bytes:
        raise ContextError(
            "CONTEXT_LIMIT",
            f"snapshot_bytes: more than {limits.total_bytes} bytes in scoped sources",
        )
