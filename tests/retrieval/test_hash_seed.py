"""Same inputs, same bytes — in every process, whatever its hash seed (SPEC §5 rule 1).

Sets of strings iterate in a per-process order; a score summed in that order could differ in
its last bit between two runs and flip a floor. Each query runs in fresh interpreters with
different PYTHONHASHSEED values and the outputs must be byte-identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.conftest import copy_fixture

SEEDS = ("0", "1", "6", "4242")
QUERIES = (
    "eviction policy canary",
    "what is the exact next action",
    "какое следующее действие",
    "which test command was used for the baseline",
)


def _run(root: Path, seed: str, *args: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-m", "project_corpus", "context", args[0], str(root), *args[1:]],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_fixture(FIXTURES / "example", tmp_path_factory.mktemp("seed") / "example")
    _run(root, "0", "build")
    return root


@pytest.mark.parametrize("query", QUERIES)
def test_query_bytes_do_not_depend_on_the_hash_seed(indexed: Path, query: str) -> None:
    outputs = {_run(indexed, seed, "query", query) for seed in SEEDS}
    assert len(outputs) == 1


def test_bundle_hash_does_not_depend_on_the_hash_seed(indexed: Path) -> None:
    hashes = {
        json.loads(_run(indexed, seed, "bundle", QUERIES[0], "--max-tokens", "300"))[
            "bundle_sha256"
        ]
        for seed in SEEDS
    }
    assert len(hashes) == 1


@pytest.fixture(scope="module")
def realworld(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = FIXTURES / "realworld" / "firebot-memory-bank"
    root = copy_fixture(source, tmp_path_factory.mktemp("seed") / "firebot")
    _run(root, "0", "build")
    return root


@pytest.mark.parametrize(
    "query",
    [
        "why are theme colours applied inline and not through CSS variables",  # intent, spelling
        "when was the framework upgraded to .NET 10 (v2.0.0)",  # versions
        "what config does the overlay read automatically",  # near-equivalents
    ],
)
def test_real_world_query_bytes_do_not_depend_on_the_hash_seed(realworld: Path, query: str) -> None:
    outputs = {_run(realworld, seed, "query", query) for seed in SEEDS}
    assert len(outputs) == 1
