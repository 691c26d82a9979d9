"""`Workspace`: the one library entry (SPEC §12 "One front door"; docs/architecture.md).

`Workspace(root, index=None, warm=False)` opens ROOT once into a `corpus.roots.Root` record
(with no ROOT: the nearest folder at or above the current one that holds `.project-corpus/`)
and answers `build`, `query`, `bundle`, `doctor`, `candidates` / `validate_candidate`,
`receipt`, `review` and `evaluate` from it. The CLI commands, the MCP tools and the language
server are adapters: arguments -> one Workspace call -> a renderer; nothing else composes a
pipeline. Each call validates its arguments first (`rank.ask`, `bundle.bundle_ask`, ...),
then reads, then computes, and raises the same `ContextError`s as the matching command.

`query` and `bundle` answer from the stored index at INDEX (checked: `INDEX_MISSING`,
`INDEX_STALE`, ...) or, with `fresh=True`, from the current sources without any index (byte
for byte what a freshly built index gives; nothing is written). A cold workspace (the CLI)
keeps nothing between calls. A warm one (`warm=True`: the MCP server's session, an editor)
keeps what it parsed and analysed, by content and in memory only (`workspace.warm`), so a
call costs a fraction of a cold one; its outputs are the cold ones. Calls are serialised by a
lock, so one workspace may be shared by threads.

Library modules are imported inside the methods: `project-corpus context query` loads what a
query needs and nothing else (start-up, docs/performance.md).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from project_corpus.core.bounds import BOUNDS
from project_corpus.corpus.roots import Root
from project_corpus.corpus.roots import open_root

if TYPE_CHECKING:
    from project_corpus.core.records import Corpus
    from project_corpus.corpus.memo import SnapshotMemo
    from project_corpus.importer.records import ImportOptions
    from project_corpus.workspace.warm import WarmState


class Workspace:
    """A project root opened once; each call answers from the sources as they are then."""

    def __init__(
        self,
        root: str | os.PathLike[str] | None = None,
        index: str | None = None,
        warm: bool = False,
    ) -> None:
        self.root: Root = open_root(root)
        self.index = index
        self._state: WarmState | None = None
        if warm:
            from project_corpus.workspace.warm import WarmState

            self._state = WarmState()
        self._lock = threading.Lock()

    # --- the index -----------------------------------------------------------------------

    def build(self) -> dict[str, object]:
        """Build the index at INDEX from the current sources: the `context build` document."""
        from project_corpus.corpus.required import require_corpus
        from project_corpus.corpus.snapshot import collect
        from project_corpus.index.store import build_index
        from project_corpus.index.store import prepare_index_path

        with self._lock:
            require_corpus(self.root.path, self.root)
            prepare_index_path(self.root.path, self.index)
            return build_index(collect(self.root), self.index)

    # --- retrieval -----------------------------------------------------------------------

    def query(
        self, query: object, limit: object = BOUNDS.limit.default, *, fresh: bool = False
    ) -> dict[str, object]:
        """The `context query` document of QUERY (QUERY_LIMIT, QUERY_EMPTY, QUERY_INVALID)."""
        from project_corpus.corpus.snapshot import paused_gc
        from project_corpus.retrieval.rank import ask
        from project_corpus.retrieval.rank import query_result

        asked = ask(query, limit)
        if self._state is None:
            return query_result(self._load(fresh), asked)
        # GC paused as in the CLI: a collection mid-search walks the whole parsed corpus (-2-5 ms)
        with self._lock, paused_gc():
            warm = self._state.current(lambda memo: self._load(fresh, memo))
            return query_result(warm.corpus, asked, warm.analysis)

    def bundle(
        self, query: object, max_tokens: object = BOUNDS.max_tokens.default, *, fresh: bool = False
    ) -> dict[str, object]:
        """The Context Bundle v1 of QUERY within MAX_TOKENS (BUDGET_INVALID, QUERY_*)."""
        # Imported here: a query does not load the bundle's modules (start-up).
        from project_corpus.corpus.snapshot import paused_gc
        from project_corpus.retrieval.bundle import bundle_and_search
        from project_corpus.retrieval.bundle import bundle_ask

        asked = bundle_ask(query, max_tokens)
        if self._state is None:
            return bundle_and_search(self._load(fresh), asked)[0]
        with self._lock, paused_gc():  # as `query`
            warm = self._state.current(lambda memo: self._load(fresh, memo))
            found = bundle_and_search(
                warm.corpus, asked, analysis=warm.analysis, mandatory=warm.mandatory
            )
            return found[0]

    def receipt(
        self, bundle_file: str, consumer: str, items: Sequence[str] | None = None
    ) -> dict[str, object]:
        """A Receipt v1 that the bundle in BUNDLE_FILE (inside ROOT) went to CONSUMER."""
        from project_corpus.corpus.inputs import load_json_input
        from project_corpus.retrieval.receipt import make_receipt

        _, data = load_json_input(self.root.path, bundle_file)
        return make_receipt(data, consumer, list(items) if items else None)

    def evaluate(self, dataset: str) -> dict[str, object]:
        """CorpusEval v1 of the dataset file DATASET (inside ROOT) on the current index."""
        from project_corpus.evaluate import run_eval

        return run_eval(self.root, self.index, dataset)

    # --- the linters ---------------------------------------------------------------------

    def doctor(
        self,
        *,
        check_index: bool = False,
        bundle: str | None = None,
        candidates: Sequence[str] = (),
        config: str | None = None,
        fail_on: str = "FAIL",
        select: Sequence[str] = (),
        ignore: Sequence[str] = (),
        max_status_age: int | None = None,
        today: date | None = None,
        baseline: str | None = None,
        source_lines: bool = False,
        overlay: Mapping[str, bytes] | None = None,
    ) -> dict[str, object]:
        """`memory_doctor`'s report (OVERLAY: unsaved text); SOURCE_LINES: its text view's too."""
        from project_corpus.doctor import memory_doctor

        with self._lock:
            try:
                report = memory_doctor(
                    self.root,
                    index=self.index,
                    check_index=check_index,
                    bundle=bundle,
                    candidates=candidates,
                    config=config,
                    fail_on=fail_on,
                    select=select,
                    ignore=ignore,
                    max_status_age=max_status_age,
                    today=today,
                    baseline=baseline,
                    memo=None if self._state is None else self._state.doctor_memo(),
                    overlay=overlay,
                )
            finally:
                self._prune()
        return self._with_lines(report) if source_lines else report

    def snapshot(self, overlay: Mapping[str, bytes] | None = None) -> Corpus:
        """The doctor's snapshot of the current sources (problems as `findings`, never
        raised), OVERLAY as in `doctor`; warm: the last doctor run's corpus when nothing
        changed (the language server's links and hovers)."""
        from project_corpus.corpus.snapshot import collect

        with self._lock:
            memo = None if self._state is None else self._state.snapshot
            try:
                return collect(self.root, strict=False, memo=memo, overlay=overlay)
            finally:
                self._prune()

    def candidates(
        self, files: Sequence[str] = (), *, source_lines: bool = False
    ) -> dict[str, object]:
        """The `context candidate-validate` report of the candidate FILES inside ROOT
        (default: every `.project-corpus/candidates/*.json`)."""
        from project_corpus.doctor.candidates import lint_candidates

        with self._lock:
            report = lint_candidates(self.root, files)
        return self._with_lines(report) if source_lines else report

    def validate_candidate(self, candidate: object) -> dict[str, object]:
        """One Candidate v1 object against the current strict snapshot (CANDIDATE_*)."""
        from project_corpus.corpus.candidate import validate_candidate

        if self._state is None:
            return validate_candidate(self._load(fresh=True), candidate)
        with self._lock:
            warm = self._state.current(lambda memo: self._load(True, memo))
            return validate_candidate(warm.corpus, candidate)

    def review(
        self,
        base: str,
        head: str | None = None,
        *,
        fail_on: str = "FAIL",
        merge_base: bool = False,
        config: str | None = None,
    ) -> dict[str, object]:
        """The memory review of the change BASE -> HEAD (default: the working tree)."""
        from project_corpus.review import memory_review

        return memory_review(
            self.root, base, head, fail_on=fail_on, merge_base=merge_base, config=config
        )

    # --- adopting memory kept elsewhere -------------------------------------------------

    def import_(self, options: ImportOptions | None = None) -> dict[str, object]:
        """`project-corpus import` (docs/import.md): the memory ROOT already keeps, written as
        a corpus under ROOT (with `options.dry_run`, only the plan); IMPORT_NO_MEMORY,
        IMPORT_WRITE, IMPORT_VERBATIM."""
        from project_corpus.importer import run_import

        with self._lock:
            return run_import(self.root, options)

    def held(self) -> frozenset[str]:
        """The SHA-256 of every source whose parse or scan a warm workspace holds: after a
        call, those of the sources it read, never more (none when cold)."""
        with self._lock:
            return frozenset() if self._state is None else self._state.held()

    # --- reading -------------------------------------------------------------------------

    def _load(self, fresh: bool, memo: SnapshotMemo | None = None) -> Corpus:
        """The strict corpus of the sources: fresh, or verified against the index."""
        if fresh:
            from project_corpus.corpus.snapshot import collect

            return collect(self.root, memo=memo)
        from project_corpus.index.store import load_verified  # sqlite3 only when an index is read

        return load_verified(self.root, self.index, memo=memo)

    def _prune(self) -> None:
        """A warm workspace drops the scans and texts of sources no longer read."""
        if self._state is not None:
            self._state.prune()

    def _with_lines(self, report: dict[str, object]) -> dict[str, object]:
        from project_corpus.doctor.sourcelines import with_source_lines

        return with_source_lines(self.root.path, report)
