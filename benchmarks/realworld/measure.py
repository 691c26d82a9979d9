"""Retrieval on the real-world dataset (docs/retrieval.md): per corpus, how often the first
result spans the answer line (top-1 line), one of the first three does (top-3 line), the first
result is the answer's source (top-1 source), and the answer is in a 300-token bundle.

    python benchmarks/realworld/measure.py [--held-out] [--misses] [NAME ...]

Held-out corpora (`held_out = true` in their manifest) are measured only with `--held-out`:
they are never looked at while tuning. Same library calls as `context query`/`bundle`.
`--misses` prints, after the table, each question whose first result is not the answer
line: the answer, the first three results and where the answer ranks in the first 20.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from project_corpus.core.records import Item
from project_corpus.corpus.snapshot import collect
from project_corpus.retrieval.bundle import compile_bundle
from project_corpus.retrieval.order import Result
from project_corpus.retrieval.rank import search

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures" / "realworld"
MANIFESTS = REPO / "benchmarks" / "realworld" / "corpora"
FIGURES = ("top-1 line", "top-3 line", "top-1 source", "answer in 300-token bundle")


def held_out(name: str) -> bool:
    manifest = tomllib.loads((MANIFESTS / name / "manifest.toml").read_text(encoding="utf-8"))
    return bool(manifest.get("held_out", False))


def _spans(item: Item, path: str, lines: list[int]) -> bool:
    return item.source_path == path and item.line_start <= lines[1] and item.line_end >= lines[0]


def measure(name: str, misses: list[str] | None = None) -> tuple[int, list[int]]:
    """(questions, [top-1 line, top-3 line, top-1 source, in bundle]) of corpus NAME; with
    MISSES, a description of each question whose first result is not the answer line is
    appended to it."""
    folder = FIXTURES / name
    questions = json.loads((folder / "questions.json").read_text(encoding="utf-8"))["questions"]
    corpus = collect(folder)
    counts = [0, 0, 0, 0]
    for case in questions:
        path, lines = case["answer"]["path"], case["answer"]["lines"]
        results = search(corpus, case["query"], 20)
        bundle = compile_bundle(corpus, case["query"], max_tokens=300)
        text = "\n".join(str(item["text"]) for item in bundle["items"])  # type: ignore[attr-defined]
        hits = (
            bool(results) and _spans(results[0].item, path, lines),
            any(_spans(r.item, path, lines) for r in results[:3]),
            bool(results) and results[0].item.source_path == path,
            case["must_contain"] in text,
        )
        counts = [c + int(h) for c, h in zip(counts, hits, strict=True)]
        if misses is not None and not hits[0]:
            misses.append(_miss(name, case, results))
    return len(questions), counts


def _miss(name: str, case: dict[str, Any], results: list[Result]) -> str:
    """One miss: the question, its answer line and the first three results."""
    path, lines = case["answer"]["path"], case["answer"]["lines"]
    rank = next((n for n, r in enumerate(results, 1) if _spans(r.item, path, lines)), None)
    out = [
        f"### `{name}`: {case['query']} (answer {'rank ' + str(rank) if rank else 'not in 20'})",
        f"    want {path}:{lines[0]}-{lines[1]}  {case['must_contain']!r}",
    ]
    for r in results[:3]:
        item = r.item
        text = " ".join(item.text.split())[:110]
        out.append(f"    {r.score:>5} {item.source_path}:{item.line_start}  {text}")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("-")] or sorted(
        p.name for p in FIXTURES.iterdir() if (p / "questions.json").exists()
    )
    names = [n for n in names if "--held-out" in argv or not held_out(n)]
    total, sums = 0, [0, 0, 0, 0]
    misses: list[str] | None = [] if "--misses" in argv else None
    print("| corpus | questions | " + " | ".join(FIGURES) + " |")
    print("|---|---|" + "---|" * len(FIGURES))
    for name in names:
        count, counts = measure(name, misses)
        total, sums = total + count, [s + c for s, c in zip(sums, counts, strict=True)]
        mark = " (held out)" if held_out(name) else ""
        print(f"| `{name}`{mark} | {count} | " + " | ".join(map(str, counts)) + " |")
    shares = " | ".join(f"{s / max(1, total):.0%}" for s in sums)
    print(f"| all | {total} | {shares} |")
    print("| sum | {} | {} |".format(total, " | ".join(map(str, sums))))
    for miss in misses or []:
        print("\n" + miss)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
