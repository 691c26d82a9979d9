"""The gitignore subset used by CACHE_NOT_IGNORED."""

from __future__ import annotations

import pytest

from project_corpus.doctor._gitignore import is_ignored
from project_corpus.doctor._gitignore import parse

TARGET = ".project-corpus/cache/context.sqlite3"


def ignored(root: str = "", corpus: str = "", cache: str = "", path: str = TARGET) -> bool:
    files = [
        ("", parse(root)),
        (".project-corpus", parse(corpus)),
        (".project-corpus/cache", parse(cache)),
    ]
    return is_ignored(path, False, files)


@pytest.mark.parametrize(
    "root",
    [
        ".project-corpus/cache/",
        "/.project-corpus/cache/",
        ".project-corpus/cache",
        ".project-corpus/",
        "cache/",
        "cache",
        "**/cache",
        "**/cache/",
        ".project-corpus/cache/*",
        ".project-corpus/**",
        "*.sqlite3",
        "*",
        "# comment\n.project-corpus/cache/\n",
    ],
)
def test_root_patterns_that_ignore_the_cache(root: str) -> None:
    assert ignored(root=root)


@pytest.mark.parametrize(
    "root",
    [
        "",
        "# .project-corpus/cache/",
        "/cache/",
        "project-corpus/cache/",
        ".project-corpus/cache/x",
        "*.db",
        ".project-corpus/cache/\n!.project-corpus/cache/",
        "cache/\n!cache/",
        "!*",
    ],
)
def test_root_patterns_that_do_not(root: str) -> None:
    assert not ignored(root=root)


@pytest.mark.parametrize(
    ("corpus", "expected"),
    [
        ("cache/", True),
        ("/cache/", True),
        ("cache", True),
        ("cache/*", True),
        ("*", True),
        (".project-corpus/cache/", False),
        ("caches/", False),
    ],
)
def test_corpus_gitignore(corpus: str, expected: bool) -> None:
    assert ignored(corpus=corpus) is expected


@pytest.mark.parametrize(
    ("cache", "expected"),
    [
        ("*", True),
        ("/*", True),
        ("**", True),
        ("*\n!.gitignore", True),
        ("*.sqlite3", True),
        ("*\n!*.sqlite3", False),
        ("", False),
        ("cache/", False),
    ],
)
def test_cache_gitignore(cache: str, expected: bool) -> None:
    assert ignored(cache=cache) is expected


def test_nothing_below_an_ignored_directory_is_reincluded() -> None:
    assert ignored(root=".project-corpus/cache/", cache="!*")


def test_dir_only_pattern_needs_a_directory() -> None:
    assert not ignored(cache="context.sqlite3/")
    files = [(".project-corpus/cache", parse("sub/"))]
    assert is_ignored(".project-corpus/cache/sub", True, files)
