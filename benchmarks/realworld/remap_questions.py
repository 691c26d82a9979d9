"""One-off (#33 item 7): move each question's answer from the hand conversion to the import.

    python benchmarks/realworld/remap_questions.py BASE [NAME ...]

BASE is the commit whose fixtures are the hand conversions. The question text and
`must_contain` never change; only `answer.path` and `answer.lines` move to where the same
verbatim source lines sit in the imported corpus (`convert.py` run in memory). A hand answer
block found whole (headings compared without their `#` marks, which the import may shift) is
kept as a block; otherwise the imported lines holding `must_contain` are the answer. Among
several places, the document whose sources include the hand answer's source file wins. A
question whose answer is nowhere in the imported corpus is dropped and printed. Writes
questions.json; run `convert.py` afterwards for eval.json.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import convert


def _git(base: str, rel: str) -> str:
    return subprocess.run(
        ["git", "-C", str(convert.REPO), "show", f"{base}:{rel}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _norm(line: str) -> str:
    return line.rstrip("\r").lstrip("#").strip()


def _source_files(name: str, block: list[str], needle: str) -> set[str]:
    """Raw files holding every non-blank line of the hand answer (else the needle)."""
    root = convert.CORPORA / name / "source"
    wanted = {_norm(line) for line in block if _norm(line)}
    found: set[str] = set()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        text = path.read_bytes().decode("utf-8", "replace")
        lines = {_norm(line) for line in text.split("\n")}
        if (wanted and wanted <= lines) or needle in text:
            found.add(path.relative_to(root).as_posix())
    return found


def _blocks(docs: dict[str, list[str]], block: list[str]) -> list[tuple[str, int, int]]:
    key = [_norm(line) for line in block]
    hits: list[tuple[str, int, int]] = []
    for path, lines in sorted(docs.items()):
        normed = [_norm(line) for line in lines]
        for i in range(len(lines) - len(key) + 1):
            if normed[i : i + len(key)] == key:
                hits.append((path, i + 1, i + len(key)))
    return hits


def _needles(docs: dict[str, list[str]], needle: str) -> list[tuple[str, int, int]]:
    hits: list[tuple[str, int, int]] = []
    for path, lines in sorted(docs.items()):
        for i in range(len(lines)):
            for j in range(i, min(i + 4, len(lines))):
                if needle in "\n".join(lines[i : j + 1]):
                    hits.append((path, i + 1, j + 1))
                    break
    return [h for h in hits if not any(_inside(o, h) for o in hits)]


def _inside(inner: tuple[str, int, int], outer: tuple[str, int, int]) -> bool:
    """INNER is a shorter span of the same document within OUTER."""
    same = inner != outer and inner[0] == outer[0]
    return same and inner[1] > outer[1] and inner[2] <= outer[2]


def _dump(name: str, questions: list[dict[str, object]]) -> str:
    """The layout the hand-written files use: one question in three lines."""

    def js(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    rows = [
        f'  {{"query": {js(q["query"])}, "intent": {js(q["intent"])},\n'
        f'   "answer": {js(q["answer"])},\n'
        f'   "must_contain": {js(q["must_contain"])}}}'
        for q in questions
    ]
    return f'{{"corpus": {js(name)}, "questions": [\n' + ",\n".join(rows) + "\n]}\n"


def _text(docs: dict[str, list[str]], hit: tuple[str, int, int]) -> str:
    return "\n".join(docs[hit[0]][hit[1] - 1 : hit[2]])


def _added(
    docs: dict[str, list[str]], hand: list[str], first: int, size: int
) -> list[tuple[str, int, int]]:
    start = first - 2
    while start >= 0 and not hand[start].strip():
        start -= 1
    block = hand[max(start, 0) : first - 1 + size]
    return [(p, b - size + 1, b) for p, _, b in _blocks(docs, block)]


def remap(name: str, base: str) -> list[str]:
    manifest = convert.load_manifest(name)
    files, result = convert.run(name, manifest)
    docs = {
        rel: data.decode("utf-8").split("\n")
        for rel, data in files.items()
        if rel.startswith(".project-corpus/") and rel.endswith(".md")
    }
    sources_of = {str(d["path"]): set(map(str, d["sources"])) for d in result["documents"]}  # type: ignore[union-attr]
    rel_q = f"fixtures/realworld/{name}/questions.json"
    data = json.loads(_git(base, rel_q))
    kept, notes = [], []
    for q in data["questions"]:
        hand_path, (first, last) = q["answer"]["path"], q["answer"]["lines"]
        hand = _git(base, f"fixtures/realworld/{name}/{hand_path}").split("\n")
        block = hand[first - 1 : last]
        needle = q["must_contain"]
        origin = _source_files(name, block, needle)
        if origin:
            hits = [h for h in _blocks(docs, block) if needle in _text(docs, h)]
            hits = hits or _needles(docs, needle)
        else:  # a line the conversion added (NONE): the same line under the same heading
            hits = _added(docs, hand, first, len(block))
        preferred = [h for h in hits if sources_of.get(h[0], set()) & origin]
        chosen = (preferred or hits)[:1]
        if not chosen:
            where = f"{hand_path}:{first}-{last}; source {sorted(origin)}"
            notes.append(f"{name}: DROPPED {q['query']!r} ({where})")
            continue
        path, a, b = chosen[0]
        if len(preferred or hits) > 1:
            many = len(preferred or hits)
            notes.append(f"{name}: {many} places for {q['query']!r}; took {path}:{a}-{b}")
        q["answer"] = {"path": path, "lines": [a, b]}
        kept.append(q)
    out = convert.FIXTURES / name / "questions.json"
    out.write_text(_dump(name, kept), encoding="utf-8")
    return [*notes, f"{name}: {len(kept)} of {len(data['questions'])} kept"]


def main(argv: list[str]) -> int:
    base, names = argv[0], argv[1:] or convert.corpus_names([])
    for name in names:
        for note in remap(name, base):
            print(note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
