"""Every regular expression in the package runs in linear time on hostile input (SPEC §13).

One committed line must not hang a hook: each pattern is fed adversarial inputs built from
its own characters (long runs of the characters it repeats, almost-matches that fail at the
end) at 100 KB and 200 KB; a linear scan takes about twice as long on the larger input, a
quadratic one four times. A cheap pre-check at 4 KB and 8 KB fails a quadratic pattern in
milliseconds instead of minutes. No absolute time limit: only the ratio is asserted.

`test_every_pattern_has_adversarial_coverage` finds every `re.*(...)` call in the package
by AST, so a new pattern without an entry in `PATTERNS` fails the suite.
"""

from __future__ import annotations

import ast
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.adapters.cli import lint_commands
from project_corpus.adapters.lsp import diagnostics as lsp_diagnostics
from project_corpus.adapters.lsp import fixes as lsp_fixes
from project_corpus.adapters.mcp_server import grant_file
from project_corpus.core import records as models
from project_corpus.core import timeparse
from project_corpus.corpus import markdown
from project_corpus.corpus import policy
from project_corpus.corpus import protocol
from project_corpus.corpus import references
from project_corpus.corpus import supersession
from project_corpus.doctor import _gitignore as gitignore
from project_corpus.doctor import _inputs as inputs
from project_corpus.doctor import _suppress as suppress
from project_corpus.doctor import _volatile as volatile
from project_corpus.doctor import baseline
from project_corpus.doctor import content
from project_corpus.doctor import integrity
from project_corpus.doctor import mistakes
from project_corpus.importer import artifacts as import_artifacts
from project_corpus.importer import canon as import_canon
from project_corpus.importer import dates as import_dates
from project_corpus.importer import folders as import_folders
from project_corpus.importer import layouts as import_layouts
from project_corpus.importer import names as import_names
from project_corpus.importer import naming as import_naming
from project_corpus.importer import render as import_render
from project_corpus.importer import sections as import_sections
from project_corpus.importer import shapes as import_shapes
from project_corpus.importer import siblings as import_siblings
from project_corpus.importer import standing as import_standing
from project_corpus.output import escape
from project_corpus.output import sarif
from project_corpus.retrieval import markers
from project_corpus.retrieval import rank
from project_corpus.retrieval import text
from project_corpus.retrieval import vocabulary
from project_corpus.review import git as review_git

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "project_corpus"
Make = Callable[[int], str]
Run = Callable[[str], object]


def run_of(pattern: re.Pattern[str]) -> Run:
    """Every match of PATTERN from every position (the worst of search, match and sub)."""
    return lambda s: [m.span() for m in pattern.finditer(s)]


def repeat(unit: str, tail: str = "\x00", head: str = "") -> Make:
    """HEAD + UNIT repeated to about N characters + TAIL (a near miss that fails late)."""
    return lambda n: head + unit * max(1, n // len(unit)) + tail


def _pattern(pattern: re.Pattern[str] | None) -> re.Pattern[str]:
    assert pattern is not None
    return pattern


SPACES = repeat(" ", "x")
# Attacks shared by every pattern: long runs of blanks, word characters, digits, hashes,
# dashes and pipes that fail on their last character.
COMMON = (SPACES, repeat("a"), repeat("-| ", "x"))


def attacks(*specific: Make) -> tuple[Make, ...]:
    return (*COMMON, *specific)


def _placeholders(text: str) -> object:
    """Every placeholder pattern of the shipped templates, from every position of TEXT."""
    table = mistakes.placeholders()
    return [m.span() for kind in table.values() for ps in kind.values() for p in ps for m in p.finditer(text)]  # fmt: skip


def _volatile_terms() -> Run:
    matcher = volatile.compile_terms(volatile.effective_terms({}))
    assert matcher is not None
    return run_of(matcher.regex)


def _gitignore(glob: str) -> Run:
    pattern = gitignore.compile_line(glob)
    assert pattern is not None
    # A Python automaton over names of at most 255 bytes: smaller inputs keep the test fast.
    return lambda s: gitignore.matches(pattern, s[: len(s) // 20])


# "module.NAME" (a module-level pattern) or "module.function()" (a pattern built or used
# inside a function) -> [(what runs the pattern on a text, adversarial inputs)].
PATTERNS: dict[str, list[tuple[Run, tuple[Make, ...]]]] = {
    "corpus.references.PATH_RE": [
        (
            run_of(references.PATH_RE),
            attacks(repeat(".project-corpus/tasks/"), repeat("x", " ", ".project-corpus/reports/")),
        )
    ],
    "corpus.references.inline_link_re()": [
        (
            run_of(references.inline_link_re()),
            attacks(
                repeat(" ", "x", "](a"),
                repeat(" ", "x", "](a "),
                repeat("a", "", '](a "'),
                repeat("](", ""),
                repeat("](a (", ""),
                repeat(" ", "x", "]( "),
            ),
        )
    ],
    "corpus.references.LINK_MARK_RE": [
        (
            run_of(references.LINK_MARK_RE),
            attacks(repeat("]"), repeat("](:", ""), repeat("]]", "(")),
        )
    ],
    "corpus.references.link_definition_re()": [
        (
            run_of(references.link_definition_re()),
            attacks(repeat("[a", "", "["), repeat("[a]:\n"), repeat(" \t", "", "[a]:")),
        )
    ],
    "corpus.references.scheme_re()": [(run_of(references.scheme_re()), attacks(repeat("a+.-")))],
    "corpus.references.ID_TOKEN_RE": [(run_of(references.ID_TOKEN_RE), attacks(repeat("a._-")))],
    "corpus.references.EVIDENCE_ID_RE": [
        (
            run_of(references.EVIDENCE_ID_RE),
            attacks(
                repeat(" ", "x", "- abc-1"),
                repeat(" ", "x", "- "),
                repeat(" ", "x", "- **abc-1**"),
                repeat(" ", "x -", "abc-1"),
            ),
        )
    ],
    "corpus.references.BACKTICK_ID_RE": [
        (run_of(references.BACKTICK_ID_RE), attacks(repeat("`abc"), repeat("`a-", "")))
    ],
    "corpus.references.ID_MARK_RE": [(run_of(references.ID_MARK_RE), attacks(repeat("-._0")))],
    "corpus.markdown.META_RE": [
        (run_of(markdown.META_RE), attacks(repeat("A-"), repeat("A-", ":"), repeat(":")))
    ],
    "corpus.markdown.HEADING_RE": [
        (
            run_of(markdown.HEADING_RE),
            attacks(repeat(" ", "#x#", "## a"), repeat("# "), repeat("#", " x")),
        ),
    ],
    "corpus.markdown.FENCE_RE": [(run_of(markdown.FENCE_RE), attacks(repeat("`"), repeat("~")))],
    "corpus.markdown.LIST_RE": [(run_of(markdown.LIST_RE), attacks(repeat("1."), repeat("- ")))],
    "corpus.markdown.COMMENT_RE": [
        (
            run_of(markdown.COMMENT_RE),
            attacks(repeat("-->", "x", "<!--"), repeat(" ", "x", "<!-- -->"), repeat("<!--")),
        )
    ],
    "corpus.markdown._OTHER_RE": [(run_of(markdown._OTHER_RE), attacks())],
    "corpus.markdown._FENCE_START_RE": [(run_of(markdown._FENCE_START_RE), attacks(repeat("`~")))],
    "corpus.markdown._HASH_RE": [(run_of(markdown._HASH_RE), attacks())],
    "corpus.markdown._COMMENT_START_RE": [
        (run_of(markdown._COMMENT_START_RE), attacks(repeat("<")))
    ],
    "corpus.markdown._LIST_START_RE": [(run_of(markdown._LIST_START_RE), attacks(repeat("l")))],
    "corpus.markdown._BLOCK_RE": [
        (run_of(markdown._BLOCK_RE), attacks(repeat("p"), repeat("li"), repeat("Fc"), repeat("lp")))
    ],
    "corpus.policy.ID_RE": [(run_of(policy.ID_RE), attacks(repeat("a.-_", "!")))],
    "corpus.policy.CAPABILITY_RE": [(run_of(policy.CAPABILITY_RE), attacks(repeat("a._-", "!")))],
    "corpus.policy._toml_error_line()": [
        (
            policy._toml_error_line,
            attacks(repeat("(at line 1, column 1)", "x"), repeat("1", ", column 1)x", "(at line ")),
        )
    ],
    "corpus.policy.BARE_KEY_RE": [(run_of(policy.BARE_KEY_RE), attacks(repeat("a_-", "!")))],
    "corpus.policy.BARE_KEY_LINE_RE": [
        (
            policy._bare_key_lines,
            attacks(
                repeat(" ", "x", "[ scopes"),
                repeat("a", " ]x", "["),
                repeat("a-_", " x"),
                repeat(" ", "=", "read"),
            ),
        )
    ],
    "corpus.policy._key_pattern()": [
        (run_of(policy._key_pattern("a b")), attacks(repeat(" ", "x", "[ a b"))),
        (run_of(policy._key_pattern("a.b")), attacks(repeat(" ", "x", "a.b"))),
    ],
    "corpus.policy.in_scope()": [  # fnmatch translates scopes into regular expressions
        (lambda s: policy.in_scope(s, ("*a*a*a*a*a*a*a*a*b",)), attacks(repeat("a"))),
        (lambda s: policy.in_scope(s, (".project-corpus/**",)), attacks(repeat("a/"))),
    ],
    "corpus.protocol.ABSOLUTE_ROOT_RE": [
        (
            run_of(protocol.ABSOLUTE_ROOT_RE),
            attacks(repeat(" ", "x", "project-root"), repeat(" ", "x", "project-root:")),
        )
    ],
    "corpus.supersession.SUPERSEDES_RE": [
        (run_of(supersession.SUPERSEDES_RE), attacks(repeat(" \t", "x", "Supersedes:")))
    ],
    "doctor.content.WORD_RE": [(run_of(content.WORD_RE), attacks())],
    "doctor.content.TABLE_DELIMITER_RE": [
        (
            run_of(content.TABLE_DELIMITER_RE),
            attacks(
                repeat(" ", "x", "|-"),
                repeat("-", " x"),
                repeat(" |-", "x"),
                repeat(":-: |", "x"),
                repeat(" ", "x", "| --- |"),
            ),
        )
    ],
    "output.docs._entry()": [
        (lambda s: re.sub(r"^## ", "#### ", s, flags=re.M), attacks(repeat("## \n")))
    ],
    "doctor._inputs.token_re()": [
        (
            run_of(inputs.token_re()),
            attacks(
                repeat('\\"', "", '"'),
                repeat('"\\"', ""),
                repeat('"a', ""),
                repeat("a", '"'),
                repeat('{"a":[', ""),
            ),
        ),
        (inputs.pointer_lines, attacks(repeat('{"a":', "1", ""), repeat('\\"', '"', '"'))),
    ],
    "doctor._inputs.NEWLINE_RE": [(run_of(inputs.NEWLINE_RE), attacks(repeat("\n")))],
    "doctor._suppress.mention_re()": [
        (run_of(suppress.mention_re()), attacks(repeat(" ", "x", "<!--"), repeat("<!-- ")))
    ],
    "doctor.mistakes.SEPARATORS_RE": [
        (run_of(mistakes.SEPARATORS_RE), attacks(repeat(" -"), repeat("\t- ")))
    ],
    "doctor.mistakes.HEADING_RE": [
        (
            mistakes.HEADING_RE.fullmatch,
            attacks(repeat("#", "\n", "## "), repeat(" ", "\n", "## ")),
        )
    ],
    "doctor.mistakes.VARIABLE_RE": [
        (run_of(mistakes.VARIABLE_RE), attacks(repeat("$"), repeat("${a"), repeat("$a_")))
    ],
    "doctor.mistakes.line_pattern()": [
        (
            _placeholders,
            attacks(
                repeat("The outcome task a-b", "."),
                repeat("The outcome task ", "x must produce"),
                repeat("What the evidence of ", "x"),
                repeat("ab", " does not show", "What the evidence of "),
            ),
        )
    ],
    "doctor.integrity.DATED_NAME_RE": [
        (run_of(integrity.DATED_NAME_RE), attacks(repeat("2026-01-0"), repeat("0")))
    ],
    "doctor.integrity.DATE_PREFIX_RE": [
        (run_of(integrity.DATE_PREFIX_RE), attacks(repeat("2026-01-")))
    ],
    "doctor._suppress._globs()": [  # lint.yaml `ignore` globs, translated by fnmatch
        (_pattern(suppress._globs(["*a*a*a*a*a*a*a*a*b", "x*"])).match, attacks(repeat("a"))),
        (_pattern(suppress._globs(["**/*.md", "*/x/*"])).match, attacks(repeat("a/"))),
    ],
    "doctor._suppress.directive_re()": [
        (
            run_of(suppress.directive_re()),
            attacks(
                repeat("A,", "x", "<!-- project-corpus: disable "),
                repeat(" ", "x", "<!-- project-corpus: disable A -->"),
                repeat(" , A", "x", "<!-- project-corpus: disable A"),
                repeat("A_0", " -- x", "<!-- project-corpus: disable "),
            ),
        )
    ],
    "doctor._volatile.DATE_RE": [
        (run_of(volatile.DATE_RE), attacks(repeat("1"), repeat("1234-12-1"), repeat("1234-")))
    ],
    "doctor._volatile.date_label_re()": [
        (
            run_of(volatile.date_label_re()),
            attacks(
                repeat(" ", "x", "verified"),
                repeat(" ", "x", "verified :"),
                repeat(" ", "x", "as"),
                repeat("verified ", "x"),
                repeat("0", "x", "as of 2026-01-01T00:00:00."),
            ),
        )
    ],
    "doctor._volatile.compile_terms()": [
        (_volatile_terms(), attacks(repeat(" ", "x", "right"), repeat("текущ"), repeat("at the ")))
    ],
    "output.escape.UNSAFE_RE": [
        (run_of(escape.UNSAFE_RE), attacks(repeat("\x1b"))),
        (escape.markdown_cell, attacks(repeat("[](www."), repeat("\x1b|"))),
        (lambda s: escape.terminal(s, multiline=True), attacks(repeat("\n\x07\t"))),
    ],
    "output.escape.WWW_RE": [(run_of(escape.WWW_RE), attacks(repeat("w"), repeat("ww.")))],
    "doctor.baseline.CODE_RE": [(run_of(baseline.CODE_RE), attacks(repeat("A_", "a")))],
    "doctor.baseline.POSITION_RE": [
        (
            run_of(baseline.POSITION_RE),
            attacks(repeat(": line 1"), repeat(": line 1 column 1 (char 1")),
        )
    ],
    "doctor.baseline.UNSAFE_PATH_RE": [(run_of(baseline.UNSAFE_PATH_RE), attacks(repeat("a/")))],
    "output.escape.REFERENCE_RE": [
        (run_of(escape.REFERENCE_RE), attacks(repeat("@#1"), repeat("GH-"), repeat("&#")))
    ],
    "doctor.baseline.FINGERPRINT_RE": [
        (run_of(baseline.FINGERPRINT_RE), attacks(repeat("0f", "g")))
    ],
    "review.git.COMMIT_RE": [(run_of(review_git.COMMIT_RE), attacks(repeat("0f", "g")))],
    "review.git.REVISION_RE": [
        (
            run_of(review_git.REVISION_RE),
            attacks(repeat("a/", " "), repeat("^{", "\n"), repeat("@~")),
        )
    ],
    "output.sarif.HEADING_RE": [(run_of(sarif.HEADING_RE), attacks(repeat("#", " x\n")))],
    "adapters.lsp.diagnostics.TOKEN_RE": [
        (run_of(lsp_diagnostics.TOKEN_RE), attacks(repeat("a`"), repeat("x(")))
    ],
    "adapters.lsp.diagnostics.QUOTED_RE": [
        (run_of(lsp_diagnostics.QUOTED_RE), attacks(repeat("'a"), repeat("'")))
    ],
    "adapters.lsp.diagnostics.LEAD_RE": [(run_of(lsp_diagnostics.LEAD_RE), attacks(repeat(" \t")))],
    "adapters.lsp.fixes.MISSING_RE": [
        (run_of(lsp_fixes.MISSING_RE), attacks(repeat("x", "\n", "missing ")))
    ],
    "retrieval.markers._MARKUP_RE": [
        (
            run_of(markers._MARKUP_RE),
            attacks(repeat("\n"), repeat(" >"), repeat("\n> "), repeat("`", "x"), repeat("[!a")),
        )
    ],
    "retrieval.rank._INT_RE": [(run_of(rank._INT_RE), attacks(repeat("0"), repeat("0", "1x")))],
    "retrieval.prefixscan.prefix_pattern()": [
        (
            lambda s: [m.span() for m in re.finditer(r"ab(?<![^\W_]ab)[^\W_]*", s)],
            attacks(repeat("ab"), repeat("xab"), repeat("_ab")),
        )
    ],
    "retrieval.text.TOKEN_RE": [
        (run_of(text.TOKEN_RE), attacks(repeat("a_"), repeat("1."), repeat("a.1")))
    ],
    "retrieval.text._VERSION_V_RE": [
        (run_of(text._VERSION_V_RE), attacks(repeat("v1"), repeat("v1."), repeat("vv")))
    ],
    **{
        f"retrieval.vocabulary.{name}": [
            (run_of(getattr(vocabulary, name)), attacks(repeat("why so "), repeat("how to ")))
        ]
        for name in (
            "WHY_ASKS_RE",
            "WHY_ANSWERS_RE",
            "HOW_ASKS_RE",
            "HOW_ANSWERS_RE",
            "CHANGE_ASKS_RE",
            "CHANGE_ANSWERS_RE",
            "DECISION_SECTION_RE",
            "QUANTITY_ASKS_RE",
            "QUANTITY_ANSWERS_RE",
            "NOW_WORDS_RE",
        )
    },
    "retrieval.vocabulary.LABEL_RE": [
        (
            lambda s: vocabulary.LABEL_RE.match(s),
            attacks(repeat("* "), repeat("**"), repeat("- "), repeat("1. "), repeat("a ")),
        )
    ],
    "retrieval.vocabulary.STATUS_ASKS_RE": [
        (
            run_of(vocabulary.STATUS_ASKS_RE),
            attacks(
                repeat("where does "), repeat("where is stan"), repeat("right "), repeat("на ")
            ),
        )
    ],
    "retrieval.text.CYRILLIC_RE": [(run_of(text.CYRILLIC_RE), attacks(repeat("я")))],
    "retrieval.text.LATIN_RE": [(run_of(text.LATIN_RE), attacks())],
    "adapters.cli.lint_commands.with_root()": [
        (
            lambda s: lint_commands.with_root(s, "mem"),
            attacks(repeat("`project-corpus ROOT"), repeat("`project-corpus ROOTROOT` ")),
        )
    ],
    "scaffold.create.default_project_id()": [
        (lambda s: re.sub(r"[^a-z0-9._-]+", "-", s), attacks(repeat(" !"), repeat("a-")))
    ],
    "core.timeparse._DATETIME_RE": [
        (run_of(timeparse._DATETIME_RE), attacks(repeat("0", "Z", "2026-01-01T00:00:00.")))
    ],
    "core.timeparse._DATE_RE": [(run_of(timeparse._DATE_RE), attacks(repeat("2026-01-01")))],
    "core.timeparse.STRICT_UTC_RE": [(run_of(timeparse.STRICT_UTC_RE), attacks(repeat("0-")))],
    "core.records.SHA256_RE": [(run_of(models.SHA256_RE), attacks(repeat("0a")))],
    "adapters.mcp_server.grant_file._IDENTITY_RE": [
        (run_of(grant_file._IDENTITY_RE), attacks(repeat("0:")))
    ],
    "importer.folders._DATED_TAIL_RE": [
        (run_of(import_folders._DATED_TAIL_RE), attacks(repeat("-2024-01-0"), repeat("2")))
    ],
    "importer.naming._HASHLIKE_RE": [(run_of(import_naming._HASHLIKE_RE), attacks(repeat("a")))],
    "importer.naming._LANGUAGE_RE": [
        (run_of(import_naming._LANGUAGE_RE), attacks(repeat(".ru-"), repeat(".zh-cn")))
    ],
    "importer.naming._TAIL_RE": [
        (run_of(import_naming._TAIL_RE), attacks(repeat("v1"), repeat("a0")))
    ],
    "importer.naming._fixture_folder()": [
        (import_naming._fixture_folder, attacks(repeat("-_."), repeat("a-")))
    ],
    "importer.naming._words()": [(import_naming._words, attacks(repeat("a- _."), repeat("-")))],
    "importer.shapes._RECORD_DATE_RE": [
        (run_of(import_shapes._RECORD_DATE_RE), attacks(repeat("Date: 2024-"), repeat(" ")))
    ],
    "importer.shapes._STATUS_LINE_RE": [
        (
            run_of(import_shapes._STATUS_LINE_RE),
            attacks(repeat("> **Status"), repeat("status*_ "), repeat("> *Статус:* ")),
        )
    ],
    "importer.shapes._TRACKING_KEY_RE": [
        (
            run_of(import_shapes._TRACKING_KEY_RE),
            attacks(repeat("priority \t"), repeat("owner\nlane "), repeat("due")),
        )
    ],
    "importer.siblings._RECORD_RE": [
        (
            run_of(import_siblings._RECORD_RE),
            attacks(repeat("A-1"), repeat("0"), repeat("2024-01-")),
        )
    ],
    "importer.siblings._record_role()": [
        (import_siblings._record_role, attacks(repeat("2024-01-0"), repeat("1")))
    ],
    "importer.standing.CHECK_RE": [
        (run_of(import_standing.CHECK_RE), attacks(repeat(" ", "x", "- "), repeat("1", "x")))
    ],
    "importer.standing.LABEL_RE": [
        (run_of(import_standing.LABEL_RE), attacks(repeat(" >*_#-", "x"), repeat("status", "")))
    ],
    "importer.standing.LINK_RE": [
        (run_of(import_standing.LINK_RE), attacks(repeat("](", "x"), repeat("](a", " ")))
    ],
    "importer.standing.WORD_RE": [(run_of(import_standing.WORD_RE), attacks(repeat("я1")))],
    "importer.dates.SLASH_RE": [
        (run_of(import_dates.SLASH_RE), attacks(repeat("1/"), repeat("12/12/", "1")))
    ],
    "importer.dates.MONTH_DAY_RE": [
        (
            run_of(import_dates.MONTH_DAY_RE),
            attacks(repeat(" ", "x", "June 1,"), repeat("June 1 "), repeat("мая. ")),
        )
    ],
    "importer.dates.DAY_MONTH_RE": [
        (
            run_of(import_dates.DAY_MONTH_RE),
            attacks(repeat(" ", "x", "1st"), repeat("1 мая "), repeat("1 "), repeat("1st ")),
        )
    ],
    "importer.artifacts.ITEM_RE": [
        (run_of(import_artifacts.ITEM_RE), attacks(repeat(" ", "x", "- "), repeat("1")))
    ],
    "importer.artifacts.TIMESTAMP_KEYS": [
        (run_of(import_artifacts.TIMESTAMP_KEYS), attacks(repeat("Date")))
    ],
    "importer.artifacts.VERSION_RE": [
        (
            run_of(import_artifacts.VERSION_RE),
            attacks(repeat("1.", "x"), repeat("-1.1", "."), repeat("v1.1-a.", "")),
        )
    ],
    "importer.canon.OPEN_ITEM_RE": [
        (run_of(import_canon.OPEN_ITEM_RE), attacks(repeat(" ", "x", "- [ ]"), repeat("1")))
    ],
    "importer.dates.DATE_LINE_RE": [
        (run_of(import_dates.DATE_LINE_RE), attacks(repeat(" *_>-", "x"), repeat("date", "")))
    ],
    "importer.folders._NUMBER_RE": [
        (run_of(import_folders._NUMBER_RE), attacks(repeat("1-"), repeat("1", "-_.")))
    ],
    "importer.folders._CAMEL_RE": [(run_of(import_folders._CAMEL_RE), attacks(repeat("aB")))],
    "importer.folders._SPLIT_RE": [
        (run_of(import_folders._SPLIT_RE), attacks(repeat("-_. "), repeat("a-")))
    ],
    "importer.folders._DATED_NAME_RE": [
        (run_of(import_folders._DATED_NAME_RE), attacks(repeat("2025-01-"), repeat("2")))
    ],
    "importer.shapes._QUICK_HEADING_RE": [
        (
            run_of(import_shapes._QUICK_HEADING_RE),
            attacks(
                repeat(" ", "x", "# "), repeat(" \t", "x\n", "## "), repeat("#"), repeat("\n# ")
            ),
        )
    ],
    "importer.dates.DATE_RE": [(run_of(import_dates.DATE_RE), attacks(repeat("2025-01-0")))],
    "importer.dates.RU_DATE_RE": [(run_of(import_dates.RU_DATE_RE), attacks(repeat("01.01.")))],
    "importer.layouts._CAMEL_RE": [(run_of(import_layouts._CAMEL_RE), attacks(repeat("aB")))],
    "importer.names._NOT_ID_RE": [(run_of(import_names._NOT_ID_RE), attacks(repeat("!a")))],
    "importer.render.ADDED_META_RE": [
        (run_of(import_render.ADDED_META_RE), attacks(repeat("a-", ": "), repeat("A: ", "")))
    ],
    "importer.render.HASHES_RE": [(run_of(import_render.HASHES_RE), attacks(repeat("#")))],
    "importer.sections.FM_TITLE_RE": [
        (run_of(import_sections.FM_TITLE_RE), attacks(repeat(" ", "x", "title: a")))
    ],
    "importer.sections.HEADING_RE": [
        (
            run_of(import_sections.HEADING_RE),
            attacks(repeat(" ", "x", "# a"), repeat(" ", "\t", "#"), repeat("#")),
        )
    ],
    "importer.sections._NOT_WORD_RE": [
        (run_of(import_sections._NOT_WORD_RE), attacks(repeat("!a")))
    ],
    "importer.sections._NUMBERING_RE": [
        (
            run_of(import_sections._NUMBERING_RE),
            attacks(repeat("1"), repeat("i"), repeat("1.", "x")),
        )
    ],
    "importer.sections._SPACES_RE": [(run_of(import_sections._SPACES_RE), attacks())],
    "doctor._gitignore.matches()": [  # globs are matched by an automaton, not a regex
        (_gitignore("*a*a*a*a*a*a*a*a*b"), attacks(repeat("a"))),
        (_gitignore("**/x/**/y/**/z"), attacks(repeat("x/y/"))),
    ],
}


def _best(run: Run, text: str, number: int, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(number):
            run(text)
        best = min(best, time.process_time() - start)
    return best


def ratio(run: Run, make: Make, size: int) -> float:
    """CPU time on a 2*SIZE input over that on a SIZE input (each repeated to >= 1 ms)."""
    small, large = make(size), make(2 * size)
    number = 1
    while _best(run, small, number, rounds=1) < 0.001 and number < 1 << 16:
        number *= 4
    return _best(run, large, number) / max(_best(run, small, number), 1e-9)


CASES = [
    pytest.param(run, make, id=f"{key}-{n}-{m}")
    for key, entries in PATTERNS.items()
    for n, (run, makes) in enumerate(entries)
    for m, make in enumerate(makes)
]


@pytest.mark.parametrize(("run", "make"), CASES)
def test_each_pattern_is_linear_on_adversarial_input(run: Run, make: Make) -> None:
    # Linear is ~2x; quadratic ~4x. A failure is measured twice more: a shared machine has
    # noisy neighbours, but a quadratic pattern fails every time.
    for size in (4_000, 100_000):
        measured = ratio(run, make, size)
        if measured >= 3.0:
            measured = min(measured, ratio(run, make, size), ratio(run, make, size))
        assert measured < 3.0, f"{measured:.2f}x from {size} to {2 * size} characters"


def _pattern_sites() -> set[str]:
    """`module.NAME` / `module.function()` of every `re.<function>(...)` call in the package."""
    sites = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, name in _definitions(tree.body):
            if any(_is_re_call(call) for call in ast.walk(node)):
                sites.add(f"{module}.{name}")
    return sites


def _definitions(body: list[ast.stmt], prefix: str = "") -> list[tuple[ast.stmt, str]]:
    """(statement, site name) of each top-level statement; methods as `Class.method()`."""
    found: list[tuple[ast.stmt, str]] = []
    for node in body:
        if isinstance(node, ast.ClassDef):
            found += _definitions(node.body, f"{prefix}{node.name}.")
        else:
            found.append((node, prefix + _site_name(node)))
    return found


def _is_re_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "re"
        and node.func.attr != "escape"
    )


def _site_name(node: ast.stmt) -> str:
    if isinstance(node, ast.FunctionDef):
        return f"{node.name}()"
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return f"line {node.lineno}"


def test_every_pattern_has_adversarial_coverage() -> None:
    sites = _pattern_sites()
    missing = sorted(sites - set(PATTERNS))
    assert not missing, f"add adversarial inputs to PATTERNS for {missing}"
    assert len(sites) >= 40


def test_the_repository_has_no_stale_entries() -> None:
    sites = _pattern_sites() | {"corpus.policy.in_scope()", "doctor._gitignore.matches()"}
    assert not sorted(set(PATTERNS) - sites)
