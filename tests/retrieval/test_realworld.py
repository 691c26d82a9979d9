"""The real-world dataset (benchmarks/realworld/, docs/retrieval.md): memory that other people
keep for their own projects, converted with every sentence verbatim.

The conversion is reproducible; each corpus is a conformant Protocol V2 corpus; its figures may
not drop below those recorded in docs/retrieval.md (held-out corpora included: they are
measured, never tuned on); and STATUS's Exact Next Action and Blockers are whole in a
300-token bundle, asked in English or Russian.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from project_corpus.corpus.snapshot import collect
from project_corpus.retrieval.bundle import compile_bundle
from project_corpus.retrieval.summary import content_lines

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / "benchmarks" / "realworld"
# corpus: (top-1 line, top-3 line, top-1 source, answer in 300-token bundle), docs/retrieval.md
FLOORS = {
    "adze-backlog-postmortems": (8, 9, 10, 2),
    "backstage-adr": (6, 9, 12, 7),
    "carbon-aware-sdk": (9, 12, 14, 7),
    "firebot-memory-bank": (7, 9, 12, 7),
    "flamingods-memory-bank": (5, 6, 5, 3),
    "in-toto-roadmap": (10, 13, 11, 3),
    "jellyfin-mcp-spec-workflow": (7, 9, 10, 9),
    "net-tennis-devlog": (10, 13, 13, 4),
    "nftbk-memory-bank": (8, 11, 11, 2),
    "pet-todo-memory-bank-ru": (2, 10, 5, 7),
    "prompt-practice-kiro": (8, 9, 9, 7),
    "sayloop-agents-worklog": (10, 12, 10, 5),
    "telegram-channel-scanner": (6, 9, 11, 5),
    "thunderbird-android-adr": (5, 10, 13, 9),
    "vscode-markitdown-memory-bank": (4, 6, 8, 2),
    "whois-watcher": (4, 9, 8, 7),
}


def _measure() -> ModuleType:
    spec = importlib.util.spec_from_file_location("realworld_measure", SCRIPTS / "measure.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_conversion_reproduces_the_committed_corpora() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / "convert.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_corpus_is_measured_and_has_a_floor() -> None:
    names = sorted(p.name for p in (REPO / "fixtures" / "realworld").iterdir() if p.is_dir())
    assert names == sorted(FLOORS)
    assert sum(_measure().held_out(name) for name in names) >= 2


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_figures_do_not_drop(name: str) -> None:
    count, counts = _measure().measure(name)
    assert count >= 10
    assert all(c >= f for c, f in zip(counts, FLOORS[name], strict=True)), (counts, FLOORS[name])


@pytest.mark.parametrize("name", sorted(FLOORS))
@pytest.mark.parametrize("question", ["what is the next action", "какие блокеры"])
def test_next_action_and_blockers_are_whole_in_a_300_token_bundle(name: str, question: str) -> None:
    corpus = collect(REPO / "fixtures" / "realworld" / name)
    status = corpus.source(".project-corpus/state/STATUS.md")
    assert status is not None
    bundle = compile_bundle(corpus, question, max_tokens=300)
    summary = next(
        str(item["text"])
        for item in bundle["items"]  # type: ignore[attr-defined]
        if item["source_path"] == status.path
    )
    for section in ("Exact Next Action", "Blockers"):
        assert f"{section}: " + " ".join(content_lines(status.doc, section)) in summary
