"""A ROOT behind a folder the user may not enter is a stable CONTEXT_ROOT, never exit 3."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from tests.hostile.support import assert_stable
from tests.hostile.support import run_unprivileged


def test_a_root_behind_a_private_folder_is_context_root(tmp_path: Path) -> None:
    base = Path(tempfile.mkdtemp(prefix="corpus-private-"))
    home = Path(tempfile.mkdtemp(prefix="corpus-home-"))
    try:
        os.chmod(base, 0o700)  # root's own: nobody may not enter it
        os.chmod(home, 0o777)
        (base / "project").mkdir()
        run = run_unprivileged(["context", "build", str(base / "project")], home)
        assert_stable(run, "CONTEXT_ROOT")
        assert "permission denied" in json.loads(run.err)["detail"]
    finally:
        shutil.rmtree(base)
        shutil.rmtree(home)
