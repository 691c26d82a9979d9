"""CorpusEval v1: an offline evaluation harness for retrieval and bundles (docs/eval.md).

`evaluate_dataset(corpus, dataset)` judges every case of a dataset (validated by
`eval_schema`) with the metrics of `eval_metrics` and aggregates them; `run_eval` is the
`context eval` entry point (confined dataset read, verified index). No LLM judge: every
metric is a deterministic comparison, and the output holds no timestamp.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from project_corpus.core.records import Corpus
from project_corpus.evaluate.dataset import EvalCase
from project_corpus.evaluate.dataset import parse_dataset
from project_corpus.evaluate.metrics import METRICS
from project_corpus.evaluate.metrics import observe
from project_corpus.retrieval.analysis import Analysis
from project_corpus.retrieval.analysis import analyse
from project_corpus.retrieval.bundle import Mandatory


def _rate(passed: int, tested: int) -> float | None:
    return round(passed / tested, 4) if tested else None


def judge_case(
    corpus: Corpus,
    case: EvalCase,
    analysis: Analysis | None = None,
    mandatory: Mandatory | None = None,
) -> dict[str, object]:
    """The result of one case: every metric (null when untested), pass and why not. ANALYSIS
    and MANDATORY, when given, are CORPUS's (`observe`)."""
    obs = observe(corpus, case, analysis, mandatory)
    verdicts = {name: metric(obs) for name, metric in METRICS.items()}
    failed = [name for name, verdict in verdicts.items() if verdict.passed is False]
    result: dict[str, object] = {name: verdict.value for name, verdict in verdicts.items()}
    result.update(
        case_index=case.case_index,
        name=case.name,
        query=case.query,
        bundle_sha256=obs.bundle.get("bundle_sha256"),
        top_source_path=obs.results[0].item.source_path if obs.results else None,
        result_count=len(obs.results),
        bundle_item_count=len(obs.items),
        failed_metrics=failed,
        problems=[f"{name}: {p}" for name, v in verdicts.items() for p in v.problems],
        tested_metrics=[name for name, verdict in verdicts.items() if verdict.passed is not None],
    )
    result["pass"] = not failed
    return result


def _metric_rates(results: list[dict[str, object]]) -> dict[str, float | None]:
    rates: dict[str, float | None] = {}
    for name in METRICS:
        tested = [r for r in results if name in _names(r["tested_metrics"])]
        failed = [r for r in tested if name in _names(r["failed_metrics"])]
        rates[name] = _rate(len(tested) - len(failed), len(tested))
    return rates


def _names(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def summarise(project_id: str, results: list[dict[str, object]]) -> dict[str, object]:
    """The CorpusEval v1 document for already judged RESULTS."""
    recalls = [
        float(r["source_recall"]) for r in results if isinstance(r["source_recall"], float | int)
    ]
    counts = [
        r["forbidden_contamination"]
        for r in results
        if isinstance(r["forbidden_contamination"], int)
    ]
    rates = _metric_rates(results)
    passed = sum(1 for r in results if r["pass"])
    return {
        "ok": passed == len(results),
        "project_id": project_id,
        "case_count": len(results),
        "pass_rate": _rate(passed, len(results)),
        "source_recall_mean": _mean(recalls),
        "forbidden_contamination_rate": _rate(sum(1 for c in counts if c), len(counts)),
        "project_policy_isolation_pass_rate": rates["project_policy_isolation"],
        "metric_pass_rates": rates,
        "results": results,
        "non_authoritative": True,
    }


def evaluate_dataset(corpus: Corpus, dataset: object) -> dict[str, object]:
    """Evaluate a CorpusEval v1 DATASET (parsed JSON) on CORPUS (EVAL_SCHEMA when invalid)."""
    return evaluate_cases(corpus, parse_dataset(dataset))


def evaluate_cases(corpus: Corpus, cases: Sequence[EvalCase]) -> dict[str, object]:
    """Evaluate already validated CASES on CORPUS. The corpus is analysed once, and each
    budget's mandatory part made once, for every compile of every case; each case's query is
    its own."""
    analysis = analyse(corpus)
    mandatory: Mandatory = {}
    results = [judge_case(corpus, case, analysis, mandatory) for case in cases]
    return summarise(corpus.project_id, results)


def run_eval(
    root: str | os.PathLike[str], index: str | None, dataset_path: str
) -> dict[str, object]:
    """`context eval`: read and validate the dataset inside ROOT (once), verify the index,
    evaluate."""
    from project_corpus.corpus.inputs import load_json_input
    from project_corpus.corpus.roots import open_root
    from project_corpus.index.store import load_verified
    from project_corpus.index.store import prepare_index_path

    opened = open_root(root)
    prepare_index_path(opened.path, index)
    _, dataset = load_json_input(opened.path, dataset_path)
    cases = parse_dataset(dataset)
    return evaluate_cases(load_verified(opened, index), cases)


def render_eval(result: dict[str, object], fmt: str = "json") -> str:
    """The CLI text of an evaluation: canonical pretty JSON or a Markdown summary."""
    if fmt == "markdown":
        from project_corpus.evaluate.markdown import render_markdown

        return render_markdown(result)
    from project_corpus.core.jsonio import pretty

    return pretty(result)
