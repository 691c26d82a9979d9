"""Links of references (docs/editors.md, "Navigation"): every kind of reference that resolves
to a scoped source is a link at its token; nothing else is."""

from __future__ import annotations

import os
from pathlib import Path

from project_corpus.adapters.lsp.documents import find_root
from project_corpus.adapters.lsp.documents import portable_path
from project_corpus.adapters.lsp.navigation import Link
from project_corpus.adapters.lsp.navigation import at
from project_corpus.adapters.lsp.navigation import hover
from project_corpus.adapters.lsp.navigation import links
from project_corpus.corpus.snapshot import collect
from tests.conftest import BASE_FILES
from tests.conftest import MakeCorpus

NOTES = ".project-corpus/history/notes.md"
BENCH_NEW = ".project-corpus/reports/bench-new.md"
TASK = ".project-corpus/tasks/tune-eviction.md"
REPORT_WITH_TASK = BASE_FILES[".project-corpus/reports/bench-path.md"].replace(
    "Result: PASS", "Result: PASS\nTask-ID: tune-eviction"
)


def test_every_kind_of_reference_is_a_link_at_its_token(make_corpus: MakeCorpus) -> None:
    notes = (
        "# Notes\n"
        "Supersedes: .project-corpus/reports/bench-old.md\n\n"
        "## Links\n"
        "See [the task](../tasks/tune-eviction.md#scope) and .project-corpus/reports/bench-new.md.\n"
        "Gone: .project-corpus/reports/gone.md and [x](../reports/gone.md).\n"
        "```\n.project-corpus/reports/bench-new.md in code is an example\n```\n"
    )
    root = make_corpus({NOTES: notes, ".project-corpus/reports/bench-path.md": REPORT_WITH_TASK})
    corpus = collect(root, strict=False)
    found = links(NOTES, corpus.by_path[NOTES].doc, corpus)
    line = (
        "See [the task](../tasks/tune-eviction.md#scope) and .project-corpus/reports/bench-new.md."
    )
    assert found == [
        Link(
            2,
            13,
            len(".project-corpus/reports/bench-old.md"),
            ".project-corpus/reports/bench-old.md",
        ),
        Link(5, line.index("../") + 1, len("../tasks/tune-eviction.md#scope"), TASK),
        Link(5, line.index(".project") + 1, len(".project-corpus/reports/bench-new.md"), BENCH_NEW),
    ]
    report = ".project-corpus/reports/bench-path.md"
    (task_link,) = links(report, corpus.by_path[report].doc, corpus)
    assert task_link.target == TASK
    assert task_link.length == len("tune-eviction")


def test_status_links_its_active_task_and_evidence(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    corpus = collect(root, strict=False)
    status = ".project-corpus/state/STATUS.md"
    found = links(status, corpus.by_path[status].doc, corpus)
    assert [link.target for link in found] == [
        TASK,
        BENCH_NEW,
        ".project-corpus/reports/bench-path.md",
    ]
    first = found[0]
    assert at(found, first.line, first.column + first.length) == first
    assert at(found, first.line, first.column - 1) is None
    text = hover(corpus.by_path[BENCH_NEW])
    assert text.startswith("**Report bench-new**\n\n`.project-corpus/reports/bench-new.md`")
    assert "Result: PASS" in text


def test_a_linked_or_out_of_scope_target_is_no_link(make_corpus: MakeCorpus) -> None:
    outside = "# Secret\n"
    root = make_corpus({NOTES: "# Notes\n\nSee .project-corpus/history/linked.md.\n"})
    (root / "secret.md").write_text(outside, encoding="utf-8")
    os.symlink(root / "secret.md", root / ".project-corpus/history/linked.md")
    corpus = collect(root, strict=False)
    assert links(NOTES, corpus.by_path[NOTES].doc, corpus) == []


def test_a_documents_root_and_path_are_found_upward(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus()
    task = root / TASK
    assert find_root(str(task)) == os.path.realpath(root)
    assert find_root(str(root)) == os.path.realpath(root)
    assert portable_path(str(root), str(task)) == TASK
    assert portable_path(str(root), str(root / "AGENTS.md")) is None
    assert portable_path(str(root), str(tmp_path / "elsewhere.md")) is None
    assert find_root(str(tmp_path / "elsewhere.md")) is None
    through = tmp_path / "through"
    through.symlink_to(root)
    assert portable_path(os.path.realpath(root), str(through / TASK)) == TASK
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / ".project-corpus").symlink_to(root / ".project-corpus")
    assert find_root(str(fake / "x.md")) == str(fake)  # as the CLI: the doctor reports the link
