"""References between corpus documents, found and resolved in one place (docs/protocol.md,
docs/doctor.md).

Classification asks this module which reports STATUS and the active Task cite; the doctor
asks it which references resolve to nothing. Both read the same `Reference` records and the
same `Targets`, so "cited" and "resolves" cannot disagree. A reference is one of:

- `path`: a portable path `.project-corpus/{state,tasks,reports,history}/….md`;
- `link`: a relative Markdown link (`[text](../reports/x.md)` or a definition
  `[label]: ../reports/x.md`); the `#anchor` and `?query` are dropped,
  `%`-escapes decoded, and the target is resolved against the document's folder. A target
  written from the project root (`.project-corpus/…`) is a `path` reference already;
- `id`: a bare Report-ID leading an item of STATUS `## Evidence References`
  (`- r-2026-10-31-cutover — what it shows`), or wrapped in backticks there;
- `task`: a Report's `Task-ID:` metadata value.

A path cites its target wherever it is written, fenced code included (docs/protocol.md); the
doctor checks references outside fenced code only (code holds examples and templates).
Every function is one pass over the lines it is given (linear in the text and the number
of references); documents without `.project-corpus/` or `](` / `]:` are skipped by a
substring test.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from project_corpus.core.records import Document
from project_corpus.corpus import fs
from project_corpus.corpus.layout import CORPUS_DIR
from project_corpus.corpus.layout import REPORTS_DIR
from project_corpus.corpus.layout import SOURCE_FOLDERS
from project_corpus.corpus.layout import SOURCE_ROOTS
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.layout import TASKS_DIR
from project_corpus.corpus.layout import inside
from project_corpus.corpus.layout import report_path
from project_corpus.corpus.layout import task_path
from project_corpus.corpus.markdown import fenced_line_numbers
from project_corpus.corpus.policy import ID_RE
from project_corpus.corpus.policy import in_scope
from project_corpus.corpus.protocol import section_text
from project_corpus.corpus.vocabulary import EVIDENCE_REFERENCES
from project_corpus.corpus.vocabulary import REPORT_ID
from project_corpus.corpus.vocabulary import TASK_ID

SOURCE_PREFIXES = tuple(inside(folder) for folder in SOURCE_ROOTS)
CORPUS_PREFIX = inside(CORPUS_DIR)
PATH_RE = re.compile(
    re.escape(CORPUS_PREFIX) + f"(?:{'|'.join(SOURCE_FOLDERS)})/" + r"[^\s`'\"<>()\[\]|,;*]+"
)
# What every inline link and link definition holds: `](` or `]:`.
LINK_MARK_RE = re.compile(r"\][(:]")
ID_TOKEN_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
# An item that starts with an ID followed by the end, a separator or a parenthesis; or any
# backticked ID. An ID reference has a digit, `-`, `_` or `.`: "- none" is prose.
EVIDENCE_ID_RE = re.compile(
    r"^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(?:\*\*)?([a-z0-9][a-z0-9._-]{2,63})(?:\*\*)?"
    r"(?=\s*$|\s*[:,;(]|\s+[—–-]\s)"
)
BACKTICK_ID_RE = re.compile(r"`([a-z0-9][a-z0-9._-]{2,63})`")
ID_MARK_RE = re.compile(r"[0-9._-]")
EVIDENCE_SECTION = EVIDENCE_REFERENCES


# The link patterns are compiled on first use, by the first document that holds `](` or
# `]:`: a corpus without links never pays for them (~0.5 ms of a start, docs/performance.md).
@cache
def inline_link_re() -> re.Pattern[str]:
    return re.compile(
        r"\]\(\s*(<[^<>\n]*>|[^\s()<>]+)(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"
    )


@cache
def link_definition_re() -> re.Pattern[str]:
    return re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^<>\n]*>|\S+)", re.MULTILINE)


@cache
def scheme_re() -> re.Pattern[str]:
    return re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class Reference(NamedTuple):
    """One reference: its kind (path, link, id, task), the line that holds it, the text as
    written, and the portable path it names (for an `id` that names no document, the path
    a report of that ID would have)."""

    kind: str
    line: int
    text: str
    target: str
    column: int = 0  # 1-based column of the reference's text on its line (0: unknown)


class Targets(NamedTuple):
    """What a reference can resolve to: every scoped source path, and the reports and tasks
    by ID (their `Report-ID`/`Task-ID` value and their file stem; an ID may name several)."""

    sources: frozenset[str]
    reports: dict[str, tuple[str, ...]]
    tasks: dict[str, tuple[str, ...]]


REPORTS_PREFIX = inside(REPORTS_DIR)
TASKS_PREFIX = inside(TASKS_DIR)


def targets(documents: Iterable[tuple[str, Document]]) -> Targets:
    """The resolution table of the scoped sources (PATH, parsed document) pairs."""
    sources: set[str] = set()
    reports: dict[str, tuple[str, ...]] = {}
    tasks: dict[str, tuple[str, ...]] = {}
    for path, doc in documents:
        sources.add(path)
        if path.startswith(REPORTS_PREFIX):
            table, key = reports, REPORT_ID
        elif path.startswith(TASKS_PREFIX):
            table, key = tasks, TASK_ID
        else:
            continue
        stem = path.rsplit("/", 1)[-1][: -len(".md")]
        for name in {stem, doc.meta_value(key) or stem}:
            table[name] = (*table.get(name, ()), path)
    return Targets(frozenset(sources), reports, tasks)


def _first(table: dict[str, tuple[str, ...]], name: str) -> str | None:
    found = table.get(name)
    return found[0] if found else None


def resolves(reference: Reference, table: Targets) -> bool:
    return reference.target in table.sources


def _joined(doc: Document) -> str:
    return "\n".join(doc.lines)


def _numbered(
    text: str, matches: Iterable[re.Match[str]], group: int = 0
) -> Iterator[tuple[re.Match[str], int, int]]:
    """MATCHES (in text order) with the 1-based line and column of their GROUP (one pass
    over the text: each stretch between two matches is searched once for its newlines)."""
    line, last, bol = 1, 0, 0  # bol: where the current line begins
    for match in matches:
        start = match.start(group)
        newline = text.rfind("\n", last, start)
        if newline >= 0:
            line += text.count("\n", last, start)
            bol = newline + 1
        last = start
        yield match, line, start - bol + 1


def path_references(doc: Document, text: str | None = None) -> list[Reference]:
    """Every portable source path written anywhere in DOC (code included, as citations)."""
    text = _joined(doc) if text is None else text
    if CORPUS_PREFIX not in text:
        return []
    found = []
    for match, line, column in _numbered(text, PATH_RE.finditer(text)):
        path = match.group(0).rstrip(".:")
        if path.endswith(".md"):
            found.append(Reference("path", line, path, path, column))
    return found


def link_target(doc_path: str, raw: str) -> str | None:
    """The portable source path a relative Markdown link target names, or None when it is
    a URL, an in-page anchor, root-relative, outside the corpus folders or not Markdown."""
    target = raw[1:-1] if raw.startswith("<") and raw.endswith(">") else raw
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target or target.startswith(("/", "\\", CORPUS_PREFIX)):
        return None
    if scheme_re().match(target):
        return None
    if "%" in target:  # unquote changes nothing else; urllib.parse costs a start ~1.5 ms
        from urllib.parse import unquote

        target = unquote(target)
    if not target.endswith(".md") or "\\" in target:
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(doc_path), target))
    return joined if joined.startswith(SOURCE_PREFIXES) else None


def link_references(path: str, doc: Document, text: str | None = None) -> list[Reference]:
    """Relative Markdown links (inline and definitions) in DOC, fenced code included."""
    text = _joined(doc) if text is None else text
    if not LINK_MARK_RE.search(text):  # one scan for `](` or `]:`, not two
        return []
    matches = sorted(
        [*inline_link_re().finditer(text), *link_definition_re().finditer(text)],
        key=lambda m: m.start(),
    )
    found = []
    for match, line, column in _numbered(text, matches, group=1):
        target = link_target(path, match.group(1))
        if target is not None:
            found.append(Reference("link", line, match.group(1), target, column))
    return found


def outside_code(doc: Document, found: list[Reference]) -> list[Reference]:
    """FOUND without the references on lines of fenced code (examples, not references)."""
    if not found or not doc.fences:
        return found
    fenced = fenced_line_numbers(doc)
    return [ref for ref in found if ref.line not in fenced]


def evidence_ids(doc: Document, table: Targets) -> list[Reference]:
    """Bare IDs in STATUS `## Evidence References` (see the module docstring)."""
    found = []
    for line, text in section_text(doc, EVIDENCE_SECTION):
        for token in evidence_id_tokens(text):
            target = _first(table.reports, token) or _first(table.tasks, token)
            column = _word_column(text, token)
            target = target or report_path(token)
            found.append(Reference("id", line, token, target, column))
    return found


def evidence_id_tokens(text: str) -> list[str]:
    """The tokens of one line of STATUS `## Evidence References` that read as bare Report or
    Task IDs (a leading ID, any backticked ID), in order, each once."""
    lead = EVIDENCE_ID_RE.match(text)
    tokens = [lead.group(1)] if lead else []
    tokens += BACKTICK_ID_RE.findall(text) if "`" in text else []
    return [
        token
        for token in dict.fromkeys(t.rstrip(".") for t in tokens)
        if ID_MARK_RE.search(token) and not token.endswith(".md") and ID_RE.match(token)
    ]


def task_reference(doc: Document, table: Targets) -> list[Reference]:
    """A Report's `Task-ID:` line as a reference to the task (an invalid ID is not one)."""
    entry = doc.meta_line(TASK_ID)
    if entry is None or not ID_RE.match(entry.value):
        return []
    target = _first(table.tasks, entry.value) or task_path(entry.value)
    text = doc.lines[entry.line - 1]
    return [Reference("task", entry.line, entry.value, target, _word_column(text, entry.value))]


def _word_column(text: str, token: str) -> int:
    """The 1-based column of TOKEN in TEXT where it is a whole word (0 when it is not)."""
    position = text.find(token)
    while position >= 0:
        before = text[position - 1] if position else " "
        after = text[position + len(token) : position + len(token) + 1] or " "
        if not (before.isalnum() or before in "._-") and not (after.isalnum() or after in "_-"):
            return position + 1
        position = text.find(token, position + 1)
    return 0


def own_references(path: str, doc: Document) -> list[Reference]:
    """The paths and links DOC (at PATH) writes outside fenced code: the references that do
    not depend on the other documents (a warm caller keeps them per document)."""
    text = _joined(doc)
    return outside_code(doc, path_references(doc, text) + link_references(path, doc, text))


def references(
    path: str, doc: Document, table: Targets, own: list[Reference] | None = None
) -> list[Reference]:
    """Every reference DOC (at PATH) makes outside fenced code, in line order; OWN, when
    given, is `own_references(path, doc)` found before."""
    found = list(own_references(path, doc) if own is None else own)
    if path == STATUS_PATH:
        found += evidence_ids(doc, table)
    elif path.startswith(REPORTS_PREFIX):
        found += task_reference(doc, table)
    return sorted(found, key=lambda ref: ref.line)


def cited_paths(path: str, doc: Document, token_lines: Iterable[str], table: Targets) -> set[str]:
    """The sources DOC cites (docs/protocol.md): those its path and link references name, and the
    reports whose Report-ID or file stem appears as a token in TOKEN_LINES."""
    text = _joined(doc)
    links = outside_code(doc, link_references(path, doc, text))
    found = {
        ref.target for ref in path_references(doc, text) + links if ref.target in table.sources
    }
    for line in token_lines:
        for token in ID_TOKEN_RE.findall(line):
            found.update(table.reports.get(token.rstrip("."), ()))
    return found


def status_citations(status: Document, table: Targets) -> set[str]:
    """The sources STATUS cites: paths and links anywhere, IDs in Evidence References."""
    evidence = (text for _, text in section_text(status, EVIDENCE_SECTION))
    return cited_paths(STATUS_PATH, status, evidence, table)


def cited_reports(
    status: Document | None, active_path: str | None, active: Document | None, table: Targets
) -> set[str]:
    """Paths of the reports cited by STATUS or the active Task (docs/protocol.md)."""
    cited: set[str] = set()
    if status is not None:
        cited |= status_citations(status, table)
    if active is not None and active_path is not None:
        cited |= cited_paths(active_path, active, active.lines, table)
    return {path for path in cited if path.startswith(REPORTS_PREFIX)}


def unresolved_reason(root: str, scopes: tuple[str, ...], target: str) -> str:
    """Why TARGET is not a scoped source: a file the policy's read scope denies (nothing
    about its content is read), a file that is not a usable source, or missing."""
    parent, _, name = target.rpartition("/")
    try:
        with fs.open_dir(root, parent) as fd:
            kind = fs.entry_kind(fd, name)
    except (OSError, ValueError):
        kind = None
    if kind is None:
        return "does not exist"
    if not in_scope(target, scopes):
        return "is outside the read scope"
    return "is not a readable source (a link or not UTF-8)"
