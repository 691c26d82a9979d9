"""The structural rules that make ranking generalise beyond our own corpora (SPEC §5 rule 4a,
docs/retrieval.md): list context, near-equivalents, question intent, version tokens,
metadata lines, contractions. Each is tested on a small corpus written for the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.snapshot import collect
from project_corpus.retrieval import glossary
from project_corpus.retrieval import markers
from project_corpus.retrieval import text as textmod
from project_corpus.retrieval import vocabulary
from project_corpus.retrieval.lists import list_contexts
from project_corpus.retrieval.rank import search
from tests.conftest import REPO
from tests.conftest import MakeCorpus


def test_a_nested_bullet_and_a_labelled_list_read_their_parent_and_label() -> None:
    doc = parse_document(
        "# Log\n\n**Decision**: poll the folder\n**Rationale**:\n\n- simpler than the API\n"
        "  - no token to rotate\n- works offline\n\nPlain paragraph.\n\n- unlabelled\n"
    )
    contexts = {
        doc.spans[at].text: context
        for first, last, context in list_contexts(doc)
        for at in range(first, last + 1)
    }
    assert contexts["- simpler than the API"].endswith("**Rationale**:")
    assert contexts["- no token to rotate"] == "- simpler than the API"
    assert contexts["- works offline"].endswith("**Rationale**:")
    assert "- unlabelled" not in contexts


def test_version_numbers_stay_whole_tokens_and_a_leading_v_is_dropped() -> None:
    assert textmod.raw_tokens("Released v1.2.0 (was 1.1.9) on Python 3.11.") == [
        "released",
        "1.2.0",
        "was",
        "1.1.9",
        "on",
        "python",
        "3.11",
    ]
    assert textmod.raw_tokens("see file.md, e.g. here") == ["see", "file", "md", "e", "g", "here"]


def test_contractions_leave_no_single_letter_terms_and_count_as_negations() -> None:
    assert textmod.query_stems("why doesn't Firebot's overlay poll") == [
        textmod.stem("doesn"),
        textmod.stem("firebot"),
        textmod.stem("overlay"),
        textmod.stem("poll"),
    ]
    assert textmod.stem("not") in textmod.negation_forms(textmod.stem("don"))


def test_near_equivalents_come_from_the_shipped_general_glossary() -> None:
    config = vocabulary.equivalent_forms(textmod.stem("config"))
    assert textmod.stem("configuration") in config
    assert vocabulary.equivalent_forms(textmod.stem("hledger")) == frozenset()


@pytest.mark.parametrize(
    ("question", "intents"),
    [
        ("why did we pick SQLite", {"why"}),
        ("почему выбрали SQLite", {"why"}),
        ("how do I run the tests", {"how"}),
        ("what changed in 1.2.0", {"change"}),
        ("what is the next action", set()),
        ("what is blocking us right now", {"status"}),
        ("how many jobs can wait in the queue", {"quantity"}),
        ("сколько тестов проходит", {"quantity"}),
        ("что сейчас мешает", {"status"}),
    ],
)
def test_question_intents(question: str, intents: set[str]) -> None:
    assert vocabulary.query_intents(question) == intents


def _corpus(make_corpus: MakeCorpus, history: dict[str, str]) -> Path:
    return make_corpus({f".project-corpus/history/{name}": text for name, text in history.items()})


def test_a_rationale_under_its_label_answers_a_why_question(make_corpus: MakeCorpus) -> None:
    root = _corpus(
        make_corpus,
        {
            "decisions.md": "# Decisions\n\n**Decision**: watch the export folder\n"
            "**Rationale**:\n- the exporter already writes files every minute\n",
            "notes.md": "# Notes\n\n- the exporter writes files and the folder is watched\n",
        },
    )
    top = search(collect(root), "why do we watch the exporter files", 3)[0]
    assert top.item.source_path.endswith("decisions.md")
    assert "question_intent:why" in top.reasons


def test_a_version_question_finds_its_release_not_every_number(make_corpus: MakeCorpus) -> None:
    root = _corpus(
        make_corpus,
        {
            "release-1.2.0.md": "# v1.2.0\n\n- Added retries to the uploader\n",
            "release-2.1.0.md": "# v2.1.0\n\n- Added 2 new exporters and 1 fix\n",
        },
    )
    top = search(collect(root), "what was added in 1.2.0", 3)[0]
    assert top.item.source_path.endswith("release-1.2.0.md")


def test_a_metadata_line_answers_only_a_question_naming_its_key(make_corpus: MakeCorpus) -> None:
    root = _corpus(make_corpus, {"release.md": "# Release\n\n- Version 1.1.0 added the exporter\n"})
    corpus = collect(root)
    for result in search(corpus, "which version added the exporter", 10):
        assert not result.item.text.startswith("Protocol-Version")
    named = search(corpus, "which protocol version is this", 10)
    assert any(r.item.text.startswith("Protocol-Version") for r in named)


def test_a_decision_line_comes_before_the_context_that_restates_it(
    make_corpus: MakeCorpus,
) -> None:
    adr = (
        "# ADR 7: one HTTP client\n\n## Context\n\nThe backend plugins use several HTTP clients.\n\n"
        "## Decision\n\nThe backend plugins use the native HTTP client.\n"
    )
    top = search(collect(_corpus(make_corpus, {"adr-007.md": adr})), "backend http client", 3)[0]
    assert top.item.text.startswith("The backend plugins use the native")
    assert "decision_section" in top.reasons


def test_adjacent_question_words_lift_the_line_that_writes_them_together(
    make_corpus: MakeCorpus,
) -> None:
    notes = (
        "# Notes\n\n- the line parser reads each command and its flags\n"
        "- the command line parser reads the flags\n"
    )
    corpus = collect(_corpus(make_corpus, {"notes.md": notes}))
    top = search(corpus, "command line parser flags", 3)[0]
    assert top.item.text == "- the command line parser reads the flags"
    assert "adjacent_terms:command+line,line+parser" in top.reasons
    assert "exact_phrase" not in top.reasons


@pytest.mark.parametrize("question", ["what is failing right now", "что сейчас падает"])
def test_a_question_about_now_prefers_the_status_document(
    make_corpus: MakeCorpus, question: str
) -> None:
    root = make_corpus(
        {
            ".project-corpus/history/log.md": "# Log\n\n- the importer is failing; падает импорт\n",
        }
    )
    status = (root / ".project-corpus/state/STATUS.md").read_text(encoding="utf-8")
    status = status.replace(
        "## Blockers\n", "## Blockers\n\n- the exporter is failing; падает экспорт\n", 1
    )
    (root / ".project-corpus/state/STATUS.md").write_text(status, encoding="utf-8")
    top = search(collect(root), question, 3)[0]
    assert top.item.source_path == ".project-corpus/state/STATUS.md"
    assert "question_intent:status" in top.reasons


@pytest.mark.parametrize("heading", ["## Known Issues", "## Risks", "## Известные проблемы"])
def test_a_memory_bank_section_plays_its_protocol_role(
    make_corpus: MakeCorpus, heading: str
) -> None:
    root = _corpus(
        make_corpus,
        {
            "progress.md": f"# Progress\n\n## Done\n\n- the importer retries a sync\n\n"
            f"{heading}\n\n- the exporter loses a sync\n",
        },
    )
    results = [
        r for r in search(collect(root), "what blocks the sync", 10) if "sync" in r.item.text
    ]
    assert [r.item.text for r in results] == [
        "- the exporter loses a sync",
        "- the importer retries a sync",
    ]
    assert "protocol_section_role" in results[0].reasons


def test_a_known_issue_word_in_a_question_is_not_translated() -> None:
    assert glossary.variants(textmod.stem("issue")) == frozenset({textmod.stem("issue")})
    assert glossary.section_concepts("Known Issues") == frozenset({"blockers"})
    assert glossary.addressed({textmod.stem("дальше")}) == {
        "next_action": frozenset({textmod.stem("дальше")})
    }


def test_a_how_many_question_prefers_the_line_with_a_figure(make_corpus: MakeCorpus) -> None:
    notes = "# Queue\n\n- the queue holds waiting jobs\n- the queue holds at most 20 jobs\n"
    top = search(
        collect(_corpus(make_corpus, {"queue.md": notes})), "how many jobs can the queue hold", 3
    )
    assert top[0].item.text == "- the queue holds at most 20 jobs"
    assert "question_intent:quantity" in top[0].reasons


def test_a_figure_in_the_heading_answers_no_how_many_question(make_corpus: MakeCorpus) -> None:
    notes = "# Queue\n\n## Queue v2 for 2026\n\n- the queue holds waiting jobs\n"
    top = search(
        collect(_corpus(make_corpus, {"queue.md": notes})), "how many jobs can the queue hold", 3
    )
    assert top[0].item.text == "- the queue holds waiting jobs"
    assert not any(reason.startswith("question_intent") for reason in top[0].reasons)


@pytest.mark.parametrize("label", ["- **Decision**:", "Outcome:", "1. __Verdict__:", "- Решение:"])
def test_a_line_labelled_as_the_decision_is_one(label: str) -> None:
    assert vocabulary.labels_decision(f"{label} use the native client")
    assert not vocabulary.labels_decision("- **Context**: several clients")
    assert not vocabulary.labels_decision("we made no decision: see below")


@pytest.mark.parametrize(
    "question", ["what is blocking us right now", "что нас блокирует на данный момент"]
)
def test_words_that_only_say_now_are_no_terms(question: str) -> None:
    """'Right now' asks for STATUS; a report line that happens to say 'right now' is no
    better an answer for it (the example corpus has one)."""
    results = search(collect(REPO / "fixtures" / "example"), question, 3)
    assert [r.item.section for r in results[:2]] == ["Blockers", "Blockers"]
    assert all(r.item.source_path.endswith("state/STATUS.md") for r in results[:2])


@pytest.mark.parametrize(
    ("marker", "content"),
    [
        ("> [!IMPORTANT]", "> Rotate the signing key before the release."),
        ("Next signing step:", "Rotate the signing key before the release."),
        ("The signing key file should be named", "```text\nsigning-key.pem\n```"),
        (
            "The signing key is most simply rotated on the release machine by running",
            "```sh\nrotate --signing-key\n```",
        ),
        ("**Signing**:", "- rotate the signing key before the release"),
    ],
)
def test_a_marker_never_outranks_the_item_that_carries_its_content(
    make_corpus: MakeCorpus, marker: str, content: str
) -> None:
    root = _corpus(make_corpus, {"notes.md": f"# Notes\n\n## Keys\n\n{marker}\n\n{content}\n"})
    results = search(collect(root), "signing key", 5)
    assert results
    assert results[0].item.text == content
    assert all(r.item.text != marker for r in results)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("> [!WARNING]", False),
        ("```python", False),
        ("| TBD | - | N/A |", False),
        ("| YYYY-MM-DD | x |", False),
        ("| Row 14 | 450 |", True),
        ("Next hypothesis:", True),
        ("NONE", True),
    ],
)
def test_marker_only_text_holds_no_word_of_its_own(text: str, content: bool) -> None:
    assert markers.has_content(text) is content


def test_a_label_that_says_something_stays_an_answer(make_corpus: MakeCorpus) -> None:
    label = "The exporter is in a working state with the following signing features:"
    root = _corpus(make_corpus, {"notes.md": f"# Notes\n\n{label}\n\n- key rotation\n"})
    texts = [r.item.text for r in search(collect(root), "what state is the exporter in", 5)]
    assert label in texts


def test_a_long_paragraph_above_a_code_block_stays_an_answer(make_corpus: MakeCorpus) -> None:
    text = (
        "The signing key is rotated by hand on the release machine every quarter by whoever "
        "cuts the release that week and"
    )
    root = _corpus(make_corpus, {"notes.md": f"# Notes\n\n{text}\n\n```sh\nrotate\n```\n"})
    texts = [r.item.text for r in search(collect(root), "who rotates the signing key", 5)]
    assert texts[0] == text


def test_a_long_label_yields_to_the_list_it_introduces_on_equal_words(
    make_corpus: MakeCorpus,
) -> None:
    label = "The signing key areas are being considered for future development by the team:"
    root = _corpus(make_corpus, {"notes.md": f"# Notes\n\n{label}\n\n- rotate the signing key\n"})
    results = search(collect(root), "signing key", 5)
    assert [r.item.text for r in results[:2]] == ["- rotate the signing key", label]
    assert "label_line" in results[1].reasons
    assert "label_line" not in results[0].reasons
