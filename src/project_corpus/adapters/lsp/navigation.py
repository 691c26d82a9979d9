"""References between corpus documents as links, definitions and hovers (docs/editors.md).

A document's links are its references as `corpus.references` finds them (portable paths,
relative Markdown links, bare Report-IDs in STATUS Evidence References, a Report's `Task-ID`),
plus STATUS `Active-Task-ID` and every `Supersedes:` line, each kept only when it resolves to
a scoped source of the snapshot: nothing else is ever pointed at (no file outside the corpus,
no link or special file, nothing out of scope). Positions are characters, 1-based columns.
"""

from __future__ import annotations

from typing import NamedTuple

from project_corpus.core.records import Corpus
from project_corpus.core.records import Document
from project_corpus.core.records import Source
from project_corpus.corpus import references
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.layout import task_path
from project_corpus.corpus.markdown import fenced_line_numbers
from project_corpus.corpus.supersession import SUPERSEDES_RE

STATE_KEYS = ("Task-Status", "Result", "Lifecycle-Status")


class Link(NamedTuple):
    """A reference on line LINE from COLUMN (1-based, characters), LENGTH characters long,
    to the scoped source at portable path TARGET."""

    line: int
    column: int
    length: int
    target: str


def links(path: str, doc: Document, corpus: Corpus) -> list[Link]:
    """Every reference of DOC (at PATH) that resolves to a scoped source, in position order."""
    table = references.targets((s.path, s.doc) for s in corpus.sources)
    found = [
        Link(ref.line, ref.column, len(ref.text), ref.target)
        for ref in references.references(path, doc, table)
        if ref.column > 0
    ]
    found += _active_task(path, doc, table) + _supersedes(doc)
    return sorted({link for link in found if link.target in corpus.by_path})


def _active_task(path: str, doc: Document, table: references.Targets) -> list[Link]:
    entry = next((m for m in doc.meta if m.key == "Active-Task-ID"), None)
    if path != STATUS_PATH or entry is None:
        return []
    found = table.tasks.get(entry.value)
    target = found[0] if found else task_path(entry.value)
    column = doc.lines[entry.line - 1].find(entry.value, len("Active-Task-ID:")) + 1
    return [Link(entry.line, column, len(entry.value), target)] if column > 0 else []


def _supersedes(doc: Document) -> list[Link]:
    found = []
    fenced: set[int] | None = None
    for number, text in enumerate(doc.lines, start=1):
        match = SUPERSEDES_RE.match(text) if text.startswith("Supersedes:") else None
        if match and match.group(1):
            fenced = fenced_line_numbers(doc) if fenced is None else fenced
            if number not in fenced:
                value = match.group(1)
                found.append(Link(number, match.start(1) + 1, len(value), value))
    return found


def at(found: list[Link], line: int, column: int) -> Link | None:
    """The link covering the 1-based LINE and COLUMN (the character under the cursor)."""
    for link in found:
        if link.line == line and link.column <= column <= link.column + link.length:
            return link
    return None


def title(source: Source) -> str:
    """The target's H1 title (its path when it has none)."""
    first = next((h for h in source.doc.headings if h.level == 1), None)
    return first.title if first is not None else source.path


def hover(source: Source) -> str:
    """Markdown for a person: the target's title, path, state and class."""
    state = [f"{m.key}: {m.value}" for m in source.doc.meta if m.key in STATE_KEYS]
    facts = [*state, f"{source.authority_class}, {source.temporal_status}"]
    return f"**{title(source)}**\n\n`{source.path}`\n\n" + " · ".join(facts)
