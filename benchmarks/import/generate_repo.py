"""Generate a repository of 2,000 Markdown files for timing `project-corpus import`.

    python benchmarks/import/generate_repo.py DIR [--files 2000] [--seed 7] [--no-git]

About half the files hold memory in the layouts `import` detects (a memory bank, an ADR folder,
a work-log folder, LOG.md, TODO.md, CHANGELOG.md, CLAUDE.md, a spec folder), in English and
Russian; the rest are ordinary documentation the import walks past. With git (the default)
everything is committed once, so the dates of undated files come from `git log` as in a real
clone. Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from pathlib import Path

WORDS_EN = "relay board lamp timer broker porch garden queue cache index worker batch".split()
WORDS_RU = "реле плата лампа таймер брокер сад очередь кэш индекс задача проверка".split()


def sentence(rng: random.Random, words: list[str], n: int = 10) -> str:
    return " ".join(rng.choice(words) for _ in range(n)).capitalize() + "."


def body(rng: random.Random, lines: int) -> str:
    words = WORDS_RU if rng.random() < 0.3 else WORDS_EN
    out = [sentence(rng, words) for _ in range(lines // 2)]
    out += [f"- {sentence(rng, words, 6)}" for _ in range(lines - lines // 2)]
    return "\n".join(out) + "\n"


def memory_files(rng: random.Random, count: int) -> dict[str, str]:
    files = {
        "memory-bank/projectbrief.md": "# Brief\n\n## Goals\n" + body(rng, 8),
        "memory-bank/activeContext.md": "# Active\n\n## Current Focus\n"
        + body(rng, 6)
        + "\n## Next Steps\n1. Ship it.\n\n## Блокеры\n"
        + body(rng, 2),
        "memory-bank/progress.md": "# Progress\n\n## What Works\n" + body(rng, 10),
        "memory-bank/techContext.md": "# Tech\n\n" + body(rng, 12),
        "CLAUDE.md": "# CLAUDE.md\n\n" + body(rng, 10),
        "TODO.md": "# TODO\n\n" + "".join(f"- [ ] Item {i}\n" for i in range(30)),
        "LOG.md": "# Log\n\n"
        + "".join(f"## 2025-0{1 + i % 9}-1{i % 10} Day {i}\n{body(rng, 6)}\n" for i in range(40)),
        "CHANGELOG.md": "# Changelog\n\n"
        + "".join(f"## [1.{i}.0] - 2025-01-{1 + i % 28:02d}\n{body(rng, 4)}\n" for i in range(30)),
        ".kiro/specs/timer/tasks.md": "# Tasks\n\n- [ ] 1. Add a timer\n",
        ".kiro/specs/timer/design.md": "# Design\n\n" + body(rng, 10),
    }
    for i in range(count - len(files)):
        if i % 2:
            files[f"docs/adr/{i:04d}-decision-{i}.md"] = (
                f"# {i}. Decision {i}\n\n## Context\n{body(rng, 10)}\n## Decision\n{body(rng, 6)}"
            )
        else:
            files[f"docs/worklog/2025-{1 + i % 12:02d}-{1 + i % 28:02d}-entry-{i}.md"] = (
                f"# Entry {i}\n\n{body(rng, 14)}"
            )
    return files


def other_files(rng: random.Random, count: int) -> dict[str, str]:
    return {
        f"docs/guide/part-{i // 100}/page-{i}.md": f"# Page {i}\n\n{body(rng, 20)}"
        for i in range(count)
    }


def generate(root: Path, total: int, seed: int, git: bool) -> int:
    rng = random.Random(seed)
    files = memory_files(rng, total // 2)
    files.update(other_files(rng, total - len(files)))
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if git:
        env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.org"}
        env.update({"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.org"})
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "generated"]):
            subprocess.run(["git", "-C", str(root), *args], check=True, env=env)
    return len(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-git", action="store_true")
    args = parser.parse_args(argv)
    count = generate(args.dir, args.files, args.seed, not args.no_git)
    print(f"{count} Markdown files in {args.dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
