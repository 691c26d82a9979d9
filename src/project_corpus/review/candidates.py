"""Candidate files a change adds or modifies: their validation against the head snapshot and,
for each cited line, whether this same change modified it (docs/review.md).

Candidate files are `*.json` directly inside `.project-corpus/candidates/`, as
`context candidate-validate` reads them (at most 1 MiB each). A file that is a link, too large
or not JSON is reported as an invalid candidate, never followed or read past the limit.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from project_corpus.core.errors import ContextError
from project_corpus.core.jsonio import parse_json_bytes
from project_corpus.core.limits import MAX_INPUT_BYTES
from project_corpus.core.records import Corpus
from project_corpus.corpus import fs
from project_corpus.corpus.layout import CANDIDATES_DIR
from project_corpus.corpus.layout import inside
from project_corpus.doctor.candidates import file_candidates
from project_corpus.doctor.candidates import file_issues
from project_corpus.doctor.records import LoadedJSON
from project_corpus.review.gittree import GitTree
from project_corpus.review.gittree import entry_kind
from project_corpus.review.lines import modified_lines

# path -> the file's bytes, or why it cannot be read (a link, a size over the limit)
Files = dict[str, bytes | str]
Change = dict[str, object]


def _is_candidate(path: str) -> bool:
    rest = path.removeprefix(inside(CANDIDATES_DIR))
    return rest != path and "/" not in rest and rest.endswith(".json")


def git_candidates(tree: GitTree) -> Files:
    """The candidate files of a revision (a linked candidates folder holds none)."""
    if tree.kind(CANDIDATES_DIR) != "dir":
        return {}
    files: Files = {}
    readable = []
    for path, entry in tree.below(CANDIDATES_DIR):
        kind = entry_kind(entry)
        if not _is_candidate(path) or kind == "dir":
            continue
        if kind != "file":
            files[path] = "a link or special file is never read"
        elif entry.size > MAX_INPUT_BYTES:
            files[path] = f"{entry.size} bytes; at most {MAX_INPUT_BYTES}"
        else:
            readable.append(path)
    files.update(
        zip(
            readable,
            (tree.read(p, MAX_INPUT_BYTES, "CONTEXT_INPUT_PATH") for p in readable),
            strict=True,
        )
    )
    return files


def worktree_candidates(root: str) -> Files:
    """The candidate files of the working tree, read confined to ROOT."""
    try:
        with fs.open_dir(root, CANDIDATES_DIR) as fd:
            names = sorted(n for n in os.listdir(fd) if n.endswith(".json"))
            return {f"{CANDIDATES_DIR}/{n}": _read(fd, n) for n in names if fs.display_name(n)}
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ContextError(
            "CONTEXT_INPUT_PATH",
            f"{CANDIDATES_DIR}: {exc.strerror or exc} (links are never followed)",
        ) from None


def _read(dir_fd: int, name: str) -> bytes | str:
    if fs.entry_kind(dir_fd, name) == "dir":
        return "a folder"
    label = f"{CANDIDATES_DIR}/{name}"
    try:
        return fs.read_at(
            dir_fd, name, MAX_INPUT_BYTES, label=label, link_code="CONTEXT_INPUT_PATH"
        )
    except ContextError as exc:
        return exc.detail.removeprefix(f"{label}: ")


def candidate_changes(
    base_files: Files, head_files: Files, base: Corpus, head: Corpus
) -> list[Change]:
    """Each candidate file added or changed between BASE_FILES and HEAD_FILES, validated
    against HEAD, with each source ref's line judged against the change BASE -> HEAD."""
    lines: dict[str, frozenset[int] | None] = {}
    changes = []
    for path, data in sorted(head_files.items()):
        if base_files.get(path) == data:
            continue
        entry: Change = {"path": path, "change": "changed" if path in base_files else "added"}
        entry |= _validated(path, data, head)
        entry["refs"] = _refs(entry.pop("value", None), base, head, lines)
        changes.append(entry)
    return changes


def _validated(path: str, data: bytes | str, head: Corpus) -> Change:
    """valid, problems (and the parsed value, for the refs) of one candidate file."""
    if isinstance(data, str):
        problem = {"code": "CONTEXT_INPUT_PATH", "pointer": "", "detail": data, "line": 1}
        return {"valid": False, "problems": [problem]}
    try:
        value = parse_json_bytes(data, path)
    except ContextError as exc:
        problem = {"code": exc.code, "pointer": "", "detail": exc.detail, "line": 1}
        return {"valid": False, "problems": [problem]}
    issues = file_issues(LoadedJSON(path, value, data.decode("utf-8")), head)
    problems = [
        {
            "code": i.code,
            "pointer": dict(i.extra).get("pointer", ""),
            "detail": i.detail,
            "line": i.line,
        }
        for i in issues
    ]
    return {"valid": not problems, "problems": problems, "value": value}


def _refs(
    value: object, base: Corpus, head: Corpus, memo: dict[str, frozenset[int] | None]
) -> list[Change]:
    refs = []
    for prefix, candidate in file_candidates(value) if value is not None else []:
        found = candidate.get("source_refs") if isinstance(candidate, Mapping) else None
        for number, ref in enumerate(found if isinstance(found, list) else []):
            path = ref.get("source_path") if isinstance(ref, Mapping) else None
            line = ref.get("line_start") if isinstance(ref, Mapping) else None
            if not isinstance(path, str) or not isinstance(line, int) or isinstance(line, bool):
                continue
            refs.append(
                {
                    "pointer": f"{prefix}/source_refs/{number}",
                    "source_path": path,
                    "line_start": line,
                    "modified_in_change": _modified(path, line, base, head, memo),
                }
            )
    return refs


def _modified(
    path: str, line: int, base: Corpus, head: Corpus, memo: dict[str, frozenset[int] | None]
) -> bool | None:
    """Whether this change modified line LINE of PATH (a new source: every line); None when
    the head snapshot has no such source or line."""
    new = head.source(path)
    if new is None or new.foreign or not 1 <= line <= new.line_count:
        return None
    if path not in memo:
        old = base.source(path)
        memo[path] = modified_lines(old.doc.lines, new.doc.lines) if old else None
    touched = memo[path]
    return True if touched is None else line in touched
