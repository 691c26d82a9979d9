"""`project-corpus import` on real temporary git repositories (docs/import.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from project_corpus.core.errors import ContextError
from project_corpus.importer import ImportOptions
from project_corpus.importer import run_import
from tests.conftest import tree_digest
from tests.conftest import write_files
from tests.importer.helpers import CLI
from tests.importer.helpers import doctor_fails
from tests.importer.repos import MEMORY_REPO
from tests.importer.repos import RUSSIAN_ACTIVE
from tests.importer.repos import git
from tests.importer.repos import make_repo

STATE = ".project-corpus/state"


def read(root: Path, rel: str) -> str:
    return (root / rel).read_text(encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "lamps", MEMORY_REPO)


def test_dry_run_prints_every_file_and_what_it_leaves_out_and_writes_nothing(
    repo: Path, cli: CLI
) -> None:
    before = tree_digest(repo)
    run = cli("import", repo, "--dry-run", "--format", "json")
    assert run.code == 0, run.err
    plan = run.json()
    assert isinstance(plan, dict)
    assert tree_digest(repo) == before
    became = {row["path"]: row["documents"] for row in plan["sources"]}
    assert became["memory-bank/projectbrief.md"] == [f"{STATE}/PROJECT.md"]
    assert f"{STATE}/STATUS.md" in became["memory-bank/activeContext.md"]
    assert became["docs/adr/0001-use-mqtt.md"] == [".project-corpus/state/adr-0001-use-mqtt.md"]
    assert became["README.md"] == [f"{STATE}/readme.md"]
    left = {row["path"]: row["reason"] for row in plan["left_out"]}
    assert left == {
        "docs/adr/template.md": "not-memory",
        "docs/setup.md": "not-memory",
    }
    assert plan["dry_run"] is True
    assert {d["action"] for d in plan["documents"]} == {"create"}
    text = cli("import", repo, "--dry-run", "--format", "text")
    assert "memory-bank/activeContext.md (active) -> " in text.out
    assert "docs/setup.md: not-memory" in text.out
    assert tree_digest(repo) == before


def test_the_imported_corpus_has_no_fail_finding(repo: Path, cli: CLI) -> None:
    run = cli("import", repo, "--format", "json")
    assert run.code == 0, run.err
    assert doctor_fails(cli, repo) == 0


def test_status_holds_the_owners_own_lines(repo: Path) -> None:
    run_import(repo)
    status = read(repo, f"{STATE}/STATUS.md")
    assert "Lifecycle-Status: ACTIVE" in status
    assert "Evidence-Class: DOCUMENTED" in status
    next_action = status.split("## Exact Next Action\n", 1)[1]
    assert "### Next Steps\n1. Wire the second relay board.\n" in next_action
    blockers = status.split("## Blockers\n", 1)[1].split("## Evidence References")[0]
    assert "- The relay clicks twice on power-up." in blockers
    baseline = status.split("## Current Verified Baseline\n", 1)[1].split("## Blockers")[0]
    assert "The relay board answers on the bench" in baseline
    project = read(repo, f"{STATE}/PROJECT.md")
    assert project.startswith("# Project Brief: Lamp controller\nProtocol-Version: 2.0\n")
    assert "## Non-Goals\n\n### Out of Scope\n- No cloud account." in project
    assert "## Invariants\n\n### Technical Requirements\n" in project


def test_without_owner_lines_status_says_none_honestly(tmp_path: Path, cli: CLI) -> None:
    from tests.importer.repos import ADR

    root = make_repo(tmp_path / "adrs", {"docs/adr/0001-use-mqtt.md": ADR})
    run_import(root)
    status = read(root, f"{STATE}/STATUS.md")
    assert "Lifecycle-Status: PAUSED" in status
    assert "Last-Verified-At: UNVERIFIED\nEvidence-Class: UNVERIFIED" in status
    assert status.count("\n\nNONE\n") == 4
    assert doctor_fails(cli, root) == 0


def test_prose_is_verbatim_fences_tables_front_matter_and_nested_lists_intact(repo: Path) -> None:
    run_import(repo)
    reference = read(repo, f"{STATE}/active-context.md")
    assert '```python\n# not a heading: inside a fence\nprint("ok")\n```' in reference
    assert "| board | relays |\n|---|---|\n| A | 4 |" in reference
    history = read(repo, ".project-corpus/history/progress.md")
    assert history.startswith("# Progress\nDate: 2025-03-02\nSource: memory-bank/progress.md\n")
    assert "---\nupdated: 2025-03-02\n---" in history
    assert "- The bench rig switches four lamps.\n  - nested: the timer too" in history


def test_dates_come_from_date_lines_front_matter_else_the_first_commit(repo: Path) -> None:
    run_import(repo)
    assert "Date: 2024-11-05" in read(repo, ".project-corpus/state/adr-0001-use-mqtt.md")
    undated = read(repo, ".project-corpus/state/adr-0002-keep-one-broker.md")
    assert undated.startswith("# 2. Keep one broker\nDate: 2024-12-24\n")


def test_reimport_of_unchanged_sources_changes_no_byte(repo: Path, cli: CLI) -> None:
    assert cli("import", repo).code == 0
    after_first = tree_digest(repo)
    run = cli("import", repo, "--format", "json")
    assert run.code == 0
    assert tree_digest(repo) == after_first
    result = run.json()
    assert isinstance(result, dict)
    assert result["summary"]["create"] == result["summary"]["update"] == 0


def test_a_hand_edit_survives_a_reimport_and_is_reported(repo: Path) -> None:
    run_import(repo)
    edited = read(repo, f"{STATE}/tech-context.md") + "\nOwner's own note.\n"
    write_files(repo, {f"{STATE}/tech-context.md": edited})
    write_files(
        repo,
        {
            "memory-bank/techContext.md": "# Tech Context\n\nPython 3.13 on a Pi 5.\n",
            "docs/adr/0002-keep-one-broker.md": "# 2. Keep one broker\n\nTwo brokers now.\n",
        },
    )
    result = run_import(repo)
    actions = {d["path"]: d["action"] for d in result["documents"]}  # type: ignore[union-attr]
    assert actions[f"{STATE}/tech-context.md"] == "kept-edited"
    assert actions[".project-corpus/state/adr-0002-keep-one-broker.md"] == "update"
    assert read(repo, f"{STATE}/tech-context.md") == edited
    assert "Two brokers now." in read(repo, ".project-corpus/state/adr-0002-keep-one-broker.md")
    again = run_import(repo)
    kept = {d["path"]: d["action"] for d in again["documents"]}  # type: ignore[union-attr]
    assert kept[f"{STATE}/tech-context.md"] == "kept-edited"


def test_stale_documents_are_deleted_only_with_prune(repo: Path) -> None:
    run_import(repo)
    adr = repo / ".project-corpus/state/adr-0001-use-mqtt.md"
    tech = repo / f"{STATE}/tech-context.md"
    write_files(repo, {"docs/adr/0001-use-mqtt.md": None, "memory-bank/techContext.md": None})
    tech.write_text(tech.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    result = run_import(repo)
    stale = {f["path"]: f["action"] for f in result["files"]}  # type: ignore[union-attr]
    assert stale[str(adr.relative_to(repo))] == "stale"
    assert stale[str(tech.relative_to(repo))] == "stale-edited"
    assert adr.exists()
    assert tech.exists()
    pruned = run_import(repo, ImportOptions(prune=True))
    gone = {f["path"]: f["action"] for f in pruned["files"]}  # type: ignore[union-attr]
    assert gone[str(adr.relative_to(repo))] == "prune"
    assert not adr.exists()
    assert tech.exists(), "an edited document is never deleted"


def test_links_encodings_and_oversized_files_are_skipped_with_a_reason(
    tmp_path: Path, cli: CLI
) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("# Secret\n\nTOP SECRET LINE\n", encoding="utf-8")
    root = make_repo(tmp_path / "repo", MEMORY_REPO, commit=False)
    (root / "memory-bank/linked.md").symlink_to(outside)
    (root / "docs/decisions").symlink_to(tmp_path)
    write_files(
        root,
        {
            "memory-bank/latin1.md": "# Café\n\nné à Paris\n".encode("latin-1"),
            "memory-bank/huge.md": b"# Huge\n" + b"x" * (8 * 1024 * 1024),
        },
    )
    result = run_import(root)
    left = {row["path"]: row["reason"] for row in result["left_out"]}  # type: ignore[union-attr]
    assert left["memory-bank/linked.md"] == "link"
    assert left["docs/decisions"] == "link"
    assert left["memory-bank/latin1.md"] == "encoding"
    assert left["memory-bank/huge.md"] == "oversized"
    written = (root / ".project-corpus").rglob("*.md")
    corpus = "".join(p.read_text(encoding="utf-8") for p in written)
    assert "TOP SECRET LINE" not in corpus
    assert doctor_fails(cli, root) == 0


def test_russian_headings_map_onto_status_sections(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(tmp_path / "rele", {"memory-bank/activeContext.md": RUSSIAN_ACTIVE})
    run_import(root)
    status = read(root, f"{STATE}/STATUS.md")
    assert "## Current Verified Baseline\n\n### Текущее состояние\n" in status
    assert "## Blockers\n\n### Блокеры\n- Реле щёлкает дважды при включении." in status
    assert "## Exact Next Action\n\n### Следующие шаги\n1. Подключить вторую плату реле." in status
    assert "Lifecycle-Status: ACTIVE" in status
    assert doctor_fails(cli, root) == 0


def test_an_owners_agents_md_keeps_every_byte_and_gets_one_pointer(tmp_path: Path) -> None:
    owner = b"# Our agents\r\n\r\nBe kind to the relays."  # no final newline, CRLF
    root = make_repo(tmp_path / "own", {**MEMORY_REPO, "AGENTS.md": owner})
    first = run_import(root)
    assert first["agents_md"] == "append"
    text = (root / "AGENTS.md").read_bytes()
    assert text.startswith(owner)
    assert text.count(b"## Project memory (Project Corpus)") == 1
    second = run_import(root)
    assert second["agents_md"] == "present"
    assert (root / "AGENTS.md").read_bytes() == text
    agents_doc = read(root, f"{STATE}/agents.md")
    assert "Be kind to the relays." in agents_doc
    assert "Project memory (Project Corpus)" not in agents_doc


def test_agents_md_is_created_when_absent(repo: Path) -> None:
    result = run_import(repo)
    assert result["agents_md"] == "create"
    assert ".project-corpus/state/PROJECT.md" in read(repo, "AGENTS.md")


def test_logs_changelog_todo_and_specs_become_reports_and_tasks(tmp_path: Path, cli: CLI) -> None:
    files = {
        "LOG.md": "# Log\n\n## 2025-01-02 Wired relays\nDone.\n\n## 2025-01-05 Tested\nNext: porch.\n",
        "CHANGELOG.md": "# Changelog\n\n## [1.2.0] - 2025-02-01\n- Faster.\n\n## [1.1.0] - 2025-01-01\n- First.\n",
        "TODO.md": "# TODO\n\n- [ ] Buy a case\n- [x] Solder headers\n",
        ".kiro/specs/timer/tasks.md": "# Tasks\n\n- [ ] 1. Add a timer\n",
        ".kiro/specs/timer/requirements.md": "# Requirements\n\nThe timer runs at dusk.\n",
        "docs/postmortems/2025-01-10-fuse.md": "# Blown fuse\n\nA fuse blew.\n",
    }
    root = make_repo(tmp_path / "logs", files)
    result = run_import(root)
    paths = {d["path"]: d for d in result["documents"]}  # type: ignore[union-attr]
    assert ".project-corpus/reports/log-2025-01-02-wired-relays.md" in paths
    assert ".project-corpus/reports/changelog-1.2.0.md" in paths
    assert ".project-corpus/reports/2025-01-10-fuse.md" in paths
    assert ".project-corpus/tasks/spec-timer.md" in paths
    assert ".project-corpus/state/spec-timer-requirements.md" in paths
    assert "Task-Status: DONE" in read(root, ".project-corpus/tasks/todo-solder-headers.md")
    report = read(root, ".project-corpus/reports/changelog-1.2.0.md")
    assert report.startswith("# [1.2.0] - 2025-02-01\nProtocol-Version: 2.0\n")
    assert "Created-At: 2025-02-01" in report
    status = read(root, f"{STATE}/STATUS.md")
    assert "## Exact Next Action\n\n- [ ] Buy a case\n" in status
    assert doctor_fails(cli, root) == 0


def test_include_adds_and_exclude_removes_files(repo: Path) -> None:
    result = run_import(
        repo, ImportOptions(include=("docs/setup.md",), exclude=("docs/adr/**",), dry_run=True)
    )
    became = {row["path"]: row["documents"] for row in result["sources"]}  # type: ignore[union-attr]
    assert became["docs/setup.md"] == [".project-corpus/history/setup.md"]
    left = {row["path"]: row["reason"] for row in result["left_out"]}  # type: ignore[union-attr]
    assert left["docs/adr/0001-use-mqtt.md"] == "excluded"


def test_a_folder_without_memory_is_import_no_memory(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(tmp_path / "plain", {"src/main.py": "print(1)\n"})
    run = cli("import", root)
    assert run.code == 2
    assert run.error()["error"] == "IMPORT_NO_MEMORY"
    with pytest.raises(ContextError):
        run_import(root)


def test_thousands_of_files_give_a_plan_of_what_was_left_out(tmp_path: Path, cli: CLI) -> None:
    files: dict[str, str | bytes | None] = {
        f"docs/worklog/2025-01-{1 + i % 28:02d}-entry-{i:04d}.md": f"# Entry {i}\n\nDid {i}.\n"
        for i in range(2100)
    }
    root = make_repo(tmp_path / "big", files, commit=False)
    result = run_import(root)
    limited = [r for r in result["left_out"] if r["reason"] == "limit"]  # type: ignore[union-attr]
    assert len(limited) == 2100 + 2 - 2048
    assert doctor_fails(cli, root) == 0


def test_a_link_where_the_corpus_folder_goes_is_import_write(tmp_path: Path, cli: CLI) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = make_repo(tmp_path / "linked", MEMORY_REPO, commit=False)
    (root / ".project-corpus").symlink_to(elsewhere)
    run = cli("import", root)
    assert run.code == 2
    assert run.error()["error"] == "IMPORT_WRITE"
    assert list(elsewhere.iterdir()) == []


def test_git_configuration_never_runs_a_program(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    root = make_repo(tmp_path / "hostile", MEMORY_REPO)
    script = tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\n", encoding="utf-8")
    script.chmod(0o755)
    git(root, "config", "core.fsmonitor", str(script))
    git(root, "config", "log.showSignature", "true")
    git(root, "config", "gpg.program", str(script))
    git(root, "config", "core.pager", str(script))
    run_import(root)
    assert not marker.exists()


def test_git_dates_come_from_the_work_tree_holding_root_whatever_root_and_environment_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    top = make_repo(tmp_path / "top", {f"sub/{k}": v for k, v in MEMORY_REPO.items()})
    root = top / "sub"
    subprocess.run(["git", "init", "-q", "--bare", str(root)], check=True, capture_output=True)
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    monkeypatch.setenv("GIT_GRAFT_FILE", str(tmp_path / "grafts"))
    run_import(root)
    undated = read(root, ".project-corpus/state/adr-0002-keep-one-broker.md")
    assert undated.startswith("# 2. Keep one broker\nDate: 2024-12-24\n")


def test_git_runs_with_the_argv_head_review_gives_it(tmp_path: Path) -> None:
    from project_corpus.core import gitenv
    from project_corpus.importer import dates

    top = make_repo(tmp_path / "top", {"sub/memory-bank/progress.md": "# P\n"})
    argv = dates._log_argv(str(top / "sub"))
    assert argv is not None
    head = gitenv.git_argv(str(top / ".git"), str(top), [])
    assert argv[: len(head)] == head
    assert dates._log_argv(str(top / ".git")) is None
    assert dates._log_argv(str(tmp_path)) is None


def test_text_plan_escapes_names_and_reports_kept_documents(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "esc", {**MEMORY_REPO, "docs/adr/0003-\x1b[31mred.md": "# 3\n\nx\n"}
    )
    assert cli("import", root).code == 0
    write_files(
        root, {f"{STATE}/tech-context.md": "# mine\n", "memory-bank/techContext.md": "# T\n\nnew\n"}
    )
    run = cli("import", root, "--format", "text")
    assert run.code == 0
    assert "\x1b" not in run.out
    assert "0003-\\x1b[31mred.md" in run.out
    assert f"{STATE}/tech-context.md: kept: edited since import wrote it" in run.out
    assert run.out.rstrip().endswith("AGENTS.md: unchanged")


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("docs/adr/**", "docs/adr/x.md", True),
        ("docs/adr/**", "docs/x.md", False),
        ("template.md", "docs/adr/template.md", True),
        ("docs/", "docs/a/b.md", True),
        ("docs/*.md", "docs/a/b.md", False),
        ("docs/**/b.md", "docs/b.md", True),
        ("docs/**/b.md", "docs/a/c/b.md", True),
        ("notes", "x/notes/y.md", True),
        ("d?cs/*", "docs/x", True),
        ("*a*a*a*a*a*a*a*a*a*b", "a" * 255, False),
    ],
)
def test_globs_read_as_git_and_ruff_read_them(pattern: str, path: str, expected: bool) -> None:
    from project_corpus.importer.discover import glob_match
    from project_corpus.importer.discover import glob_parts

    assert glob_match(glob_parts(pattern), path) is expected


def test_the_workspace_import_is_the_commands_result(repo: Path, cli: CLI) -> None:
    from project_corpus.workspace import Workspace

    planned = Workspace(repo).import_(ImportOptions(dry_run=True))
    run = cli("import", repo, "--dry-run", "--format", "json")
    assert run.json() == {**planned, "root": str(repo)}
