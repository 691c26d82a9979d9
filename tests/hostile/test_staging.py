"""Stale staging files of a killed build are removed by the next build (F14); fresh ones,
links and foreign names are left alone."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from project_corpus.corpus.snapshot import collect
from project_corpus.index.store import build_index
from tests.conftest import MakeCorpus
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


HOUR = 3600  # STALE_SECONDS, spelt out: the module's own constant is what is under test
CACHE = ".project-corpus/cache"


def ours(number: int) -> str:
    """A staging name as a build makes it: the prefix, 16 lowercase hex digits, .sqlite3."""
    return f".staging-{number:016x}.sqlite3"


def staging_names(cache: Path) -> list[str]:
    return sorted(name for name in os.listdir(cache) if name.startswith(".staging-"))


def test_every_stale_staging_file_goes_whatever_else_the_cache_holds(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus().resolve()
    corpus = collect(root)
    build_index(corpus)
    cache = root / CACHE
    stale = [ours(n) for n in range(1, 11)]
    foreign = [
        *(f".staging-{n:015x}.sqlite3" for n in range(10)),  # one digit short
        *(f".staging-{n:017x}.sqlite3" for n in range(10)),  # one digit more
        *(f".staging-{n:016X}.sqlite3".replace("0", "G") for n in range(10, 20)),  # not hex
        *(f"x.staging-{n:016x}.sqlite3" for n in range(10)),  # not our prefix
        *(f".staging-{n:016x}.sqlite" for n in range(10)),  # not our suffix
    ]
    old = time.time() - 2 * HOUR
    for name in stale + foreign:
        (cache / name).write_bytes(b"x")
        os.utime(cache / name, (old, old))
    target = root.parent / "old-regular-file"  # a link is never touched, even to an old file
    target.write_bytes(b"keep")
    os.utime(target, (old, old))
    (cache / ours(99)).symlink_to(target)
    os.utime(cache / ours(99), (old, old), follow_symlinks=False)
    build_index(corpus)
    kept = sorted([ours(99), *(n for n in foreign if n.startswith(".staging-"))])
    assert staging_names(cache) == kept
    assert sorted(os.listdir(cache)) == sorted(
        [".gitignore", "context.sqlite3", ours(99), *foreign]
    )
    assert target.read_bytes() == b"keep"


def test_a_staging_file_goes_once_more_than_an_hour_old(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus().resolve()
    corpus = collect(root)
    build_index(corpus)
    cache = root / CACHE
    now = int(time.time())
    for number, age in ((1, HOUR + 1), (2, HOUR), (3, HOUR - 1)):
        (cache / ours(number)).write_bytes(b"x")
        os.utime(cache / ours(number), (now - age, now - age))
    monkeypatch.setattr(time, "time", lambda: float(now))  # the sweep's clock, frozen
    build_index(corpus)
    assert staging_names(cache) == [ours(2), ours(3)]
