"""The fast parser agrees with the plain line-by-line one it replaced (`reference_parser`).

`project_corpus.corpus.markdown` resolves a one-character-per-line signature with regular
expressions; any difference from the reference (metadata, headings, blocks, item spans,
non-blank count) is a bug in one of them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.corpus.markdown import parse_document
from tests.conftest import REPO
from tests.corpus import reference_parser

# Line shapes that exercise every rule: headings (with and without text, closing hashes,
# indentation, too many hashes), fences of both kinds with info strings and backticks, lists
# (bullets, numbers, too many digits, no space), tables, comments and directives, metadata,
# indented continuations, tabs, carriage returns, Unicode spaces and letters.
LINES = [
    "",
    " ",
    "\t",
    "\u00a0",
    "\u3000x",
    "# Title",
    "## Section",
    "### Deeper ##",
    "#### " + "a long heading " * 20,
    "## a ## ##",
    "## a  ###   ",
    "## #",
    "## a#",
    "## a \t#",
    "##\tTab",
    "## ",
    "#  ",
    "   #### Indented",
    "    # four spaces",
    "#",
    "##",
    "####### seven",
    "#no-space",
    "```",
    "```python",
    "``` `inline`",
    "````",
    "~~~",
    "~~~ info",
    "  ```",
    "\t```",
    "- item",
    "* star",
    "+ plus",
    "-",
    "-no-space",
    "1. one",
    "2) two",
    "1234567890. too long",
    "  - nested",
    "  continued",
    "\tcontinued by tab",
    "| a | b |",
    "|---|---|",
    "<!-- comment -->",
    "<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->",
    "<div>",
    "Key: value",
    "Project-ID: demo",
    "Supersedes: .project-corpus/reports/r.md",
    "plain text",
    "текст сейчас",
    "text\r",
    "x" * 700,
    "y" * 1300,
]


def _reference(text: str) -> tuple[object, ...]:
    lines, meta, headings, fences, blocks = reference_parser.parse_document(text)
    spans = reference_parser.item_spans(lines, blocks)
    nonblank = sum(1 for line in lines if line.strip())
    return lines, meta, headings, fences, spans, nonblank


def _fast(text: str) -> tuple[object, ...]:
    doc = parse_document(text)
    return doc.lines, doc.meta, doc.headings, doc.fences, list(doc.spans), doc.nonblank_lines


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=120), st.booleans())
def test_fast_parser_matches_the_reference_on_generated_markdown(
    lines: list[str], final_newline: bool
) -> None:
    text = "\n".join(lines) + ("\n" if final_newline else "")
    assert _fast(text) == _reference(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("#-*+|`~< \n\r\t1.)ab:я!>\u00a0")), max_size=300))
def test_fast_parser_matches_the_reference_on_arbitrary_text(text: str) -> None:
    assert _fast(text) == _reference(text)


def test_fast_parser_matches_the_reference_on_every_fixture() -> None:
    paths = sorted((REPO / "fixtures").rglob("*.md"))
    assert len(paths) > 50
    for path in paths:
        text = path.read_bytes().decode("utf-8", "replace")
        assert _fast(text) == _reference(text), path


def test_long_code_blocks_of_blank_lines_make_no_empty_items() -> None:
    doc = parse_document("```\n" + "x\n" * 39 + "\n" * 40 + "```\n")
    assert [(s[1], s[2]) for s in doc.spans] == [(1, 40), (81, 81)]
    assert all(text for *_, text in doc.spans)


@pytest.mark.slow
def test_fast_parser_matches_the_reference_on_the_benchmark_corpus(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "generate.py"), str(out), "--sources", "300"],
        check=True,
        capture_output=True,
    )
    paths = sorted(out.rglob("*.md"))
    assert len(paths) >= 300
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert _fast(text) == _reference(text), path
