"""Suppressions matched through an index (R3-6 of #26): a source's directives by code and
line, lint.yaml `ignore` globs compiled once per code. Both decide exactly what the plain
scans over every directive and every glob decided, and do a bounded amount of work each."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.corpus.markdown import parse_document
from project_corpus.doctor import _suppress as suppress
from project_corpus.doctor import memory_doctor
from project_corpus.doctor._config import DEFAULT
from project_corpus.doctor._config import IgnoreRule
from project_corpus.doctor._suppress import Directive
from project_corpus.doctor._suppress import Ignores
from project_corpus.doctor._suppress import parse_directives
from tests.conftest import MakeCorpus
from tests.conftest import report

CODES = ("BROKEN_REFERENCE", "ARTIFACT_SHAPE", "INVALID_TIMESTAMP")
LINES = [
    *(f"<!-- project-corpus: disable {code} -->" for code in CODES),
    *(f"<!-- project-corpus: disable-file {code} -->" for code in CODES),
    "<!-- project-corpus: disable ARTIFACT_SHAPE, INVALID_TIMESTAMP -->",
    "text",
    "- item",
    "",
    "## Section",
]


def first_covering(directives: tuple[Directive, ...], code: str, line: int) -> Directive | None:
    """The plain scan the index replaces."""
    return next((d for d in directives if code in d.codes and d.first <= line <= d.last), None)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=60))
def test_the_directive_index_finds_the_first_covering_directive(lines: list[str]) -> None:
    found = parse_directives(parse_document("# T\n\n" + "\n".join(lines) + "\n"))
    for code in (*CODES, "OTHER"):
        for line in range(len(lines) + 4):
            assert found.covering(code, line) == first_covering(found.directives, code, line)


GLOBS = ["*.md", ".project-corpus/reports/*", "*/tasks/**", "*a*", "x", "**"]
PATHS = [".project-corpus/reports/a.md", ".project-corpus/tasks/t.md", "x", "b.txt", ""]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(GLOBS), min_size=1, max_size=3),
            st.lists(st.sampled_from(CODES), max_size=2),
        ),
        max_size=5,
    )
)
def test_ignores_decide_as_every_glob_of_every_entry(
    rules: list[tuple[list[str], list[str]]],
) -> None:
    config = DEFAULT._replace(ignore=tuple(IgnoreRule(tuple(p), tuple(c)) for p, c in rules))
    ignores = Ignores(config)
    assert bool(ignores) == bool(config.ignore)
    for code in CODES:
        for path in PATHS:
            plain = any(
                (not rule.codes or code in rule.codes)
                and any(fnmatch.fnmatchcase(path, glob) for glob in rule.paths)
                for rule in config.ignore
            )
            assert ignores.covers(code, path) == plain


def test_ignore_rules_are_compiled_once_not_matched_per_finding(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every finding was matched against every glob of every entry (3,000 × 3,000: 12 s)."""
    body = "\n".join(f"- see .project-corpus/reports/missing-{n}.md" for n in range(300))
    rules = "\n".join(
        f"  - paths: [nothing-{n}/*]\n    codes: [INVALID_TIMESTAMP]" for n in range(300)
    )
    root = make_corpus(
        {
            ".project-corpus/reports/many.md": report("many", "2026-11-01", "Links.", body),
            ".project-corpus/lint.yaml": f"ignore:\n{rules}\n",
        }
    )
    calls = [0]
    for name in ("fnmatch", "fnmatchcase", "translate"):
        real = getattr(fnmatch, name)

        def counted(*args: object, _real: object = real) -> object:
            calls[0] += 1
            return _real(*args)  # type: ignore[operator]

        monkeypatch.setattr(fnmatch, name, counted)
    found = memory_doctor(Path(root))
    broken = [i for i in found["issues"] if i["code"] == "BROKEN_REFERENCE"]  # type: ignore[union-attr, index]
    assert len(broken) >= 300
    assert calls[0] <= 2 * 300  # one translation per glob; before: 300 globs × 300+ findings


def test_a_directive_index_is_made_with_the_directives(monkeypatch: pytest.MonkeyPatch) -> None:
    """16,000 directives took 12 s: each finding scanned every directive. The index answers
    from a bisection; `covering` never iterates the directives."""
    lines = [f"<!-- project-corpus: disable ARTIFACT_SHAPE -->\n- item {n}" for n in range(3000)]
    found = parse_directives(parse_document("# T\n\n" + "\n".join(lines) + "\n"))

    class Untouchable(tuple):  # type: ignore[type-arg]
        def __iter__(self) -> object:  # type: ignore[override]
            raise AssertionError("covering scanned every directive")

    indexed = found._replace(directives=Untouchable(found.directives))
    assert indexed.covering("ARTIFACT_SHAPE", 4).line == 3  # type: ignore[union-attr]
    assert indexed.covering("ARTIFACT_SHAPE", 6000) is not None
    assert indexed.covering("BROKEN_REFERENCE", 4) is None
    assert suppress.NO_DIRECTIVES.covering("ARTIFACT_SHAPE", 1) is None
