"""The CLI frame: exit codes, the error envelope, usage errors, internal errors, laziness."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import project_corpus
from project_corpus.adapters.cli import main
from project_corpus.core.errors import ERRORS
from project_corpus.core.errors import ContextError
from tests.conftest import MakeCorpus
from tests.conftest import Run


def test_version_prints_the_package_version(cli: object) -> None:
    run: Run = cli("--version")  # type: ignore[operator]
    assert run.code == 0
    assert run.out.strip() == f"project-corpus {project_corpus.__version__}"


def test_version_imports_no_heavy_module() -> None:
    code = (
        "import sys\nfrom project_corpus.__main__ import main\nrc = main(['--version'])\n"
        "heavy = sorted(m for m in ('click', 'yaml', 'jsonschema', 'mcp', 'snowballstemmer',"
        " 'Stemmer', 'sqlite3') if m in sys.modules)\nprint(rc, heavy)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    lines = result.stdout.strip().splitlines()
    assert lines == [f"project-corpus {project_corpus.__version__}", "0 []"]


def test_console_entry_delegates_everything_else_to_the_cli(
    cli: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from project_corpus.__main__ import main as console_main

    assert console_main(["context", "--help"]) == 0
    assert "build" in capsys.readouterr().out
    assert console_main(["--bogus"]) == 2


def test_usage_errors_are_usage_error_exit_2(cli: object) -> None:
    for args in (("context", "query"), ("context", "nope"), ("context", "build", "x", "--bogus")):
        run: Run = cli(*args)  # type: ignore[operator]
        assert run.code == 2, args
        envelope = run.error()
        assert envelope["error"] == "USAGE_ERROR"
        assert envelope["ok"] is False
        assert set(envelope) == {"ok", "error", "detail", "hint"}


def test_help_exits_zero(cli: object) -> None:
    run: Run = cli("context", "--help")  # type: ignore[operator]
    assert run.code == 0
    assert "build" in run.out


def test_missing_root_is_a_stable_error(cli: object, tmp_path: Path) -> None:
    run: Run = cli("context", "build", tmp_path / "missing")  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "CONTEXT_ROOT"


def test_nonconformant_corpus_is_refused_with_sorted_codes(
    make_corpus: MakeCorpus, cli: object
) -> None:
    from tests.conftest import STATUS

    root = make_corpus(
        {
            ".project-corpus/state/STATUS.md": STATUS.replace("ACTIVE", "RUNNING").replace(
                "## Blockers", "## Blocks"
            )
        }
    )
    run: Run = cli("context", "build", root)  # type: ignore[operator]
    assert run.code == 2
    envelope = run.error()
    assert envelope["error"] == "PROTOCOL_NONCONFORMANT"
    assert envelope["detail"] == "INVALID_METADATA, MISSING_SECTION"
    assert not (root / ".project-corpus/cache").exists()


def test_text_format_errors_are_one_line(make_corpus: MakeCorpus, cli: object) -> None:
    run: Run = cli("context", "doctor", make_corpus(), "--format", "text", "--config", "nope.yaml")  # type: ignore[operator]
    assert run.code == 2
    assert run.err.startswith("error[")


def test_internal_errors_exit_3_without_traceback_unless_debug(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import project_corpus.corpus.snapshot as snapshot

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(snapshot, "collect", broken)
    root = make_corpus()
    assert main(["context", "build", str(root)]) == 3
    captured = capsys.readouterr()
    envelope = json.loads(captured.err)
    assert envelope["error"] == "INTERNAL_ERROR"
    assert "Traceback" not in captured.err
    assert main(["--debug", "context", "build", str(root)]) == 3
    assert "Traceback" in capsys.readouterr().err
    # `--debug` is the parsed group flag, not any argument spelled so (here a query's text).
    assert main(["context", "query", str(root), "--", "--debug"]) == 3
    assert "Traceback" not in capsys.readouterr().err


def test_context_error_refuses_unregistered_codes() -> None:
    with pytest.raises(ValueError, match="unregistered"):
        ContextError("NOT_A_CODE", "x")
    assert all(code.isupper() for code in ERRORS)


def test_public_api_is_importable_and_typed_names_resolve() -> None:
    for name in project_corpus.__all__:
        assert getattr(project_corpus, name) is not None
    with pytest.raises(AttributeError):
        _ = project_corpus.not_an_api  # type: ignore[attr-defined]


def test_module_entry_point_runs(make_corpus: MakeCorpus) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "project_corpus", "context", "build", str(make_corpus())],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["ok"] is True
