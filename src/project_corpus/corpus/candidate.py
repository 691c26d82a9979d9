"""Candidate v1: proposed memory awaiting an owner's review (docs/doctor.md).

`candidate_problems` collects every problem of one candidate, each with a JSON pointer and,
for a source ref, the referenced source path and line; `validate_candidate` raises the first
as a `ContextError` (the library contract); `lint_candidates` is the
`context candidate-validate` linter. Nothing is written and nothing is promoted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.core.errors import printable
from project_corpus.core.records import Corpus
from project_corpus.core.records import Source
from project_corpus.core.timeparse import is_strict_utc
from project_corpus.core.versions import CANDIDATE_SCHEMA_VERSION
from project_corpus.corpus.layout import SOURCE_ROOTS
from project_corpus.corpus.layout import inside
from project_corpus.corpus.policy import ID_RE

KEYS = (
    "schema_version",
    "candidate_id",
    "project_id",
    "kind",
    "statement",
    "source_refs",
    "created_at",
    "status",
)
REF_KEYS = ("source_path", "source_sha256", "line_start")
KINDS = (
    "semantic_fact",
    "episodic_evidence",
    "procedural_knowledge",
    "environment_gotcha",
    "premise",
    "resource_reference",
)
MAX_STATEMENT_CHARS = 4000
MAX_REFS = 32
PROMOTION = "EXPLICIT_SUPERVISOR_OR_OWNER_ACTION_REQUIRED"
ROOT_PREFIXES = tuple(inside(root) for root in SOURCE_ROOTS)
SHOWN_CHARS = 60


class Problem(NamedTuple):
    """One problem of a candidate: code, JSON pointer (relative to the candidate), detail,
    and for a source ref the referenced source path and line (when they are well typed)."""

    code: str
    pointer: str
    detail: str
    source_path: str | None = None
    source_line: int | None = None


def show(value: object) -> str:
    """A short, printable rendering of a user value for a detail (never the whole value;
    containers by their type only)."""
    if isinstance(value, dict | list):
        return _type_name(value)
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def _type_name(value: object) -> str:
    names = {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
    }
    return names.get(type(value), "null")


def _schema_version(value: object, corpus: Corpus) -> list[Problem]:
    if value != CANDIDATE_SCHEMA_VERSION or not isinstance(value, str):
        return [
            Problem(
                "CANDIDATE_SCHEMA",
                "/schema_version",
                f'must be "{CANDIDATE_SCHEMA_VERSION}", not {show(value)}',
            )
        ]
    return []


def _candidate_id(value: object, corpus: Corpus) -> list[Problem]:
    if not isinstance(value, str) or not ID_RE.match(value):
        return [
            Problem(
                "CANDIDATE_ID",
                "/candidate_id",
                f"{show(value)} does not match ^[a-z0-9][a-z0-9._-]{{2,63}}$",
            )
        ]
    return []


def _project_id(value: object, corpus: Corpus) -> list[Problem]:
    if not isinstance(value, str) or value != corpus.project_id:
        return [
            Problem(
                "CANDIDATE_PROJECT",
                "/project_id",
                f"{show(value)} is not this corpus's project {corpus.project_id!r}",
            )
        ]
    return []


def _kind(value: object, corpus: Corpus) -> list[Problem]:
    if not isinstance(value, str) or value not in KINDS:
        return [
            Problem("CANDIDATE_KIND", "/kind", f"{show(value)} is not one of {', '.join(KINDS)}")
        ]
    return []


def _statement(value: object, corpus: Corpus) -> list[Problem]:
    if not isinstance(value, str):
        detail = f"must be a string, not {_type_name(value)}"
    elif not value.strip():
        detail = "must not be blank"
    elif len(value) > MAX_STATEMENT_CHARS:
        detail = f"{len(value)} characters; at most {MAX_STATEMENT_CHARS:,}"
    else:
        return []
    return [Problem("CANDIDATE_STATEMENT", "/statement", detail)]


def _created_at(value: object, corpus: Corpus) -> list[Problem]:
    if not isinstance(value, str) or not is_strict_utc(value):
        return [
            Problem(
                "CANDIDATE_TIME",
                "/created_at",
                f"{show(value)} is not a real UTC time YYYY-MM-DDTHH:MM:SSZ",
            )
        ]
    return []


def _status(value: object, corpus: Corpus) -> list[Problem]:
    if value != "candidate" or not isinstance(value, str):
        return [Problem("CANDIDATE_SCHEMA", "/status", f'must be "candidate", not {show(value)}')]
    return []


def _source_refs(value: object, corpus: Corpus) -> list[Problem]:
    if not isinstance(value, list):
        return [
            Problem(
                "CANDIDATE_EVIDENCE",
                "/source_refs",
                f"must be an array of 1 to {MAX_REFS} source refs, not {_type_name(value)}",
            )
        ]
    if not value:
        return [
            Problem(
                "CANDIDATE_WITHOUT_EVIDENCE",
                "/source_refs",
                "no source ref: a candidate needs evidence in the corpus",
            )
        ]
    problems = []
    if len(value) > MAX_REFS:
        problems.append(
            Problem(
                "CANDIDATE_EVIDENCE",
                "/source_refs",
                f"{len(value)} source refs; at most {MAX_REFS}",
            )
        )
    for number, ref in enumerate(value):
        problems.extend(_ref_problems(corpus, f"/source_refs/{number}", ref))
    return problems


def _ref_problems(corpus: Corpus, pointer: str, ref: object) -> list[Problem]:
    if not isinstance(ref, dict):
        return [
            Problem(
                "CANDIDATE_EVIDENCE",
                pointer,
                f"a source ref must be an object, not {_type_name(ref)}",
            )
        ]
    path, line = ref.get("source_path"), ref.get("line_start")
    source_path = printable(path) if isinstance(path, str) else None
    source_line = line if isinstance(line, int) and not isinstance(line, bool) else None
    details = [f"missing key {k!r}" for k in REF_KEYS if k not in ref]
    details += [f"unknown key {show(k)}" for k in sorted(ref) if k not in REF_KEYS]
    problems = [
        Problem("CANDIDATE_EVIDENCE", pointer, d, source_path, source_line) for d in details
    ]
    found = [(f"{pointer}/{key}", detail) for key, detail in _ref_field_details(corpus, ref)]
    problems += [Problem("CANDIDATE_EVIDENCE", p, d, source_path, source_line) for p, d in found]
    return problems


def _ref_field_details(corpus: Corpus, ref: dict[str, object]) -> list[tuple[str, str]]:
    """(key, detail) for each wrong field of a ref that has that key. The hash and the
    line are compared with the source only when the path names a usable source."""
    path = ref.get("source_path")
    path_problem = _path_problem(corpus, path) if "source_path" in ref else None
    source = corpus.by_path.get(path) if isinstance(path, str) and not path_problem else None
    found = [("source_path", path_problem)]
    if "source_sha256" in ref:
        found.append(("source_sha256", _sha_problem(ref["source_sha256"], source)))
    if "line_start" in ref:
        found.append(("line_start", _line_problem(ref["line_start"], source)))
    return [(key, detail) for key, detail in found if detail]


def _sha_problem(sha: object, source: Source | None) -> str | None:
    if not isinstance(sha, str):
        return f"must be a string, not {_type_name(sha)}"
    if source is not None and sha != source.sha256:
        return f"{show(sha)} is not the current SHA-256 of {source.path} (stale evidence)"
    return None


def _path_problem(corpus: Corpus, path: object) -> str | None:
    if not isinstance(path, str):
        return f"must be a string, not {_type_name(path)}"
    parts = path.split("/")
    if (
        "\\" in path
        or path.startswith("/")
        or any(p in ("", ".", "..") for p in parts)
        or not path.startswith(ROOT_PREFIXES)
    ):
        return f"{show(path)} is not a portable path under state/, tasks/, reports/ or history/"
    source = corpus.by_path.get(path)
    if source is None:
        return f"{show(path)} is not a scoped source of the current snapshot"
    if source.foreign:
        return f"{show(path)} belongs to another project ({source.project_id!r})"
    return None


def _line_problem(line: object, source: Source | None) -> str | None:
    if not isinstance(line, int) or isinstance(line, bool):
        return f"must be an integer, not {_type_name(line)}"
    if line < 1:
        return f"{line} is not a line number (lines start at 1)"
    if source is not None and line > source.line_count:
        return f"line {line} is past the end of {source.path} ({source.line_count} lines)"
    return None


FIELDS: dict[str, Callable[[object, Corpus], list[Problem]]] = {
    "schema_version": _schema_version,
    "candidate_id": _candidate_id,
    "project_id": _project_id,
    "kind": _kind,
    "statement": _statement,
    "source_refs": _source_refs,
    "created_at": _created_at,
    "status": _status,
}


def candidate_problems(corpus: Corpus, candidate: object) -> list[Problem]:
    """Every problem of CANDIDATE against CORPUS: key-set problems first, then each field
    in the order of KEYS. An empty list means the candidate is valid."""
    if not isinstance(candidate, dict):
        return [
            Problem(
                "CANDIDATE_SCHEMA",
                "",
                f"a candidate must be a JSON object, not {_type_name(candidate)}",
            )
        ]
    problems = [
        Problem("CANDIDATE_SCHEMA", f"/{key}", "missing key")
        for key in KEYS
        if key not in candidate
    ]
    problems += [
        Problem("CANDIDATE_SCHEMA", f"/{_pointer_token(key)}", "unknown key")
        for key in sorted(candidate)
        if key not in KEYS
    ]
    for key in KEYS:
        if key in candidate:
            problems.extend(FIELDS[key](candidate[key], corpus))
    return problems


def _pointer_token(key: object) -> str:
    """A JSON pointer reference token (RFC 6901), printable."""
    return printable(str(key).replace("~", "~0").replace("/", "~1"))


def validate_candidate(corpus: Corpus, candidate: object) -> dict[str, object]:
    """Validate one Candidate v1 against CORPUS; raises ContextError with the first problem.

    `CANDIDATE_WITHOUT_EVIDENCE` (a linter code) is raised as `CANDIDATE_EVIDENCE`."""
    problems = candidate_problems(corpus, candidate)
    if problems:
        first = problems[0]
        code = "CANDIDATE_EVIDENCE" if first.code == "CANDIDATE_WITHOUT_EVIDENCE" else first.code
        where = first.pointer or "/"
        raise ContextError(
            code,
            f"{where}: {first.detail}",
            hint=(
                f"{len(problems)} problem(s); `project-corpus context candidate-validate "
                "{root} FILE` lists them all"
            ),
        )
    assert isinstance(candidate, dict)
    return {
        "ok": True,
        "candidate_id": candidate["candidate_id"],
        "project_id": candidate["project_id"],
        "status": "candidate",
        "non_authoritative": True,
        "promotion": PROMOTION,
    }
