"""CorpusEval v1 per-case metrics (docs/eval.md): one small function per metric.

Retrieval and bundle are judged separately. Retrieval expectations (top source, top-k,
temporal status of the top result, per-source temporal/authority, forbidden retrieval paths)
are judged on `rank.search` with the case's `retrieval_limit`; bundle expectations
(recall, contamination, must_contain / must_not_contain) on `compile_bundle` with the case's
`max_tokens`. Each metric returns a `Verdict`: `passed` is None when the case does not test
it (then it never affects the case's `pass`). `METRICS` is the registry, in output order.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.jsonio import canonical_bytes
from project_corpus.core.records import Corpus
from project_corpus.evaluate.dataset import EvalCase
from project_corpus.retrieval.analysis import Analysis
from project_corpus.retrieval.bundle import Mandatory
from project_corpus.retrieval.bundle import bundle_and_search
from project_corpus.retrieval.bundle import bundle_ask
from project_corpus.retrieval.order import Result


class Verdict(NamedTuple):
    """A metric's value, whether it passed (None: not tested) and why it failed."""

    value: object
    passed: bool | None
    problems: tuple[str, ...] = ()


UNTESTED = Verdict(None, None)


class Observation(NamedTuple):
    """Everything a case is judged on: retrieval results and two compiles of the bundle."""

    corpus: Corpus
    case: EvalCase
    results: list[Result]
    bundle: dict[str, object]
    repeat_results: list[Result]
    repeat_bundle: dict[str, object]

    @property
    def items(self) -> list[dict[str, object]]:
        items = self.bundle.get("items")
        return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []

    def item_values(self, key: str) -> list[str]:
        return [str(item.get(key, "")) for item in self.items]

    def result_paths(self, count: int | None = None) -> list[str]:
        return [r.item.source_path for r in self.results[:count]]


def observe(
    corpus: Corpus,
    case: EvalCase,
    analysis: Analysis | None = None,
    mandatory: Mandatory | None = None,
) -> Observation:
    """Run retrieval and compile the bundle twice (for the repeatability metric). The case's
    search is the first `retrieval_limit` results of the search its bundle ranks from (the
    same results as its own search: `bundle_and_search`). Both compiles read ANALYSIS (the
    corpus's, made once per eval) and the MANDATORY memo (idem) and redo everything that
    depends on the query (docs/decisions.md, "One analysis per eval")."""
    limit = case.retrieval_limit  # in range: `parse_dataset` checked it
    asked = bundle_ask(case.query, case.max_tokens)
    memo: Mandatory = {} if mandatory is None else mandatory
    bundle, found = bundle_and_search(corpus, asked, analysis=analysis, mandatory=memo)
    repeat_bundle, repeat_found = bundle_and_search(
        corpus, asked, analysis=analysis, mandatory=memo
    )
    return Observation(corpus, case, found[:limit], bundle, repeat_found[:limit], repeat_bundle)


def _unique(values: tuple[str, ...] | None) -> list[str]:
    return list(dict.fromkeys(values or ()))


def _boolean(problems: list[str]) -> Verdict:
    return Verdict(not problems, not problems, tuple(problems))


def source_recall(obs: Observation) -> Verdict:
    """Share of expected source paths and authority classes present among bundle items."""
    paths, classes = (
        _unique(obs.case.expected_source_paths),
        _unique(obs.case.expected_authority_classes),
    )
    if not paths and not classes:
        return UNTESTED
    found_paths, found_classes = (
        set(obs.item_values("source_path")),
        set(obs.item_values("authority_class")),
    )
    missing = [f"bundle lacks source {p}" for p in paths if p not in found_paths]
    missing += [f"bundle lacks authority class {c}" for c in classes if c not in found_classes]
    total = len(paths) + len(classes)
    recall = round((total - len(missing)) / total, 4)
    return Verdict(recall, not missing, tuple(missing))


def forbidden_contamination(obs: Observation) -> Verdict:
    """Count of bundle items and retrieval results from forbidden paths or classes."""
    case = obs.case
    if (
        case.forbidden_source_paths,
        case.forbidden_authority_classes,
        case.forbidden_retrieval_source_paths,
    ) == (None, None, None):
        return UNTESTED
    paths, classes = (
        set(case.forbidden_source_paths or ()),
        set(case.forbidden_authority_classes or ()),
    )
    bad_items = [
        i for i in obs.items if i.get("source_path") in paths or i.get("authority_class") in classes
    ]
    retrieval_paths = set(case.forbidden_retrieval_source_paths or ())
    bad_results = [p for p in obs.result_paths() if p in retrieval_paths]
    problems = sorted(
        {f"bundle holds {i.get('source_path')} ({i.get('authority_class')})" for i in bad_items}
    )
    problems += sorted({f"retrieval returned {p}" for p in bad_results})
    count = len(bad_items) + len(bad_results)
    return Verdict(count, count == 0, tuple(problems))


def _top_field(obs: Observation, expected: str | None, field: str, label: str) -> Verdict:
    """Whether the top retrieval result's FIELD equals EXPECTED (untested when None)."""
    if expected is None:
        return UNTESTED
    top = getattr(obs.results[0].item, field) if obs.results else None
    return _boolean(
        [] if top == expected else [f"top retrieval {label} is {top}, expected {expected}"]
    )


def top_source_correct(obs: Observation) -> Verdict:
    return _top_field(obs, obs.case.expected_top_source_path, "source_path", "source")


def top_k_correct(obs: Observation) -> Verdict:
    expected = obs.case.expected_top_k_paths
    if expected is None:
        return UNTESTED
    top_k = set(obs.result_paths(obs.case.top_k))
    return _boolean(
        [
            f"{p} not in the top {obs.case.top_k} results"
            for p in _unique(expected)
            if p not in top_k
        ]
    )


def _per_source(obs: Observation, expected: dict[str, str] | None, field: str) -> list[str]:
    problems = []
    for path, want in (expected or {}).items():
        seen = sorted(
            {str(getattr(r.item, field)) for r in obs.results if r.item.source_path == path}
        )
        if seen != [want]:
            got = ", ".join(seen) if seen else "no retrieval result"
            problems.append(f"{path}: {field} {got}, expected {want}")
    return problems


def source_specific_correct(obs: Observation) -> Verdict:
    """Every retrieval result of each named source carries the expected class / status."""
    case = obs.case
    if case.expected_source_temporal is None and case.expected_source_authority is None:
        return UNTESTED
    problems = _per_source(obs, case.expected_source_temporal, "temporal_status")
    return _boolean(problems + _per_source(obs, case.expected_source_authority, "authority_class"))


def current_historical_correct(obs: Observation) -> Verdict:
    return _top_field(obs, obs.case.expected_temporal_status, "temporal_status", "result")


def _bundle_paths(obs: Observation) -> set[str]:
    selected = obs.bundle.get("selected_source_snapshot")
    reads = obs.bundle.get("mandatory_reads")
    paths = set(obs.item_values("source_path")) | (
        set(selected) if isinstance(selected, dict) else set()
    )
    if isinstance(reads, list):
        paths |= {str(r.get("source_path")) for r in reads if isinstance(r, dict)}
    return paths


def _scope_leaks(obs: Observation, forbidden: tuple[str, ...]) -> list[str]:
    bundle_paths, result_paths = _bundle_paths(obs), set(obs.result_paths())
    problems = []
    for path in _unique(forbidden):
        where = [
            name
            for name, found in (
                ("snapshot", path in obs.corpus.by_path),
                ("retrieval results", path in result_paths),
                ("bundle", path in bundle_paths),
            )
            if found
        ]
        problems += [f"forbidden scope path {path} is in the {w}" for w in where]
    return problems


def _project_leaks(obs: Observation, expected: str) -> list[str]:
    problems = []
    if obs.corpus.project_id != expected:
        problems.append(f"corpus project is {obs.corpus.project_id}, expected {expected}")
    if obs.bundle.get("project_id") != expected:
        problems.append(f"bundle project is {obs.bundle.get('project_id')}, expected {expected}")
    foreign_results = sorted(
        {r.item.source_path for r in obs.results if r.item.project_id != expected}
    )
    problems += [f"retrieval returned {p} of another project" for p in foreign_results]
    foreign_items = sorted(
        {str(i.get("source_path")) for i in obs.items if i.get("project_id") != expected}
    )
    return problems + [f"bundle holds {p} of another project" for p in foreign_items]


def project_policy_isolation(obs: Observation) -> Verdict:
    """Policy-denied and foreign paths appear in no snapshot, result or bundle."""
    case = obs.case
    if case.forbidden_scope_paths is None and case.expected_project_id is None:
        return UNTESTED
    problems = _scope_leaks(obs, case.forbidden_scope_paths or ())
    if case.expected_project_id is not None:
        problems += _project_leaks(obs, case.expected_project_id)
    return _boolean(problems)


def _tokens(text: str) -> int:
    return max(1, math.ceil(len(text.encode("utf-8")) / 4))


def budget_compliant(obs: Observation) -> Verdict:
    """Recomputed excerpt tokens within max_tokens, reported honestly, envelope in bound."""
    budget = obs.bundle.get("budget")
    budget = budget if isinstance(budget, dict) else {}
    used = sum(_tokens(text) for text in obs.item_values("text"))
    problems = []
    if used > obs.case.max_tokens:
        problems.append(f"items use {used} tokens, max_tokens is {obs.case.max_tokens}")
    reported = (budget.get("estimated_tokens"), budget.get("max_tokens"))
    if reported != (used, obs.case.max_tokens):
        problems.append(
            f"budget reports {reported[0]} of {reported[1]} tokens, "
            f"recomputed {used} of {obs.case.max_tokens}"
        )
    size = len(canonical_bytes(obs.bundle))
    if obs.bundle.get("serialized_bytes") != size or size > BOUNDS.envelope_bytes:
        problems.append(
            f"serialized_bytes {obs.bundle.get('serialized_bytes')}, canonical size {size},"
            f" bound {BOUNDS.envelope_bytes}"
        )
    return _boolean(problems)


def deterministic_repeatability(obs: Observation) -> Verdict:
    """Two compiles give the same bundle_sha256; two searches the same ranking."""
    problems = []
    if obs.bundle.get("bundle_sha256") != obs.repeat_bundle.get("bundle_sha256"):
        problems.append("two compiles of the same bundle gave different bundle_sha256")
    if obs.results != obs.repeat_results:
        problems.append("two identical searches gave different results")
    return _boolean(problems)


def stale_source_detection(obs: Observation) -> Verdict:
    """A later change to any delivered source is detectable from the bundle alone.

    Every bundle item's source is pinned in `selected_source_snapshot` with the item's own
    `source_sha256`; every pin and `source_snapshot_digest` equal the fresh snapshot; and,
    when the case gives `expected_snapshot_digest`, the fresh snapshot still has that digest
    (the expectations were written against these exact sources).
    """
    pins = obs.bundle.get("selected_source_snapshot")
    pins = pins if isinstance(pins, dict) else {}
    fresh = obs.corpus.source_map()
    problems = sorted(
        {
            f"bundle item of {i.get('source_path')} is not pinned to its hash"
            for i in obs.items
            if pins.get(str(i.get("source_path"))) != i.get("source_sha256")
        }
    )
    problems += [
        f"pin of {p} differs from the fresh source" for p in sorted(pins) if pins[p] != fresh.get(p)
    ]
    if obs.bundle.get("source_snapshot_digest") != obs.corpus.snapshot_digest:
        problems.append("bundle source_snapshot_digest differs from the fresh snapshot")
    expected = obs.case.expected_snapshot_digest
    if expected is not None and expected != obs.corpus.snapshot_digest:
        problems.append(
            f"snapshot digest is {obs.corpus.snapshot_digest}, the case expects {expected}"
        )
    return _boolean(problems)


def must_contain_ok(obs: Observation) -> Verdict:
    """Bundle item text holds every must_contain string and no must_not_contain string."""
    case = obs.case
    if case.must_contain is None and case.must_not_contain is None:
        return UNTESTED
    text = "\n".join(obs.item_values("text"))
    problems = [f"bundle text lacks {s!r}" for s in _unique(case.must_contain) if s not in text]
    problems += [f"bundle text contains {s!r}" for s in _unique(case.must_not_contain) if s in text]
    return _boolean(problems)


METRICS: dict[str, Callable[[Observation], Verdict]] = {
    "source_recall": source_recall,
    "forbidden_contamination": forbidden_contamination,
    "top_source_correct": top_source_correct,
    "top_k_correct": top_k_correct,
    "source_specific_correct": source_specific_correct,
    "current_historical_correct": current_historical_correct,
    "project_policy_isolation": project_policy_isolation,
    "budget_compliant": budget_compliant,
    "deterministic_repeatability": deterministic_repeatability,
    "stale_source_detection": stale_source_detection,
    "must_contain_ok": must_contain_ok,
}
