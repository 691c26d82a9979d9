"""The verbatim invariant on generated owner files (Hypothesis): whatever Markdown an owner
writes — headings of any level in English and Russian, fences holding `#` lines, tables,
nested lists, front matter, CRLF — every planned document passes the verbatim check, PROJECT
and STATUS pass the Protocol gate, and no non-blank line that is not a heading is lost."""

from __future__ import annotations

import hashlib

from hypothesis import HealthCheck
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.importer import sections
from project_corpus.importer.plan import plan_documents
from project_corpus.importer.records import Source
from project_corpus.importer.render import check_verbatim
from project_corpus.importer.render import heading_levels
from project_corpus.importer.render import render
from project_corpus.importer.selfcheck import conformance_problem

TITLES = [
    "Next Steps",
    "Blockers",
    "Current State",
    "Overview",
    "Out of Scope",
    "Следующие шаги",
    "Блокеры",
    "Текущее состояние",
    "Решение",
    "Контекст",
    "2025-01-02 Session",
    "[1.2.0] - 2025-02-01",
    "Notes",
]
WORDS = st.sampled_from(["relay", "лампа", "timer", "Status: ok", "Date: 2025-01-01", "x" * 30])
TEXT = st.lists(WORDS, min_size=1, max_size=5).map(" ".join)


def _heading() -> st.SearchStrategy[list[str]]:
    return st.builds(lambda n, t: [f"{'#' * n} {t}"], st.integers(1, 6), st.sampled_from(TITLES))


BLOCKS = st.one_of(
    _heading(),
    TEXT.map(lambda t: [t]),
    st.lists(TEXT, min_size=1, max_size=3).map(lambda ts: ["```", *(f"# {t}" for t in ts), "```"]),
    st.just(["| a | b |", "|---|---|", "| 1 | 2 |"]),
    TEXT.map(lambda t: [f"- [ ] {t}", f"  - nested {t}", "- [x] done"]),
    st.just([""]),
)
PATHS = [
    "memory-bank/projectbrief.md",
    "memory-bank/activeContext.md",
    "memory-bank/progress.md",
    "docs/adr/0001-x.md",
    "LOG.md",
    "TODO.md",
    "CHANGELOG.md",
    "CLAUDE.md",
]


@st.composite
def owner_file(draw: st.DrawFn) -> str:
    lines: list[str] = []
    if draw(st.booleans()):
        lines += ["---", "title: Owner's", "date: 2025-03-02", "---"]
    for block in draw(st.lists(BLOCKS, min_size=1, max_size=12)):
        lines += block
    newline = "\r\n" if draw(st.booleans()) else "\n"
    return newline.join(lines) + newline


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(owner_file(), min_size=len(PATHS), max_size=len(PATHS)))
# A heading above the brief's first H1 is its lead: once copied unshifted, a `## Blockers`
# there made PROJECT hold a STATUS section (ROLE_OVERLAP).
@example(["## Blockers\n# Next Steps\n", *["# Next Steps\n"] * (len(PATHS) - 1)])
@example(["## Objective\n# Next Steps\n", *["## Overview\n# Blockers\n"] * (len(PATHS) - 1)])
def test_every_document_is_verbatim_and_nothing_but_headings_is_lost(texts: list[str]) -> None:
    sources = [
        Source(path, _role(path), sections.split(text), hashlib.sha256(text.encode()).hexdigest())
        for path, text in zip(PATHS, texts, strict=True)
    ]
    lines = {s.path: s.lines for s in sources}
    levels = {s.path: heading_levels(s.lines) for s in sources}
    covered: dict[str, set[int]] = {s.path: set() for s in sources}
    for doc in plan_documents(sources, "demo-project", "Demo", {}):
        rendered = render(doc, lines, levels)
        check_verbatim(doc.target, rendered, lines, levels)
        if doc.kind in ("project", "status"):
            assert conformance_problem(doc, rendered.text, "demo-project") is None
        for origin in rendered.origins:
            if origin is not None:
                covered[origin[0]].add(origin[1])
    for source in sources:
        heads = set(levels[source.path])
        lost = [
            i
            for i, line in enumerate(source.lines)
            if line.strip() and i not in covered[source.path] and i not in heads
        ]
        assert lost == [], (source.path, [source.lines[i] for i in lost])


def _role(path: str) -> str:
    from project_corpus.importer.layouts import role

    found = role(path)
    assert found is not None
    return found
