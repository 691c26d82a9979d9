"""Reading a git repository's objects for `context review` (docs/review.md).

Git runs as a subprocess with a fixed argument vector (never a shell), in the repository
that holds ROOT: `rev-parse` finds it and resolves revisions, `ls-tree` lists the corpus
folder of a commit, `cat-file --batch` reads blobs. Nothing is checked out and nothing is
written. A revision is checked against a conservative grammar before git sees it (no option,
range, path or pattern syntax), and `--end-of-options` ends the options anyway.

The environment is the user's with the variables that would point git at another repository
removed (GIT_DIR, GIT_WORK_TREE…: the repository is the one that holds ROOT), prompts off,
no optional locks, no replace objects, and no transport protocol allowed, so a partial clone
cannot fetch a missing object from the network.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_LISTING_BYTES
from project_corpus.corpus.layout import CORPUS_DIR

# A revision as people write them: names, hex, `~N`, `^N`, `^{commit}`, `@{N}`; no leading
# `-` (an option), no `..` (a range), no `:` (a path), no wildcard or whitespace.
REVISION_RE = re.compile(r"^[A-Za-z0-9_@][A-Za-z0-9_./@{}^~+-]{0,199}\Z")
# A commit ID: SHA-1 (40 hex digits) or SHA-256 (64) object names.
COMMIT_RE = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?\Z")
# Listing the corpus folder of a revision stops past this many bytes (CONTEXT_LIMIT).
AGENTS_PATH = "AGENTS.md"
REPOSITORY_VARIABLES = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
)
FIXED_VARIABLES = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_ALLOW_PROTOCOL": "none",
    "LC_ALL": "C",
}
FETCH_HINT = (
    "fetch it first; a shallow clone lacks the base commit (actions/checkout: `fetch-depth: 0`)"
)


class Repository(NamedTuple):
    """The work tree that holds ROOT: its top folder and ROOT's path inside it ('' or
    `a/b/`)."""

    top: str
    prefix: str


class TreeEntry(NamedTuple):
    """One `ls-tree` entry: mode (`100644`, `120000`, `040000`, `160000`…), object type,
    object ID and size (-1 for a tree or a submodule)."""

    mode: str
    kind: str
    oid: str
    size: int


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in REPOSITORY_VARIABLES}
    return {**env, **FIXED_VARIABLES}


def _argv(cwd: str, args: Sequence[str]) -> list[str]:
    return ["git", "--literal-pathspecs", "-c", "core.fsmonitor=false", "-C", cwd, *args]


def run_git(cwd: str, args: Sequence[str], stdin: bytes | None = None) -> tuple[int, bytes, str]:
    """(exit code, stdout, stderr) of `git -C CWD ARGS`; REVIEW_GIT when git cannot run."""
    try:
        proc = subprocess.run(
            _argv(cwd, args), input=stdin, capture_output=True, env=_environment(), check=False
        )
    except OSError as exc:
        raise ContextError(
            "REVIEW_GIT",
            f"git cannot be run: {exc.strerror or exc}",
            hint="install git and put it on PATH",
        ) from None
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace").strip()


def _git_message(stderr: str) -> str:
    lines = [line.removeprefix("fatal: ") for line in stderr.splitlines() if line.strip()]
    return lines[0] if lines else "git failed"


def locate(root: str, shown: str) -> Repository:
    """The work tree holding ROOT (resolved); REVIEW_NOT_GIT outside one (SHOWN names ROOT)."""
    code, out, err = run_git(root, ["rev-parse", "--show-toplevel", "--show-prefix"])
    lines = os.fsdecode(out).split("\n")
    if code != 0 or len(lines) < 2:
        raise ContextError(
            "REVIEW_NOT_GIT",
            f"{shown} is not inside a git work tree ({_git_message(err)})",
            hint="run the review in a clone of the repository that holds the corpus",
        )
    return Repository(lines[0], lines[1])


def resolve(repo: Repository, revision: str) -> str:
    """The commit ID REVISION names; REVIEW_REVISION when it is malformed or names none."""
    if not REVISION_RE.match(revision) or ".." in revision:
        raise ContextError(
            "REVIEW_REVISION",
            f"{revision!r} is not a revision name (a branch, tag, commit ID, HEAD~N…)",
        )
    spec = f"{revision}^{{commit}}"
    args = ["rev-parse", "--verify", "--quiet", "--end-of-options", spec]
    code, out, _ = run_git(repo.top, args)
    commit = out.decode("ascii", "replace").strip()
    if code != 0 or not COMMIT_RE.match(commit):
        raise ContextError(
            "REVIEW_REVISION", f"{revision!r} names no commit in this repository", FETCH_HINT
        )
    return commit


def merge_base(repo: Repository, base: str, head: str) -> str:
    """The best common ancestor of commits BASE and HEAD (what a pull request's diff starts
    from); REVIEW_REVISION when they share no history."""
    code, out, _ = run_git(repo.top, ["merge-base", "--end-of-options", base, head])
    commit = out.decode("ascii", "replace").strip()
    if code != 0 or not commit:
        raise ContextError(
            "REVIEW_REVISION", f"{base[:12]} and {head[:12]} have no common ancestor", FETCH_HINT
        )
    return commit


def list_corpus(repo: Repository, commit: str) -> dict[str, TreeEntry]:
    """{path relative to ROOT: entry} of AGENTS.md and everything under .project-corpus/ in
    COMMIT (trees included). Paths are decoded with `surrogateescape` (a name that is not
    UTF-8 keeps its bytes, so `fs.display_name` can tell it)."""
    pathspecs = [f"{repo.prefix}{AGENTS_PATH}", f"{repo.prefix}{CORPUS_DIR}"]
    args = ["ls-tree", "-r", "-t", "-l", "-z", "--full-tree", commit, "--", *pathspecs]
    out = _bounded_output(repo.top, args, MAX_LISTING_BYTES)
    entries: dict[str, TreeEntry] = {}
    for record in out.split(b"\0"):
        head, tab, raw_path = record.partition(b"\t")
        fields = head.split()
        if not tab or len(fields) != 4:
            continue
        path = os.fsdecode(raw_path)
        if not path.startswith(repo.prefix) or path == repo.prefix.rstrip("/"):
            continue  # ROOT's own parent folders
        mode, kind, oid, size = (f.decode("ascii", "replace") for f in fields)
        entries[path[len(repo.prefix) :]] = TreeEntry(
            mode, kind, oid, int(size) if size.isdigit() else -1
        )
    return entries


def _bounded_output(cwd: str, args: Sequence[str], max_bytes: int) -> bytes:
    """The stdout of `git ARGS`, read while it runs and stopped past MAX_BYTES
    (CONTEXT_LIMIT), so a huge tree cannot take the memory; REVIEW_GIT when git fails."""
    try:
        proc = subprocess.Popen(
            _argv(cwd, args),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_environment(),
        )
    except OSError as exc:
        raise ContextError("REVIEW_GIT", f"git cannot be run: {exc.strerror or exc}") from None
    assert proc.stdout is not None
    with proc:
        out = proc.stdout.read(max_bytes + 1)
        if len(out) > max_bytes:
            proc.kill()
            raise ContextError(
                "CONTEXT_LIMIT", f"tree_listing: more than {max_bytes} bytes of entries"
            )
        code = proc.wait()
    if code != 0:
        raise ContextError("REVIEW_GIT", f"git {args[0]} failed with exit code {code}")
    return out


def read_blobs(repo: Repository, oids: Sequence[str]) -> list[bytes]:
    """The contents of the blobs OIDS, in order (one `cat-file --batch`; sizes are known and
    bounded by the caller from the listing, so the output is bounded too)."""
    if not oids:
        return []
    request = "".join(f"{oid}\n" for oid in oids).encode("ascii")
    code, out, err = run_git(repo.top, ["cat-file", "--batch"], stdin=request)
    if code != 0:
        raise ContextError("REVIEW_GIT", f"git cat-file: {_git_message(err)}")
    blobs = []
    at = 0
    for oid in oids:
        end = out.find(b"\n", at)
        header = out[at:end].split() if end >= 0 else []
        if (
            len(header) != 3
            or header[0].decode("ascii", "replace") != oid
            or not header[2].isdigit()
        ):
            raise ContextError("REVIEW_GIT", f"git cat-file: {oid[:12]} could not be read")
        size = int(header[2])
        blobs.append(out[end + 1 : end + 1 + size])
        at = end + 1 + size + 1
    return blobs
