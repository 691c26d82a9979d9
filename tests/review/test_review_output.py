"""The review's renderers: the registry matches the CLI, and corpus text cannot break the
Markdown, the text lines or the workflow commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from project_corpus.core.formats import REVIEW_FORMATS
from project_corpus.output.review import MAX_ROWS
from project_corpus.output.review import REVIEW_RENDERERS
from project_corpus.output.review import render_review
from project_corpus.review import memory_review
from tests.review.support import OLD_ACTION
from tests.review.support import STATUS
from tests.review.support import commit_all
from tests.review.support import init_repo
from tests.review.support import isolate_git

HOSTILE = "Run `x` | <img src=x> [click](https://evil.example) \x1b]52;c;AAAA\x07 now"


def test_the_registry_is_the_cli_formats() -> None:
    assert tuple(REVIEW_RENDERERS) == REVIEW_FORMATS


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    isolate_git(monkeypatch)
    repo = init_repo(tmp_path / "repo")
    commit_all(repo, "base")
    status = (repo / STATUS).read_text(encoding="utf-8")
    (repo / STATUS).write_text(status.replace(OLD_ACTION, HOSTILE), encoding="utf-8")
    return memory_review(repo, "main")


def test_markdown_cells_stay_cells(hostile: dict[str, object]) -> None:
    markdown = render_review(hostile, "markdown")
    row = next(line for line in markdown.splitlines() if line.startswith("| **Exact Next Action**"))
    assert row.count(" | ") == 3  # four cells: no `|` of the corpus breaks the table
    assert "<img" not in markdown
    assert "](https://" not in markdown
    assert "\x1b" not in markdown


def test_text_and_github_escape_controls(hostile: dict[str, object]) -> None:
    for fmt in ("text", "github"):
        assert "\x1b" not in render_review(hostile, fmt)
        assert "\x07" not in render_review(hostile, fmt)


def test_prefix_points_paths_into_the_repository(hostile: dict[str, object]) -> None:
    markdown = render_review(hostile, "markdown", prefix="services/cache/")
    assert f"`services/cache/{STATUS}:" in markdown


def test_long_lists_are_capped() -> None:
    new = [
        {"code": "X", "severity": "WARN", "path": f"p{n}.md", "line": 1, "message": "m"}
        for n in range(MAX_ROWS + 7)
    ]
    report = {"ok": True, "summary": {}, "findings": {"new": new, "fixed": [], "unchanged": []}}
    markdown = render_review(report, "markdown")
    assert markdown.count("| WARN |") == MAX_ROWS
    assert "…and 7 more" in markdown
