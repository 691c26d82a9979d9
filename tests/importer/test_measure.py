"""benchmarks/import/measure.py on a tiny repository written here (never on the acceptance
repositories: their figures are measured once, before tuning, and recorded in docs/import.md)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.conftest import write_files

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "import" / "measure.py"


def load_measure() -> object:
    spec = importlib.util.spec_from_file_location("import_measure", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_measure_reports_exit_fail_verbatim_and_picked_share(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repos = tmp_path / "repos"
    write_files(
        repos / "tiny",
        {
            "memory-bank/activeContext.md": (
                "# Active\n\n## Current Focus\nWiring.\nMore wiring.\n\n"
                "## Next Steps\n- Do it.\n- Then test.\n"
            ),
            "docs/adr/0001-x.md": "# 1. X\n\nWe chose X.\n",
            "SOURCE.toml": 'repo = "owner/tiny"\n',
            "expected.toml": (
                'memory_files = ["docs/adr/0001-x.md", "memory-bank/activeContext.md", '
                '"notes/missing.md"]\n'
            ),
        },
    )
    measure = load_measure()
    assert measure.main(["--repos", str(repos), "--json"]) == 0  # type: ignore[attr-defined]
    (row,) = json.loads(capsys.readouterr().out)
    assert row["exit"] == 0
    assert row["fail"] == 0
    assert row["picked"] == pytest.approx(66.67)
    assert row["missed"] == ["notes/missing.md"]
    # Prose: "# 1. X" is the ADR's title (structure); STATUS's two shifted headings
    # (### Current Focus, ### Next Steps) are the only lines not byte for byte.
    assert row["prose_lines"] == 7
    assert row["verbatim"] == pytest.approx(100 * 5 / 7, abs=0.01)
    assert not (repos / "tiny" / ".project-corpus").exists(), "the repository is copied first"


def test_measure_without_repositories_is_exit_2(tmp_path: Path) -> None:
    measure = load_measure()
    assert measure.main(["--repos", str(tmp_path)]) == 2  # type: ignore[attr-defined]
