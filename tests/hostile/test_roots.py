"""`context build /` and `context build ""` (F14) answer with a root message, not INDEX_PATH."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Run
from tests.hostile.support import assert_stable


@pytest.mark.parametrize("root", ["/", ""])
def test_a_root_without_a_corpus_is_context_root(
    cli: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, root: str
) -> None:
    monkeypatch.chdir(tmp_path)
    run: Run = cli("context", "build", root)  # type: ignore[operator]
    assert_stable(run, "CONTEXT_ROOT")
    assert not (tmp_path / ".project-corpus").exists()
