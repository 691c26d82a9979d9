"""What a warm `Workspace` keeps between calls, in memory only (docs/performance.md, "The warm
path"): the parsed documents by content (`corpus.memo.SnapshotMemo`), the doctor's scans
(`doctor.records.ScanMemo`), the folded texts (`retrieval.doctext.TextMemo`), and the last
strict corpus with its retrieval `Analysis` and the bundles' mandatory parts.

When `collect` gives back the same `Corpus` (nothing it was made of changed), the last
analysis is reused, so a query costs its search. When the sources changed, the new analysis
takes each unchanged document's folded text, contexts and per-prefix scans from the text
memo, so only the changed documents are folded and scanned again. Only the current sources'
entries are ever held.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from project_corpus.core.records import Corpus
from project_corpus.corpus.memo import SnapshotMemo
from project_corpus.corpus.snapshot import paused_gc
from project_corpus.doctor.records import DoctorMemo
from project_corpus.doctor.records import ScanMemo
from project_corpus.retrieval.analysis import Analysis
from project_corpus.retrieval.bundle import Mandatory
from project_corpus.retrieval.doctext import TextMemo

# Budgets whose mandatory summaries are kept per corpus (a client cycling through every
# budget from 80 to 20,000 must not grow the memo without bound).
MANDATORY_BUDGETS = 32


class Warm(NamedTuple):
    """The current strict corpus with what every query on it shares."""

    corpus: Corpus
    analysis: Analysis
    mandatory: Mandatory  # {max_tokens: the bundle's mandatory part}


class WarmState:
    """The memo tables of one warm workspace (not thread-safe: `Workspace` serialises)."""

    def __init__(self) -> None:
        self.snapshot = SnapshotMemo()
        self.scans = ScanMemo()
        self.texts = TextMemo()
        self._warm: Warm | None = None

    def doctor_memo(self) -> DoctorMemo:
        return DoctorMemo(self.snapshot, self.scans)

    def current(self, load: Callable[[SnapshotMemo], Corpus]) -> Warm:
        """The strict corpus LOAD gives (with this memo) and its analysis: the last one's
        when LOAD gave back the same corpus."""
        warm, self._warm = self._warm, None  # nothing stale is kept when reading fails
        try:
            corpus = load(self.snapshot)
        finally:  # the doctor's scans and the texts of removed sources
            self.prune()
        if warm is None or warm.corpus is not corpus:
            del warm  # the old analysis is freed before the new one is made (peak memory)
            with paused_gc():  # unchanged documents' texts and scans come from the memo
                self._warm = Warm(corpus, Analysis(corpus, self.texts), {})
        else:
            self._warm = warm
        if len(self._warm.mandatory) >= MANDATORY_BUDGETS:
            self._warm.mandatory.clear()
        return self._warm

    def prune(self) -> None:
        """Drop the scans and texts of sources the last snapshot no longer holds."""
        self.scans.prune(self.snapshot.documents)
        self.texts.prune(self.snapshot.documents)

    def held(self) -> frozenset[str]:
        held = (self.snapshot.documents, self.scans.scans, self.texts.texts)
        return frozenset().union(*held)
