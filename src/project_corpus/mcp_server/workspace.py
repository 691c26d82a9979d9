"""A project root opened once and asked many times, warm: `Workspace` (docs/performance.md,
"The warm path"; README "Python API").

A long-lived embedder (the MCP server holds one per session, an editor integration its own)
opens ROOT once and then calls `query`, `bundle`, `doctor` and `validate_candidate` as often
as it likes. Each call sees the sources as they are at that moment: it re-reads the policy
and re-reads and re-hashes every scoped source under the same confinement and limits as
`collect`; only sources whose bytes it has not seen are parsed (`corpus.memo.SnapshotMemo`)
and, for the doctor, scanned (`doctor.records.ScanMemo`). When the sources, the policy and the
snapshot's findings are unchanged, the `Corpus` of the last call is reused with its retrieval
`Analysis`, so a query costs its search. When they changed, the new analysis takes each
unchanged document's folded text, contexts and per-prefix scans from the text memo
(`retrieval.doctext.TextMemo`, by SHA-256), so only the changed documents are folded and
scanned again. Everything is kept in memory, never on disk, and only for the current
sources. Outputs equal the CLI's for the same tree (a query's and a bundle's on a current
index; the doctor's without `--index`).

The same library entries as the CLI validate the arguments first (`rank.ask`,
`bundle.bundle_ask`), then compute (`query_result`, `bundle_and_search`, `memory_doctor`,
`validate_candidate`). It lives beside the MCP server, its first user, because it sits above
every view (query, bundle, doctor, candidate); it imports no SDK.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from collections.abc import Sequence
from datetime import date
from typing import NamedTuple

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.records import Corpus
from project_corpus.corpus import fs
from project_corpus.corpus.candidate import validate_candidate
from project_corpus.corpus.memo import SnapshotMemo
from project_corpus.corpus.snapshot import collect
from project_corpus.corpus.snapshot import paused_gc
from project_corpus.doctor import memory_doctor
from project_corpus.doctor.records import DoctorMemo
from project_corpus.doctor.records import ScanMemo
from project_corpus.retrieval.analysis import Analysis
from project_corpus.retrieval.bundle import Mandatory
from project_corpus.retrieval.bundle import bundle_and_search
from project_corpus.retrieval.bundle import bundle_ask
from project_corpus.retrieval.doctext import TextMemo
from project_corpus.retrieval.rank import ask
from project_corpus.retrieval.rank import query_result

# Budgets whose mandatory summaries are kept per corpus (a client cycling through every
# budget from 80 to 20,000 must not grow the memo without bound).
MANDATORY_BUDGETS = 32


class Warm(NamedTuple):
    """The current strict corpus with what every query on it shares."""

    corpus: Corpus
    analysis: Analysis
    mandatory: Mandatory  # {max_tokens: the bundle's mandatory part}


class Workspace:
    """A project root opened once; each call answers from the sources as they are then.

    `Workspace(root)` resolves ROOT once (CONTEXT_ROOT when it is not a folder). Calls
    are serialised by a lock, so one workspace may be shared by threads. Raises the same
    `ContextError`s as the matching CLI command.
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = fs.resolve_root(root)
        self._snapshot = SnapshotMemo()
        self._scans = ScanMemo()
        self._texts = TextMemo()
        self._warm: Warm | None = None
        self._lock = threading.Lock()

    def query(self, query: object, limit: object = BOUNDS.limit.default) -> dict[str, object]:
        """The `context query` document of QUERY (QUERY_LIMIT, QUERY_EMPTY, QUERY_INVALID)."""
        asked = ask(query, limit)
        # GC paused as in the CLI: a collection mid-search walks the whole parsed corpus (-2-5 ms)
        with self._lock, paused_gc():
            warm = self._current()
            return query_result(warm.corpus, asked, warm.analysis)

    def bundle(
        self, query: object, max_tokens: object = BOUNDS.max_tokens.default
    ) -> dict[str, object]:
        """The Context Bundle v1 of QUERY within MAX_TOKENS (BUDGET_INVALID, QUERY_*)."""
        asked = bundle_ask(query, max_tokens)
        with self._lock, paused_gc():  # as `query`
            warm = self._current()
            if len(warm.mandatory) >= MANDATORY_BUDGETS:
                warm.mandatory.clear()
            found = bundle_and_search(
                warm.corpus, asked, analysis=warm.analysis, mandatory=warm.mandatory
            )
            return found[0]

    def doctor(
        self,
        *,
        config: str | None = None,
        fail_on: str = "FAIL",
        select: Sequence[str] = (),
        ignore: Sequence[str] = (),
        max_status_age: int | None = None,
        today: date | None = None,
        overlay: Mapping[str, bytes] | None = None,
    ) -> dict[str, object]:
        """The Memory Doctor's report of the current sources, index checks skipped (as
        `context doctor ROOT`); the options are `memory_doctor`'s. OVERLAY (portable path ->
        bytes, an editor's unsaved text) stands for those sources' bytes on disk."""
        with self._lock:
            try:
                return memory_doctor(
                    self.root,
                    config=config,
                    fail_on=fail_on,
                    select=select,
                    ignore=ignore,
                    max_status_age=max_status_age,
                    today=today,
                    memo=DoctorMemo(self._snapshot, self._scans),
                    overlay=overlay,
                )
            finally:
                self._texts.prune(self._snapshot.documents)  # a removed source's text

    def snapshot(self, overlay: Mapping[str, bytes] | None = None) -> Corpus:
        """The doctor's snapshot of the current sources (problems as `findings`, never
        raised), OVERLAY as in `doctor`: the last doctor run's corpus when nothing changed."""
        with self._lock:
            try:
                return collect(self.root, strict=False, memo=self._snapshot, overlay=overlay)
            finally:
                self._scans.prune(self._snapshot.documents)
                self._texts.prune(self._snapshot.documents)

    def validate_candidate(self, candidate: object) -> dict[str, object]:
        """`validate_candidate` against the current strict snapshot (CANDIDATE_*)."""
        with self._lock:
            return validate_candidate(self._current().corpus, candidate)

    def held(self) -> frozenset[str]:
        """The SHA-256 of every source whose parse or scan the workspace holds: after a call,
        those of the sources it read, never more."""
        with self._lock:
            held = (self._snapshot.documents, self._scans.scans, self._texts.texts)
            return frozenset().union(*held)

    def _current(self) -> Warm:
        """The strict corpus of the sources as they are now, with its analysis: the last
        one's when `collect` gave back the same corpus."""
        warm, self._warm = self._warm, None  # nothing stale is kept when reading fails
        try:
            corpus = collect(self.root, memo=self._snapshot)
        finally:  # the doctor's scans and the texts of removed sources
            self._scans.prune(self._snapshot.documents)
            self._texts.prune(self._snapshot.documents)
        if warm is None or warm.corpus is not corpus:
            del warm  # the old analysis is freed before the new one is made (peak memory)
            with paused_gc():  # unchanged documents' texts and scans come from the memo
                self._warm = Warm(corpus, Analysis(corpus, self._texts), {})
        else:
            self._warm = warm
        return self._warm
