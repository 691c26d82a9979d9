"""R3-9 and R3-10 of #26: one escape set, applied to every human-readable output.

The set is C0, DEL, C1, the line and paragraph separators, the bidirectional controls and
marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and the zero-width characters
(U+200B–U+200D, U+FEFF). Text, github and SARIF `message.text` from the doctor, and the
`init`/`new` reports (which printed ROOT raw), carry none of them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from project_corpus.output.escape import UNSAFE_RE
from project_corpus.output.escape import terminal
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.hostile.support import assert_stable

SET = (
    [chr(c) for c in range(0x20)]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + ["\u2028", "\u2029", "\u200e", "\u200f", "\u061c", "\ufeff"]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + [chr(c) for c in range(0x200B, 0x200E)]
)
ALL = "".join(SET)


def raw(text: str) -> list[str]:
    """The characters of the set that TEXT holds raw (a newline between lines is allowed)."""
    return sorted({char for char in text.replace("\n", "") if char in ALL})


@pytest.mark.parametrize("char", SET, ids=[f"U+{ord(c):04X}" for c in SET])
def test_each_character_of_the_set_is_escaped(char: str) -> None:
    assert UNSAFE_RE.search(char)
    shown = terminal(f"a{char}b")
    assert char not in shown
    named = {"\n": "\\n", "\t": "\\t"}
    code = ord(char)
    visible = named.get(char, f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    assert shown == f"a{visible}b"


def test_ordinary_letters_are_not_escaped() -> None:
    text = "Ёлка, Straße, 東京, a\u00a0b, emoji \U0001f600, ‘quotes’ — dashes"
    assert terminal(text) == text


HOSTILE = "\x1b]0;PWNED\x07\u200bzero\u200dwidth\u200emark\u061c\ufeff\u202eevil\u2066"


def test_doctor_text_github_and_sarif_messages_escape_the_set(
    cli: object, make_corpus: MakeCorpus
) -> None:
    """A link whose %-escaped target decodes to ESC, BEL and CSI (U+009B), and corpus text
    with bidi marks and zero-width characters, reach no output raw."""
    link = "[x](../reports/a%1B%5D0%3Bt%07%C2%9B2J%E2%80%8B%E2%80%8F.md)"
    body = f"{link}\n\nIt is currently {HOSTILE} slow.\n"
    root = make_corpus({".project-corpus/history/h.md": f"# H {HOSTILE}\n\n{body}"})
    for fmt in ("text", "github", "sarif"):
        run: Run = cli("context", "doctor", root, "--format", fmt)  # type: ignore[operator]
        assert_stable(run, None, (0,))
        if fmt == "sarif":
            messages = [r["message"]["text"] for r in json.loads(run.out)["runs"][0]["results"]]
            assert any("\\x1b" in m and "\\x9b" in m for m in messages), messages
            assert all(raw(m) == [] for m in messages), messages
        else:
            assert raw(run.out) == [], fmt
            assert "\\u200b" in run.out


@pytest.mark.parametrize("command", ["init", "new"])
def test_scaffold_reports_print_root_escaped(
    cli: object, make_corpus: MakeCorpus, tmp_path: Path, command: str
) -> None:
    """R3-9: OSC/CSI sequences, BEL and U+202E in ROOT reached the terminal, and a newline
    printed a line `::error::INJECT`."""
    name = "c\x1b]0;t\x07\x1b[2J\u202e\u200b\n::error::INJECT"
    if command == "init":
        argv: tuple[object, ...] = ("init", tmp_path / name, "--project-id", "demo")
    else:
        root = make_corpus(name=name)
        argv = ("new", "task", "t-2", root)
    run: Run = cli(*argv, "--format", "text")  # type: ignore[operator]
    assert run.code == 0, run.err
    assert raw(run.out) == []
    assert not any(line.startswith("::") for line in run.out.splitlines())
    assert "\\x1b]0;t\\x07" in run.out
