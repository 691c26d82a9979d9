"""Where `collect` gets its bytes: a tree of corpus files (docs/architecture.md).

`corpus.snapshot` parses, limits and classifies; a `Tree` only finds and reads bytes. Two
trees exist: the working tree (`corpus.worktree.WorkTree`, confined no-follow reads) and a
git revision (`review.gittree.GitTree`, objects read with `git cat-file`). Both keep the same
rules: only `.md` files in read scope are sources, a link or special entry that would be one
is a problem (never followed, never read), and the limits are checked while reading.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple
from typing import Protocol

from project_corpus.core.records import Finding


class Limits(NamedTuple):
    """The snapshot limits a tree needs while reading (docs/protocol.md, "Limits"): bytes of
    one source, number of sources, bytes of all sources. `collect` checks them again."""

    source_bytes: int
    sources: int
    total_bytes: int


class RawFile(NamedTuple):
    """One candidate source's bytes, as read (not yet decoded or parsed)."""

    path: str
    data: bytes


class Problem(NamedTuple):
    """An entry that would be a source but cannot be read as one (a link, a special file, a
    name that is not UTF-8): `code` is SOURCE_LINK or SOURCE_PATH."""

    code: str
    path: str
    detail: str


class Tree(Protocol):
    """A tree of corpus files below a project root."""

    @property
    def root(self) -> str:
        """The resolved project root (the `Corpus.root` of the snapshot)."""
        ...

    def kind(self, rel: str) -> str | None:
        """file, dir, link or special for REL; None when it is absent."""
        ...

    def read(self, rel: str, max_bytes: int, code: str) -> bytes:
        """The bytes of the regular file REL; ContextError(CODE) for a missing, linked or
        special file, or one over MAX_BYTES."""
        ...

    def sources(
        self, rel_dir: str, scopes: tuple[str, ...], limits: Limits
    ) -> Iterator[RawFile | Problem]:
        """The `.md` files in read scope below REL_DIR (a real folder), read under LIMITS,
        and the entries that would be sources but cannot be read."""
        ...

    def generated_views(self) -> list[Finding]:
        """GENERATED_VIEW_UNMARKED findings of `.project-corpus/generated/`."""
        ...
