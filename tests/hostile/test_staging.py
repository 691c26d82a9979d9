"""Stale staging files of a killed build are removed by the next build (F14); fresh ones,
links and foreign names are left alone."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import Run

OLD = 2 * 3600


def test_build_removes_only_our_stale_staging_files(
    cli: object, example: Path, tmp_path: Path
) -> None:
    run: Run = cli("context", "build", str(example))  # type: ignore[operator]
    assert run.code == 0, run.err
    cache = example / ".project-corpus" / "cache"
    stale, fresh = (
        cache / ".staging-0123456789abcdef.sqlite3",
        cache / ".staging-fedcba9876543210.sqlite3",
    )
    foreign = cache / ".staging-notours.sqlite3"
    victim = tmp_path / "victim"
    victim.write_text("keep", encoding="utf-8")
    link = cache / ".staging-aaaaaaaaaaaaaaaa.sqlite3"
    link.symlink_to(victim)
    for path in (stale, fresh, foreign):
        path.write_bytes(b"x")
    for path in (stale, foreign):
        os.utime(path, (path.stat().st_mtime - OLD,) * 2)
    os.utime(link, (victim.stat().st_mtime - OLD,) * 2, follow_symlinks=False)
    run = cli("context", "build", str(example))  # type: ignore[operator]
    assert run.code == 0, run.err
    assert not stale.exists()
    assert fresh.exists()
    assert foreign.exists()
    assert link.is_symlink()
    assert victim.read_text(encoding="utf-8") == "keep"
