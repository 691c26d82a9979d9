"""Helpers for hostile-input tests: stable outcomes, and runs as an unprivileged user.

Permission tests need a user that `chmod 000` stops. As root they run the command in a
subprocess as `nobody` through `setpriv` (skipped only when neither is possible).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.conftest import Run
from tests.conftest import copy_fixture

NOBODY = 65534
SRC = Path(__file__).resolve().parents[2] / "src"


def assert_stable(run: Run, code: str | None, exits: tuple[int, ...] = (2,)) -> None:
    """RUN ended with one of EXITS (never 3) and, when CODE, with that error code."""
    assert run.code in exits, (run.code, run.out[-2000:], run.err[-2000:])
    assert "Traceback" not in run.err
    assert "INTERNAL_ERROR" not in run.err
    if code is not None:
        assert json.loads(run.err)["error"] == code, run.err


def unprivileged_prefix() -> list[str]:
    """The command prefix that drops root, [] when not root; skips when impossible."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root and no setpriv to drop privileges")
    prefix = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    if not _unprivileged_can_import(tuple(prefix)):
        pytest.skip("the unprivileged user cannot run this checkout (its folders are private)")
    return prefix


@functools.cache
def _unprivileged_can_import(prefix: tuple[str, ...]) -> bool:
    """Whether `nobody` can start this venv's Python and import the package from src/."""
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(SRC), "LANG": "C.UTF-8"}
    probe = [*prefix, sys.executable, "-c", "import project_corpus"]
    done = subprocess.run(probe, capture_output=True, env=env, cwd="/", timeout=60, check=False)
    return done.returncode == 0


def run_unprivileged(args: list[str], home: Path) -> Run:
    """`python -m project_corpus ARGS` as an unprivileged user (HOME set to HOME)."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "LANG": "C.UTF-8"}
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    env["PYTHONPATH"] = str(SRC)
    proc = subprocess.run(
        [*unprivileged_prefix(), sys.executable, "-m", "project_corpus", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=120,
        check=False,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def shared_example() -> Iterator[Path]:
    """A copy of fixtures/example in a folder every user may enter (tmp_path may not be)."""
    base = Path(tempfile.mkdtemp(prefix="corpus-hostile-"))
    try:
        os.chmod(base, 0o755)
        root = base / "example"
        copy_fixture(FIXTURES / "example", root)
        for path in [base, *base.rglob("*")]:
            if not path.is_symlink():
                os.chmod(path, 0o777 if path.is_dir() else 0o666)
        yield root
    finally:
        for path in base.rglob("*"):
            if path.is_dir() and not path.is_symlink():
                os.chmod(path, 0o777)
        shutil.rmtree(base)
