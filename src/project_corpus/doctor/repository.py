"""Repository hygiene around the corpus: folders Git drops, a cache that must stay out of Git."""

from __future__ import annotations

import os
from collections.abc import Iterator

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_GITIGNORE_BYTES
from project_corpus.corpus import fs
from project_corpus.corpus.layout import CACHE_DIR
from project_corpus.corpus.layout import CORPUS_DIR
from project_corpus.doctor import _gitignore as gitignore
from project_corpus.doctor.records import Check
from project_corpus.doctor.records import DoctorView
from project_corpus.doctor.records import Issue
from project_corpus.doctor.records import check

GITIGNORE_DIRS = ("", CORPUS_DIR, CACHE_DIR)


def _cache_entries(root: str) -> list[tuple[str, bool]]:
    """(name, is_dir) of each entry of cache/ except its own .gitignore ([] when absent)."""
    try:
        with fs.open_dir(root, CACHE_DIR) as fd:
            names = sorted(os.listdir(fd))
            return [(n, fs.entry_kind(fd, n) == "dir") for n in names if n != ".gitignore"]
    except OSError:
        return []


def _read_gitignore(root: str, directory: str) -> tuple[gitignore.Pattern, ...]:
    rel = f"{directory}/.gitignore" if directory else ".gitignore"
    try:
        data = fs.read_relative(root, rel, MAX_GITIGNORE_BYTES, code="CONTEXT_INPUT_PATH")
    except ContextError:
        return ()
    return gitignore.parse(data.decode("utf-8", "replace"))


@check("MISSING_ARTIFACT_DIR", "missing-artifact-dir", severity="WARN")
def missing_artifact_dir(view: DoctorView, this: Check) -> Iterator[Issue]:
    """An artifact folder (`tasks/`, `reports/` or `history/`) is absent.

    Detected by `project_corpus.corpus.required.required_paths`.

    ## Why it matters
    Git keeps no empty folder, so a freshly cloned corpus often lacks one; every command
    still accepts the corpus and reads the folder as empty. The next agent that files a
    Task, Report or History document has to create the folder first, and a folder that
    vanished by mistake looks exactly the same.

    ## How it is checked
    The snapshot (`project_corpus.corpus.required.required_paths`) reports each of the three
    folders that does not exist; a folder that is a link or a file is `REQUIRED_PATH_LINK`
    or `MISSING_REQUIRED_PATH` instead.

    ## Fix
    Create the folder with an empty `.gitkeep` file in it and commit both
    (`project-corpus init` does this for a new corpus).
    """
    yield from this.from_snapshot(view)


@check("CACHE_NOT_IGNORED", "cache-not-ignored", severity="WARN")
def cache_not_ignored(view: DoctorView, this: Check) -> Iterator[Issue]:
    """.project-corpus/cache/ holds files that no .gitignore ignores.

    ## Why it matters
    The cache holds the derived index: committing it bloats the repository, goes stale at
    once and may be mistaken for memory. `context build` writes `cache/.gitignore`
    containing `*`, but a cache created otherwise (or that file deleted) is not ignored.

    ## How it is checked
    Every entry of `cache/` (except `cache/.gitignore` itself) must be ignored by the
    `.gitignore` files in `cache/`, `.project-corpus/` or the root, read with gitignore
    semantics: `*`, `cache/`, `/cache/`, `.project-corpus/cache/`,
    `/.project-corpus/cache/`, `**/cache` all work; later `!` lines re-include. Git's
    global excludes and `.git/info/exclude` are not read (they are not in the repository).

    ## Fix
    Add `cache/` to `.project-corpus/.gitignore` (or `.project-corpus/cache/` to the
    root `.gitignore`).
    """
    root = view.corpus.root
    entries = _cache_entries(root)
    if not entries:
        return
    files = [(d, _read_gitignore(root, d)) for d in GITIGNORE_DIRS]
    exposed = [
        name
        for name, is_dir in entries
        if not gitignore.is_ignored(f"{CACHE_DIR}/{name}", is_dir, files)
    ]
    if exposed:
        shown = ", ".join(exposed[:5]) + (
            f" (+{len(exposed) - 5} more)" if len(exposed) > 5 else ""
        )
        yield this.issue(CACHE_DIR, 1, f"not ignored: {shown}", anchor=this.code)


# This family's checks, in the order of docs/checks.md (the registry concatenates them).
CHECKS: tuple[Check, ...] = (
    missing_artifact_dir,
    cache_not_ignored,
)
