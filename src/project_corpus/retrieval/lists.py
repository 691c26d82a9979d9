"""What a list item means in its list (docs/retrieval.md, "List context"): a nested bullet is
read with its parent bullet, and the items of a list with the label line that introduces it
("**Rationale**:", "Did:", "Result:"), the way a table row is read with its header row.

Linear: one pass over a document's spans with a stack of open parents.
"""

from __future__ import annotations

from collections.abc import Iterator

from project_corpus.core.records import Document
from project_corpus.retrieval.text import TOKEN_RE

# The most words of a label that has no answer of its own ("Next hypothesis:").
SHORT_LABEL_WORDS = 8
# A paragraph that runs on into the code block below it ("… are most simply built using"):
# longer than a label, still no sentence of its own (docs/retrieval.md, "Seventh round").
OPEN_LINE_WORDS = 16
# The most of a parent's or label's text read as a child's context (a label is a line).
MAX_CONTEXT_CHARS = 300


def is_label(text: str) -> bool:
    """A line or paragraph that introduces what follows: it ends with a colon."""
    return text.rstrip().rstrip("*_ ").endswith(":")


def list_contexts(doc: Document) -> Iterator[tuple[int, int, str]]:
    """(first, last span position, context text) for each run of adjacent list items of DOC
    that share a parent bullet or the label line right above their list."""
    runs: list[tuple[int, int, str]] = []
    for at, context in _item_contexts(doc):
        if runs and runs[-1][2] == context and runs[-1][1] == at - 1:
            runs[-1] = (runs[-1][0], at, context)
        else:
            runs.append((at, at, context))
    return (run for run in runs if run[2])


def is_short_label(text: str) -> bool:
    """A label of a few words ("Next hypothesis:", "**Rationale**:"): its answer is what
    follows it, it has none of its own."""
    return is_label(text) and len(TOKEN_RE.findall(text)) <= SHORT_LABEL_WORDS


def introduces(text: str, kind: str, next_kind: str) -> bool:
    """Whether a block of KIND with TEXT is the label of the block of NEXT_KIND after it
    (rev. 4, rule 4b): a paragraph ending in a colon introduces a list; a short one a
    paragraph or a code block as well; a paragraph of at most sixteen words without a closing
    full stop ("The file should be named", "Unit tests use `utest` and are most simply built
    using") the code block right after it."""
    if kind != "paragraph":
        return False
    if next_kind == "list":
        return is_label(text)
    if next_kind == "paragraph":
        return is_short_label(text)
    if next_kind != "code" or len(text) > MAX_CONTEXT_CHARS:
        return False
    closed = text.rstrip().endswith((".", "!", "?"))  # a sentence, not a label
    return not closed and len(TOKEN_RE.findall(text)) <= OPEN_LINE_WORDS


def _item_contexts(doc: Document) -> Iterator[tuple[int, str]]:
    """(span position, context text or "") of each list item of DOC, and of a paragraph or
    code block right after a label paragraph (`introduces`)."""
    label = ""
    parents: list[tuple[int, str]] = []  # (indent, text) of the open bullets, outermost first
    lines = doc.lines
    spans = doc.spans
    for at, span in enumerate(spans):
        if span.kind != "list":  # a label holds for the list after it, blank lines or not
            if label and span.kind in ("paragraph", "code"):
                yield at, label[:MAX_CONTEXT_CHARS]
            following = spans[at + 1].kind if at + 1 < len(spans) else ""
            label = span.text if introduces(span.text, span.kind, following) else ""
            parents = []
            continue
        line = lines[span.line_start - 1]
        indent = len(line) - len(line.lstrip(" \t"))
        while parents and parents[-1][0] >= indent:
            parents.pop()
        yield at, (parents[-1][1] if parents else label)[:MAX_CONTEXT_CHARS]
        parents.append((indent, span.text))
