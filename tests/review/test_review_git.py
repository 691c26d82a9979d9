"""`context review` against a pull request that lies to git (#36, items 1, 3, 4 and 6): a
repository planted inside the corpus, grafts and replace refs, damaged objects, ref names git
accepts, and one blob named thousands of times. Real repositories, shaped with plumbing."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_NAMED_BYTES
from project_corpus.review import git as review_git
from project_corpus.review import memory_review
from tests.conftest import Run
from tests.conftest import write_files
from tests.review.support import NEW_ACTION
from tests.review.support import OLD_ACTION
from tests.review.support import POLICY
from tests.review.support import STATUS
from tests.review.support import commit_all
from tests.review.support import git
from tests.review.support import init_repo
from tests.review.support import isolate_git

Cli = Callable[..., Run]
GENERATED = ".project-corpus/generated"
CANDIDATES = ".project-corpus/candidates"


@pytest.fixture
def mono(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, str]:
    """(top, ROOT = top/sub, the base commit on main): the corpus in a subfolder."""
    isolate_git(monkeypatch)
    top = tmp_path / "top"
    top.mkdir()
    git(top, "init", "-q", "-b", "main")
    root = init_repo(top / "sub", init=False)
    return top, root, commit_all(top, "base")


def change_next_action(root: Path) -> None:
    status = (root / STATUS).read_text(encoding="utf-8")
    (root / STATUS).write_text(status.replace(OLD_ACTION, NEW_ACTION), encoding="utf-8")


def fake_commit(top: Path, tree: str, *parents: str) -> str:
    """A commit of TREE (an object ID) made with plumbing, on no branch."""
    args = [a for p in parents for a in ("-p", p)]
    return git(top, "commit-tree", tree, *args, "-m", "made to look like the base")


def action_changes(report: dict[str, object]) -> list[object]:
    changes = report["status_changes"]
    assert isinstance(changes, list)
    return [c["after"] for c in changes if c["field"] == "Exact Next Action"]


def test_a_bare_repository_planted_at_root_is_never_used(mono: tuple[Path, Path, str]) -> None:
    top, root, base = mono
    change_next_action(root)
    git(top, "add", "-A")
    subtree = git(top, "write-tree", "--prefix=sub/")
    git(top, "reset", "-q")
    forged = fake_commit(top, subtree)  # the PR's own corpus, posing as the base
    write_files(
        root,
        {
            "HEAD": "ref: refs/heads/main\n",
            "config": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n",
            "objects/info/alternates": f"{top / '.git' / 'objects'}\n",
            "refs/heads/main": f"{forged}\n",
            "info/grafts": f"{forged}\n",
        },
    )
    (root / "refs" / "tags").mkdir()
    planted = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "main"], capture_output=True, text=True, check=False
    )
    if planted.returncode == 0:  # git on its own would take the planted repository
        assert planted.stdout.strip() == forged
    report = memory_review(root, "main")
    assert report["base"]["commit"] == base  # type: ignore[index]
    assert action_changes(report) == [NEW_ACTION]
    assert memory_review(root, "main", merge_base=True)["base"]["commit"] == base  # type: ignore[index]


def test_grafts_and_replace_refs_do_not_change_the_base(mono: tuple[Path, Path, str]) -> None:
    top, root, base = mono
    git(top, "checkout", "-q", "-b", "feature")
    change_next_action(root)
    head = commit_all(top, "change the next action")
    forged = fake_commit(top, git(top, "rev-parse", f"{head}^{{tree}}"))
    git(top, "replace", base, forged)  # `main` would read as the head's own tree
    (top / ".git" / "info").mkdir(exist_ok=True)
    (top / ".git" / "info" / "grafts").write_text(f"{head} {forged}\n", encoding="utf-8")
    report = memory_review(root, "main", "HEAD", merge_base=True)
    assert report["base"]["commit"] == base  # type: ignore[index]
    assert action_changes(report) == [NEW_ACTION]


def test_review_from_inside_the_git_folder_is_not_git(mono: tuple[Path, Path, str]) -> None:
    top, _, _ = mono
    with pytest.raises(ContextError) as caught:
        memory_review(top / ".git" / "objects", "main")
    assert caught.value.code == "REVIEW_NOT_GIT"


def loose_object(top: Path, spec: str) -> Path:
    oid = git(top, "rev-parse", spec)
    return top / ".git" / "objects" / oid[:2] / oid[2:]


@pytest.mark.parametrize("damage", ["corrupt", "missing"])
@pytest.mark.parametrize("rel", [POLICY, STATUS])
def test_an_object_git_cannot_read_is_review_git(
    mono: tuple[Path, Path, str], cli: Cli, damage: str, rel: str
) -> None:
    top, root, _ = mono
    change_next_action(root)
    path = loose_object(top, f"main:sub/{rel}")
    path.chmod(0o644)
    if damage == "missing":
        path.unlink()
    else:
        path.write_bytes(b"x\x9c this is not a zlib stream")
    run = cli("context", "review", root, "--base", "main", "--format", "json")
    assert run.code == 2, run.out
    assert run.error()["error"] == "REVIEW_GIT"


def test_a_damaged_base_commit_is_review_git(mono: tuple[Path, Path, str], cli: Cli) -> None:
    top, root, base = mono
    path = top / ".git" / "objects" / base[:2] / base[2:]
    path.chmod(0o644)
    path.write_bytes(b"not a commit")
    for extra in ([], ["--merge-base"]):
        run = cli("context", "review", root, "--base", "main", *extra, "--format", "json")
        assert run.code == 2, run.out
        assert run.error()["error"] == "REVIEW_GIT"
        assert "corrupt" in str(run.error()["detail"])


@pytest.mark.parametrize("name", ["fix/über", "feature/a!b#c", "release/ünïcode-2.0", "user@work"])
def test_every_ref_name_git_accepts_is_a_revision(
    mono: tuple[Path, Path, str], cli: Cli, name: str
) -> None:
    top, root, base = mono
    git(top, "branch", name)
    change_next_action(root)
    run = cli("context", "review", root, "--base", name, "--format", "json")
    assert run.code == 0, run.err
    assert run.json()["base"]["commit"] == base
    assert run.json()["base"]["revision"] == name


def named_many_times(top: Path, base: str, folder: str, suffix: str, data: bytes, n: int) -> str:
    """A commit of BASE's tree plus N names under FOLDER of one blob holding DATA."""
    blob = (
        subprocess.run(
            ["git", "-C", str(top), "hash-object", "-w", "--stdin"],
            input=data,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    git(top, "read-tree", base)
    lines = "".join(f"100644 {blob}\tsub/{folder}/n{k:05d}{suffix}\n" for k in range(n))
    subprocess.run(
        ["git", "-C", str(top), "update-index", "--index-info"],
        input=lines.encode(),
        check=True,
    )
    tree = git(top, "write-tree")
    git(top, "read-tree", base)
    return fake_commit(top, tree, base)


@pytest.fixture
def blob_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The object ID of every blob git streams to the review."""
    seen: list[str] = []
    real = review_git._one_blob

    def counting(out: object, oid: str) -> bytes:
        seen.append(oid)
        return real(out, oid)  # type: ignore[arg-type]

    monkeypatch.setattr(review_git, "_one_blob", counting)
    return seen


def test_one_blob_named_many_times_is_read_once(
    mono: tuple[Path, Path, str], blob_reads: list[str]
) -> None:
    top, root, base = mono
    view = b"NON_AUTHORITATIVE_VIEW\n# A view\n" + b"v" * 200_000 + b"\n"
    commit = named_many_times(top, base, GENERATED, ".md", view, 300)
    report = memory_review(root, "main", commit)
    assert report["head"]["commit"] == commit  # type: ignore[index]
    oid = git(top, "rev-parse", f"{commit}:sub/{GENERATED}/n00000.md")
    assert blob_reads.count(oid) == 1  # 300 names, one read


@pytest.mark.parametrize(
    ("folder", "suffix", "size", "n"),
    [(GENERATED, ".md", 8 * 1024 * 1024, 400), (CANDIDATES, ".json", 1024 * 1024, 3000)],
)
def test_a_blob_named_past_the_budget_is_context_limit_before_reading(
    mono: tuple[Path, Path, str],
    blob_reads: list[str],
    cli: Cli,
    folder: str,
    suffix: str,
    size: int,
    n: int,
) -> None:
    top, root, base = mono
    data = b'{"statement": "' + b"x" * (size - 20) + b'"}\n'
    commit = named_many_times(top, base, folder, suffix, data, n)
    run = cli("context", "review", root, "--base", "main", "--head", commit, "--format", "json")
    assert run.code == 2, run.err
    assert run.error()["error"] == "CONTEXT_LIMIT"
    assert "named_bytes" in str(run.error()["detail"])
    big = {git(top, "rev-parse", f"{commit}:sub/{folder}/n00000{suffix}")}
    assert not big & set(blob_reads)


def test_the_budget_counts_names_not_distinct_blobs(mono: tuple[Path, Path, str]) -> None:
    top, root, base = mono
    data = b"NON_AUTHORITATIVE_VIEW\n" + b"v" * (1024 * 1024)
    fits = MAX_NAMED_BYTES // len(data) // 2
    commit = named_many_times(top, base, GENERATED, ".md", data, fits)
    memory_review(root, "main", commit)  # within the budget: read (once)
    over = named_many_times(top, base, GENERATED, ".md", data, fits * 3)
    with pytest.raises(ContextError) as caught:
        memory_review(root, "main", over)
    assert caught.value.code == "CONTEXT_LIMIT"


def test_the_environment_cannot_point_git_elsewhere(
    mono: tuple[Path, Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, root, base = mono
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    monkeypatch.setenv("GIT_DIR", os.fspath(other / ".git"))
    monkeypatch.setenv("GIT_GRAFT_FILE", os.fspath(tmp_path / "grafts"))
    assert memory_review(root, "main")["base"]["commit"] == base  # type: ignore[index]
