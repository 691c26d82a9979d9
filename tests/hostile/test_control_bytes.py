"""F8: no terminal control byte from corpus text or arguments reaches text, github or
Markdown output, and no link or image from a case name reaches a job summary."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from project_corpus.output.escape import UNSAFE_RE
from project_corpus.output.escape import markdown_cell
from project_corpus.output.escape import markdown_code
from project_corpus.output.escape import terminal
from tests.conftest import Run
from tests.hostile.support import assert_stable

HOSTILE = "\x1b]0;PWNED\x07\x1b[31mRED\x1b]52;c;ZXZpbA==\x07\x9b2J\u202eevil\x00"
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_a_supersedes_token_with_escapes_reaches_no_terminal(cli: object, example: Path) -> None:
    history = example / ".project-corpus/history/2026-x.md"
    history.write_text(f"# h\n\nSupersedes: /abs{HOSTILE}\n", encoding="utf-8")
    for fmt in ("text", "github"):
        run: Run = cli("context", "doctor", str(example), "--format", fmt)  # type: ignore[operator]
        assert_stable(run, None, (0, 1))
        assert "2026-x.md" in run.out
        assert not CONTROL.search(run.out), repr(run.out)
        assert "\\x1b]0;PWNED\\x07" in run.out


def test_a_newline_in_an_argument_cannot_forge_an_output_line(cli: object, example: Path) -> None:
    forged = "x\n::set-env name=PATH::/tmp/e\n\x1b[2J"
    run: Run = cli(  # type: ignore[operator]
        "context", "doctor", str(example), "--format", "text", "--config", forged
    )
    assert run.code == 2
    assert run.err.count("\n") <= 2  # the error line and its hint
    assert not any(line.startswith("::") for line in run.err.splitlines())
    assert "\x1b" not in run.err


def test_eval_markdown_neutralises_case_names(cli: object, example: Path) -> None:
    dataset = json.loads((example / "eval.json").read_text(encoding="utf-8"))
    case = dataset["cases"][0]
    dataset["cases"] = [
        {**case, "name": f"[x](javascript:alert(1)) ![i](http://evil.example/p.png) {HOSTILE}"},
        {**case, "name": "<img src=x onerror=alert(1)> www.evil.example | `code`"},
    ]
    (example / "hostile.json").write_text(json.dumps(dataset), encoding="utf-8")
    assert cli("context", "build", str(example)).code == 0  # type: ignore[operator]
    run: Run = cli(  # type: ignore[operator]
        "context", "eval", str(example), "--dataset", str(example / "hostile.json"),
        "--format", "markdown",
    )  # fmt: skip
    assert_stable(run, None, (0, 1))
    assert not CONTROL.search(run.out)
    for forbidden in ("<img", "http://", "www.evil", "\n::"):
        assert forbidden not in run.out, forbidden
    assert re.search(r"(?<!\\)[\[\]]", run.out.replace("\\\\", "")) is None
    assert "\\[x\\]" in run.out


@given(st.text())
def test_terminal_leaves_no_control_character(text: str) -> None:
    assert UNSAFE_RE.search(terminal(text)) is None
    multiline = terminal(text, multiline=True)
    assert multiline.count("\n") == text.count("\n")
    assert UNSAFE_RE.search(multiline.replace("\n", "").replace("\t", "")) is None


@given(st.text())
def test_markdown_cells_stay_one_plain_cell(text: str) -> None:
    for cell in (markdown_cell(text), markdown_code(text)):
        assert "\n" not in cell
        assert UNSAFE_RE.search(cell) is None
        assert "|" not in cell.replace("\\|", "")
    assert "<" not in markdown_cell(text)
    plain = markdown_cell(text).replace("\\\\", "")
    assert re.search(r"(?<!\\)[\[\]`]", plain) is None
    assert "://" not in markdown_cell(text)  # an autolink needs a literal "://" in the source


def test_printable_text_is_unchanged() -> None:
    for text in ("Русский текст", "a – b", "emoji 👍🏽", "tab-free"):
        assert terminal(text) == text
    assert terminal("a\tb\nc", multiline=True) == "a\tb\nc"
    assert terminal("a\nb") == "a\\nb"
