"""The escaping rules of every human-readable output: text, github and Markdown (one home).

Corpus text, file names and command-line arguments are hostile input: an ESC or BEL can set
a terminal's title, write its clipboard (OSC 52) or forge a link (OSC 8) in the terminal of
anyone who runs the hook on a hostile branch, and a raw newline can forge a line of output
(or a GitHub workflow command). `terminal` shows every such character as a visible escape
(`\\x1b`, `\\n`, `\\u202e`); `markdown_cell` and `markdown_code` also neutralise Markdown,
so a case name can carry no link, image, HTML or table break into a job summary.
"""

from __future__ import annotations

import re

# C0 controls, DEL, C1 controls, line/paragraph separators, bidirectional overrides,
# isolates and marks ("Trojan Source": U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C),
# zero-width characters that hide text or split a word (U+200B-U+200D, U+FEFF), and lone
# surrogates (undecodable bytes). The one set every human-readable output escapes (#26).
UNSAFE_RE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ufeff\ud800-\udfff]"
)
# A backslash before ASCII punctuation makes it literal (CommonMark): no link or image
# (`[`, `]`), code span, emphasis or table break; `<`, `>`, `&` become entities (no HTML).
_MARKDOWN = {
    **{char: "\\" + char for char in "\\`*[]|"},
    **{"<": "&lt;", ">": "&gt;", "&": "&amp;"},
}
# GitHub also links bare `scheme://` and `www.` text; an escape inside breaks the match.
WWW_RE = re.compile(r"(?<![0-9A-Za-z])([Ww][Ww][Ww])\.")
# A comment notifies `@user` and `@org/team`, links `name@host` as e-mail and `#12`, `GH-12`
# and `owner/repo#12` as issues: a zero-width space after the `@`, `#` or `GH-` (an entity,
# as dependency bots write it) shows the same text and matches none of them.
ZWSP = "&#8203;"
REFERENCE_RE = re.compile(r"@|(?<!&)#(?=[0-9])|(?<![0-9A-Za-z])[Gg][Hh]-(?=[0-9])")


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    if char == "\n":
        return "\\n"
    if char == "\t":
        return "\\t"
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal(text: str, *, multiline: bool = False) -> str:
    """TEXT with every control character shown as an escape (MULTILINE keeps `\\n`, `\\t`)."""
    if UNSAFE_RE.search(text) is None:
        return text
    if multiline:
        return "\n".join(
            "\t".join(UNSAFE_RE.sub(_visible, part) for part in line.split("\t"))
            for line in text.split("\n")
        )
    return UNSAFE_RE.sub(_visible, text)


def markdown_cell(text: object) -> str:
    """Plain text for one GitHub-flavoured Markdown table cell or list item (one line): no
    link, image, HTML, table break, mention or issue reference."""
    value = "".join(_MARKDOWN.get(char, char) for char in terminal(" ".join(str(text).split())))
    value = REFERENCE_RE.sub(lambda match: match.group() + ZWSP, value)
    return WWW_RE.sub(r"\1\\.", value.replace("://", ":\\/\\/"))


def markdown_code(text: object) -> str:
    """TEXT as an inline code span inside a table cell (no Markdown applies inside code)."""
    value = terminal(" ".join(str(text).split())).replace("`", "'").replace("|", "\\|")
    return f"`{value}`"
