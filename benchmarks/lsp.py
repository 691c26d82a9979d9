"""The language server after an edit against a cold `context doctor` (docs/performance.md,
"The language server").

    python benchmarks/lsp.py [--corpus DIR] [--rounds 15] [--edits 1000]

On a copy of the maximum corpus (generated unless --corpus names one), `project-corpus lsp` is
started over stdio with pygls' LanguageClient, and one report is opened. Each round runs a
one-shot `context doctor ROOT` and makes one unsaved edit of the open report (sent as
`didChange`), in an order rotated per round; an edit is timed from the notification sent to the
`publishDiagnostics` of that version received. Each edit's text is the file's plus one new
line, so the corpus stays within its limits however many edits are made. The table gives
medians after the first round: wall time, CPU time (the CLI process's; the server's from
/proc, 10 ms ticks, so a mean) and the ratio to the CLI's median (target ≤ 0.25). Then the
session goes on for --edits edits, each awaited, and reports the server's resident memory
after the first tenth and at the end, and its peak (VmHWM). Finally the edited text is saved
and the CLI's findings for that report are compared with the last diagnostics (line, column,
code): the exit status is 1 when they differ. A report, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
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

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from warm import cli
from warm import cpu_of
from warm import peak_rss_mb
from warm import run_cli

HERE = Path(__file__).resolve().parent
TARGET = 0.25
RSS_TARGET_MB = 150.0
EXTRA = "An unsaved line of the language-server benchmark, edit {n}, currently.\n"


class Editor:
    """One open document of a client session, and the diagnostics received per version."""

    def __init__(self, client: LanguageClient, path: Path) -> None:
        self.client, self.uri = client, path.as_uri()
        self.base = self.text = path.read_text(encoding="utf-8")
        self.version = 0
        self.got: dict[int, list[types.Diagnostic]] = {}
        self.arrived = asyncio.Event()

    def receive(self, params: types.PublishDiagnosticsParams) -> None:
        if params.uri == self.uri and params.version is not None:
            self.got[params.version] = list(params.diagnostics)
            self.arrived.set()

    async def settled(self) -> list[types.Diagnostic]:
        while self.version not in self.got:
            self.arrived.clear()
            await self.arrived.wait()
        return self.got.pop(self.version)

    def open(self) -> None:
        self.version = 1
        item = types.TextDocumentItem(
            uri=self.uri, language_id="markdown", version=1, text=self.text
        )
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(item))

    async def edit(self, n: int) -> float:
        """Seconds from an edit sent to its diagnostics received."""
        self.text = self.base + EXTRA.format(n=n)  # one line more than on disk, each time new
        self.version += 1
        start = time.perf_counter()
        document = types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version)
        whole = types.TextDocumentContentChangeWholeDocument(text=self.text)
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(document, [whole]))
        await self.settled()
        return time.perf_counter() - start


def prepare(args: argparse.Namespace, work: Path) -> Path:
    root = work / "corpus"
    if args.corpus:
        shutil.copytree(args.corpus, root, symlinks=True)
    else:
        gen = [sys.executable, str(HERE / "generate.py"), str(root)]
        subprocess.run(gen, check=True, stdout=subprocess.DEVNULL)
    return root


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / 1e6
    return 0.0


async def rounds(args: argparse.Namespace, root: Path, editor: Editor, pid: int) -> dict[str, Any]:
    doctor = cli("context", "doctor", str(root), "--format", "json")
    cold: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    for n in range(args.rounds):
        for step in ("cli", "lsp") if n % 2 == 0 else ("lsp", "cli"):
            if step == "cli":
                wall, cpu, _ = run_cli(doctor, dict(os.environ))
                cold.append((wall, cpu))
            else:
                before = cpu_of(pid)
                wall = await editor.edit(n)
                warm.append((wall, cpu_of(pid) - before))
    return {"cold": cold[1:], "warm": warm[1:]}


async def long_run(args: argparse.Namespace, editor: Editor, pid: int) -> dict[str, float]:
    early = 0.0
    for n in range(args.edits):
        await editor.edit(args.rounds + n)
        if n + 1 == max(1, args.edits // 10):
            early = rss_mb(pid)
    return {"early": early, "end": rss_mb(pid), "peak": peak_rss_mb(pid)}


async def agree(root: Path, editor: Editor, path: Path) -> bool:
    """Whether the CLI's findings of the saved text equal the last diagnostics."""
    await editor.edit(-1)
    editor.version += 1  # the same text again, to receive its diagnostics after the save
    path.write_text(editor.text, encoding="utf-8")
    document = types.VersionedTextDocumentIdentifier(uri=editor.uri, version=editor.version)
    whole = types.TextDocumentContentChangeWholeDocument(text=editor.text)
    editor.client.text_document_did_change(types.DidChangeTextDocumentParams(document, [whole]))
    shown = await editor.settled()
    _, _, out = run_cli(cli("context", "doctor", str(root), "--format", "json"), dict(os.environ))
    rel = path.relative_to(root).as_posix()
    entries = [e for e in json.loads(out)["issues"] if e["path"] == rel and not e["suppressed"]]
    expected = sorted((int(e["line"]) - 1, e["code"]) for e in entries)
    got = sorted((d.range.start.line, str(d.code)) for d in shown)
    starts = {(d.range.start.line, str(d.code), d.range.start.character) for d in shown}
    columns = {
        (int(e["line"]) - 1, e["code"], int(e["column"]) - 1) for e in entries if "column" in e
    }
    return got == expected and columns <= starts


async def session(args: argparse.Namespace, root: Path) -> tuple[dict[str, Any], bool]:
    client = LanguageClient("project-corpus-benchmark", "1")
    path = sorted((root / ".project-corpus" / "reports").glob("*.md"))[0]
    editor = Editor(client, path)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        editor.receive(params)

    await client.start_io(sys.executable, "-m", "project_corpus", "lsp")
    folder = types.WorkspaceFolder(uri=root.as_uri(), name="corpus")
    params = types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=root.as_uri(), workspace_folders=[folder]
    )
    await client.initialize_async(params)
    client.initialized(types.InitializedParams())
    assert client._server is not None
    pid = client._server.pid
    try:
        editor.open()
        await editor.settled()
        figures = await rounds(args, root, editor, pid)
        figures["memory"] = await long_run(args, editor, pid)
        same = await agree(root, editor, path)
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    return figures, same


def show(figures: dict[str, Any], args: argparse.Namespace) -> None:
    cold_wall = statistics.median(w for w, _ in figures["cold"])
    cold_cpu = statistics.median(c for _, c in figures["cold"])
    warm_wall = statistics.median(w for w, _ in figures["warm"])
    warm_cpu = statistics.mean(c for _, c in figures["warm"])
    print(f"rounds: {args.rounds} (medians after the first; server CPU a mean of 10 ms ticks)")
    print("| call | wall | CPU | wall × | CPU × | target |")
    print("|---|---|---|---|---|---|")
    cold = f"{cold_wall * 1e3:.0f} ms | {cold_cpu * 1e3:.0f} ms"
    print(f"| cold `context doctor` | {cold} | 1 | 1 | – |")
    print(
        f"| diagnostics after an edit | {warm_wall * 1e3:.0f} ms | {warm_cpu * 1e3:.0f} ms "
        f"| {warm_wall / cold_wall:.2f} | {warm_cpu / cold_cpu:.2f} | ≤ {TARGET} |"
    )
    memory = figures["memory"]
    print(
        f"server RSS over {args.edits} edits: {memory['early']:.1f} MB after the first tenth, "
        f"{memory['end']:.1f} MB at the end, peak {memory['peak']:.1f} MB (≤ {RSS_TARGET_MB:.0f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="a corpus to copy (default: generate one)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--edits", type=int, default=1000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        root = prepare(args, Path(work))
        figures, same = asyncio.run(session(args, root))
    show(figures, args)
    print("diagnostics equal the CLI's findings:", "yes" if same else "NO")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
