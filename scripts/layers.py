"""Draw the stages of `src/project_corpus/` into docs/architecture.md from `LAYERS`.

    python scripts/layers.py [--check]

`LAYERS` (tests/test_structure.py) is the one table of the stages, bottom up; the structure
test holds every import to point down it. This script writes the drawing between the
`<!-- layers -->` and `<!-- /layers -->` markers of docs/architecture.md: one line per rank,
top down, each stage with the first phrase of its package docstring (a stage not yet in the
tree is marked "planned"). With `--check` it writes nothing and exits 1 when the document
differs, as `python -m project_corpus.output.docs --check` does for the generated docs.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src" / "project_corpus"
DOC = REPO / "docs" / "architecture.md"
START, END = "<!-- layers -->", "<!-- /layers -->"
sys.path.insert(0, str(REPO))

from tests.test_structure import LAYERS  # noqa: E402 (the repository root is on the path now)


def role(name: str) -> str:
    """The first phrase of stage NAME's docstring ("planned" when it does not exist yet)."""
    folder = SRC.joinpath(*name.split("."))
    path = SRC / f"{name}.py" if name.startswith("__") else folder / "__init__.py"
    if not path.exists():
        return "planned"
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return re.split(r"\s\(|[.:]\s", doc.replace("\n", " ") + " ", maxsplit=1)[0].strip()


def shown(name: str) -> str:
    return f"{name}.py" if name.startswith("__") else f"{name.replace('.', '/')}/"


def drawing() -> str:
    """The drawing: rank by rank, top down, joined by arrows that point down."""
    width = max(len(shown(name)) for names in LAYERS for name in names)
    blocks = []
    for rank in reversed(range(len(LAYERS))):
        rows = [f"{shown(name):<{width}}  {role(name)}" for name in LAYERS[rank]]
        blocks.append("\n".join(f"{rank}  {row}" for row in rows))
    return "```\n" + "\n   │\n   ▼\n".join(blocks) + "\n```"


def render(text: str) -> str:
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{drawing()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    text = DOC.read_text(encoding="utf-8")
    if START not in text or END not in text:
        sys.stderr.write(f"{DOC}: no {START} ... {END} block\n")
        return 2
    new = render(text)
    if "--check" in argv:
        if new != text:
            sys.stderr.write(f"{DOC} is out of date: run python scripts/layers.py\n")
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
