"""Time `project-corpus import` on a 2,000-Markdown-file repository beside the floor.

    python benchmarks/import/time_import.py [--repo DIR] [--repeat 5] [--files 2000]
        [--against PYTHON] [--scratch DIR] [--settle SECONDS]

Without --repo a repository is generated (`generate_repo.py`) into a temporary folder. Each
round, interleaved: the floor (a Python process that reads and SHA-256-hashes every Markdown
file of the repository, `.git/` and `.project-corpus/` aside), `import` into a fresh copy
(the first import: everything written), and `import` again on that copy (nothing changed:
nothing written). Prints the median wall time of each and the ratio to the floor measured in
the same run; the target (docs/performance.md) is the first import at most 10x the floor.
`floor+write` is the floor plus creating every file the import wrote (what the first import
cannot avoid doing), for reference. `--against PYTHON` also times the first import and the
re-import by another interpreter's install (another checkout's virtual environment: main's),
in the same rounds. Beside each wall time, the CPU time (user + system) of the process: on
a shared machine the wall time waits for the other processes, the CPU time much less.
The rounds' copies are deleted only at the end, and the rounds begin when the file system is
calm: where ext4 runs without a journal, as on the machines this was measured on, it passes
over every inode freed in the last 60 seconds (6 minutes while its table block is being
written, which creating files nearby does) before it gives out a new one (`recently_deleted`
in the kernel's `ialloc.c`), so a file created within minutes of thousands being deleted in the
same block groups — by the previous run's clean-up, a test suite — costs many times what it
costs otherwise. Before the rounds the benchmark creates probe files (kept until the end) and
waits, up to `--settle` seconds (default 420), until creating one costs under 60 us of CPU
(30 us on a calm disk); it says how long it waited and what the last probe cost. Deletions by
other processes while the rounds run still count: `floor+write` shows what creating the files
cost in the same rounds, and a note is printed when it is above 3x the floor. `--scratch DIR`
puts the repository and the rounds' copies on another file system (a tmpfs: `/dev/shm`) to
see the import's own cost apart from the disk's.
Every process runs with its bytecode cached (in a scratch folder, `PYTHONPYCACHEPREFIX`) as in
an installed copy, even where the environment sets `PYTHONDONTWRITEBYTECODE`: compiling the
tool's fifty modules from source on every run is not the import's cost.
A report, not a gate: exit status 0.
"""

from __future__ import annotations

import argparse
import os
import resource
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


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str]) -> tuple[float, float]:
    """The wall time and the CPU time (user + system) of running ARGV, the disk's pending
    writes (the copies and deletions of the rounds) flushed first so none is paid for here."""
    os.sync()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, check=False, env=ENV)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.decode()[:2000]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu


def _imports(python: str, repo: Path, copy: Path, suffix: str) -> dict[str, tuple[float, float]]:
    """The first import and the re-import by PYTHON into a fresh copy of REPO."""
    cli = [python, "-m", "project_corpus", "import", "--format", "json", str(copy)]
    shutil.copytree(repo, copy, symlinks=True)
    return {"import" + suffix: timed(cli), "re-import" + suffix: timed(cli)}


def run(
    repo: Path, repeat: int, scratch: Path, against: str | None
) -> dict[str, list[tuple[float, float]]]:
    times: dict[str, list[tuple[float, float]]] = {}
    for round_ in range(repeat + 1):  # round 0 warms the caches
        copy = scratch / f"copy-{round_}"
        measured = {"floor": timed([sys.executable, "-c", FLOOR, str(repo)])}
        other = scratch / f"other-{round_}"
        pythons = [(sys.executable, copy, "")]
        if against:  # which goes first alternates: the second finds a calmer disk
            pythons.append((against, other, " (against)"))
            if round_ % 2:
                pythons.reverse()
        for python, where, suffix in pythons:
            measured.update(_imports(python, repo, where, suffix))
        corpus = str(copy / ".project-corpus")
        dest = str(scratch / f"written-{round_}")
        measured["floor+write"] = timed(
            [sys.executable, "-c", WRITE_FLOOR, str(copy), corpus, dest]
        )
        if round_:
            for key, value in measured.items():
                times.setdefault(key, []).append(value)
    return times


PROBE_FILES = 400
CALM_US = 60.0  # CPU microseconds to create one file, below which the disk counts as calm


def _probe(folder: Path) -> float:
    """CPU microseconds per file to create PROBE_FILES small files in a new FOLDER."""
    folder.mkdir()
    start = time.process_time()
    for number in range(PROBE_FILES):
        fd = os.open(folder / f"{number}.md", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, b"probe\n" * 200)
        os.close(fd)
    return (time.process_time() - start) / PROBE_FILES * 1e6


def _settle(scratch: Path, seconds: float) -> None:
    """Wait, at most SECONDS, until creating a file under SCRATCH is cheap again: files
    deleted shortly before the run (its previous run's clean-up, anything else) no longer
    slow file creation. The probe files stay until the end (deleting them would count)."""
    os.sync()
    waited, tries = 0.0, 0
    cost = _probe(scratch / "probe-0")
    while cost > CALM_US and waited < seconds:
        time.sleep(15)
        waited += 15
        tries += 1
        os.sync()
        cost = _probe(scratch / f"probe-{tries}")
    state = "calm" if cost <= CALM_US else "NOT calm (the figures include it)"
    print(
        f"file system {state} after {waited:g} s: {cost:.0f} us of CPU to create a file",
        file=sys.stderr,
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--against", default=None, metavar="PYTHON")
    parser.add_argument("--scratch", type=Path, default=None, metavar="DIR")
    parser.add_argument("--settle", type=float, default=420.0, metavar="SECONDS")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.scratch) as tmp:
        scratch = Path(tmp)
        ENV["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")  # round 0 fills it
        repo = args.repo
        if repo is None:
            sys.path.insert(0, str(HERE))
            from generate_repo import generate

            repo = scratch / "repo"
            generate(repo, args.files, 7, True)
        _settle(scratch, args.settle)
        times = run(repo, args.repeat, scratch, args.against)
    floor = statistics.median(wall for wall, _ in times["floor"])
    floor_cpu = statistics.median(cpu for _, cpu in times["floor"])
    print(f"{'case':<20} {'median s':>9} {'x floor':>8} {'cpu s':>7} {'x floor':>8}")
    for key, values in times.items():
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        print(f"{key:<20} {wall:>9.3f} {wall / floor:>8.2f} {cpu:>7.3f} {cpu / floor_cpu:>8.2f}")
    first = statistics.median(wall for wall, _ in times["import"])
    verdict = "PASS" if first <= 10 * floor else "MISS"
    print(f"target: import <= 10x the floor: {verdict}")
    creation = statistics.median(wall for wall, _ in times["floor+write"]) / floor
    if creation > 3:
        print(
            f"note: creating the written files alone took {creation:.1f}x the floor in these"
            " rounds (files deleted by other processes while they ran: see --settle above)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
