"""`Supersedes:` validity, orphans, chains and cycles (SPEC §2.6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.records import Source
from project_corpus.corpus.markdown import fenced_line_numbers
from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.snapshot import collect
from project_corpus.corpus.supersession import declared_edges
from tests.conftest import MakeCorpus
from tests.conftest import report

R = ".project-corpus/reports/"


def rel(target: str) -> str:
    return f"Supersedes: {target}\n"


def relations(
    make_corpus: MakeCorpus, files: dict[str, str | bytes | None]
) -> dict[tuple[str, str], str]:
    corpus = collect(make_corpus(files))
    return {(r.source, r.target): r.validity for r in corpus.relations}


def test_a_chain_supersedes_every_target(make_corpus: MakeCorpus) -> None:
    corpus = collect(
        make_corpus(
            {
                R + "a.md": report("aaa", "2026-11-01", "A.", rel(R + "b.md")),
                R + "b.md": report("bbb", "2026-10-01", "B.", rel(R + "c.md")),
                R + "c.md": report("ccc", "2026-09-01", "C."),
            }
        )
    )
    status = {s.path: s.temporal_status for s in corpus.sources}
    assert status[R + "b.md"] == status[R + "c.md"] == "superseded"
    assert status[R + "a.md"] != "superseded"


def test_cycles_imply_nothing(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes | None] = {
        R + "a.md": report("aaa", "2026-11-01", "A.", rel(R + "b.md")),
        R + "b.md": report("bbb", "2026-10-01", "B.", rel(R + "c.md")),
        R + "c.md": report("ccc", "2026-09-01", "C.", rel(R + "a.md")),
        R + "d.md": report("ddd", "2026-09-01", "D.", rel(R + "a.md")),
    }
    got = relations(make_corpus, files)
    assert got[(R + "a.md", R + "b.md")] == "cyclic"
    assert got[(R + "c.md", R + "a.md")] == "cyclic"
    assert got[(R + "d.md", R + "a.md")] == "valid"  # into the cycle, not on it
    status = {s.path: s.temporal_status for s in collect(make_corpus(files, name="again")).sources}
    assert status[R + "a.md"] == "superseded"
    assert status[R + "b.md"] != "superseded"


def test_orphan_targets_imply_nothing(make_corpus: MakeCorpus) -> None:
    got = relations(
        make_corpus, {R + "a.md": report("aaa", "2026-11-01", "A.", rel(R + "gone.md"))}
    )
    assert got[(R + "a.md", R + "gone.md")] == "orphan"


@pytest.mark.parametrize(
    "target",
    [
        "/abs/x.md",
        "../x.md",
        ".project-corpus/reports/../state/STATUS.md",
        ".project-corpus/state/STATUS.md",
        ".project-corpus/reports/x.txt",
        "C:/x.md",
        ".project-corpus\\reports\\x.md",
        ".project-corpus/tasks/tune-eviction.md",  # the active task
        ".project-corpus/reports/a.md",  # itself
        "",
    ],
)
def test_invalid_targets_are_invalid(make_corpus: MakeCorpus, target: str) -> None:
    got = relations(make_corpus, {R + "a.md": report("aaa", "2026-11-01", "A.", rel(target))})
    assert got[(R + "a.md", target)] == "invalid"


def test_supersedes_in_state_documents_is_always_invalid(make_corpus: MakeCorpus) -> None:
    from tests.conftest import STATUS

    status = STATUS.replace("## Blockers", f"{rel(R + 'bench-old.md')}\n## Blockers")
    got = relations(make_corpus, {".project-corpus/state/STATUS.md": status})
    assert got[(".project-corpus/state/STATUS.md", R + "bench-old.md")] == "invalid"


def test_supersedes_inside_fenced_code_is_ignored(make_corpus: MakeCorpus) -> None:
    text = report("aaa", "2026-11-01", "```\n" + rel(R + "bench-path.md") + "```")
    assert (R + "a.md", R + "bench-path.md") not in relations(make_corpus, {R + "a.md": text})


LINE_PARTS = [
    "Supersedes: a.md",
    "Supersedes:",
    " Supersedes: b.md",
    "xSupersedes: c",
    "```",
    "",
    "\r",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINE_PARTS), max_size=12))
def test_every_supersedes_line_outside_code_is_an_edge(lines: list[str]) -> None:
    doc = parse_document("\n".join(lines))
    source = Source(R + "x.md", "", 0, "report", "", "", None, "", False, doc)
    fenced = fenced_line_numbers(doc)
    expected = [
        n
        for n, line in enumerate(doc.lines, start=1)
        if line.startswith("Supersedes:") and n not in fenced
    ]
    assert [line for line, _ in declared_edges(source)] == expected
