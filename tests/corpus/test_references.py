"""References between corpus documents: what is one, what it resolves to (SPEC §2.4, §8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from project_corpus.corpus import references
from project_corpus.corpus.markdown import parse_document
from tests.conftest import MakeCorpus

STATUS = ".project-corpus/state/STATUS.md"
HISTORY = ".project-corpus/history/notes.md"
R = ".project-corpus/reports/"


@pytest.mark.parametrize(
    ("raw", "target"),
    [
        ("../reports/a.md", R + "a.md"),
        ("../reports/a.md#results", R + "a.md"),
        ("../reports/a.md?plain=1#L3", R + "a.md"),
        ("<../reports/a b.md>", R + "a b.md"),
        ("../reports/a%20b.md", R + "a b.md"),
        ("./../reports/sub/../a.md", R + "a.md"),
        ("../state/STATUS.md", STATUS),
        ("notes-2.md", ".project-corpus/history/notes-2.md"),
        ("https://example.org/reports/a.md", None),
        ("mailto:someone@example.org", None),
        ("#evidence", None),
        ("/abs/reports/a.md", None),
        (".project-corpus/reports/a.md", None),  # a path reference already
        ("../../README.md", None),  # outside the corpus folders
        ("../generated/timeline.md", None),  # not a source folder
        ("../reports/data.csv", None),
        ("..\\reports\\a.md", None),
    ],
)
def test_link_targets(raw: str, target: str | None) -> None:
    assert references.link_target(HISTORY, raw) == target


def _refs(path: str, text: str) -> list[tuple[str, int, str, str]]:
    doc = parse_document(text)
    table = references.targets([])
    return [tuple(ref) for ref in references.references(path, doc, table)]  # type: ignore[misc]


def test_links_inline_with_titles_and_definitions_but_not_in_code() -> None:
    text = (
        "# N\n\n## Notes\n"
        '[a](../reports/a.md "the run") and ![img](../reports/b.md)\n'
        "[c]: <../reports/c.md>\n"
        "```\n[d](../reports/d.md) .project-corpus/reports/e.md\n```\n"
    )
    assert _refs(HISTORY, text) == [  # the column is the target's
        ("link", 4, "../reports/a.md", R + "a.md", 5),
        ("link", 4, "../reports/b.md", R + "b.md", 43),
        ("link", 5, "<../reports/c.md>", R + "c.md", 6),
    ]


def test_paths_are_trimmed_and_markdown_only() -> None:
    text = (
        "# N\n\n## Notes\nSee .project-corpus/reports/a.md. And (.project-corpus/tasks/t-1.md):\n"
        "Not .project-corpus/reports/ nor .project-corpus/policy.toml nor "
        ".project-corpus/reports/*.md\n"
    )
    assert _refs(HISTORY, text) == [
        ("path", 4, R + "a.md", R + "a.md", 5),
        ("path", 4, ".project-corpus/tasks/t-1.md", ".project-corpus/tasks/t-1.md", 40),
    ]


@pytest.mark.parametrize(
    ("item", "ids"),
    [
        ("- r-2026-10-31-cutover — the cutover", ["r-2026-10-31-cutover"]),
        ("- r-2026-10-31-cutover", ["r-2026-10-31-cutover"]),
        ("1. bench-v3: the third run", ["bench-v3"]),
        ("- **bench-v3** (PASS)", ["bench-v3"]),
        ("- the third run, see `bench-v3`", ["bench-v3"]),
        ("- none yet: pending", []),
        ("- NONE", []),
        ("- follow-up runs are planned", []),
        ("- INFRA-2291 — a ticket", []),
    ],
)
def test_evidence_reference_ids(item: str, ids: list[str]) -> None:
    text = f"# S\n\n## Evidence References\n{item}\n\n## Exact Next Action\nGo.\n"
    assert [ref[2] for ref in _refs(STATUS, text)] == ids


def test_a_renamed_report_keeps_resolving_by_its_report_id(make_corpus: MakeCorpus) -> None:
    from project_corpus.corpus.snapshot import collect

    root = make_corpus()
    old, new = Path(root, R, "bench-path.md"), Path(root, R, "bench-path-2.md")
    old.rename(new)
    corpus = collect(root, strict=False)
    table = references.targets((s.path, s.doc) for s in corpus.sources)
    assert table.reports["bench-path"] == (R + "bench-path-2.md",)
    status = corpus.by_path[STATUS].doc
    assert references.status_citations(status, table) >= {R + "bench-new.md"}
    assert R + "bench-path-2.md" not in references.status_citations(status, table)


def test_unresolved_reasons(make_corpus: MakeCorpus) -> None:
    root = make_corpus({".project-corpus/reports/secret.md": "# S\n"})
    scopes = (".project-corpus/state/**",)
    assert references.unresolved_reason(root, scopes, R + "gone.md") == "does not exist"
    assert references.unresolved_reason(root, scopes, R + "secret.md") == (
        "is outside the read scope"
    )
    assert references.unresolved_reason(root, scopes, R + "../x.md") == "does not exist"
