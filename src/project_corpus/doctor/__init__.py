"""Memory Doctor: a linter for a Project Corpus, its index, bundles and candidates (docs/doctor.md).

`CHECKS` (in `registry.py`) is the registry: every check, in the order of `docs/checks.md` and
of SARIF `rules[]`. Each check's docstring is its documentation. `memory_doctor` gathers a
`DoctorView` once, runs every enabled check whose inputs are present, then applies the
configuration and suppressions. It never writes and never repairs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from collections.abc import Sequence
from datetime import date

from project_corpus.core.records import Corpus
from project_corpus.corpus.required import require_corpus
from project_corpus.corpus.roots import Root
from project_corpus.corpus.roots import open_root
from project_corpus.doctor import candidates as candidate_checks
from project_corpus.doctor import hygiene
from project_corpus.doctor._config import LintConfig
from project_corpus.doctor._config import load_config
from project_corpus.doctor._config import with_max_age
from project_corpus.doctor._inputs import load_input
from project_corpus.doctor.content import scan_terms
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorMemo
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import LoadedJSON
from project_corpus.doctor.records import from_finding
from project_corpus.doctor.records import value_column
from project_corpus.doctor.registry import CHECKS
from project_corpus.doctor.registry import CHECKS_BY_CODE
from project_corpus.doctor.registry import GATES
from project_corpus.doctor.report import build_report
from project_corpus.doctor.report import candidate_count
from project_corpus.doctor.report import fail_on_level
from project_corpus.doctor.report import finalize
from project_corpus.doctor.selection import narrow

__all__ = ["CHECKS", "CHECKS_BY_CODE", "DoctorMemo", "lint_corpus", "memory_doctor"]


def memory_doctor(
    root: str | os.PathLike[str],
    *,
    index: str | None = None,
    check_index: bool = False,
    bundle: str | None = None,
    candidates: Sequence[str] = (),
    config: str | None = None,
    fail_on: str = "FAIL",
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    max_status_age: int | None = None,
    today: date | None = None,
    baseline: str | None = None,
    memo: DoctorMemo | None = None,
) -> dict[str, object]:
    """Lint ROOT's corpus; with `check_index` (or an `index` path) also its stored index,
    with `bundle` a bundle file, with `candidates` candidate files. Returns the report.
    `select` / `ignore` (codes or names) narrow the configured checks; `max_status_age`
    (days) turns STATUS_AGE on over the configuration; `today` (UTC by default) is the date
    it compares with. With `baseline` (an earlier JSON or SARIF report) only the findings it
    lacks are `issues`; the others are listed under `baseline` (docs/doctor.md).
    MEMO (a `Workspace`'s) spares re-parsing and re-scanning known bytes.

    Raises ContextError for a bad configuration (CONFIG_INVALID), a bad input file
    (CONTEXT_INPUT_PATH / CONTEXT_INPUT_JSON, BASELINE_INVALID), limits (CONTEXT_LIMIT) or a
    bad ROOT."""
    fail_on = fail_on_level(fail_on)
    root = open_root(root)
    require_corpus(root.path, root)  # CONTEXT_ROOT with the `init` hint, before any config
    lint = narrow(load_config(root.path, config, CHECKS_BY_CODE), CHECKS_BY_CODE, select, ignore)
    lint = with_max_age(lint, max_status_age)
    earlier = _read_baseline(baseline) if baseline is not None else None
    wants_index = check_index or index is not None
    view = gather(root, lint, wants_index, index, bundle, candidates, today, memo)
    issues, skipped = run_checks(view, CHECKS, lint)
    entries = judge_suppressions(issues, skipped, lint, view.corpus)
    return _report(view, entries, skipped, fail_on, earlier)


def _report(
    view: DoctorView,
    entries: list[dict[str, object]],
    skipped: Sequence[str],
    fail_on: str,
    earlier: list[dict[str, object]] | None,
) -> dict[str, object]:
    """The report of ENTRIES; with a baseline (EARLIER) only the new ones are `issues`."""
    unchanged: list[dict[str, object]] = []
    absent: list[dict[str, object]] = []
    if earlier is not None:
        from project_corpus.doctor.baseline import split

        entries, unchanged, absent = split(entries, earlier)
    report = build_report(
        view.corpus,
        entries,
        skipped=skipped,
        fail_on=fail_on,
        candidate_count=candidate_count(view.candidates),
    )
    if earlier is not None:
        report["baseline"] = {"unchanged": unchanged, "absent": absent}
    return report


def _read_baseline(path: str) -> list[dict[str, object]]:
    # Imported here: a doctor run without --baseline never loads it (nor urllib).
    from project_corpus.doctor.baseline import read_baseline

    return read_baseline(path)


def lint_corpus(
    corpus: Corpus, *, config: str | None = None, skip: Sequence[str] = ()
) -> tuple[list[dict[str, object]], list[str]]:
    """(report entries, skipped codes) of the checks that read CORPUS alone (no index,
    bundle or candidates), under the configuration of the working tree at `corpus.root` (or
    CONFIG) with the checks SKIP off: what `context review` compares between two revisions."""
    lint = load_config(corpus.root, config, CHECKS_BY_CODE)
    lint = lint._replace(rules={**lint.rules, **dict.fromkeys(skip, "off")})
    view = DoctorView(
        corpus=corpus,
        config=lint,
        index_requested=False,
        index_rel="",
        stored=None,
        index_error=None,
        bundle=None,
        candidates=(),
        snapshot_issues=_by_code(from_finding(f) for f in corpus.findings),
        candidate_issues={},
        scans={},
        gates=GATES,
    )
    issues, skipped = run_checks(view, CHECKS, lint)
    return judge_suppressions(issues, skipped, lint, corpus), skipped


def gather(
    root: Root,
    lint: LintConfig,
    wants_index: bool,
    index: str | None,
    bundle: str | None,
    candidates: Sequence[str],
    today: date | None,
    memo: DoctorMemo | None = None,
) -> DoctorView:
    """Read everything the checks need, once: inputs first (they may refuse), then the corpus
    (through MEMO's snapshot memo and content scans, when given)."""
    from project_corpus.corpus.snapshot import collect
    from project_corpus.doctor.index import open_for_doctor

    path = root.path
    stored, error, index_rel = open_for_doctor(root, index) if wants_index else (None, None, "")
    bundle_file = _load_bundle(path, bundle)
    candidate_files = tuple(load_input(path, user_path) for user_path in candidates)
    corpus = collect(root, strict=False, memo=memo.snapshot if memo else None)
    shas = (source.sha256 for source in corpus.sources)
    scans = memo.scans.for_run(scan_terms(lint), shas) if memo else {}
    return DoctorView(
        corpus=corpus,
        config=lint,
        index_requested=wants_index,
        index_rel=index_rel,
        stored=stored,
        index_error=error,
        bundle=bundle_file,
        candidates=candidate_files,
        snapshot_issues=_by_code(at_value(from_finding(f), corpus) for f in corpus.findings),
        candidate_issues=_candidate_issues(candidate_files, corpus),
        scans=scans,
        gates=GATES,
        today=today,
    )


def judge_suppressions(
    issues: Sequence[Issue], skipped: Sequence[str], lint: LintConfig, corpus: Corpus
) -> list[dict[str, object]]:
    """The report entries of ISSUES, plus UNUSED_SUPPRESSION for directives that suppressed
    none of them (known only once every other finding was matched)."""
    used: set[tuple[str, int, str]] = set()
    entries = finalize(issues, CHECKS_BY_CODE, lint, corpus, used)
    if "UNUSED_SUPPRESSION" in skipped:
        return entries
    ran = [code for code in CHECKS_BY_CODE if code not in skipped]
    unused = hygiene.unused_directives(corpus, used, ran, GATES)
    if not unused:
        return entries
    entries += finalize(unused, CHECKS_BY_CODE, lint, corpus)
    return sorted(entries, key=lambda e: (str(e["path"]), int(str(e["line"])), str(e["code"])))


# Engine findings about a metadata value: located at the value, not the line's start.
VALUE_CODES = frozenset({"INVALID_METADATA", "PROJECT_ID_MISMATCH", "PROJECT_ABSOLUTE_ROOT"})


def at_value(issue: Issue, corpus: Corpus) -> Issue:
    """ISSUE with the column of the value when it is about a metadata line's value."""
    source = corpus.by_path.get(issue.path) if issue.code in VALUE_CODES else None
    if source is None or not any(m.line == issue.line for m in source.doc.meta):
        return issue
    return issue._replace(column=value_column(source.doc, issue.line))


def _load_bundle(root: str, bundle: str | None) -> LoadedJSON | None:
    return load_input(root, bundle) if bundle is not None else None


def _by_code(issues: Iterable[Issue]) -> dict[str, tuple[Issue, ...]]:
    grouped: dict[str, list[Issue]] = {}
    for issue in issues:
        grouped.setdefault(issue.code, []).append(issue)
    return {code: tuple(found) for code, found in grouped.items()}


def _candidate_issues(files: Sequence[LoadedJSON], corpus: Corpus) -> dict[str, tuple[Issue, ...]]:
    return _by_code([i for f in files for i in candidate_checks.file_issues(f, corpus)])


def _ready(view: DoctorView, needs: str) -> bool:
    return {
        "": True,
        "index": view.index_requested,
        "stored": view.stored is not None,
        "bundle": view.bundle is not None,
        "candidates": bool(view.candidates),
        "clock": view.config.status_max_age_days is not None,
    }[needs]


def run_checks(
    view: DoctorView, checks: Sequence[Check], lint: LintConfig
) -> tuple[list[Issue], list[str]]:
    """(issues of every check that ran, codes of the checks that did not run)."""
    issues: list[Issue] = []
    skipped: list[str] = []
    for item in checks:
        if lint.rules.get(item.code) == "off" or not _ready(view, item.needs):
            skipped.append(item.code)
            continue
        issues.extend(item.report(view))
    return issues, skipped
