"""CorpusEval v1 metrics (SPEC §9): each one passes, fails with evidence, or is untested."""

from __future__ import annotations

from typing import Any

import pytest

from project_corpus.core.records import Corpus
from project_corpus.corpus.snapshot import collect
from project_corpus.evaluate import evaluate_dataset
from project_corpus.evaluate import metrics as eval_metrics
from project_corpus.evaluate import summarise
from project_corpus.evaluate.dataset import EvalCase
from project_corpus.evaluate.dataset import parse_dataset
from project_corpus.evaluate.metrics import METRICS
from project_corpus.evaluate.metrics import Observation
from project_corpus.evaluate.metrics import observe
from tests.conftest import MakeCorpus

STATUS = ".project-corpus/state/STATUS.md"
PROJECT = ".project-corpus/state/PROJECT.md"
NEW = ".project-corpus/reports/bench-new.md"
OLD = ".project-corpus/reports/bench-old.md"
UNCITED = ".project-corpus/reports/old-uncited.md"
KICKOFF = ".project-corpus/history/2026-01-kickoff.md"


@pytest.fixture
def corpus(make_corpus: MakeCorpus) -> Corpus:
    return collect(make_corpus())


def _case(**keys: Any) -> EvalCase:
    (case,) = parse_dataset({"schema_version": "1", "cases": [{"query": "latency", **keys}]})
    return case


def _judge(corpus: Corpus, **keys: Any) -> dict[str, object]:
    cases = [{"name": "only", "query": keys.pop("query", "latency"), **keys}]
    report = evaluate_dataset(corpus, {"schema_version": "1", "cases": cases})
    results = report["results"]
    assert isinstance(results, list)
    result: dict[str, object] = results[0]
    return result


def test_a_case_without_expectations_tests_only_the_always_on_metrics(corpus: Corpus) -> None:
    result = _judge(corpus)
    assert result["tested_metrics"] == [
        "budget_compliant",
        "deterministic_repeatability",
        "stale_source_detection",
    ]
    assert result["pass"] is True
    for name in ("source_recall", "forbidden_contamination", "project_policy_isolation"):
        assert result[name] is None


def test_superseded_report_is_found_by_retrieval_but_not_bundled(corpus: Corpus) -> None:
    result = _judge(
        corpus,
        query="latency before tuning",
        expected_source_temporal={OLD: "superseded", NEW: "scoped"},
        expected_source_paths=[NEW],
        forbidden_source_paths=[OLD],
    )
    assert result["failed_metrics"] == [], result["problems"]
    assert result["source_recall"] == 1.0
    assert result["forbidden_contamination"] == 0


def test_historical_intent_brings_the_superseded_report_into_the_bundle(corpus: Corpus) -> None:
    result = _judge(corpus, query="previous latency", forbidden_source_paths=[OLD])
    assert result["failed_metrics"] == ["forbidden_contamination"]
    assert isinstance(result["forbidden_contamination"], int)
    assert result["forbidden_contamination"] >= 1
    assert result["problems"] == [f"forbidden_contamination: bundle holds {OLD} (SCOPED_REPORT)"]


def test_recall_is_partial_and_names_what_is_missing(corpus: Corpus) -> None:
    result = _judge(
        corpus, expected_source_paths=[NEW, "nope.md"], expected_authority_classes=["HISTORY"]
    )
    assert result["source_recall"] == round(1 / 3, 4)
    assert result["failed_metrics"] == ["source_recall"]
    assert result["problems"] == [
        "source_recall: bundle lacks source nope.md",
        "source_recall: bundle lacks authority class HISTORY",
    ]


def test_contamination_counts_bundle_items_and_retrieval_results(corpus: Corpus) -> None:
    result = _judge(
        corpus,
        forbidden_authority_classes=["CANONICAL"],
        forbidden_retrieval_source_paths=[NEW],
    )
    assert isinstance(result["forbidden_contamination"], int)
    assert result["forbidden_contamination"] >= 3
    problems = result["problems"]
    assert isinstance(problems, list)
    assert f"forbidden_contamination: retrieval returned {NEW}" in problems
    assert f"forbidden_contamination: bundle holds {STATUS} (CANONICAL)" in problems


@pytest.mark.parametrize(
    ("keys", "metric", "problem"),
    [
        ({"expected_top_source_path": "x.md"}, "top_source_correct", "top retrieval source is"),
        ({"expected_top_k_paths": ["x.md"]}, "top_k_correct", "x.md not in the top 5 results"),
        (
            {"expected_temporal_status": "historical"},
            "current_historical_correct",
            "expected historical",
        ),
        (
            {"expected_source_temporal": {"x.md": "current"}},
            "source_specific_correct",
            "no retrieval result",
        ),
        (
            {"expected_source_authority": {NEW: "HISTORY"}},
            "source_specific_correct",
            "CITED_REPORT, expected HISTORY",
        ),
        ({"must_contain": ["ZZZ"]}, "must_contain_ok", "bundle text lacks 'ZZZ'"),
        (
            {"must_not_contain": ["Project-ID"]},
            "must_contain_ok",
            "bundle text contains 'Project-ID'",
        ),
        (
            {"expected_project_id": "other"},
            "project_policy_isolation",
            "corpus project is demo-project",
        ),
        ({"forbidden_scope_paths": [STATUS]}, "project_policy_isolation", "is in the snapshot"),
        ({"expected_snapshot_digest": "0" * 64}, "stale_source_detection", "the case expects 000"),
    ],
)
def test_each_expectation_fails_with_evidence(
    corpus: Corpus, keys: dict[str, object], metric: str, problem: str
) -> None:
    result = _judge(corpus, **keys)
    assert result["pass"] is False
    assert result["failed_metrics"] == [metric]
    assert any(problem in str(p) for p in result["problems"])  # type: ignore[attr-defined]


def test_the_top_k_window_is_top_k(corpus: Corpus) -> None:
    results = observe(corpus, _case()).results
    second = results[1].item.source_path
    assert _judge(corpus, top_k=2, expected_top_k_paths=[second])["top_k_correct"] is True
    if results[0].item.source_path != second:
        assert _judge(corpus, top_k=1, expected_top_k_paths=[second])["top_k_correct"] is False


def test_matching_snapshot_digest_passes(corpus: Corpus) -> None:
    result = _judge(corpus, expected_snapshot_digest=corpus.snapshot_digest)
    assert result["stale_source_detection"] is True


def test_snapshot_digest_detects_a_changed_source(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    digest = collect(root).snapshot_digest
    (root / UNCITED).write_text("# Report\nchanged\n", encoding="utf-8")
    result = _judge(collect(root), expected_snapshot_digest=digest)
    assert result["failed_metrics"] == ["stale_source_detection"]


def test_isolation_passes_for_own_project_and_denied_path(make_corpus: MakeCorpus) -> None:
    root = make_corpus({".project-corpus/history/secret.md": "# Secret\nZEBRAFISH-DENIED\n"})
    policy_path = root / ".project-corpus/policy.toml"
    text = policy_path.read_text(encoding="utf-8")
    policy_path.write_text(text.replace('history/**"', 'history/2026-*"'), encoding="utf-8")
    result = _judge(
        collect(root),
        query="secret ZEBRAFISH-DENIED",
        expected_project_id="demo-project",
        forbidden_scope_paths=[".project-corpus/history/secret.md"],
        must_not_contain=["ZEBRAFISH-DENIED"],
    )
    assert result["project_policy_isolation"] is True
    assert result["pass"] is True


# --- metrics that a correct bundle never fails: judged on doctored observations --------------


def _doctored(corpus: Corpus, **bundle_changes: object) -> Observation:
    obs = observe(corpus, _case(max_tokens=200))
    return obs._replace(bundle={**obs.bundle, **bundle_changes})


def test_budget_compliant_catches_a_dishonest_budget(corpus: Corpus) -> None:
    obs = _doctored(corpus, budget={"max_tokens": 200, "estimated_tokens": 1})
    verdict = eval_metrics.budget_compliant(obs)
    assert verdict.passed is False
    assert "budget reports 1 of 200 tokens" in verdict.problems[0]


def test_budget_compliant_catches_an_overfull_bundle(corpus: Corpus) -> None:
    obs = _doctored(corpus)
    items = [*obs.items, {**obs.items[0], "text": "x" * 4000}]
    verdict = eval_metrics.budget_compliant(obs._replace(bundle={**obs.bundle, "items": items}))
    assert verdict.passed is False
    assert any("max_tokens is 200" in p for p in verdict.problems)
    assert any("serialized_bytes" in p for p in verdict.problems)


def test_repeatability_catches_a_changed_hash_or_ranking(corpus: Corpus) -> None:
    obs = _doctored(corpus)
    changed = obs._replace(repeat_bundle={**obs.bundle, "bundle_sha256": "f" * 64})
    assert eval_metrics.deterministic_repeatability(changed).passed is False
    reordered = obs._replace(repeat_results=list(reversed(obs.results)))
    assert eval_metrics.deterministic_repeatability(reordered).passed is False
    assert eval_metrics.deterministic_repeatability(obs).passed is True


def test_stale_source_detection_catches_unpinned_and_stale_pins(corpus: Corpus) -> None:
    obs = _doctored(corpus, selected_source_snapshot={PROJECT: "0" * 64})
    problems = eval_metrics.stale_source_detection(obs).problems
    assert f"bundle item of {STATUS} is not pinned to its hash" in problems
    assert f"pin of {PROJECT} differs from the fresh source" in problems
    digest = _doctored(corpus, source_snapshot_digest="0" * 64)
    assert eval_metrics.stale_source_detection(digest).passed is False


def test_isolation_catches_foreign_items_in_results_and_bundles(corpus: Corpus) -> None:
    obs = observe(corpus, _case(expected_project_id="demo-project"))
    foreign_item = obs.results[0].item._replace(project_id="other-project")
    leaked = obs._replace(
        results=[obs.results[0]._replace(item=foreign_item)],
        bundle={**obs.bundle, "items": [{**obs.items[0], "project_id": "other-project"}]},
    )
    problems = eval_metrics.project_policy_isolation(leaked).problems
    assert any("retrieval returned" in p and "another project" in p for p in problems)
    assert any("bundle holds" in p and "another project" in p for p in problems)
    bundled = obs._replace(bundle={**obs.bundle, "mandatory_reads": [{"source_path": "d.md"}]})
    case = _case(forbidden_scope_paths=["d.md"])
    assert eval_metrics.project_policy_isolation(bundled._replace(case=case)).problems == (
        "forbidden scope path d.md is in the bundle",
    )


def test_metrics_survive_a_malformed_bundle(corpus: Corpus) -> None:
    obs = _doctored(corpus, items="nope", budget=None, selected_source_snapshot=None)
    obs = obs._replace(case=_case(must_contain=["x"], expected_source_paths=["x"]))
    verdicts = {name: metric(obs) for name, metric in METRICS.items()}
    assert verdicts["must_contain_ok"].passed is False
    assert verdicts["source_recall"].value == 0.0


# --- aggregation ---------------------------------------------------------------------------


def test_summary_rates_ignore_untested_cases(corpus: Corpus) -> None:
    cases = [
        {"name": "a", "query": "latency", "forbidden_authority_classes": ["CANONICAL"]},
        {"name": "b", "query": "latency", "forbidden_source_paths": ["x.md"]},
        {"name": "c", "query": "latency", "expected_source_paths": [NEW, "x.md"]},
        {"name": "d", "query": "latency"},
    ]
    report = evaluate_dataset(corpus, {"schema_version": "1", "cases": cases})
    assert report["ok"] is False
    assert report["case_count"] == 4
    assert report["pass_rate"] == 0.5
    assert report["forbidden_contamination_rate"] == 0.5
    assert report["source_recall_mean"] == 0.5
    assert report["project_policy_isolation_pass_rate"] is None
    rates = report["metric_pass_rates"]
    assert isinstance(rates, dict)
    assert rates["forbidden_contamination"] == 0.5
    assert rates["top_source_correct"] is None
    assert rates["budget_compliant"] == 1.0


def test_summarise_of_no_results_is_vacuous() -> None:
    report = summarise("p", [])
    assert report["ok"] is True
    assert report["pass_rate"] is None
