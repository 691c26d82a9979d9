"""Items that are only a marker (SPEC §5 rule 4b, docs/retrieval.md "Markers"): a callout
marker (`> [!IMPORTANT]`), a bare fence opener, a table row of placeholders. Such an item
carries no answer of its own, so it is no result: the item after it, which holds the content,
is.
"""

from __future__ import annotations

import re

from project_corpus.retrieval import text as textmod

# What a marker is made of, line by line: a quote's `>`, a callout tag, a fence with its info
# string, table pipes and rules, list bullets and emphasis. Linear: literal-led alternations.
_MARKUP_RE = re.compile(
    r"\[![a-z]+\]|^ {0,3}(?:`{3,}|~{3,})[^\n`]*$|^[ \t]*(?:>[ \t]*)+|[|*_>#`~:-]+",
    re.MULTILINE,
)
# Cells and words that hold a place for a value not written yet.
PLACEHOLDERS = frozenset(
    "tbd tba todo tbc n a na none null nil xxx yyyy mm dd hh ss x y z placeholder пусто нет".split()
)


def has_content(text: str) -> bool:
    """Whether TEXT holds a word beyond markup and placeholders (a table row of `TBD`, `-`
    and `N/A` cells, a callout tag alone, a fence opener alone hold none)."""
    rest = _MARKUP_RE.sub(" ", textmod.fold(text))
    tokens = textmod.TOKEN_RE.findall(rest)
    # A table row of placeholders holds no word of its own either.
    return bool(tokens) and not ("|" in text and all(t in PLACEHOLDERS for t in tokens))
