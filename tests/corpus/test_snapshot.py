"""The scoped snapshot: classification, confinement, limits, conformance refusal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from project_corpus.core.errors import ContextError
from project_corpus.corpus.items import corpus_items
from project_corpus.corpus.snapshot import collect
from tests.conftest import FIXTURES
from tests.conftest import POLICY
from tests.conftest import MakeCorpus
from tests.conftest import copy_fixture
from tests.conftest import report

R = ".project-corpus/reports/"


def classes(root: Path) -> dict[str, tuple[str, str]]:
    return {s.path: (s.authority_class, s.temporal_status) for s in collect(root).sources}


def test_sources_are_classified_by_path_citation_and_time(make_corpus: MakeCorpus) -> None:
    got = classes(make_corpus())
    assert got[".project-corpus/state/PROJECT.md"] == ("CANONICAL", "current")
    assert got[".project-corpus/state/STATUS.md"] == ("CANONICAL", "current")
    assert got[".project-corpus/tasks/tune-eviction.md"] == ("ACTIVE_TASK", "current")
    assert got[R + "bench-new.md"] == ("CITED_REPORT", "scoped")  # bare Report-ID citation
    assert got[R + "bench-path.md"] == ("CITED_REPORT", "scoped")  # full-path citation
    assert got[R + "bench-old.md"] == ("SCOPED_REPORT", "superseded")
    assert got[R + "old-uncited.md"] == ("SCOPED_REPORT", "historical")
    assert got[".project-corpus/history/2026-01-kickoff.md"] == ("HISTORY", "historical")


def test_a_durable_reference_document_under_state_is_current(make_corpus: MakeCorpus) -> None:
    """SPEC §2.5: architecture notes, conventions, tech context kept beside PROJECT and STATUS
    rank as current reference, not as an unknown."""
    root = make_corpus({".project-corpus/state/architecture.md": "# Architecture\n\nOne queue.\n"})
    assert classes(root)[".project-corpus/state/architecture.md"] == ("OTHER_STATE", "current")


def test_sources_are_ordered_by_code_point_path(make_corpus: MakeCorpus) -> None:
    paths = [
        s.path
        for s in collect(make_corpus({R + "Zeta.md": report("zeta-x", "2026-01-01", "z")})).sources
    ]
    assert paths == sorted(paths)


def test_uncited_report_newer_than_last_verified_is_scoped(make_corpus: MakeCorpus) -> None:
    root = make_corpus({R + "fresh.md": report("fresh", "2026-11-25", "A fresh probe.")})
    assert classes(root)[R + "fresh.md"] == ("SCOPED_REPORT", "scoped")


def test_unverified_status_never_makes_reports_historical(make_corpus: MakeCorpus) -> None:
    from tests.conftest import STATUS

    status = STATUS.replace(
        "Last-Verified-At: 2026-11-20T09:00:00Z", "Last-Verified-At: UNVERIFIED"
    )
    root = make_corpus({".project-corpus/state/STATUS.md": status})
    assert classes(root)[R + "old-uncited.md"] == ("SCOPED_REPORT", "scoped")


def test_citations_from_other_documents_do_not_count(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            ".project-corpus/history/2026-02.md": "# H\n\nSee old-uncited and .project-corpus/reports/old-uncited.md\n"
        }
    )
    assert classes(root)[R + "old-uncited.md"][0] == "SCOPED_REPORT"


def test_active_task_citation_by_bare_id_counts(make_corpus: MakeCorpus) -> None:
    from tests.conftest import TASK

    root = make_corpus(
        {".project-corpus/tasks/tune-eviction.md": TASK + "\nBased on old-uncited.\n"}
    )
    assert classes(root)[R + "old-uncited.md"] == ("CITED_REPORT", "scoped")


def test_foreign_documents_stay_in_the_snapshot_but_are_marked(make_corpus: MakeCorpus) -> None:
    foreign = report("alien", "2026-11-01", "Alien text.").replace(
        "Project-ID: demo-project", "Project-ID: other-project"
    )
    corpus = collect(make_corpus({R + "alien.md": foreign}))
    alien = corpus.source(R + "alien.md")
    assert alien is not None
    assert alien.foreign
    assert alien.project_id == "other-project"
    assert R + "alien.md" in corpus.source_map()


def test_timestamp_is_the_first_parsable_label_normalised_to_utc(make_corpus: MakeCorpus) -> None:
    text = "# H\nDate: yesterday\nCreated-At: 2026-03-01T12:00:00+02:00\n\n## N\nx\n"
    corpus = collect(make_corpus({".project-corpus/history/2026-03.md": text}))
    source = corpus.source(".project-corpus/history/2026-03.md")
    assert source is not None
    assert source.timestamp == "2026-03-01T10:00:00Z"


def test_policy_denied_file_never_becomes_a_source(example: Path) -> None:
    corpus = collect(example)
    assert ".project-corpus/history/private-notes.md" not in corpus.source_map()
    assert all("ZEBRAFISH-DENIED" not in item.text for item in corpus_items(corpus))


def test_example_corpus_classes(example: Path) -> None:
    got = classes(example)
    assert got[R + "r-2026-11-18-eviction-bench-v3.md"] == ("CITED_REPORT", "scoped")
    assert got[R + "r-2026-10-31-redis7-cutover.md"] == ("CITED_REPORT", "scoped")
    assert got[R + "r-2026-10-21-eviction-bench-v2.md"][1] == "superseded"
    assert got[R + "r-2026-09-30-eviction-bench-v1.md"][1] == "superseded"
    assert got[R + "r-2026-10-05-rollback-drill.md"] == ("SCOPED_REPORT", "historical")
    assert got[R + "r-2026-11-24-cardinality-probe.md"] == ("CITED_REPORT", "scoped")


def test_snapshot_digest_changes_with_any_source(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    before = collect(root).snapshot_digest
    assert collect(root).snapshot_digest == before
    (root / R / "bench-old.md").write_text(
        report("bench-old", "2026-10-01", "Edited."), encoding="utf-8"
    )
    assert collect(root).snapshot_digest != before


def test_project_and_status_must_be_in_scope(make_corpus: MakeCorpus) -> None:
    policy = POLICY.replace('".project-corpus/state/**", ', '".project-corpus/state/PROJECT.md", ')
    with pytest.raises(ContextError) as info:
        collect(make_corpus({".project-corpus/policy.toml": policy}))
    assert info.value.code == "PROTOCOL_NONCONFORMANT"
    assert "CONTEXT_SCOPE" in info.value.detail


@pytest.mark.parametrize(
    "code", sorted(p.name for p in (FIXTURES / "invalid").iterdir() if p.is_dir())
)
def test_every_invalid_fixture_is_refused_with_its_code(tmp_path: Path, code: str) -> None:
    root = tmp_path / "c"
    copy_fixture(FIXTURES / "invalid" / code, root)
    with pytest.raises(ContextError) as info:
        collect(root)
    expected = {"SOURCE_LINK": "SOURCE_LINK", "INVALID_ENCODING": "SOURCE_ENCODING"}.get(
        code, "PROTOCOL_NONCONFORMANT"
    )
    assert info.value.code == expected
    if expected == "PROTOCOL_NONCONFORMANT":
        assert code in info.value.detail.split(", ")


def test_doctor_mode_collects_conformance_findings_instead_of_raising(tmp_path: Path) -> None:
    root = tmp_path / "c"
    copy_fixture(FIXTURES / "invalid" / "SECTION_ORDER", root)
    corpus = collect(root, strict=False)
    assert [(f.code, f.path) for f in corpus.findings] == [
        ("SECTION_ORDER", ".project-corpus/state/PROJECT.md")
    ]


def test_symlinked_source_is_refused_never_followed(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    os.symlink(root / "AGENTS.md", root / R / "linked.md")
    with pytest.raises(ContextError) as info:
        collect(root)
    assert info.value.code == "SOURCE_LINK"
    corpus = collect(root, strict=False)
    assert ("SOURCE_LINK", R + "linked.md") in [(f.code, f.path) for f in corpus.findings]


def test_symlinked_directory_inside_a_source_root_is_refused(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "x.md").write_text("# secret\n", encoding="utf-8")
    os.symlink(tmp_path / "outside", root / R / "sub")
    with pytest.raises(ContextError) as info:
        collect(root)
    assert info.value.code == "SOURCE_LINK"


def test_fifo_source_is_refused_without_blocking(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    os.mkfifo(root / R / "pipe.md")
    with pytest.raises(ContextError) as info:
        collect(root)
    assert info.value.code == "SOURCE_LINK"


def test_links_that_could_not_be_sources_are_ignored(make_corpus: MakeCorpus) -> None:
    policy = POLICY.replace('".project-corpus/history/**"', '".project-corpus/history/2026-*.md"')
    root = make_corpus({".project-corpus/policy.toml": policy})
    os.symlink(root / "AGENTS.md", root / ".project-corpus/history/private.md")  # out of scope
    os.symlink(root / "AGENTS.md", root / ".project-corpus/reports/notes.txt")  # not Markdown
    assert collect(root).project_id == "demo-project"


def test_invalid_utf8_source_is_a_stable_error(make_corpus: MakeCorpus) -> None:
    root = make_corpus({R + "bad.md": b"# R\n\xff\xfe broken\n"})
    with pytest.raises(ContextError) as info:
        collect(root)
    assert info.value.code == "SOURCE_ENCODING"
    assert "bad.md" in info.value.detail


def test_bom_is_allowed_and_ignored(make_corpus: MakeCorpus) -> None:
    root = make_corpus({R + "bom.md": "\ufeff" + report("bom", "2026-11-01", "With a BOM.")})
    source = collect(root).source(R + "bom.md")
    assert source is not None
    assert source.doc.meta_value("Report-ID") == "bom"


def test_source_over_8_mib_hits_the_limit(make_corpus: MakeCorpus) -> None:
    root = make_corpus({R + "huge.md": b"x" * (8 * 1024 * 1024 + 1)})
    with pytest.raises(ContextError) as info:
        collect(root)
    assert info.value.code == "CONTEXT_LIMIT"
    assert "source_bytes" in info.value.detail


def test_source_of_exactly_8_mib_is_allowed_until_the_line_limit(make_corpus: MakeCorpus) -> None:
    root = make_corpus({R + "big.md": b"x" * (8 * 1024 * 1024)})
    assert collect(root).source(R + "big.md") is not None


def test_more_than_2048_sources_hits_the_limit(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    history = root / ".project-corpus/history"
    for i in range(2049 - len(collect(root).sources)):
        (history / f"h{i:05d}.md").write_text("# h\n", encoding="utf-8")
    with pytest.raises(ContextError) as info:
        collect(root)
    assert info.value.code == "CONTEXT_LIMIT"
    assert "sources" in info.value.detail


def test_more_than_50000_nonblank_lines_hits_the_limit(make_corpus: MakeCorpus) -> None:
    root = make_corpus({".project-corpus/history/lines.md": "x\n\n" * 50_001})
    with pytest.raises(ContextError) as info:
        collect(root)
    assert info.value.code == "CONTEXT_LIMIT"
    assert "nonblank_lines" in info.value.detail


def test_missing_root_is_a_stable_error(tmp_path: Path) -> None:
    with pytest.raises(ContextError) as info:
        collect(tmp_path / "nope")
    assert info.value.code == "CONTEXT_ROOT"


@pytest.mark.parametrize(
    "files",
    [
        {R + "Notes.md": "# N\n", R + "notes.md": "# n\n"},
        {R + "caf\u00e9.md": "# C\n", R + "cafe\u0301.md": "# c\n"},
        {R + "aux.md": "# A\n"},
        {".project-corpus/history/COM1/x.md": "# X\n"},
    ],
    ids=["case", "nfc", "device", "device-folder"],
)
def test_non_portable_source_paths_are_refused(
    make_corpus: MakeCorpus, files: dict[str, str]
) -> None:
    root = make_corpus(dict(files))
    with pytest.raises(ContextError) as info:
        collect(root)
    assert info.value.code == "SOURCE_PATH"
    assert [f.code for f in collect(root, strict=False).findings] == ["SOURCE_PATH"]


def test_a_narrower_folder_scope_grants_that_folder_only_not_a_longer_name(
    make_corpus: MakeCorpus,
) -> None:
    """`reports/archive/**` grants `reports/archive/` and nothing else: not the sibling
    `reports/archived/`, whose name only starts the same (every scope a `prefix/**` scope)."""
    narrowed = POLICY.replace(
        '".project-corpus/reports/**"', '".project-corpus/reports/archive/**"'
    )
    root = make_corpus(
        {
            ".project-corpus/policy.toml": narrowed,
            R + "archive/kept.md": report("kept", "2026-10-05", "Kept in the archive."),
            R + "archived/leak.md": report("leak", "2026-10-06", "Outside every scope."),
        }
    )
    paths = [s.path for s in collect(root).sources if s.path.startswith(R)]
    assert paths == [R + "archive/kept.md"]


def test_the_reader_refuses_an_oversized_source_whatever_tree_yields_it() -> None:
    """Defence in depth: a `Tree` reads within the per-source limit, and the reader checks it
    again, so a tree that yields more (a git object, a future tree) cannot pass it."""
    from project_corpus.core.errors import ContextError
    from project_corpus.corpus.snapshot import MAX_SOURCE_BYTES
    from project_corpus.corpus.snapshot import SourceReader

    reader = SourceReader(strict=False)
    reader.add(".project-corpus/history/ok.md", "history", b"# Fine\n")
    with pytest.raises(ContextError) as raised:
        reader.add(".project-corpus/history/big.md", "history", b"x" * (MAX_SOURCE_BYTES + 1))
    assert raised.value.code == "CONTEXT_LIMIT"
    assert "source_bytes" in raised.value.detail
    assert [s.path for s in reader.sources] == [".project-corpus/history/ok.md"]
