"""Time `project-corpus import` on a 2,000-Markdown-file repository beside the floor.

    python benchmarks/import/time_import.py [--repo DIR] [--repeat 5] [--files 2000]

Without --repo a repository is generated (`generate_repo.py`) into a temporary folder. Each
round, interleaved: the floor (a Python process that reads and SHA-256-hashes every Markdown
file of the repository, `.git/` and `.project-corpus/` aside), `import` into a fresh copy
(the first import: everything written), and `import` again on that copy (nothing changed:
nothing written). Prints the median wall time of each and the ratio to the floor measured in
the same run; the target (docs/performance.md) is the first import at most 10x the floor.
`floor+write` is the floor plus creating every file the import wrote (what the first import
cannot avoid doing), for reference.
A report, not a gate: exit status 0.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLOOR = """
import hashlib, os, sys
total = 0
digest = hashlib.sha256()
for folder, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = sorted(d for d in dirs if d not in (".git", ".project-corpus"))
    for name in sorted(files):
        if name.endswith(".md"):
            with open(os.path.join(folder, name), "rb") as handle:
                data = handle.read()
            digest.update(hashlib.sha256(data).digest())
            total += 1
print(total, digest.hexdigest())
"""
# The floor plus writing what the import wrote: every file of SOURCE (a corpus the import
# wrote) created anew under DEST. What import costs beyond the I/O it must do.
WRITE_FLOOR = (
    FLOOR.replace("print(total", "#").replace("digest.hexdigest())", "")
    + """
source, dest = sys.argv[2], sys.argv[3]
for folder, dirs, files in os.walk(source):
    target = os.path.join(dest, os.path.relpath(folder, source))
    os.makedirs(target, exist_ok=True)
    for name in files:
        with open(os.path.join(folder, name), "rb") as handle:
            data = handle.read()
        with open(os.path.join(target, name), "wb") as handle:
            handle.write(data)
print(total)
"""
)


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.decode()[:2000]}")
    return elapsed


def run(repo: Path, repeat: int, scratch: Path) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {
        "floor": [],
        "import": [],
        "re-import": [],
        "floor+write": [],
    }
    cli = [sys.executable, "-m", "project_corpus", "import", "--format", "json"]
    for round_ in range(repeat + 1):  # round 0 warms the caches
        copy = scratch / f"copy-{round_}"
        shutil.copytree(repo, copy, symlinks=True)
        measured = {
            "floor": timed([sys.executable, "-c", FLOOR, str(copy)]),
            "import": timed([*cli, str(copy)]),
            "re-import": timed([*cli, str(copy)]),
        }
        corpus = str(copy / ".project-corpus")
        dest = str(scratch / f"written-{round_}")
        measured["floor+write"] = timed(
            [sys.executable, "-c", WRITE_FLOOR, str(copy), corpus, dest]
        )
        shutil.rmtree(dest)
        shutil.rmtree(copy)
        if round_:
            for key, value in measured.items():
                times[key].append(value)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--files", type=int, default=2000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        repo = args.repo
        if repo is None:
            sys.path.insert(0, str(HERE))
            from generate_repo import generate

            repo = scratch / "repo"
            generate(repo, args.files, 7, True)
        times = run(repo, args.repeat, scratch)
    floor = statistics.median(times["floor"])
    print(f"{'case':<10} {'median s':>9} {'x floor':>8}")
    for key, values in times.items():
        median = statistics.median(values)
        print(f"{key:<10} {median:>9.3f} {median / floor:>8.2f}")
    verdict = "PASS" if statistics.median(times["import"]) <= 10 * floor else "MISS"
    print(f"target: import <= 10x the floor: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
