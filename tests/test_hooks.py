"""The shipped pre-commit hooks: their manifest, and a real `pre-commit run` of each from a
commit of this repository (the working tree as `pre-commit try-repo` would take it)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import copy_fixture
from tests.conftest import valid_candidate

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "fixtures" / "example"
HOOKS = {hook["id"]: hook for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
STATUS = ".project-corpus/state/STATUS.md"


def test_manifest_is_valid() -> None:
    manifest = str(REPO / ".pre-commit-hooks.yaml")
    run = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", manifest],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_doctor_hook_checks_the_whole_corpus_on_every_commit_and_shows_warnings() -> None:
    hook = HOOKS["project-corpus-doctor"]
    assert hook["entry"] == "project-corpus context doctor --format text"  # no ROOT: found
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is False
    assert hook["require_serial"] is True
    # pre-commit never passes a deleted file: a `files:` filter would skip a commit that
    # only deletes the active task, so the hook runs on every commit.
    assert hook["always_run"] is True
    assert "files" not in hook
    assert hook["verbose"] is True  # a passing run's WARN findings are shown


def test_candidates_hook_runs_on_every_commit() -> None:
    hook = HOOKS["project-corpus-candidates"]
    assert hook["entry"] == "project-corpus context candidate-validate --format text"
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is False  # every candidate: any source edit may stale one
    assert hook["always_run"] is True  # a deleted source stales a candidate too
    assert "files" not in hook


def repo_config_hooks() -> dict[str, dict[str, object]]:
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    return {
        hook["id"]: {**hook, "repo": r["repo"], "rev": r.get("rev")}
        for r in config["repos"]
        for hook in r["hooks"]
    }


def test_repo_config_runs_ruff_and_dogfoods_the_doctor() -> None:
    hooks = repo_config_hooks()
    assert {"ruff-check", "ruff-format"} <= set(hooks)
    assert re.fullmatch(r"v\d+\.\d+\.\d+", str(hooks["ruff-check"]["rev"]))
    local = hooks["project-corpus-doctor-example"]
    assert local["repo"] == "local"
    assert local["entry"] == "project-corpus context doctor fixtures/example --format text"
    assert local["pass_filenames"] is False
    assert re.compile(str(local["files"])).search(
        "fixtures/example/.project-corpus/state/STATUS.md"
    )


def test_repo_config_local_hook_passes_on_the_example() -> None:
    """The dogfooding hook's entry, run as pre-commit runs it: from the repository root."""
    entry = str(repo_config_hooks()["project-corpus-doctor-example"]["entry"]).split()
    assert entry[0] == "project-corpus"
    run = subprocess.run(
        [sys.executable, "-m", "project_corpus", *entry[1:]],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


# --- real pre-commit runs --------------------------------------------------------------


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=git_env())


def git_env() -> dict[str, str]:
    return {
        **os.environ,
        "GIT_AUTHOR_NAME": "Hook Test",
        "GIT_AUTHOR_EMAIL": "hooks@example.invalid",
        "GIT_COMMITTER_NAME": "Hook Test",
        "GIT_COMMITTER_EMAIL": "hooks@example.invalid",
    }


def candidate(root: Path, **overrides: object) -> str:
    value = valid_candidate(
        root,
        candidate_id="c-hook-001",
        statement="The cache is tracked by the STATUS document.",
    )
    return json.dumps({**value, **overrides}, indent=2) + "\n"


def make_repo(base: Path, variant: str) -> Path:
    """A committed git repository holding a copy of fixtures/example, clean or broken."""
    repo = base / variant
    copy_fixture(EXAMPLE, repo)
    candidates = repo / ".project-corpus" / "candidates"
    candidates.mkdir(exist_ok=True)
    if variant.startswith("broken-status"):
        status = repo / STATUS
        text = status.read_text(encoding="utf-8")
        status.write_text(re.sub(r"Lifecycle-Status: \w+", "Lifecycle-Status: RUNNING", text))
    if variant == "broken-candidate":
        bad = candidate(repo, kind="rumour", candidate_id="c-hook-002")
        (candidates / "c-hook-002.json").write_text(bad, encoding="utf-8")
    elif variant != "broken-status-no-candidates":
        (candidates / "c-hook-001.json").write_text(candidate(repo), encoding="utf-8")
    git(repo, "init", "--quiet")
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "--no-gpg-sign", "-m", "corpus")
    return repo


@pytest.fixture(scope="session")
def hook_source(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """This repository as pre-commit clones it: (path, rev) of a commit of the working tree's
    tracked changes, made once per session the way `pre-commit try-repo` makes its own.

    `try-repo` installs the hook environment into a new store on every call (a fresh
    `pip install` of this package: 20-70 s a run); `pre-commit run` with one store for the
    session (`pre_commit_home`) installs it once, so each test pays only for its run."""
    shadow = tmp_path_factory.mktemp("hook-source") / "repo"
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.strip()
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(shadow)], check=True, capture_output=True)  # fmt: skip
    git(shadow, "checkout", "--quiet", head, "-b", "_pc_tmp")
    objects = subprocess.run(
        ["git", "rev-parse", "--git-path", "index", "--git-path", "objects"],
        cwd=shadow, check=True, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    env = {**git_env(), "GIT_INDEX_FILE": str(shadow / objects[0]), "GIT_OBJECT_DIRECTORY": str(shadow / objects[1])}  # fmt: skip
    subprocess.run(["git", "add", "-u"], cwd=REPO, env=env, check=True, capture_output=True)
    git(shadow, "commit", "--quiet", "--no-gpg-sign", "--no-verify", "--allow-empty", "-m", "tree")  # fmt: skip
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=shadow, check=True, capture_output=True, text=True
    ).stdout.strip()
    return str(shadow), rev


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One pre-commit store (and pip cache) for every hook run of the session."""
    return tmp_path_factory.mktemp("pre-commit-home")


def pre_commit_run(
    repo: Path,
    hook: str | None,
    source: tuple[str, str],
    home: Path,
    all_files: bool = True,
    args: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """`pre-commit run [HOOK] [--all-files]` inside REPO with this repository's hooks at the
    session's SOURCE commit (without --all-files: on the staged files, as at `git commit`);
    the configuration lives outside REPO, as `try-repo` keeps it."""
    url, rev = source
    hooks: list[dict[str, object]] = [
        {"id": name, **({"args": list(args)} if args else {})}
        for name in ([hook] if hook else sorted(HOOKS))
    ]
    config = repo.parent / f"{repo.name}-pre-commit-config.yaml"
    config.write_text(yaml.safe_dump({"repos": [{"repo": url, "rev": rev, "hooks": hooks}]}))
    env = {
        **git_env(),
        "PRE_COMMIT_HOME": str(home / "store"),
        "PIP_CACHE_DIR": str(home / "pip-cache"),
        "NO_COLOR": "1",
    }
    env.pop("VIRTUAL_ENV", None)
    args = ["run", *([hook] if hook else []), "--config", str(config), "--color", "never"]
    args += ["--all-files"] if all_files else []
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=900,
    )


@pytest.mark.slow
def test_every_hook_passes_on_a_clean_corpus(
    tmp_path: Path, hook_source: tuple[str, str], pre_commit_home: Path
) -> None:
    run = pre_commit_run(make_repo(tmp_path, "clean"), None, hook_source, pre_commit_home)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    for hook in HOOKS.values():
        assert re.search(rf"^{re.escape(hook['name'])}\.+Passed$", output, re.MULTILINE), output


@pytest.mark.slow
@pytest.mark.parametrize(
    ("hook", "variant", "expected"),
    [
        (
            "project-corpus-doctor",
            "broken-status",
            rf"^{re.escape(STATUS)}:\d+:\d+: FAIL INVALID_METADATA ",
        ),
        (
            "project-corpus-candidates",
            "broken-candidate",
            r"^\.project-corpus/candidates/c-hook-002\.json:\d+:\d+: FAIL CANDIDATE_KIND ",
        ),
    ],
)
def test_hook_fails_on_a_broken_corpus(
    tmp_path: Path,
    hook_source: tuple[str, str],
    pre_commit_home: Path,
    hook: str,
    variant: str,
    expected: str,
) -> None:
    run = pre_commit_run(make_repo(tmp_path, variant), hook, hook_source, pre_commit_home)
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert re.search(rf"^{re.escape(HOOKS[hook]['name'])}\.+Failed$", output, re.MULTILINE)
    assert "- exit code: 1" in output
    assert re.search(expected, output, flags=re.MULTILINE), output
    assert "Traceback" not in output


@pytest.mark.slow
def test_a_passing_commit_shows_its_warnings(
    tmp_path: Path, hook_source: tuple[str, str], pre_commit_home: Path
) -> None:
    repo = make_repo(tmp_path, "clean")
    note = repo / ".project-corpus/history/2026-standup.md"
    note.write_text("# Standup\n\n## Notes\nThe canary is currently serving reads.\n")
    git(repo, "add", "--all")
    run = pre_commit_run(
        repo, "project-corpus-doctor", hook_source, pre_commit_home, all_files=False
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output  # a WARN does not block the commit ...
    assert re.search(r"^project-corpus memory doctor\.+Passed$", output, re.MULTILINE), output
    where = r"^\.project-corpus/history/2026-standup\.md:4:15: WARN VOLATILE_WITHOUT_FRESHNESS "
    assert re.search(where, output, re.MULTILINE), output  # ... but it is shown
    assert "    The canary is currently serving reads." in output
    assert re.search(r"^project-corpus: 0 FAIL, [1-9][0-9]* WARN, .*; ok$", output, re.MULTILINE)


@pytest.mark.slow
def test_a_candidate_made_stale_in_the_same_commit_blocks_it(
    tmp_path: Path, hook_source: tuple[str, str], pre_commit_home: Path
) -> None:
    repo = make_repo(tmp_path, "clean")  # c-hook-001 cites STATUS by hash and line
    status = repo / STATUS
    status.write_text(status.read_text(encoding="utf-8") + "\nOne more line.\n")
    git(repo, "add", STATUS)  # only STATUS is part of the commit, no candidate file
    run = pre_commit_run(
        repo, "project-corpus-candidates", hook_source, pre_commit_home, all_files=False
    )
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert re.search(r"^project-corpus candidate-validate\.+Failed$", output, re.MULTILINE)
    stale = r"^\.project-corpus/candidates/c-hook-001\.json:\d+:\d+: FAIL CANDIDATE_EVIDENCE "
    assert re.search(stale, output, re.MULTILINE), output


@pytest.mark.slow
@pytest.mark.parametrize(
    ("deleted", "expected"),
    [
        (
            ".project-corpus/tasks/t-021-eviction.md",
            rf"^{re.escape(STATUS)}:5:\d+: FAIL ACTIVE_TASK_MISSING ",
        ),
        (
            ".project-corpus/reports/r-2026-11-18-eviction-bench-v3.md",
            rf"^{re.escape(STATUS)}:\d+:\d+: FAIL CITED_REPORT_MISSING ",
        ),
    ],
)
def test_a_commit_that_only_deletes_memory_is_blocked(
    tmp_path: Path, hook_source: tuple[str, str], pre_commit_home: Path, deleted: str, expected: str
) -> None:
    """`git rm` of the active task (or of a report STATUS cites) and nothing else: pre-commit
    passes the hook no file at all, and the doctor still runs and blocks the commit."""
    repo = make_repo(tmp_path, "clean")
    git(repo, "rm", "--quiet", deleted)
    run = pre_commit_run(
        repo, "project-corpus-doctor", hook_source, pre_commit_home, all_files=False
    )
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert re.search(r"^project-corpus memory doctor\.+Failed$", output, re.MULTILINE), output
    assert re.search(expected, output, re.MULTILINE), output
    assert "(no files to check)" not in output


@pytest.mark.slow
def test_a_clean_commit_outside_the_corpus_passes_every_hook(
    tmp_path: Path, hook_source: tuple[str, str], pre_commit_home: Path
) -> None:
    repo = make_repo(tmp_path, "clean")
    (repo / "app.py").write_text("print('hello')\n", encoding="utf-8")
    git(repo, "add", "app.py")
    run = pre_commit_run(repo, None, hook_source, pre_commit_home, all_files=False)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    for hook in HOOKS.values():  # both ran (always_run), neither was skipped
        assert re.search(rf"^{re.escape(hook['name'])}\.+Passed$", output, re.MULTILINE), output


def hook_output(output: str, name: str) -> list[str]:
    """The lines the hook NAME itself printed (after pre-commit's own `- ...` lines)."""
    block = output.split(f"{name}.", 1)[1].split("\n\n", 1)
    lines = block[1].split("\n\n", 1)[0].splitlines() if len(block) > 1 else []
    return [line for line in lines if line.strip()]


@pytest.mark.slow
def test_a_clean_corpus_prints_at_most_one_line_through_the_doctor_hook(
    tmp_path: Path, hook_source: tuple[str, str], pre_commit_home: Path
) -> None:
    run = pre_commit_run(
        make_repo(tmp_path, "clean"), "project-corpus-doctor", hook_source, pre_commit_home
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    printed = hook_output(output, "project-corpus memory doctor")
    assert len(printed) <= 1, output
    assert all(line.startswith("project-corpus: 0 FAIL, 0 WARN") for line in printed), output


@pytest.mark.slow
def test_with_no_candidate_file_a_broken_status_is_the_doctor_hooks_alone(
    tmp_path: Path, hook_source: tuple[str, str], pre_commit_home: Path
) -> None:
    repo = make_repo(tmp_path, "broken-status-no-candidates")
    run = pre_commit_run(repo, None, hook_source, pre_commit_home)
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert re.search(r"^project-corpus memory doctor\.+Failed$", output, re.MULTILINE), output
    assert re.search(r"^project-corpus candidate-validate\.+Passed$", output, re.MULTILINE), output
    assert "PROTOCOL_NONCONFORMANT" not in output


@pytest.mark.slow
def test_hook_args_point_the_hooks_at_a_corpus_in_a_subfolder(
    tmp_path: Path, hook_source: tuple[str, str], pre_commit_home: Path
) -> None:
    """`args: [services/api]` with the real `pre-commit run`: the entries pass no `.`, so
    the folder is the ROOT (before, click refused it as an unexpected extra argument)."""
    repo = tmp_path / "monorepo"
    copy_fixture(EXAMPLE, repo / "services" / "api")
    (repo / "README.md").write_text("A monorepo.\n", encoding="utf-8")
    git(repo, "init", "--quiet")
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "--no-gpg-sign", "-m", "monorepo")
    run = pre_commit_run(repo, None, hook_source, pre_commit_home, args=("services/api",))
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    for hook in HOOKS.values():
        assert re.search(rf"^{re.escape(hook['name'])}\.+Passed$", output, re.MULTILINE), output
    summary = hook_output(output, "project-corpus memory doctor")
    assert len(summary) == 1, output
    assert summary[0].startswith("project-corpus: 0 FAIL, 0 WARN"), output
    assert "unexpected extra argument" not in output
