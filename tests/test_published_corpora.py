"""Corpora as published and cloned: no empty `history/`, prose after the H1 (docs/protocol.md).

Git keeps no empty folder, so the three published shapes (a software, a research and a content
project) arrive without `history/`. Every command accepts them; the doctor only warns.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus import collect
from project_corpus import memory_doctor
from project_corpus.corpus.items import source_items
from tests.conftest import FIXTURES
from tests.conftest import Run
from tests.conftest import copy_fixture

SHAPES = ("software-project", "research-project", "content-project")


@pytest.fixture(params=SHAPES)
def published(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return copy_fixture(FIXTURES / "published" / request.param, tmp_path / request.param)


@pytest.mark.parametrize("shape", SHAPES)
def test_fixture_has_the_published_shape(shape: str) -> None:
    corpus = FIXTURES / "published" / shape / ".project-corpus"
    assert (corpus.parent / "AGENTS.md").is_file()
    assert (corpus / "policy.toml").is_file()
    assert not (corpus / "history").exists()
    assert len(list((corpus / "tasks").glob("*.md"))) == 1
    assert len(list((corpus / "reports").glob("*.md"))) == 1
    project = (corpus / "state" / "PROJECT.md").read_text(encoding="utf-8").split("\n")
    assert not project[1].startswith("Protocol-Version"), "PROJECT keeps a prose line after H1"


def test_doctor_reports_only_the_absent_history_folder(published: Path) -> None:
    report = memory_doctor(published)
    located = [(i["code"], i["path"], i["severity"]) for i in report["issues"]]  # type: ignore[attr-defined]
    assert located == [("MISSING_ARTIFACT_DIR", ".project-corpus/history/", "WARN")]
    assert report["ok"] is True


def test_build_query_and_bundle_accept_the_corpus(published: Path, cli: Callable[..., Run]) -> None:
    assert cli("context", "build", published).code == 0
    query = cli("context", "query", published, "exact next action")
    assert query.code == 0, query.err
    assert query.json()["results"]  # type: ignore[index]
    bundle = cli("context", "bundle", published, "exact next action")
    assert bundle.code == 0, bundle.err
    assert bundle.json()["project_id"]  # type: ignore[index]


def test_every_artifact_folder_may_be_absent(published: Path) -> None:
    for folder in ("tasks", "reports"):
        for path in (published / ".project-corpus" / folder).iterdir():
            path.unlink()
        (published / ".project-corpus" / folder).rmdir()
    corpus = collect(published)
    assert sorted({s.source_type for s in corpus.sources}) == ["state"]
    codes = [f.code for f in corpus.findings]
    assert codes == ["MISSING_ARTIFACT_DIR"] * 3


def test_prose_after_the_h1_is_an_item_not_missing_metadata(published: Path) -> None:
    corpus = collect(published)  # strict: a MISSING_METADATA would refuse the corpus
    project = corpus.source(".project-corpus/state/PROJECT.md")
    assert project is not None
    assert [m.key for m in project.doc.meta][:1] == ["Protocol-Version"]
    prose = [i for i in source_items(project) if i.line_start == 2]
    assert [i.kind for i in prose] == ["paragraph"]
