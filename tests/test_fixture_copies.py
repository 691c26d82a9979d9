"""Tests never read or write the repository's own `fixtures/…/.project-corpus/cache/`.

The README's quick start builds an index inside `fixtures/example/`; `.ci/run` runs it before
the suite, and every test copies fixtures through `copy_fixture`, which leaves `cache/` behind.
"""

from __future__ import annotations

import re
from pathlib import Path

from project_corpus import build_index
from project_corpus import collect
from tests.conftest import FIXTURES
from tests.conftest import REPO
from tests.conftest import copy_fixture

DIRECT_COPY = re.compile(r"copytree\(\s*(FIXTURES|EXAMPLE|FOREIGN)\b")


def test_copy_fixture_leaves_a_built_cache_behind(tmp_path: Path) -> None:
    built = copy_fixture(FIXTURES / "example", tmp_path / "checkout")
    build_index(collect(built))
    assert (built / ".project-corpus" / "cache").is_dir()
    copied = copy_fixture(built, tmp_path / "copy")
    assert not (copied / ".project-corpus" / "cache").exists()
    assert (copied / ".project-corpus" / ".gitignore").is_file()


def test_no_test_copies_a_fixture_around_copy_fixture() -> None:
    offenders = [
        str(path.relative_to(REPO))
        for path in sorted((REPO / "tests").rglob("*.py"))
        if path.name != "conftest.py" and DIRECT_COPY.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_gitignore_ignores_every_corpus_cache() -> None:
    lines = (REPO / ".gitignore").read_text(encoding="utf-8").split("\n")
    assert "**/.project-corpus/cache/" in lines


def test_ci_runs_the_readme_quick_start_before_the_suite() -> None:
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert script.index('bash -c "$quickstart"') < script.index("python -m pytest")
