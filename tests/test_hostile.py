"""Hostile inputs: no corpus, policy, argument or index content makes the tool crash.

Every command is run over every invalid fixture and over corpora whose files are random
bytes; the exit code is always 0, 1 or 2 and no traceback is printed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tests.conftest import BASE_FILES
from tests.conftest import FIXTURES
from tests.conftest import Run
from tests.conftest import copy_fixture
from tests.conftest import write_files

COMMANDS = (
    ("context", "build", "{root}"),
    ("context", "query", "{root}", "exact next action"),
    ("context", "bundle", "{root}", "exact next action", "--max-tokens", "200"),
    ("context", "doctor", "{root}", "--format", "json"),
    ("context", "doctor", "{root}", "--format", "sarif"),
    (
        "context",
        "doctor",
        "{root}",
        "--format",
        "text",
        "--index",
        "{root}/.project-corpus/cache/context.sqlite3",
    ),
    ("context", "doctor", "{root}", "--format", "github"),
    ("context", "candidate-validate", "{root}"),
)


def run_all(cli: object, root: Path) -> list[tuple[tuple[str, ...], int]]:
    results = []
    for command in COMMANDS:
        args = tuple(part.format(root=root) for part in command)
        run: Run = cli(*args)  # type: ignore[operator]
        assert run.code in (0, 1, 2), (args, run.code, run.err)
        assert "Traceback" not in run.err
        results.append((args, run.code))
    return results


INVALID = sorted(p.name for p in (FIXTURES / "invalid").iterdir() if p.is_dir())


@pytest.mark.parametrize("name", INVALID)
def test_every_command_survives_every_invalid_fixture(
    cli: object, tmp_path: Path, name: str
) -> None:
    root = tmp_path / name
    copy_fixture(FIXTURES / "invalid" / name, root)
    results = run_all(cli, root)
    # Only doctor reports conformance problems as findings; the others refuse with exit 2.
    assert all(code == 2 for args, code in results if args[1] in ("build", "query", "bundle"))


def test_every_command_survives_a_garbage_index(cli: object, make_corpus: object) -> None:
    root = make_corpus()  # type: ignore[operator]
    (root / ".project-corpus/cache").mkdir()
    (root / ".project-corpus/cache/context.sqlite3").write_bytes(
        b"SQLite format 3\0" + os.urandom(4096)
    )
    run_all(cli, root)


def test_a_symlink_loop_under_a_source_root_is_refused(cli: object, make_corpus: object) -> None:
    root = make_corpus()  # type: ignore[operator]
    os.symlink("loop", root / ".project-corpus/reports/loop")
    os.symlink("loop.md", root / ".project-corpus/reports/loop.md")
    run_all(cli, root)


def test_deeply_nested_source_folders_do_not_crash(cli: object, make_corpus: object) -> None:
    root = make_corpus()  # type: ignore[operator]
    deep = root / ".project-corpus/history"
    for _ in range(60):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "note.md").write_text(
        "# Deep\nDate: 2026-01-01\n\n## N\nDeep note.\n", encoding="utf-8"
    )
    run_all(cli, root)


TARGETS = [
    ".project-corpus/policy.toml",
    ".project-corpus/state/PROJECT.md",
    ".project-corpus/state/STATUS.md",
    ".project-corpus/tasks/tune-eviction.md",
    ".project-corpus/reports/bench-new.md",
    ".project-corpus/lint.yaml",
    ".project-corpus/candidates/c.json",
]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    target=st.sampled_from(TARGETS),
    content=st.one_of(
        st.binary(max_size=300),
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300),
        st.sampled_from(
            [
                "[scopes]\nread = 5\n",
                "rules: [1, 2]\n",
                "- - -\n",
                '{"a": [[[[[]]]]]}',
                "\ufeff# X\n",
            ]
        ),
    ),
)
def test_random_file_contents_never_crash(
    cli: object, tmp_path_factory: pytest.TempPathFactory, target: str, content: bytes | str
) -> None:
    root = tmp_path_factory.mktemp("h")
    for folder in ("tasks", "reports", "history"):
        (root / ".project-corpus" / folder).mkdir(parents=True)
    write_files(root, {**BASE_FILES, target: content})
    run_all(cli, root)
