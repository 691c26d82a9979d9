"""Cited evidence (docs/retrieval.md): the sources STATUS's Evidence References point to.

An Evidence References line of STATUS is a pointer to a report, by portable path or Report-ID
(docs/protocol.md). When such a line matches the question, the evidence it points to is what a
person opens: the best-matching line of the cited source is ranked one point above the pointer
(reason `cited_by_evidence_reference`). Old sources are not lifted without historical intent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from project_corpus.core.records import Item
from project_corpus.core.records import Source
from project_corpus.corpus.layout import REPORTS_DIR
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.layout import inside
from project_corpus.corpus.references import EVIDENCE_SECTION
from project_corpus.corpus.references import ID_TOKEN_RE
from project_corpus.corpus.references import PATH_RE
from project_corpus.corpus.vocabulary import REPORT_ID

REPORTS_PREFIX = inside(REPORTS_DIR)
# A pointer never lifts an old source over current ones without historical intent
# (docs/retrieval.md rule 5).
OLD = ("superseded", "historical")


def report_names(sources: Sequence[Source]) -> dict[str, str]:
    """{Report-ID or file stem: path} of the reports among SOURCES (how STATUS cites them)."""
    names: dict[str, str] = {}
    for source in sorted(sources, key=lambda s: s.path, reverse=True):  # first path wins
        if source.path.startswith(REPORTS_PREFIX):
            names[source.path.rsplit("/", 1)[-1].removesuffix(".md")] = source.path
            for meta in source.doc.meta:
                if meta.key == REPORT_ID:
                    names[meta.value] = source.path
    return names


def _cited(item: Item, names: dict[str, str]) -> set[str]:
    """The source paths an Evidence References line of STATUS names."""
    paths = {match.group().rstrip(".") for match in PATH_RE.finditer(item.text)}
    for token in ID_TOKEN_RE.findall(item.text):
        path = names.get(token.rstrip("."))
        if path is not None:
            paths.add(path)
    return paths


def _is_pointer(item: Item) -> bool:
    section = item.section
    return section == EVIDENCE_SECTION or section.startswith(EVIDENCE_SECTION + " > ")


class Scored(Protocol):
    """A scored result (rank.Result)."""

    @property
    def score(self) -> int: ...

    @property
    def item(self) -> Item: ...


def _pointers(
    scored: Sequence[tuple[Scored, int]], names: dict[str, str]
) -> list[tuple[int, set[str]]]:
    """(score, cited paths) of each Evidence References line of STATUS in SCORED that cites."""
    return [
        (result.score, cited)
        for result, _ in scored
        if result.item.source_path == STATUS_PATH and _is_pointer(result.item)
        for cited in [_cited(result.item, names)]
        if cited
    ]


def cited_paths(scored: Sequence[tuple[Scored, int]], names: dict[str, str]) -> set[str]:
    """The sources the pointers among SCORED cite: `cited_lifts` reads only their lines and
    STATUS's."""
    return set().union(*(cited for _, cited in _pointers(scored, names)))


def cited_lifts(
    scored: Sequence[tuple[Scored, int]], names: dict[str, str], historical: bool
) -> dict[int, int]:
    """{position in SCORED: its new score} for the best line of each source that a matching
    Evidence References line cites: one point above the pointer, when that is higher."""
    pointers = _pointers(scored, names)
    if not pointers:
        return {}
    wanted = set().union(*(cited for _, cited in pointers))
    best: dict[str, int] = {}
    for position, (result, _) in enumerate(scored):
        path = result.item.source_path
        if path in wanted and (path not in best or result.score > scored[best[path]][0].score):
            best[path] = position
    lifts: dict[int, int] = {}
    for score, cited in pointers:
        for path in sorted(cited):
            at = best.get(path)
            if at is None:
                continue
            target = scored[at][0]
            if target.item.temporal_status in OLD and not historical:
                continue
            if score + 1 > max(target.score, lifts.get(at, 0)):
                lifts[at] = score + 1
    return lifts
