"""The warm path against one-shot CLI runs (docs/performance.md, "The warm path").

    python benchmarks/warm.py [--corpus DIR] [--rounds 12] [--edit-every 3] [--long-calls 1000]

On a copy of the maximum corpus (generated unless --corpus names one; the copy's policy is
made SAFE_EDIT with `mcp.stdio` and a trust grant is written under a temporary
XDG_CONFIG_HOME), one real MCP session is started over stdio with the official `mcp` SDK client
and one `Workspace` is opened in this process. Each round runs the one-shot CLI commands
(`context query` on a current index, `context bundle`, `context doctor`), then the same three
calls over MCP and on the API object, in an order rotated per round; after every
--edit-every rounds a source is edited, a report added or the added report deleted (the index
is rebuilt for the CLI only). Every warm answer is compared with the CLI's output of the same
round (a bundle without `created_at`). The table gives medians per call after the first
round (the first call of a session may be cold): wall time as the client sees it, CPU time
(the CLI process's; the server's from /proc, 10 ms ticks, so a mean), and the ratio to the
CLI's median of the same run, for calls right after an edit and for the others.

Then the session goes on for --long-calls calls with an edit every 10 calls and reports the
server's peak RSS (VmHWM); a child process does the same on a `Workspace` and reports its own.
A report, not a test: the exit status is 0 unless an answer differs from the CLI's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
KINDS = ("query", "bundle", "doctor")
QUERIES = (
    "what is the exact next action",
    "какое текущее состояние",
    "eviction policy latency",
    "which benchmark regressed after the rollout",
    "почему откатили релиз",
    "cache warmup decision",
)
TARGETS = {"query": 0.2, "bundle": 0.25, "doctor": 0.5}
RSS_TARGET_MB = 150.0
TICK = os.sysconf("SC_CLK_TCK")
EXTRA = "\nAn extra line written by the warm benchmark, call {n}.\n"


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "project_corpus", *args]


def run_cli(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, stdout) of one CLI process."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed")
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, out.read().decode("utf-8")


def call_args(kind: str, n: int) -> tuple[list[str], str, dict[str, Any]]:
    """The CLI arguments, MCP tool and its arguments of call N of KIND."""
    query = QUERIES[n % len(QUERIES)]
    if kind == "query":
        return ["context", "query", "{root}", query], "corpus_context_query", {"query": query}
    if kind == "bundle":
        return ["context", "bundle", "{root}", query], "corpus_context_bundle", {"query": query}
    return ["context", "doctor", "{root}", "--format", "json"], "corpus_context_doctor", {}


def comparable(kind: str, text: str) -> object:
    data = json.loads(text)
    if kind == "bundle":
        data.pop("created_at")
    return data


# --- the corpus ------------------------------------------------------------------------------


def prepare(args: argparse.Namespace, work: Path, env: dict[str, str]) -> Path:
    """A copy of the corpus, its policy opened to MCP, granted and indexed."""
    root = work / "corpus"
    if args.corpus:
        shutil.copytree(args.corpus, root, symlinks=True)
    else:
        gen = [sys.executable, str(HERE / "generate.py"), str(root), "--sources", str(args.sources)]
        subprocess.run(gen, check=True, stdout=subprocess.DEVNULL)
    policy = root / ".project-corpus" / "policy.toml"
    text = policy.read_text(encoding="utf-8").replace('"READ_ONLY"', '"SAFE_EDIT"')
    policy.write_text(text.replace('["corpus.context"]', '["corpus.context", "mcp.stdio"]'))
    grant = cli("trust", "grant", str(root), "--capability", "mcp.stdio")
    subprocess.run([*grant, "--capability", "corpus.context"], check=True, env=env, **QUIET)
    subprocess.run(cli("context", "build", str(root)), check=True, env=env, **QUIET)
    return root


QUIET: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}


def edit(root: Path, n: int) -> str:
    """Edit number N: append a line to a report (even N), else delete or add back another
    report, in turn (a maximum corpus has no room for one more source). The deleted report's
    bytes are kept beside ROOT."""
    reports = sorted((root / ".project-corpus" / "reports").glob("*.md"))
    if n % 2 == 0:
        with reports[0].open("a", encoding="utf-8") as handle:
            handle.write(EXTRA.format(n=n))
        return "edit"
    victim = root / ".project-corpus" / "reports" / "zz-warm-victim.md"
    kept = root.parent / "victim.md"
    if not kept.exists():
        kept.write_bytes(reports[-1].read_bytes())
        text = kept.read_text(encoding="utf-8").replace(reports[-1].stem, victim.stem)
        kept.write_text(text, encoding="utf-8")
        reports[-1].unlink()  # the victim takes its place: the same number of sources
        victim.write_bytes(kept.read_bytes())
    if victim.exists():
        victim.unlink()
        return "delete"
    victim.write_bytes(kept.read_bytes())
    return "new"


# --- the server's process --------------------------------------------------------------------


def server_pid() -> int:
    """The MCP server: this process's child running `project_corpus mcp`."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            ppid = int(stat.rpartition(")")[2].split()[1])
            if ppid == os.getpid() and b"mcp" in cmdline:
                return int(entry.name)
    raise SystemExit("the MCP server process was not found")


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024 / 1e6
    return 0.0


# --- the rounds ------------------------------------------------------------------------------


class Tally:
    """Per (path, kind, after an edit): wall and CPU times; and any answer that differed."""

    def __init__(self) -> None:
        self.times: dict[tuple[str, str, bool], list[tuple[float, float]]] = {}
        self.differences: list[str] = []

    def add(self, path: str, kind: str, fresh: bool, wall: float, cpu: float) -> None:
        self.times.setdefault((path, kind, fresh), []).append((wall, cpu))

    def check(self, path: str, kind: str, got: str, expected: str) -> None:
        if comparable(kind, got) != comparable(kind, expected):
            self.differences.append(f"{path} {kind}")


class Warm:
    """The two warm paths under test: one MCP session (the SDK's stdio client) and one
    in-process `Workspace`, and which kinds of call have not run since the last edit."""

    def __init__(self, session: Any, root: Path) -> None:
        from project_corpus import Workspace

        self.session, self.pid = session, server_pid()
        self.space = Workspace(root, warm=True)
        self.unseen = {"mcp": set(KINDS), "api": set(KINDS)}

    async def mcp(self, tool: str, arguments: dict[str, Any]) -> tuple[float, float, str]:
        before, start = cpu_of(self.pid), time.perf_counter()
        result = await self.session.call_tool(tool, arguments)
        wall, cpu = time.perf_counter() - start, cpu_of(self.pid) - before
        return wall, cpu, str(result.content[0].text)

    def api(self, kind: str, arguments: dict[str, Any]) -> tuple[float, float, str]:
        from project_corpus.core.jsonio import pretty

        start, before = time.perf_counter(), time.process_time()
        if kind == "doctor":
            answer = self.space.doctor()
        else:
            answer = getattr(self.space, kind)(arguments["query"], fresh=True)
        text = pretty(answer)
        return time.perf_counter() - start, time.process_time() - before, text

    def after_edit(self, path: str, kind: str) -> bool:
        """Whether this is the first call of KIND on PATH since the last edit."""
        first = kind in self.unseen[path]
        self.unseen[path].discard(kind)
        return first


async def one_round(warm: Warm, root: Path, env: dict[str, str], n: int, tally: Tally) -> None:
    """Round N: each kind once on the CLI, over MCP and on the API object (order rotated)."""
    for kind in KINDS[n % 3 :] + KINDS[: n % 3]:
        argv, tool, arguments = call_args(kind, n)
        wall, cpu, expected = run_cli(cli(*(a.replace("{root}", str(root)) for a in argv)), env)
        if n:  # the first round is the sessions' cold start
            tally.add("cli", kind, False, wall, cpu)
        for path in ("mcp", "api"):
            if path == "mcp":
                wall, cpu, text = await warm.mcp(tool, arguments)
            else:
                wall, cpu, text = warm.api(kind, arguments)
            fresh = warm.after_edit(path, kind)
            if n:
                tally.add(path, kind, fresh, wall, cpu)
            tally.check(path, kind, text, expected)


async def rounds(args: argparse.Namespace, root: Path, env: dict[str, str], tally: Tally) -> Any:
    """The timed rounds, then the long session; the server's peak RSS (MB)."""
    from mcp import ClientSession
    from mcp import StdioServerParameters
    from mcp import stdio_client

    grant = Path(env["XDG_CONFIG_HOME"], "project-corpus", "trust", "bench-corpus.toml")
    allow = ["--allow", "mcp.stdio", "--allow", "corpus.context"]
    mcp = ["-m", "project_corpus", "mcp", "--trust", str(grant), *allow]
    params = StdioServerParameters(command=sys.executable, args=mcp, env=env)
    build = cli("context", "build", str(root))
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            warm, edits = Warm(s, root), 0
            for n in range(args.rounds):
                await one_round(warm, root, env, n, tally)
                if (n + 1) % args.edit_every == 0:
                    edit(root, edits)
                    subprocess.run(build, check=True, env=env, **QUIET)  # for the CLI's query
                    edits, warm.unseen = edits + 1, {"mcp": set(KINDS), "api": set(KINDS)}
            for n in range(args.long_calls):
                _, tool, arguments = call_args(KINDS[n % 3], n)
                await s.call_tool(tool, arguments)
                if n % 10 == 9:
                    edit(root, edits)
                    edits += 1
            return peak_rss_mb(warm.pid)


def api_child(root: str, calls: int) -> None:
    """--api-child: CALLS calls on one Workspace with an edit every 10; print the peak RSS
    (VmHWM: `ru_maxrss` would count the parent's RSS, inherited across exec)."""
    from project_corpus import Workspace

    space = Workspace(root, warm=True)
    for n in range(calls):
        kind, query = KINDS[n % 3], QUERIES[n % len(QUERIES)]
        if kind == "doctor":
            space.doctor()
        else:
            getattr(space, kind)(query, fresh=True)
        if n % 10 == 9:
            edit(Path(root), n // 10)
    print(json.dumps({"calls": calls, "peak_rss_mb": round(peak_rss_mb(os.getpid()), 1)}))


# --- the report ------------------------------------------------------------------------------


def summary(tally: Tally) -> list[dict[str, object]]:
    rows = []
    cli_wall = {k: statistics.median(w for w, _ in tally.times[("cli", k, False)]) for k in KINDS}
    cli_cpu = {k: statistics.median(c for _, c in tally.times[("cli", k, False)]) for k in KINDS}
    for (path, kind, fresh), times in sorted(tally.times.items()):
        wall = statistics.median(w for w, _ in times)
        cpu = (
            statistics.fmean(c for _, c in times)
            if path == "mcp"
            else statistics.median(c for _, c in times)
        )
        rows.append(
            {
                "path": path,
                "kind": kind,
                "after_edit": fresh,
                "calls": len(times),
                "wall_ms": round(wall * 1000, 1),
                "cpu_ms": round(cpu * 1000, 1),
                "wall_ratio": None if path == "cli" else round(wall / cli_wall[kind], 3),
                "cpu_ratio": None if path == "cli" else round(cpu / cli_cpu[kind], 3),
                "target": None if path == "cli" else TARGETS[kind],
            }
        )
    return rows


def render(rows: list[dict[str, object]], extra: dict[str, object]) -> str:
    head = (
        f"{'path':5} {'kind':7} {'after edit':10} {'calls':>5} {'wall ms':>8} {'cpu ms':>8} "
        f"{'wall ×':>7} {'cpu ×':>7} {'target':>6}"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        ratio = "" if row["wall_ratio"] is None else f"{row['wall_ratio']:.3f}"
        cpu = "" if row["cpu_ratio"] is None else f"{row['cpu_ratio']:.3f}"
        target = "" if row["target"] is None else f"≤ {row['target']}"
        after = "yes" if row["after_edit"] else "no"
        lines.append(
            f"{row['path']:5} {row['kind']:7} {after:10} {row['calls']:>5} "
            f"{row['wall_ms']:>8} {row['cpu_ms']:>8} {ratio:>7} {cpu:>7} {target:>6}"
        )
    lines.extend(f"{key}: {value}" for key, value in extra.items())
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, help="a project root to copy (default: generate one)"
    )
    parser.add_argument("--sources", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--edit-every", type=int, default=3)
    parser.add_argument("--long-calls", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--api-child", nargs=2, metavar=("ROOT", "CALLS"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    import anyio

    args = parse_args(argv)
    if args.api_child:
        api_child(args.api_child[0], int(args.api_child[1]))
        return 0
    with tempfile.TemporaryDirectory(prefix="warm-bench-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "HOME": str(work / "home"), "XDG_CONFIG_HOME": str(work / "config")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ.update(HOME=env["HOME"], XDG_CONFIG_HOME=env["XDG_CONFIG_HOME"])
        root = prepare(args, work, env)
        tally = Tally()
        server_peak = anyio.run(rounds, args, root, env, tally)
        child = [sys.executable, __file__, "--api-child", str(root), str(args.long_calls)]
        api_peak = json.loads(
            subprocess.run(child, check=True, capture_output=True, env=env).stdout
        )
    extra = {
        "rounds": args.rounds,
        "long_calls": args.long_calls,
        "mcp_server_peak_rss_mb": round(server_peak, 1),
        "api_peak_rss_mb": api_peak["peak_rss_mb"],
        "rss_target_mb": RSS_TARGET_MB,
        "answers_equal_to_cli": not tally.differences,
    }
    rows = summary(tally)
    print(json.dumps({"rows": rows, **extra}, indent=2) if args.json else render(rows, extra))
    if tally.differences:
        print("differences: " + ", ".join(tally.differences), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
