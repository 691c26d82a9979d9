"""What a long-lived caller keeps between snapshots of one root, in memory only (never on
disk): the parsed documents of the current sources by content, and the last `Corpus` made
(docs/performance.md, "The warm path").

`collect(root, memo=memo)` still reads and hashes every source on every call; the memo only
spares parsing the bytes it has parsed before, and assembling a `Corpus` (classification,
citations, supersession) when nothing it was made from changed. It holds the documents of
the last snapshot only: a removed or changed source's document is dropped by the next
`collect`, so its size is bounded by the corpus limits.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Hashable

from project_corpus.core.records import Corpus
from project_corpus.core.records import Document
from project_corpus.core.records import Source


class SnapshotMemo:
    """The documents of the last snapshot by SHA-256, and the last corpus of each mode
    (strict, and the doctor's) with what it was made from. Owns its tables; not thread-safe
    (a caller serialises its calls, as `Workspace` does)."""

    def __init__(self) -> None:
        self.documents: dict[str, Document] = {}
        self._corpora: dict[bool, tuple[Hashable, Corpus]] = {}
        # path -> (what it was classified from, the source): `snapshot._classified`
        self.classified: dict[str, tuple[Hashable, Source]] = {}

    def keep(self, documents: dict[str, Document]) -> None:
        """Hold DOCUMENTS (the snapshot just read) and nothing else: a kept corpus with a
        source outside them is dropped too."""
        self.documents = documents
        for path, (_, source) in list(self.classified.items()):
            if source.sha256 not in documents:
                del self.classified[path]
        for strict, (_, corpus) in list(self._corpora.items()):
            if any(source.sha256 not in documents for source in corpus.sources):
                del self._corpora[strict]

    def corpus(self, strict: bool, made_of: Hashable, make: Callable[[], Corpus]) -> Corpus:
        """The corpus of mode STRICT made of MADE_OF (root, policy digest, sources, findings):
        the one kept when it was made of the same, else MAKE's, kept in its place."""
        kept = self._corpora.get(strict)
        if kept is not None and kept[0] == made_of:
            return kept[1]
        corpus = make()
        self._corpora[strict] = (made_of, corpus)
        return corpus
