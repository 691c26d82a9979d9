"""An overlay of unsaved text (the language server's, docs/editors.md) stands for the bytes
of sources the walk finds, under the same limits and checks, and for nothing else."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from project_corpus.core.errors import ContextError
from project_corpus.corpus.snapshot import MAX_SOURCE_BYTES
from project_corpus.corpus.snapshot import collect
from project_corpus.workspace import Workspace
from tests.conftest import MakeCorpus

HISTORY = ".project-corpus/history/2026-01-kickoff.md"
CLAIM = b"# Kickoff\n\n## Notes\nThe cache is currently cold.\n"


def codes_at(report: dict[str, object], path: str) -> list[str]:
    issues = report["issues"]
    assert isinstance(issues, list)
    return sorted(str(e["code"]) for e in issues if e["path"] == path)


def test_an_overlay_replaces_the_bytes_of_a_source_and_not_the_file(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus()
    on_disk = (root / HISTORY).read_bytes()
    ws = Workspace(root, warm=True)
    assert codes_at(ws.doctor(overlay={HISTORY: CLAIM}), HISTORY) == ["VOLATILE_WITHOUT_FRESHNESS"]
    assert (root / HISTORY).read_bytes() == on_disk
    assert codes_at(ws.doctor(), HISTORY) == []  # the next call without it reads the disk


def test_an_overlay_never_adds_a_source_nor_reads_outside_the_corpus(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus()
    overlay = {
        ".project-corpus/history/unsaved.md": CLAIM,  # not on disk
        "AGENTS.md": CLAIM,  # not a source
        "../outside.md": CLAIM,
        ".project-corpus/policy.toml": b"not toml [",  # sources only
        "/etc/passwd": CLAIM,
    }
    plain = collect(root, strict=False)
    covered = collect(root, strict=False, overlay=overlay)
    assert covered.snapshot_digest == plain.snapshot_digest
    assert covered.findings == plain.findings


def test_overlaid_bytes_meet_the_encoding_check_and_the_limits(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    ws = Workspace(root, warm=True)
    bad = "# Kickoff\n\nBroken \ud800 text\n".encode("utf-8", "surrogatepass")
    assert codes_at(ws.doctor(overlay={HISTORY: bad}), HISTORY) == ["INVALID_ENCODING"]
    with pytest.raises(ContextError) as raised:
        ws.doctor(overlay={HISTORY: b"x" * (MAX_SOURCE_BYTES + 1)})
    assert raised.value.code == "CONTEXT_LIMIT"
    assert raised.value.detail.startswith("source_bytes:")


def test_an_overlay_does_not_stand_for_a_linked_source(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    target = root / "secret.md"
    target.write_text("# Secret\n", encoding="utf-8")
    link = ".project-corpus/history/linked.md"
    os.symlink(target, root / link)
    report = Workspace(root, warm=True).doctor(overlay={link: CLAIM})
    assert codes_at(report, link) == ["SOURCE_LINK"]


def test_a_warm_run_over_an_overlay_equals_a_cold_run_over_the_same_bytes_on_disk(
    make_corpus: MakeCorpus,
) -> None:
    """Through edits that add, break and remove references and supersessions (kept per
    document by the warm path), the overlay's report is the cold doctor's on a tree holding
    those bytes."""
    from project_corpus.doctor import memory_doctor

    root = make_corpus()
    ws = Workspace(root, warm=True)
    texts = [
        b"# Kickoff\n\n## Notes\nSee .project-corpus/reports/bench-new.md and [t](../tasks/gone.md).\n",
        b"# Kickoff\n\n## Notes\nSee .project-corpus/reports/missing.md.\n",
        b"# Kickoff\n\n## Notes\nSee [t](../tasks/tune-eviction.md).\n",
        b"# Kickoff\nSupersedes: .project-corpus/reports/bench-path.md\n\n## Notes\nOld.\n",
        b"# Kickoff\nSupersedes: .project-corpus/reports/gone.md\n\n## Notes\nOld.\n",
        (root / HISTORY).read_bytes(),
    ]
    for text in texts:
        warm = ws.doctor(overlay={HISTORY: text})
        (root / HISTORY).write_bytes(text)
        assert warm == memory_doctor(root)
