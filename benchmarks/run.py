"""Time `project-corpus` commands as whole processes against the floor (docs/performance.md).

    python benchmarks/run.py [--corpus DIR] [--repeat 5] [--json]

Without --corpus a maximum-size corpus is generated into a temporary directory. The package's
bytecode is compiled first. One warm-up round and then --repeat rounds run every command
once each, in order (interleaved, so that a slow spell of a shared machine falls on all of
them alike); the table shows the median wall time, the
ratio to the floor measured in the same run (a process that only reads and SHA-256-hashes the
scoped files, `benchmarks/floor.py`; a bare `python -c pass` for `--version`), the target
ratio, the peak RSS of the measured runs and PASS/MISS. Failing commands are reported with
their stderr. This is a report, not a gate: the exit status is always 0.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import platform
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from cases import FLOOR_KEYS
from cases import RSS_TARGET_MB
from cases import Case
from cases import findings_cases
from cases import floor_cases
from cases import generate_findings_corpus
from cases import prepare_example
from cases import small_cases
from cases import tool_cases
from table import render_table

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SOURCE_DIRS = ("state", "tasks", "reports", "history")

STDERR_KEEP = 2000
GNU_TIME = "/usr/bin/time"


@dataclass
class Result:
    """Measurements of one case (times in seconds, RSS in MB of 10^6 bytes)."""

    name: str
    command: str
    metric: str = "wall"
    times: list[float] = field(default_factory=list)
    median_s: float | None = None
    baseline: str | None = None
    ratio: float | None = None
    target_ratio: float | None = None
    peak_rss_mb: float | None = None
    rss_target_mb: float | None = None
    returncode: int | None = None
    status: str = "ERROR"
    error: str | None = None


@dataclass
class Run:
    """One finished process: wall time, exit code, peak RSS (MB), stderr text."""

    seconds: float
    cpu: float
    returncode: int
    rss_mb: float
    stderr: str


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _gnu_time() -> str | None:
    """Path of a GNU `time` that can report the child's peak RSS (`-f %M`), or None."""
    if not os.access(GNU_TIME, os.X_OK):
        return None
    with tempfile.NamedTemporaryFile("r") as report:
        argv = [GNU_TIME, "-f", "%M", "-o", report.name, "true"]
        done = subprocess.run(argv, capture_output=True, check=False)
        text = report.read().strip()
    return GNU_TIME if done.returncode == 0 and text.isdigit() else None


def _wait4_rss_mb(maxrss: int) -> float:
    # ru_maxrss is in KiB on Linux and in bytes on macOS.
    return maxrss / 1e6 if sys.platform == "darwin" else maxrss * 1024 / 1e6


def run_once(argv: Sequence[str], env: dict[str, str], timeout: float, rss_via: str | None) -> Run:
    """Run ARGV to completion; wall time by perf_counter, exit code and RSS by os.wait4.

    With RSS_VIA (a GNU time) the command runs under `time -f %M` and the RSS is the one
    GNU time reports for its own child; os.wait4 alone would also count the harness's own
    RSS, which a spawned child inherits as its starting high-water mark.
    """
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile("r") as report,
    ):
        if rss_via:
            argv = [rss_via, "-f", "%M", "-o", report.name, *argv]
        start = time.perf_counter()
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env=env,
            cwd=REPO,
            start_new_session=True,
        )
        timer = threading.Timer(timeout, _kill_group, (proc.pid,))
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
        rss = _wait4_rss_mb(usage.ru_maxrss)
        if rss_via:
            last = (report.read().strip().splitlines() or [""])[-1]
            rss = int(last) * 1024 / 1e6 if last.isdigit() else 0.0
    if proc.returncode < 0:
        stderr += f"\n(killed by signal {-proc.returncode}; timeout {timeout:g} s)"
    return Run(seconds, usage.ru_utime + usage.ru_stime, proc.returncode, rss, stderr)


def measure_all(
    cases: Sequence[Case], repeat: int, env: dict[str, str], timeout: float, rss_via: str | None
) -> list[Result]:
    """One warm-up round (which also measures RSS under GNU time, when there is one), then
    REPEAT timed rounds. Each round runs every case once, in order, so that a slow spell of
    a shared machine falls on all cases alike instead of on one case's runs. A case stops
    at its first unexpected exit code."""
    results = []
    for case in cases:
        result = Result(case.name, " ".join(case.argv), case.metric, baseline=case.baseline)
        result.target_ratio = case.target
        result.rss_target_mb = RSS_TARGET_MB if case.tool else None
        result.peak_rss_mb = 0.0
        results.append(result)
    for round_ in range(repeat + 1):
        for case, result in zip(cases, results, strict=True):
            if result.error is not None:
                continue
            run = run_once(case.argv, env, timeout, rss_via if round_ == 0 else None)
            result.returncode = run.returncode
            if run.returncode not in case.ok_codes:
                result.error = run.stderr.strip()[-STDERR_KEEP:] or "(no stderr)"
                result.times = []
                continue
            if round_:
                result.times.append(run.cpu if case.metric == "cpu" else run.seconds)
            if round_ == 0 or not rss_via:
                result.peak_rss_mb = max(result.peak_rss_mb or 0.0, run.rss_mb)
    for result in results:
        if result.error is None and result.times:
            result.median_s = statistics.median(result.times)
            result.status = "OK"
        else:
            result.peak_rss_mb = None
    return results


def judge(result: Result, floors: dict[str, float | None]) -> None:
    """Fill in the ratio to the baseline and PASS/MISS from the targets that apply."""
    if result.median_s is None:
        return
    base = floors.get(result.baseline or "")
    if base:
        result.ratio = result.median_s / base
    slow = result.target_ratio is not None and (
        result.ratio is None or result.ratio > result.target_ratio
    )
    heavy = result.rss_target_mb is not None and (result.peak_rss_mb or 0.0) > result.rss_target_mb
    if result.baseline is not None:
        result.status = "MISS" if slow or heavy else "PASS"


def _probe(env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "project_corpus", "--version"]
    return subprocess.run(
        argv, env=env, capture_output=True, text=True, check=False, cwd=REPO, timeout=timeout
    )


def tool_env(timeout: float) -> tuple[dict[str, str], str | None, str | None]:
    """Environment in which `python -m project_corpus` works, its version, and a note.

    Falls back to PYTHONPATH=<repo>/src when the package is not installed in this venv.
    """
    env = dict(os.environ)
    done = _probe(env, timeout)
    if done.returncode == 0:
        return env, done.stdout.strip(), None
    src = REPO / "src"
    if (src / "project_corpus").is_dir():
        path = os.pathsep.join(filter(None, [str(src), env.get("PYTHONPATH")]))
        alt = dict(env, PYTHONPATH=path)
        retry = _probe(alt, timeout)
        if retry.returncode == 0:
            note = f"project_corpus is not installed in this venv; using PYTHONPATH={path}"
            return alt, retry.stdout.strip(), note
    detail = (done.stderr or done.stdout).strip()[-600:]
    return (
        env,
        None,
        f"`python -m project_corpus --version` fails (exit {done.returncode}): {detail}",
    )


def compile_bytecode(env: dict[str, str], timeout: float) -> str:
    """Compile the package's bytecode, as a wheel install does, so that no timed run pays
    for compiling sources (with PYTHONDONTWRITEBYTECODE set, stale `.pyc` files would be
    recompiled on every run and never saved)."""
    code = (
        "import compileall, os, project_corpus; "
        "ok = compileall.compile_dir(os.path.dirname(project_corpus.__file__), quiet=1); "
        "raise SystemExit(0 if ok else 1)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, check=False, timeout=timeout
    )
    return "bytecode compiled" if done.returncode == 0 else "bytecode NOT compiled"


def corpus_stats(root: Path) -> dict[str, int]:
    """Sources, non-blank lines and bytes of the scoped folders (all `*.md` files)."""
    files = [p for d in SOURCE_DIRS for p in (root / ".project-corpus" / d).rglob("*.md")]
    lines = 0
    size = 0
    for path in files:
        data = path.read_bytes()
        size += len(data)
        lines += sum(1 for line in data.decode("utf-8", "replace").split("\n") if line.strip())
    return {"sources": len(files), "non_blank_lines": lines, "bytes": size}


def generate_corpus(args: argparse.Namespace) -> Path:
    """Generate a corpus into a new temporary directory (in a child process, so that the
    harness itself stays small)."""
    out = Path(tempfile.mkdtemp(prefix="project-corpus-bench-"))
    argv = [sys.executable, str(HERE / "generate.py"), str(out), "--force"]
    argv += ["--sources", str(args.sources), "--lines", str(args.lines), "--seed", str(args.seed)]
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, timeout=args.timeout)
    return out


def all_cases(root: Path, extra: dict[str, Path], version: str | None) -> list[Case]:
    findings = extra.get("findings")
    floors = floor_cases(str(root), str(findings) if findings else None)
    if version is None:
        return floors
    tools = tool_cases(str(root))
    if findings:
        tools += findings_cases(str(findings))
    if "example" in extra:
        tools += small_cases(str(extra["example"]))
    return floors + tools


def cpu_only(cases: list[Case]) -> list[Case]:
    """CASES measured in CPU time (user + system) instead of wall time: steadier on a shared
    machine, where waiting for a core is not the command's cost."""
    return [
        dataclasses.replace(
            c, metric="cpu", baseline="bare-cpu" if c.baseline == "bare" else c.baseline
        )
        for c in cases
    ]


def prepare_extra(args: argparse.Namespace, env: dict[str, str], extra: dict[str, Path]) -> None:
    """Fill EXTRA with the many-findings corpus and the example copy (unless skipped)."""
    if not args.no_findings:
        corpus = [
            "--sources",
            str(args.sources),
            "--lines",
            str(args.lines),
            "--seed",
            str(args.seed),
        ]
        extra["findings"] = generate_findings_corpus(args.timeout, corpus)
    if not args.no_small:
        extra["example"] = prepare_example(env, args.timeout)


def run_all(root: Path, args: argparse.Namespace, extra: dict[str, Path]) -> dict[str, object]:
    env, version, note = tool_env(args.timeout)
    bytecode = compile_bytecode(env, args.timeout) if version else None
    rss_via = _gnu_time()
    if version is not None:
        prepare_extra(args, env, extra)
    cases = all_cases(root, extra, version)
    if args.cpu:
        cases = cpu_only(cases)
    results = measure_all(cases, args.repeat, env, args.timeout, rss_via)
    floors = {FLOOR_KEYS[r.name]: r.median_s for r in results if r.name in FLOOR_KEYS}
    for result in results:
        if result.name not in FLOOR_KEYS:
            judge(result, floors)
    if version is None:
        tools = tool_cases(str(root))
        results += [Result(case.name, " ".join(case.argv), error=note) for case in tools]
    return {
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "sqlite": sqlite3.sqlite_version,
        "tool_version": version,
        "note": note,
        "bytecode": bytecode,
        "rss_method": f"{rss_via} -f %M (warm-up run)"
        if rss_via
        else "os.wait4 ru_maxrss (includes the harness RSS at spawn: an upper bound)",
        "repeat": args.repeat,
        "metric": "cpu" if args.cpu else "wall (small corpus: cpu)",
        "corpus": {"root": str(root), **corpus_stats(root)},
        "results": [asdict(r) for r in results],
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--corpus", type=Path, help="project root (default: generate one)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per command")
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per process")
    parser.add_argument("--keep", action="store_true", help="keep a generated corpus")
    parser.add_argument("--sources", type=int, default=2048, help="for a generated corpus")
    parser.add_argument("--lines", type=int, default=50000, help="for a generated corpus")
    parser.add_argument("--seed", type=int, default=1, help="for a generated corpus")
    parser.add_argument(
        "--no-findings", action="store_true", help="skip the ~11,000-finding doctor case"
    )
    parser.add_argument(
        "--cpu", action="store_true", help="measure every command in CPU time, not wall time"
    )
    parser.add_argument(
        "--no-small", action="store_true", help="skip the commands on fixtures/example"
    )
    args = parser.parse_args(argv)
    args.repeat = max(1, args.repeat)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    root: Path | None = None
    extra: dict[str, Path] = {}
    try:
        root = args.corpus.resolve() if args.corpus else generate_corpus(args)
        report = run_all(root, args, extra)
    except (OSError, subprocess.SubprocessError, SystemExit, ValueError) as exc:
        print(f"benchmark aborted: {exc}", file=sys.stderr)
        return 0
    finally:
        if root is not None and args.corpus is None and not args.keep:
            shutil.rmtree(root, ignore_errors=True)
        for name, path in extra.items():  # the example is copied into a directory of its own
            shutil.rmtree(path.parent if name == "example" else path, ignore_errors=True)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(render_table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
