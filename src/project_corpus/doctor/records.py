"""What a check is, what it yields and what it reads (docs/doctor.md).

A check is a small generator function over a `DoctorView`, wrapped by `check(...)` into a
`Check` record. The decorator only builds the record: nothing registers itself. The docstring
is the check's documentation; its first line is its one-line summary, except for a code that
is also an error code: that description is written once, in `core.errors.ERRORS`, and the
docstring starts with the rest (`Check.summary`, `Check.doc`). The one
registry is the literal `CHECKS` tuple in `project_corpus.doctor.registry`.
"""

import functools
import inspect
from collections.abc import Callable
from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING
from typing import NamedTuple

from project_corpus.core.errors import ERRORS
from project_corpus.core.errors import ContextError
from project_corpus.core.records import SEVERITIES
from project_corpus.core.records import Corpus
from project_corpus.core.records import Document
from project_corpus.core.records import Finding
from project_corpus.core.records import Span
from project_corpus.doctor._config import LintConfig

if TYPE_CHECKING:
    from project_corpus.corpus.memo import SnapshotMemo
    from project_corpus.index.schema import StoredIndex

# What a check needs before it can run; a check whose need is unmet is listed in
# `checks_skipped`. "" = the scoped snapshot only; "clock" = a maximum STATUS age is set.
NEEDS = ("", "index", "stored", "bundle", "candidates", "clock")


class Issue(NamedTuple):
    """One raw finding of a check, before configuration and suppressions are applied.

    `anchor` identifies the finding without its line number (the fingerprint's input);
    `message` is one sentence for a person (derived from the check's summary when empty);
    `extra` holds additional report keys (e.g. a candidate's JSON `pointer`); `normalised`
    says that `anchor` is already `normalise`d (normalising is idempotent), so the report
    does not fold it again. `column` is the 1-based column (in characters) of the token that
    causes the finding (a volatile term, a broken link, a metadata value); 0 when the finding
    is about the line as a whole.
    """

    code: str
    path: str
    line: int
    detail: str
    anchor: str
    message: str = ""
    extra: tuple[tuple[str, str | int], ...] = ()
    normalised: bool = False
    column: int = 0


def from_finding(finding: Finding) -> Issue:
    """An engine `Finding` (conformance, links, policy) as a doctor `Issue`."""
    return Issue(
        finding.code,
        finding.path,
        max(1, finding.line),
        finding.detail,
        finding.anchor or f"{finding.code}:{finding.detail}",
        column=finding.column,
    )


class LoadedJSON(NamedTuple):
    """A JSON input file read confined to ROOT: portable path, parsed value, raw text."""

    path: str
    value: object
    text: str


class ContentScan(NamedTuple):
    """What the duplicate and volatile checks read of one source (`content.content_scan`):
    its counted items, the hash of each one's normalised text, and the claims holding a
    volatile key word with their normalised texts."""

    counted: list[Span]
    hashes: list[int]
    candidates: list[tuple[Span, str]]


class ScanMemo:
    """The content scans of the current sources, kept between doctor runs by a long-lived
    caller (`DoctorMemo`): {sha256: scan}, valid for one set of volatile terms. Owns its table."""

    def __init__(self) -> None:
        self.terms: object = None  # the volatile terms the scans were made with
        self.scans: dict[str, ContentScan] = {}

    def for_run(self, terms: object, shas: Iterable[str]) -> dict[str, ContentScan]:
        """The scans to start a run with: those of SHAS, when made with TERMS."""
        if terms != self.terms:
            self.terms, self.scans = terms, {}
        self.prune(shas)
        return self.scans

    def prune(self, shas: Iterable[str]) -> None:
        """Keep the scans of SHAS only (the current sources)."""
        current = set(shas)
        self.scans = {sha: scan for sha, scan in self.scans.items() if sha in current}


class DoctorMemo(NamedTuple):
    """What a long-lived caller (`Workspace`) keeps between doctor runs: the snapshot's memo
    (parsed documents, the last corpus) and the per-document content scans."""

    snapshot: "SnapshotMemo"
    scans: ScanMemo


class DoctorView(NamedTuple):
    """Everything the checks read, gathered once by `memory_doctor`."""

    corpus: Corpus
    config: LintConfig
    index_requested: bool
    index_rel: str  # portable path of the index file (or of cache/ when the path is unusable)
    stored: "StoredIndex | None"  # a string: the doctor imports sqlite3 only with --index
    index_error: ContextError | None
    bundle: LoadedJSON | None
    candidates: tuple[LoadedJSON, ...]
    snapshot_issues: dict[str, tuple[Issue, ...]]  # engine findings by code
    candidate_issues: dict[str, tuple[Issue, ...]]  # candidate problems by code
    scans: dict[str, ContentScan]  # each source's content, by its SHA-256 (content.py)
    gates: dict[str, bool]  # every registered code -> whether it is a conformance gate
    today: date | None = None  # the UTC date STATUS_AGE compares with (injected by tests)

    def has_project(self) -> bool:
        return bool(self.corpus.project_id)


CheckFunction = Callable[[DoctorView, "Check"], Iterable[Issue]]


class Check(NamedTuple):
    """A registered check: stable code, kebab-case name, default severity, the function.

    The code is written once, in the `check` declaration: the function gets its `Check` and
    reports through it (`issue`, `from_snapshot`), so a finding's code is the check's own.
    `gate` marks the Protocol conformance codes of docs/protocol.md: every other command refuses
    a corpus with one of them, so configuration may not turn them off, downgrade or ignore
    them, and inline directives do not suppress them.
    """

    code: str
    name: str
    severity: str
    needs: str
    gate: bool
    run: CheckFunction

    def report(self, view: DoctorView) -> Iterable[Issue]:
        """The issues of this check on VIEW."""
        return self.run(view, self)

    def issue(
        self,
        path: str,
        line: int,
        detail: str,
        anchor: str,
        *,
        message: str = "",
        extra: tuple[tuple[str, str | int], ...] = (),
        normalised: bool = False,
        column: int = 0,
    ) -> Issue:
        """An issue of this check (its code filled in)."""
        return Issue(self.code, path, line, detail, anchor, message, extra, normalised, column)

    def from_snapshot(self, view: DoctorView) -> Iterable[Issue]:
        """The engine findings of this check's code (`snapshot.collect(strict=False)`)."""
        return view.snapshot_issues.get(self.code, ())

    def from_candidates(self, view: DoctorView) -> Iterable[Issue]:
        """The candidate linter's issues of this check's code."""
        return view.candidate_issues.get(self.code, ())

    @property
    def doc(self) -> str:
        """The check's documentation: `summary`, then the rest of its docstring."""
        own = inspect.cleandoc(self.run.__doc__ or "")
        meaning = ERRORS.get(self.code)
        if meaning is None:
            return own
        return f"{meaning}\n\n{own}" if own else meaning

    @property
    def summary(self) -> str:
        """One line (the first line of `doc`): the meaning in `ERRORS` of a code that is also an
        error, written there once; else the docstring's first non-blank line."""
        meaning = ERRORS.get(self.code)
        if meaning is not None:
            return meaning
        lines = (self.run.__doc__ or "").split("\n")
        return next((line.strip() for line in lines if line.strip()), "")

    @property
    def fix(self) -> str:
        """The first paragraph of the docstring's `## Fix` section, on one line ("" when none):
        the `help:` line of the text report."""
        _, found, rest = self.doc.partition("## Fix\n")
        if not found:
            return ""
        paragraph = rest.strip().split("\n\n", 1)[0].split("\n## ", 1)[0]
        return " ".join(paragraph.split())

    @property
    def pascal_name(self) -> str:
        return "".join(part.capitalize() for part in self.name.split("-"))


def check(
    code: str, name: str, *, severity: str, needs: str = "", gate: bool = False
) -> Callable[[Callable[..., Iterable[Issue]]], Check]:
    """Wrap a check function into a `Check` record (no registration happens here). The
    function takes `(view, this)`, `this` being the `Check` it reports through; a function of
    the view alone is called with it alone."""
    if severity not in SEVERITIES or needs not in NEEDS:
        raise ValueError(f"bad check declaration for {code}")

    def wrap(function: Callable[..., Iterable[Issue]]) -> Check:
        body: CheckFunction = function
        if len(inspect.signature(function).parameters) == 1:

            @functools.wraps(function)
            def body(view: DoctorView, this: Check) -> Iterable[Issue]:
                return function(view)

        return Check(code, name, severity, needs, gate, body)

    return wrap


def value_column(doc: Document, line: int) -> int:
    """The column of the value on metadata line LINE of DOC (`Key: value`), 0 when none."""
    text = doc.lines[line - 1] if 0 < line <= len(doc.lines) else ""
    colon = text.find(":")
    if colon < 0:
        return 0
    value = len(text) - len(text[colon + 1 :].lstrip())
    return value + 1 if value < len(text) else 0


def snapshot_issues(view: DoctorView, code: str) -> Iterable[Issue]:
    """The engine findings of CODE (collected by `snapshot.collect(strict=False)`)."""
    return view.snapshot_issues.get(code, ())
