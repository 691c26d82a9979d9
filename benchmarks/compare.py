"""Compare every output of two versions of `project-corpus` on the same corpora, byte for byte.

    python benchmarks/compare.py --baseline-src OLD/src [--corpus DIR]

Runs the commands the benchmark times (and every doctor output format) once with the
installed package and once with `PYTHONPATH=OLD/src`, on the maximum corpus (generated
unless --corpus is given), on a ~11,000-finding corpus and on a copy of fixtures/example,
and prints `same` or the first differing line of each output. A bundle's `created_at` (the
clock) is the only line left out. Exit status 1 when an output differs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from cases import EXAMPLE
from cases import FINDINGS_VOLATILE

HERE = Path(__file__).resolve().parent
QUERIES = ("what is the exact next action", "какое текущее состояние", "eviction policy latency")
FORMATS = ("json", "sarif", "text", "github")


def commands(root: str) -> dict[str, list[str]]:
    """Each compared output: its name and the CLI arguments that make it."""
    found: dict[str, list[str]] = {"build": ["context", "build", root]}
    for n, query in enumerate(QUERIES):
        found[f"query {n}"] = ["context", "query", root, query, "--limit", "100"]
        found[f"bundle {n}"] = ["context", "bundle", root, query, "--max-tokens", "4000"]
    for fmt in FORMATS:
        found[f"doctor {fmt}"] = ["context", "doctor", root, "--format", fmt]
    return found


def output(argv: list[str], env: dict[str, str]) -> bytes:
    done = subprocess.run(
        [sys.executable, "-m", "project_corpus", *argv], env=env, capture_output=True, check=False
    )
    lines = done.stdout.splitlines(keepends=True)
    kept = b"".join(line for line in lines if not line.lstrip().startswith(b'"created_at"'))
    return f"exit {done.returncode}\n".encode() + kept + done.stderr


def first_difference(new: bytes, old: bytes) -> str:
    for number, (a, b) in enumerate(zip(new.splitlines(), old.splitlines(), strict=False), 1):
        if a != b:
            return f"line {number}: {a[:120]!r} != {b[:120]!r}"
    return f"lengths {len(new)} != {len(old)}"


def compare(label: str, root: Path, baseline: dict[str, str]) -> int:
    # All of one version first: its queries then read the index its own build wrote.
    runs = commands(str(root))
    news = {name: output(argv, dict(os.environ)) for name, argv in runs.items()}
    olds = {name: output(argv, baseline) for name, argv in runs.items()}
    differing = 0
    for name, new in news.items():
        old = olds[name]
        verdict = "same" if new == old else first_difference(new, old)
        differing += new != old
        print(f"{label:9} {name:14} {len(new):>10} bytes  {verdict}")
    return differing


def corpora(args: argparse.Namespace, work: Path) -> dict[str, Path]:
    generate = [sys.executable, str(HERE / "generate.py")]
    found = {}
    if args.corpus:
        found["maximum"] = args.corpus.resolve()
    else:
        found["maximum"] = work / "maximum"
        subprocess.run([*generate, str(found["maximum"])], check=True, stdout=subprocess.DEVNULL)
    found["findings"] = work / "findings"
    argv = [*generate, str(found["findings"]), "--volatile", *FINDINGS_VOLATILE]
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    found["example"] = work / "example"
    shutil.copytree(EXAMPLE, found["example"], ignore=shutil.ignore_patterns("cache"))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--baseline-src", type=Path, required=True, help="the old `src` folder")
    parser.add_argument("--corpus", type=Path, help="maximum corpus (default: generate one)")
    args = parser.parse_args(argv)
    baseline = dict(os.environ, PYTHONPATH=str(args.baseline_src.resolve()))
    with tempfile.TemporaryDirectory(prefix="project-corpus-compare-") as tmp:
        differing = sum(
            compare(label, root, baseline) for label, root in corpora(args, Path(tmp)).items()
        )
    print("all outputs identical" if not differing else f"{differing} outputs differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
