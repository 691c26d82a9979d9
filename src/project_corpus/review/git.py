"""Reading a git repository's objects for `context review` (docs/review.md).

Git runs as a subprocess with a fixed argument vector (never a shell). The repository is
found once, here, not by git: the nearest folder at or above ROOT that holds a `.git` entry
(what a clone or a linked worktree has, and what no commit can put in a tree), and every
call names it with `--git-dir` and `--work-tree`, so a bare repository committed inside the
corpus (`HEAD`, `config`, `objects/`, `refs/` at ROOT) is never used, and
`safe.bareRepository=explicit` refuses one anyway. `rev-parse` resolves revisions,
`ls-tree` lists the corpus folder of a commit, `cat-file --batch` streams blobs, each
distinct blob once. Nothing is checked out and nothing is written. A revision may be any
name git accepts for a ref (`fix/über`), `~N`, `^N`, `^{commit}`, `@{N}`; option, range and
path syntax are refused before git sees it, and `--end-of-options` ends the options anyway.

The environment is the user's with the variables that would point git at another repository
removed (GIT_DIR, GIT_WORK_TREE…), prompts off, no optional locks, no replace objects, no
grafts (`GIT_GRAFT_FILE` is the empty device), and no transport protocol allowed, so a
partial clone cannot fetch a missing object from the network. An object that cannot be read
is `REVIEW_GIT`.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from typing import IO
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.core.gitenv import environment
from project_corpus.core.gitenv import git_argv
from project_corpus.core.gitenv import work_tree_top
from project_corpus.core.limits import MAX_LISTING_BYTES
from project_corpus.corpus.layout import CORPUS_DIR

# A revision as people write them: any ref name git accepts (`git check-ref-format`: no
# control character, space, `:`, `?`, `*`, `[`, `\\` or `..`; any other character, `über`
# included), hex, `~N`, `^N`, `^{commit}`, `@{N}`; no leading `-` (an option), no `..` (a
# range), no `:` (a path). At most 255 characters.
REVISION_RE = re.compile(r"^[^\x00-\x20\x7f:?*\[\\-][^\x00-\x20\x7f:?*\[\\]{0,254}\Z")
# A commit ID: SHA-1 (40 hex digits) or SHA-256 (64) object names.
COMMIT_RE = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?\Z")
# Listing the corpus folder of a revision stops past this many bytes (CONTEXT_LIMIT).
AGENTS_PATH = "AGENTS.md"
FETCH_HINT = (
    "fetch it first; a shallow clone lacks the base commit (actions/checkout: `fetch-depth: 0`)"
)


class Repository(NamedTuple):
    """The work tree that holds ROOT: its top folder, ROOT's path inside it ('' or `a/b/`)
    and its git folder (the top's `.git`, a folder or a linked worktree's `gitdir:` file)."""

    top: str
    prefix: str
    git_dir: str = ""


class TreeEntry(NamedTuple):
    """One `ls-tree` entry: mode (`100644`, `120000`, `040000`, `160000`…), object type,
    object ID and size (-1 for a tree or a submodule)."""

    mode: str
    kind: str
    oid: str
    size: int


def _argv(repo: Repository, args: Sequence[str]) -> list[str]:
    return git_argv(repo.git_dir, repo.top, args)


def _not_run(exc: OSError) -> ContextError:
    return ContextError(
        "REVIEW_GIT",
        f"git cannot be run: {exc.strerror or exc}",
        hint="install git and put it on PATH",
    )


def run_git(
    repo: Repository, args: Sequence[str], stdin: bytes | None = None
) -> tuple[int, bytes, str]:
    """(exit code, stdout, stderr) of `git ARGS` in REPO; REVIEW_GIT when git cannot run."""
    try:
        proc = subprocess.run(
            _argv(repo, args),
            input=stdin,
            capture_output=True,
            env=environment(),
            cwd=repo.top,
            check=False,
        )
    except OSError as exc:
        raise _not_run(exc) from None
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace").strip()


def _git_message(stderr: str) -> str:
    """The line of STDERR that says why git stopped (its `fatal:` line, else the first)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    fatal = [line for line in lines if line.startswith("fatal: ")]
    return (fatal or lines or ["git failed"])[0].removeprefix("fatal: ")[:300]


# What git (LC_ALL=C) says of an object it cannot read, as opposed to a name it cannot resolve.
DAMAGE = ("corrupt", "unable to unpack", "unable to read", "inflate", "bad object", "missing")


def _damaged(stderr: str) -> bool:
    return any(word in stderr for word in DAMAGE)


def locate(root: str, shown: str) -> Repository:
    """The work tree holding ROOT (resolved), found once by its `.git` entry (never by
    git's discovery, which a repository committed under ROOT could take over);
    REVIEW_NOT_GIT outside one, or inside a `.git` folder (SHOWN names ROOT)."""
    top = work_tree_top(root)
    rel = os.path.relpath(root, top) if top is not None else ""
    parts = [] if rel == "." else rel.split(os.sep)
    why = "no .git above it" if top is None else ""
    if top is not None and ".git" in parts:
        why = "it is inside a .git folder"
    repo = Repository(
        top or root, "".join(f"{p}/" for p in parts), os.path.join(top or root, ".git")
    )
    if not why:
        code, _, err = run_git(repo, ["rev-parse", "--git-dir"])
        why = "" if code == 0 else _git_message(err)
    if why:
        raise ContextError(
            "REVIEW_NOT_GIT",
            f"{shown} is not inside a git work tree ({why})",
            hint="run the review in a clone of the repository that holds the corpus",
        )
    return repo


def resolve(repo: Repository, revision: str) -> str:
    """The commit ID REVISION names; REVIEW_REVISION when it is malformed or names none."""
    if not REVISION_RE.match(revision) or ".." in revision:
        raise ContextError(
            "REVIEW_REVISION",
            f"{revision!r} is not a revision name (a branch, tag, commit ID, HEAD~N…)",
        )
    spec = f"{revision}^{{commit}}"
    args = ["rev-parse", "--verify", "--quiet", "--end-of-options", spec]
    code, out, err = run_git(repo, args)
    commit = out.decode("ascii", "replace").strip()
    if code != 0 and _damaged(err):
        raise ContextError("REVIEW_GIT", f"git rev-parse: {_git_message(err)}")
    if code != 0 or not COMMIT_RE.match(commit):
        raise ContextError(
            "REVIEW_REVISION", f"{revision!r} names no commit in this repository", FETCH_HINT
        )
    return commit


def merge_base(repo: Repository, base: str, head: str) -> str:
    """The best common ancestor of commits BASE and HEAD (what a pull request's diff starts
    from); REVIEW_REVISION when they share no history."""
    code, out, err = run_git(repo, ["merge-base", "--end-of-options", base, head])
    commit = out.decode("ascii", "replace").strip()
    if code != 0 and _damaged(err):
        raise ContextError("REVIEW_GIT", f"git merge-base: {_git_message(err)}")
    if code != 0 or not commit:
        raise ContextError(
            "REVIEW_REVISION", f"{base[:12]} and {head[:12]} have no common ancestor", FETCH_HINT
        )
    return commit


def list_corpus(repo: Repository, commit: str) -> dict[str, TreeEntry]:
    """{path relative to ROOT: entry} of AGENTS.md and everything under .project-corpus/ in
    COMMIT (trees included). Paths are decoded with `surrogateescape` (a name that is not
    UTF-8 keeps its bytes, so `fs.display_name` can tell it). Sizes are looked up once per
    distinct blob (`ls-tree -l` looks up every name: a blob named 25,600 times took 0.7 s)."""
    pathspecs = [f"{repo.prefix}{AGENTS_PATH}", f"{repo.prefix}{CORPUS_DIR}"]
    args = ["ls-tree", "-r", "-t", "-z", "--full-tree", commit, "--", *pathspecs]
    out = _bounded_output(repo, args, MAX_LISTING_BYTES)
    listed: list[tuple[str, str, str, str]] = []
    for record in out.split(b"\0"):
        head, tab, raw_path = record.partition(b"\t")
        fields = head.split()
        if not tab or len(fields) != 3:
            continue
        path = os.fsdecode(raw_path)
        if not path.startswith(repo.prefix) or path == repo.prefix.rstrip("/"):
            continue  # ROOT's own parent folders
        mode, kind, oid = (f.decode("ascii", "replace") for f in fields)
        listed.append((path[len(repo.prefix) :], mode, kind, oid))
    sizes = blob_sizes(repo, [oid for _, _, kind, oid in listed if kind == "blob"])
    return {
        path: TreeEntry(mode, kind, oid, sizes.get(oid, -1) if kind == "blob" else -1)
        for path, mode, kind, oid in listed
    }


def blob_sizes(repo: Repository, oids: Sequence[str]) -> dict[str, int]:
    """{oid: size} of the distinct blobs OIDS (one `cat-file --batch-check`); REVIEW_GIT
    when one cannot be read."""
    distinct = list(dict.fromkeys(oids))
    if not distinct:
        return {}
    request = "".join(f"{oid}\n" for oid in distinct).encode("ascii")
    code, out, err = run_git(repo, ["cat-file", "--batch-check"], stdin=request)
    sizes: dict[str, int] = {}
    for line in out.decode("ascii", "replace").splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] == "blob" and fields[2].isdigit():
            sizes[fields[0]] = int(fields[2])
    missing = next((oid for oid in distinct if oid not in sizes), None)
    if code != 0 or missing is not None:
        raise ContextError(
            "REVIEW_GIT",
            f"git cat-file: {str(missing)[:12]} could not be read ({_git_message(err)})",
        )
    return sizes


def _bounded_output(repo: Repository, args: Sequence[str], max_bytes: int) -> bytes:
    """The stdout of `git ARGS`, read while it runs and stopped past MAX_BYTES
    (CONTEXT_LIMIT), so a huge tree cannot take the memory; REVIEW_GIT when git fails."""
    with _started(repo, args, stdin=False) as (proc, errors):
        assert proc.stdout is not None
        out = proc.stdout.read(max_bytes + 1)
        if len(out) > max_bytes:
            raise ContextError(
                "CONTEXT_LIMIT", f"tree_listing: more than {max_bytes} bytes of entries"
            )
        code = proc.wait()
        if code != 0:
            raise ContextError("REVIEW_GIT", f"git {args[0]}: {_stderr(errors)}")
    return out


@contextmanager
def _started(
    repo: Repository, args: Sequence[str], *, stdin: bool
) -> Iterator[tuple[subprocess.Popen[bytes], IO[bytes]]]:
    """`git ARGS` running with its stdout (and STDIN) piped and its stderr in a temporary
    file (never a pipe git could fill and block on); killed when the block leaves early."""
    with tempfile.TemporaryFile() as errors:
        try:
            proc = subprocess.Popen(
                _argv(repo, args),
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
                env=environment(),
                cwd=repo.top,
            )
        except OSError as exc:
            raise _not_run(exc) from None
        with proc:
            try:
                yield proc, errors
            finally:
                if proc.poll() is None:
                    proc.kill()


def _stderr(errors: IO[bytes]) -> str:
    errors.seek(0)
    return _git_message(errors.read(4096).decode("utf-8", "replace"))


def read_blobs(repo: Repository, oids: Sequence[str]) -> list[bytes]:
    """The contents of the blobs OIDS, in order. One `cat-file --batch` streams each
    distinct blob once (a name repeated shares its bytes); the caller bounds the sizes from
    the listing first. A missing or damaged object is REVIEW_GIT."""
    distinct = list(dict.fromkeys(oids))
    if not distinct:
        return []
    found: dict[str, bytes] = {}
    with _started(repo, ["cat-file", "--batch"], stdin=True) as (proc, errors):
        assert proc.stdin is not None
        assert proc.stdout is not None
        try:
            for oid in distinct:
                proc.stdin.write(f"{oid}\n".encode("ascii"))
                proc.stdin.flush()
                found[oid] = _one_blob(proc.stdout, oid)
            proc.stdin.close()
        except (OSError, ContextError) as exc:
            proc.kill()
            proc.wait()
            detail = exc.detail if isinstance(exc, ContextError) else "git stopped"
            raise ContextError("REVIEW_GIT", f"git cat-file: {detail}: {_stderr(errors)}") from None
    return [found[oid] for oid in oids]


def _one_blob(out: IO[bytes], oid: str) -> bytes:
    """The next object of a `cat-file --batch` stream: `<oid> blob <size>`, the bytes, LF."""
    header = out.readline(512).split()
    if len(header) != 3 or header[0].decode("ascii", "replace") != oid or header[1] != b"blob":
        raise ContextError("REVIEW_GIT", f"{oid[:12]} could not be read")
    size = int(header[2]) if header[2].isdigit() else -1
    data = out.read(size) if size >= 0 else b""
    if len(data) != size or out.read(1) != b"\n":
        raise ContextError("REVIEW_GIT", f"{oid[:12]} was cut short")
    return data
