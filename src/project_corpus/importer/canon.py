"""PROJECT and STATUS from the owner's own lines (docs/import.md, "Mapping").

PROJECT takes the project brief whole (its lead and unmatched sections under Objective, the
rest by heading words), else an overview document, else the README's lead and overview
section. STATUS takes, for each of its sections, the matching sections of the first status
source that has them (active context, handoff, progress, agent rules, TODO index), else the
TODO index's first open item or the latest log entry's next steps for the Exact Next Action,
else `NONE`. Owner sections are copied whole, headings shifted below the Protocol's `## `.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from project_corpus.corpus import vocabulary as V
from project_corpus.corpus.references import evidence_id_tokens
from project_corpus.corpus.vocabulary import PROJECT_SECTIONS
from project_corpus.corpus.vocabulary import STATUS_SECTIONS
from project_corpus.importer import sections as md
from project_corpus.importer.layouts import WORDS
from project_corpus.importer.records import Block
from project_corpus.importer.records import add
from project_corpus.importer.records import copy

NONE_LINE = "NONE"
OPEN_ITEM_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[ \]\s+\S")
SECTION_LEVEL = 3  # an owner's section sits below the Protocol's `## ` heading


class Pick(NamedTuple):
    """Owner lines chosen for one Protocol section: the blocks and the files they came from."""

    blocks: list[Block]
    paths: list[str]


def section_block(path: str, section: md.Section, doc: md.Structure) -> Block:
    start, end = md.trimmed(doc.lines, section.start, section.end)
    return copy(path, start, end, max(0, SECTION_LEVEL - section.heading.level))


def lead_block(path: str, doc: md.Structure, start: int, end: int) -> Block:
    """Lines [start, end) of a lead, its headings (a `## Blockers` above the first H1 is lead)
    shifted below the Protocol's `## ` like an owner's section, so none reads as one."""
    levels = [h.level for h in doc.headings if start <= h.row < end]
    return copy(path, start, end, max(0, SECTION_LEVEL - min(levels, default=SECTION_LEVEL)))


def matching(doc: md.Structure, name: str, taken: set[tuple[int, int]]) -> list[md.Section]:
    """The sections of DOC (any level, none inside another found or TAKEN) whose title maps
    onto Protocol section NAME and that hold more than their heading."""
    found: list[md.Section] = []
    for s in md.all_sections(doc):
        if md.overlaps(s.start, s.end, taken | {(f.start, f.end) for f in found}):
            continue
        if md.matches(s.heading.title, WORDS[name]) and md.has_content(doc, s.start + 1, s.end):
            found.append(s)
    return found


def project_sections(
    path: str, doc: md.Structure, taken: set[tuple[int, int]], whole: bool
) -> dict[str, list[Block]]:
    """Blocks per PROJECT section from one file. WHOLE: the lead and every unmatched section
    go under Objective (a brief is identity through and through)."""
    picked: dict[str, list[Block]] = {name: [] for name in PROJECT_SECTIONS}
    if whole and doc.front_matter:
        picked[V.OBJECTIVE].append(copy(path, 0, doc.front_matter))
    start, end = md.lead(doc)
    start, end = md.trimmed(doc.lines, start, end)
    if start < end:
        picked[V.OBJECTIVE].append(lead_block(path, doc, start, end))
        taken.add((start, end))
    for section in md.sections(doc):
        name = next(
            (n for n in PROJECT_SECTIONS if md.matches(section.heading.title, WORDS[n])), None
        )
        if not whole and name not in (V.OBJECTIVE, V.NON_GOALS):
            continue
        taken.add((section.start, section.end))
        picked[name or V.OBJECTIVE].append(section_block(path, section, doc))
    return picked


def status_sections(
    ordered: list[tuple[str, md.Structure]], taken: dict[str, set[tuple[int, int]]]
) -> dict[str, Pick]:
    """For each STATUS section, the matching sections of the first source that has any."""
    picked: dict[str, Pick] = {}
    for name in STATUS_SECTIONS:
        for path, doc in ordered:
            found = matching(doc, name, taken.setdefault(path, set()))
            if name == V.EVIDENCE_REFERENCES:
                found = [s for s in found if not _cites_ids(doc, s)]
            if found:
                taken[path].update((s.start, s.end) for s in found)
                picked[name] = Pick([section_block(path, s, doc) for s in found], [path])
                break
    return picked


def _cites_ids(doc: md.Structure, section: md.Section) -> bool:
    """Whether a line of SECTION would read as a bare Report or Task ID under STATUS
    `## Evidence References` (a backticked `name-with-dashes` or dotted file name): the import
    writes no report by such an ID, so the doctor would find a citation of a missing report
    (CITED_REPORT_MISSING; it reads fenced lines and the heading too). Such a section stays
    in its own document only."""
    return any(evidence_id_tokens(doc.lines[i]) for i in range(section.start, section.end))


def first_open_item(path: str, doc: md.Structure) -> Pick | None:
    """The first unchecked `- [ ]` item of a TODO index, as one copied line."""
    for index in range(doc.front_matter, len(doc.lines)):
        if index not in doc.fenced and OPEN_ITEM_RE.match(doc.lines[index]):
            return Pick([copy(path, index, index + 1)], [path])
    return None


def body(blocks: list[Block]) -> list[Block]:
    """BLOCKS separated by blank lines, or the single line NONE."""
    if not blocks:
        return [add(NONE_LINE)]
    out: list[Block] = []
    for block in blocks:
        if out:
            out.append(add(""))
        out.append(block)
    return out


def document(
    title: Block, meta: list[tuple[str, str]], parts: dict[str, list[Block]]
) -> list[Block]:
    """A canonical document: the title, metadata, then each Protocol section in order."""
    blocks = [title, *(add(f"{key}: {value}") for key, value in meta)]
    for name, content in parts.items():
        blocks += [add(""), add(f"## {name}"), add(""), *body(content)]
    return blocks
