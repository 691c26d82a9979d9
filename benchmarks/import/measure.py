"""Measure `project-corpus import` on raw repositories (docs/import.md, "Measured").

    python benchmarks/import/measure.py [--repos DIR] [--json] [NAME ...]

For each folder `DIR/<name>/` (default `benchmarks/import/repos/`: the owners' files at their
repository-relative paths, plus `expected.toml` with `memory_files = [...]`, the memory files a
person would name, and `SOURCE.toml`), the repository is copied to a temporary folder (links
kept as links; `expected.toml` and `SOURCE.toml` left behind), `project-corpus import` runs
with no options, then `context doctor`. Reported per repository:

- `exit`: import's exit code;
- `fail`: doctor's FAIL count (`-` when import failed);
- `verbatim`: the share of prose lines in the written documents that are lines of the
  repository's files byte for byte. Prose is every non-blank line but the structure import
  adds: the title H1, the metadata lines before the first `## `, Protocol `## ` headings and
  the line `NONE`;
- `picked`: the share of `memory_files` that import turned into at least one document
  (recall);
- `precision`: the share of the files import used that are in `memory_files` (`extra` lists
  the others).

Exit status 0 (a report, not a gate); 2 when no repository is found.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
META_RE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*:")
PROTOCOL_HEADINGS = {
    "## Objective",
    "## Invariants",
    "## Durable Scope Boundaries",
    "## Non-Goals",
    "## Current Verified Baseline",
    "## Blockers",
    "## Evidence References",
    "## Exact Next Action",
    "## Scope",
    "## Constraints",
    "## Acceptance Criteria",
    "## Summary",
    "## Evidence",
    "## Limitations",
}
LEFT_BEHIND = ("expected.toml", "SOURCE.toml")
SOURCE_FOLDERS = ("state", "tasks", "reports", "history")


def prose_lines(text: str) -> list[str]:
    """The lines of one written document that are not structure import adds: the title, the
    metadata lines right under it, Protocol headings, `NONE` and blank lines."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    start = 0
    if lines and lines[0].startswith("# "):
        start = 1
        while start < len(lines) and META_RE.match(lines[start]):
            start += 1
    return [
        line
        for line in lines[start:]
        if line.strip() and line not in PROTOCOL_HEADINGS and line != "NONE"
    ]


def source_lines(repo: Path) -> set[str]:
    found: set[str] = set()
    for path in repo.rglob("*"):
        if path.is_file() and not path.is_symlink() and ".project-corpus" not in path.parts:
            try:
                text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
            except UnicodeDecodeError:
                continue
            found.update(line.rstrip("\r") for line in text.split("\n"))
    return found


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "project_corpus", *argv]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def measure(folder: Path, scratch: Path) -> dict[str, object]:
    expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
    named = [str(p) for p in expected.get("memory_files", [])]
    repo = scratch / folder.name
    shutil.copytree(folder, repo, symlinks=True, ignore=shutil.ignore_patterns(*LEFT_BEHIND))
    sources = source_lines(repo)
    imported = run(["import", str(repo), "--format", "json"])
    row: dict[str, object] = {
        "name": folder.name,
        "exit": imported.returncode,
        "expected": len(named),
    }
    if imported.returncode != 0:
        return {
            **row,
            "fail": None,
            "verbatim": None,
            "picked": 0.0,
            "precision": None,
            "error": imported.stderr[:500],
        }
    result = json.loads(imported.stdout)
    used = {s["path"] for s in result["sources"]}
    doctor = json.loads(run(["context", "doctor", str(repo), "--format", "json"]).stdout)
    prose = [
        line
        for sub in SOURCE_FOLDERS
        for doc in sorted((repo / ".project-corpus" / sub).glob("*.md"))
        for line in prose_lines(doc.read_text(encoding="utf-8"))
    ]
    kept = sum(1 for line in prose if line in sources)
    return {
        **row,
        "fail": doctor["summary"]["FAIL"],
        "warn": doctor["summary"]["WARN"],
        "documents": result["summary"]["documents"],
        "prose_lines": len(prose),
        "verbatim": round(100 * kept / len(prose), 2) if prose else 100.0,
        "picked": round(100 * sum(1 for p in named if p in used) / len(named), 2)
        if named
        else 100.0,
        "precision": round(100 * len(used & set(named)) / len(used), 2) if used else 100.0,
        "used": len(used),
        "missed": sorted(p for p in named if p not in used),
        "extra": sorted(used - set(named)),
    }


def table(rows: list[dict[str, object]]) -> str:
    lines = [
        "| repository | exit | FAIL | verbatim % | picked % | precision % | documents |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        fail = "-" if row["fail"] is None else row["fail"]
        lines.append(
            f"| {row['name']} | {row['exit']} | {fail} | {row['verbatim']} | {row['picked']} "
            f"| {row.get('precision', '-')} | {row.get('documents', '-')} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--repos", type=Path, default=HERE / "repos")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    folders = sorted(p.parent for p in args.repos.glob("*/expected.toml"))
    folders = [f for f in folders if not args.names or f.name in args.names]
    if not folders:
        print(f"no repository with an expected.toml under {args.repos}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(folder, Path(tmp)) for folder in folders]
    print(json.dumps(rows, indent=2, ensure_ascii=False) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
