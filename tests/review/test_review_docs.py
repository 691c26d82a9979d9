"""docs/review.md shows real output: the review of issue #28's scenario, made by this test on
a repository it builds. `UPDATE_GOLDEN=1` rewrites the examples; a diff shows the change."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from project_corpus.core.jsonio import pretty
from project_corpus.output.review import render_review
from project_corpus.review import memory_review
from tests.review.support import commit_all
from tests.review.support import init_repo
from tests.review.support import isolate_git
from tests.review.support import make_head_change

DOC = Path(__file__).resolve().parents[2] / "docs" / "review.md"
BLOCK_RE = r"(<!-- example: {name} -->\n```{lang}\n)(.*?)(```\n<!-- /example -->)"


def examples(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """{name: (fence language, text)} of the scenario's review."""
    repo = init_repo(tmp_path / "repo")
    commit_all(repo, "base")
    make_head_change(repo)
    report = memory_review(repo, "main")
    status = report["status_changes"]
    policy = report["policy_changes"]
    candidates = report["candidates"]
    excerpt = {"status_changes": status, "policy_changes": policy, "candidates": candidates}
    return {
        "markdown": ("markdown", render_review(report, "markdown")),
        "json": ("json", pretty(excerpt)),
    }


def test_docs_show_the_real_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git(monkeypatch)
    text = DOC.read_text(encoding="utf-8")
    for name, (lang, example) in examples(tmp_path).items():
        pattern = re.compile(BLOCK_RE.format(name=name, lang=lang), re.DOTALL)
        match = pattern.search(text)
        assert match, f"docs/review.md has no `{name}` example block"
        if os.environ.get("UPDATE_GOLDEN") == "1":
            text = text[: match.start(2)] + example + text[match.end(2) :]
        else:
            assert match.group(2) == example, "run with UPDATE_GOLDEN=1 and review the diff"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        DOC.write_text(text, encoding="utf-8")
