"""`context review` on bad input: stable exit-2 errors, or what the base cannot hold reported
as added — never exit 3, never a read outside the base's policy."""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.review import git as review_git
from project_corpus.review import memory_review
from tests.conftest import Run
from tests.conftest import write_files
from tests.review.support import NOTES
from tests.review.support import POLICY
from tests.review.support import STATUS
from tests.review.support import commit_all
from tests.review.support import git
from tests.review.support import init_repo
from tests.review.support import isolate_git

Cli = Callable[..., Run]
SECRET = "TOP-SECRET-SENTENCE-never-to-be-read"
SECRET_REPORT = ".project-corpus/reports/secret.md"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    isolate_git(monkeypatch)
    return init_repo(tmp_path / "repo")


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every blob the review reads from git, recorded."""
    seen: list[bytes] = []
    real = review_git.read_blobs

    def recording(repo: review_git.Repository, oids: Sequence[str]) -> list[bytes]:
        blobs = real(repo, oids)
        seen.extend(blobs)
        return blobs

    monkeypatch.setattr("project_corpus.review.gittree.read_blobs", recording)
    return seen


def error_of(run: Run) -> str:
    assert run.code == 2, (run.code, run.out, run.err)
    return str(run.error()["error"])


@pytest.mark.parametrize(
    "revision",
    ["--upload-pack=touch", "-", "main..HEAD", "HEAD:STATUS.md", "", " main", "ma in", "a*", "x\n"],
)
def test_malformed_revision_is_refused_before_git_sees_it(
    repo: Path, cli: Cli, revision: str
) -> None:
    commit_all(repo, "base")
    assert error_of(cli("context", "review", repo, f"--base={revision}")) == "REVIEW_REVISION"
    run = cli("context", "review", repo, "--base", "main", f"--head={revision}")
    assert error_of(run) == "REVIEW_REVISION"


def test_unknown_revision_names_the_fetch_hint(repo: Path, cli: Cli) -> None:
    commit_all(repo, "base")
    run = cli("context", "review", repo, "--base", "no-such-branch", "--format", "json")
    assert error_of(run) == "REVIEW_REVISION"
    assert "fetch-depth: 0" in str(run.error()["hint"])
    assert error_of(cli("context", "review", repo, "--base", "0" * 40)) == "REVIEW_REVISION"


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(revision=st.text(max_size=30))
def test_no_revision_text_makes_an_internal_error(repo: Path, revision: str) -> None:
    if not (repo / ".git" / "refs" / "heads" / "main").exists():
        commit_all(repo, "base")
    code = "ok"
    try:
        memory_review(repo, revision)
    except ContextError as exc:
        code = exc.code
    assert code in ("ok", "REVIEW_REVISION")


def test_root_outside_a_git_work_tree(tmp_path: Path, repo: Path, cli: Cli) -> None:
    plain = tmp_path / "plain"
    write_files(plain, {"AGENTS.md": "# Agents\n"})
    assert error_of(cli("context", "review", plain, "--base", "main")) == "REVIEW_NOT_GIT"
    commit_all(repo, "base")
    assert error_of(cli("context", "review", repo / ".git", "--base", "main")) == "REVIEW_NOT_GIT"
    assert (
        error_of(cli("context", "review", tmp_path / "missing", "--base", "main")) == "CONTEXT_ROOT"
    )


def test_base_without_a_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli) -> None:
    isolate_git(monkeypatch)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    write_files(repo, {"README.md": "# A project before its corpus\n"})
    commit_all(repo, "no corpus yet")
    init_repo(repo, init=False)
    run = cli("context", "review", repo, "--base", "main", "--format", "text")
    assert run.code == 2
    assert run.err.startswith("error[REVIEW_NO_CORPUS]: main (")


def test_a_working_tree_without_a_corpus_is_context_root(repo: Path, cli: Cli) -> None:
    commit_all(repo, "base")
    git(repo, "rm", "-rq", ".project-corpus")
    assert error_of(cli("context", "review", repo, "--base", "main")) == "CONTEXT_ROOT"


def test_git_that_cannot_run_is_review_git(
    repo: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    commit_all(repo, "base")
    monkeypatch.setenv("PATH", str(repo / "no-bin-here"))
    assert error_of(cli("context", "review", repo, "--base", "main")) == "REVIEW_GIT"


def test_linked_base_status_is_never_read_and_reported_as_added(
    tmp_path: Path, repo: Path, reads: list[bytes]
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(f"# Status\n{SECRET}\n", encoding="utf-8")
    status_text = (repo / STATUS).read_text(encoding="utf-8")
    (repo / STATUS).unlink()
    os.symlink(outside, repo / STATUS)
    commit_all(repo, "base with a linked STATUS")
    (repo / STATUS).unlink()
    (repo / STATUS).write_text(status_text, encoding="utf-8")
    report = memory_review(repo, "main")
    changes = report["status_changes"]
    assert isinstance(changes, list)
    assert changes
    assert {c["change"] for c in changes} == {"added"}
    fixed = report["findings"]["fixed"]
    assert ("REQUIRED_PATH_LINK", STATUS) in {(i["code"], i["path"]) for i in fixed}
    assert not any(str(outside).encode() in blob for blob in reads)  # the link's target text
    assert SECRET not in str(report)


def test_linked_base_source_is_a_finding_not_a_read(
    tmp_path: Path, repo: Path, reads: list[bytes]
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(f"# Notes\n\n## Notes\n{SECRET}\n", encoding="utf-8")
    os.symlink(outside, repo / ".project-corpus/history/linked.md")
    commit_all(repo, "base with a linked history note")
    (repo / ".project-corpus/history/linked.md").unlink()
    report = memory_review(repo, "main")
    fixed = report["findings"]["fixed"]
    assert ("SOURCE_LINK", ".project-corpus/history/linked.md") in {
        (i["code"], i["path"]) for i in fixed
    }
    assert SECRET not in str(report)
    assert not any(b"outside.md" in blob for blob in reads)


def test_out_of_scope_base_files_are_never_read_and_appear_as_added(
    repo: Path, reads: list[bytes]
) -> None:
    policy = (repo / POLICY).read_text(encoding="utf-8")
    narrow = policy.replace(', ".project-corpus/reports/**"', "")
    assert narrow != policy
    write_files(repo, {POLICY: narrow, SECRET_REPORT: f"# Secret\n{SECRET}\n"})
    commit_all(repo, "base reads no reports")
    write_files(repo, {POLICY: policy})
    report = memory_review(repo, "main")
    assert not any(SECRET.encode() in blob for blob in reads)
    base = report["base"]
    assert isinstance(base, dict)
    added = {r["path"] for r in report["reports"]["added"]}
    assert SECRET_REPORT in added
    assert ".project-corpus/reports/bench-new.md" in added
    (change,) = report["policy_changes"]
    assert change["added"] == [".project-corpus/reports/**"]
    assert change["needs_owner_review"] is True


def test_base_over_the_limits_is_context_limit_before_reading(
    repo: Path, reads: list[bytes], monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    write_files(repo, {NOTES: "# Notes\n\n## Notes\n" + "A long line of notes.\n" * 400})
    commit_all(repo, "base with a large note")
    monkeypatch.setattr("project_corpus.corpus.snapshot.MAX_SOURCE_BYTES", 4096)
    run = cli("context", "review", repo, "--base", "main", "--format", "json")
    assert error_of(run) == "CONTEXT_LIMIT"
    assert "source_bytes" in str(run.error()["detail"])
    assert not any(b"A long line of notes." in blob for blob in reads)
    monkeypatch.setattr("project_corpus.corpus.snapshot.MAX_SOURCE_BYTES", 8 * 1024 * 1024)
    monkeypatch.setattr("project_corpus.corpus.snapshot.MAX_SOURCES", 3)
    assert error_of(cli("context", "review", repo, "--base", "main")) == "CONTEXT_LIMIT"


def test_base_source_not_utf8_is_a_finding(repo: Path) -> None:
    write_files(repo, {NOTES: b"# Notes\n\n## Notes\n\xff\xfe bad bytes\n"})
    commit_all(repo, "base with bad bytes")
    write_files(repo, {NOTES: "# Notes\n\n## Notes\nGood text.\n"})
    fixed = memory_review(repo, "main")["findings"]["fixed"]
    assert ("INVALID_ENCODING", NOTES) in {(i["code"], i["path"]) for i in fixed}


def test_root_in_a_subfolder_and_merge_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_git(monkeypatch)
    top = tmp_path / "mono"
    top.mkdir()
    git(top, "init", "-q", "-b", "main")
    root = init_repo(top / "services" / "cache", init=False)
    base = commit_all(top, "base")
    git(top, "checkout", "-q", "-b", "feature")
    status = (root / STATUS).read_text(encoding="utf-8")
    write_files(
        root, {STATUS: status.replace("Lifecycle-Status: ACTIVE", "Lifecycle-Status: PAUSED")}
    )
    feature = commit_all(top, "pause")
    git(top, "checkout", "-q", "main")
    write_files(root, {NOTES: "# Notes\n\n## Notes\nMain moved on.\n"})
    commit_all(top, "main moves")
    git(top, "checkout", "-q", "feature")
    plain = memory_review(root, "main", feature)
    merged = memory_review(root, "main", feature, merge_base=True)
    assert merged["base"]["commit"] == base
    assert [c["field"] for c in merged["status_changes"]] == ["Lifecycle-Status"]
    assert [c["after"] for c in merged["status_changes"]] == ["PAUSED"]
    assert plain["base"]["commit"] != base
