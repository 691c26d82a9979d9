"""Negations spelled another way, and the evidence that STATUS's Evidence References cite."""

from __future__ import annotations

from project_corpus.corpus.snapshot import collect
from project_corpus.retrieval.rank import search
from project_corpus.retrieval.score import CITED_REASON
from project_corpus.retrieval.text import negation_forms
from project_corpus.retrieval.text import stem
from tests.conftest import STATUS
from tests.conftest import TASK
from tests.conftest import MakeCorpus
from tests.conftest import report

R = ".project-corpus/reports/"


def test_a_question_with_not_finds_a_constraint_written_never(make_corpus: MakeCorpus) -> None:
    constraint = "- Never log the API token of the exporter."
    task = TASK.replace("Memory stays under 2 GiB.", f"Memory stays under 2 GiB.\n{constraint}")
    root = make_corpus({".project-corpus/tasks/tune-eviction.md": task})
    results = search(collect(root), "what must the exporter not log")
    assert results[0].item.text == constraint
    assert results[0].reasons[:2] == ("lexical_terms:export,log,not", "negation_terms:not")


def test_negation_classes_stay_within_one_language() -> None:
    assert stem("never") in negation_forms("not")
    assert stem("нельзя") in negation_forms(stem("не"))
    assert negation_forms("not").isdisjoint(negation_forms(stem("не")))
    assert negation_forms("must") == frozenset()  # a modal, not a negation


SUMMARY = "Compaction throughput rose to 410 MB/s after the new merge policy."


def _corpus(make_corpus: MakeCorpus, status: str) -> str:
    files = {
        ".project-corpus/state/STATUS.md": status,
        f"{R}compaction-run.md": report("compaction-run", "2026-11-21", SUMMARY),
    }
    return str(make_corpus(files))


def test_the_cited_report_line_ranks_just_above_its_evidence_reference(
    make_corpus: MakeCorpus,
) -> None:
    pointer = "- compaction-run — measured compaction throughput of the merge policy."
    root = _corpus(make_corpus, STATUS.replace("- bench-new\n", f"- bench-new\n{pointer}\n"))
    results = search(collect(root), "measured compaction throughput")
    first, second = results[0], results[1]
    assert first.item.source_path == f"{R}compaction-run.md"
    assert first.item.text == SUMMARY
    assert first.reasons[-1] == CITED_REASON
    assert second.item.text == pointer
    assert first.score == second.score + 1


def test_a_reference_outside_evidence_references_lifts_nothing(make_corpus: MakeCorpus) -> None:
    line = "Measured compaction throughput of compaction-run is too low."
    root = _corpus(make_corpus, STATUS.replace("## Blockers\nNONE", f"## Blockers\n{line}"))
    results = search(collect(root), "measured compaction throughput")
    assert results[0].item.text == line
    assert all(CITED_REASON not in r.reasons for r in results)
