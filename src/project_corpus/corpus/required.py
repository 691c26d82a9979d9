"""Whether the corpus paths are where they must be and what they may be called
(docs/protocol.md); the paths themselves are `corpus/layout.py`.

The required layout, portable source names (device names, case and Unicode collisions)
and the generated views' marker: findings the snapshot adds beside its sources.

Required files and folders are part of the conformance gate. The artifact folders `tasks/`,
`reports/` and `history/` are not: git keeps no empty folder, so a cloned corpus often lacks
one. An absent artifact folder reads as empty and is the WARN `MISSING_ARTIFACT_DIR`
(docs/protocol.md, "Layout").
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_VIEW_BYTES
from project_corpus.core.records import Finding
from project_corpus.corpus import fs
from project_corpus.corpus.layout import ARTIFACT_DIRS
from project_corpus.corpus.layout import CORPUS_DIR
from project_corpus.corpus.layout import GENERATED_DIR
from project_corpus.corpus.layout import REQUIRED
from project_corpus.corpus.protocol import check_generated
from project_corpus.corpus.roots import Root

DEVICE_NAMES = frozenset(
    ["con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))]
)


def path_findings(paths: list[str], strict: bool) -> list[Finding]:
    """SOURCE_PATH for device names and for paths that collide by case or Unicode form."""
    findings = []
    seen: dict[str, str] = {}
    for path in paths:
        key = unicodedata.normalize("NFC", path).casefold()
        other = seen.setdefault(key, path)
        stems = {part.split(".")[0].casefold() for part in path.split("/")}
        if other != path:
            detail = f"collides with {other} by case or Unicode normalisation"
        elif stems & DEVICE_NAMES:
            detail = "a path component is a device name on Windows"
        else:
            continue
        if strict:
            raise ContextError("SOURCE_PATH", f"{path}: {detail}")
        findings.append(Finding("SOURCE_PATH", path, 1, detail, anchor=f"SOURCE_PATH:{path}"))
    return findings


def is_real_dir(root: str, rel: str) -> bool:
    return path_kind(root, rel) == "dir"


def path_kind(root: str, rel: str) -> str | None:
    """ "file", "dir", "link", "special" or None (absent or unreadable) for REL under ROOT."""
    parent, _, name = rel.rpartition("/")
    try:
        with fs.open_dir(root, parent) as fd:
            return fs.entry_kind(fd, name)
    except OSError:
        return None


def required_paths(kind_of: Callable[[str], str | None]) -> tuple[list[Finding], list[Finding]]:
    """(gate findings, warnings): missing or linked required paths; absent artifact folders.
    KIND_OF gives the kind of a path (`path_kind`, or a git tree's)."""
    gate: list[Finding] = []
    warnings: list[Finding] = []
    broken: list[str] = []
    for rel, kind in REQUIRED:
        if any(rel.startswith(b + "/") for b in broken):
            continue
        actual = kind_of(rel)
        if actual == kind:
            continue
        broken.append(rel)
        if actual is None and rel in ARTIFACT_DIRS:
            detail = "read as empty; create it with a .gitkeep file to keep it in Git"
            warnings.append(_finding("MISSING_ARTIFACT_DIR", rel + "/", detail))
            continue
        code = "REQUIRED_PATH_LINK" if actual in ("link", "special") else "MISSING_REQUIRED_PATH"
        detail = (
            f"required {kind} is missing" if actual is None else f"required {kind} is a {actual}"
        )
        gate.append(_finding(code, rel, detail))
    return gate, warnings


def _finding(code: str, path: str, detail: str) -> Finding:
    return Finding(code, path, 1, detail, anchor=f"{code}:{path}")


def generated_views(root: str) -> list[Finding]:
    if not is_real_dir(root, GENERATED_DIR):
        return []
    findings = []
    for dir_fd, entry in fs.walk(root, GENERATED_DIR):
        if entry.kind == "unreadable":
            raise ContextError("SOURCE_PERMISSION", f"{entry.path}: permission denied")
        if not entry.name.endswith(".md") or entry.kind not in ("file", "link", "special"):
            continue
        try:
            head = fs.read_at(
                dir_fd,
                entry.name,
                MAX_VIEW_BYTES,
                label=entry.path,
                link_code="GENERATED_VIEW_UNMARKED",
            )
        except ContextError as exc:
            findings.append(
                Finding("GENERATED_VIEW_UNMARKED", entry.path, 1, exc.detail, anchor=entry.path)
            )
            continue
        findings.extend(check_generated(entry.path, head[:2048].decode("utf-8", "replace")))
    return findings


def require_corpus(root: str, given: str | os.PathLike[str]) -> None:
    """CONTEXT_ROOT when ROOT has no `.project-corpus/` at all: every command, the doctor
    and `new` included, says it is not a corpus and points to `init` (or, when a folder
    above holds a corpus, to that project root: a ROOT given is used as given). GIVEN may
    be the command's `Root` record, which knows the answer already."""
    if isinstance(given, Root) and given.has_corpus:
        return  # checked once, when the record was made
    if not isinstance(given, Root) and os.path.lexists(os.path.join(root, CORPUS_DIR)):
        return
    shown = os.fspath(given)
    above = _corpus_above(root)
    if above is not None:
        named = above if os.path.isabs(shown) else os.path.relpath(above)
        hint = f"{shown} is inside the project at {named}: pass that folder as ROOT"
    else:
        from shlex import quote  # only on this error: `query` imports nothing new

        from project_corpus.corpus.known_memory import import_hint

        init = "project-corpus init" + (
            "" if os.path.normpath(shown) == "." else f" {quote(shown)}"
        )
        hint = f"start one with `{init}`, or pass the folder that holds {CORPUS_DIR}/"
        found = import_hint(root, shown)
        hint = f"{found}; or {hint}" if found else hint
    raise ContextError(
        "CONTEXT_ROOT", f"{shown} is not a Project Corpus: it has no {CORPUS_DIR}/ folder", hint
    )


def _corpus_above(root: str) -> str | None:
    """The nearest folder above ROOT (absolute) that holds `.project-corpus/`, or None."""
    folder = os.path.dirname(root)
    while True:
        if os.path.lexists(os.path.join(folder, CORPUS_DIR)):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
