"""`init` and `new`: doctor-clean corpora in English and Russian, artifacts with every key and
section, and never a byte changed when a path is taken (a file or a link in the way)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus import memory_doctor
from project_corpus.core.errors import ContextError
from project_corpus.scaffold.create import init_corpus
from project_corpus.scaffold.create import new_artifact
from tests.conftest import FIXTURES
from tests.conftest import Run
from tests.conftest import copy_fixture
from tests.conftest import tree_digest

PROJECT = ".project-corpus/state/PROJECT.md"
# The guidance line under each section heading of a fresh PROJECT, Task and Report.
PROJECT_GUIDANCE = [7, 10, 13, 16]
TASK_GUIDANCE = [9, 12, 15, 18]
REPORT_GUIDANCE = [9, 12, 15]  # without --task (one line less of metadata)


def issues(root: Path) -> list[tuple[str, str]]:
    """(code, path) of each finding but the guidance left unchanged (SCAFFOLD_PLACEHOLDER)."""
    report = memory_doctor(root)
    found = report["issues"]
    return [(i["code"], i["path"]) for i in found if i["code"] != "SCAFFOLD_PLACEHOLDER"]  # type: ignore[attr-defined]


def placeholders(root: Path) -> dict[str, list[int]]:
    """{path: lines} of the SCAFFOLD_PLACEHOLDER findings (every one a WARN)."""
    found: dict[str, list[int]] = {}
    for issue in memory_doctor(root)["issues"]:  # type: ignore[attr-defined]
        if issue["code"] == "SCAFFOLD_PLACEHOLDER":
            assert issue["severity"] == "WARN"
            found.setdefault(issue["path"], []).append(issue["line"])
    return found


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_init_writes_a_doctor_clean_corpus(
    tmp_path: Path, lang: str, cli: Callable[..., Run]
) -> None:
    root = tmp_path / "new-project"
    run = cli("init", root, "--lang", lang, "--format", "json")
    assert run.code == 0, run.err
    written = run.json()["written"]  # type: ignore[index]
    assert ".project-corpus/history/.gitkeep" in written
    assert (root / ".project-corpus/cache/.gitignore").read_text() == "*\n"
    assert issues(root) == []
    assert placeholders(root) == {PROJECT: PROJECT_GUIDANCE}
    assert cli("context", "build", root).code == 0
    assert cli("context", "bundle", root, "exact next action").code == 0


def test_russian_templates_keep_protocol_keys_and_translate_guidance(tmp_path: Path) -> None:
    init_corpus(tmp_path / "proekt", project_id="proekt-ru", name="Проект", lang="ru")
    project = (tmp_path / "proekt/.project-corpus/state/PROJECT.md").read_text(encoding="utf-8")
    assert "Project-ID: proekt-ru" in project
    assert "Logical-Name: Проект" in project
    assert "## Objective\nРади чего" in project


def test_project_id_defaults_to_the_folder_name(tmp_path: Path) -> None:
    init_corpus(tmp_path / "My Shop_2026")
    policy = (tmp_path / "My Shop_2026/.project-corpus/policy.toml").read_text(encoding="utf-8")
    assert 'project_id = "my-shop_2026"' in policy


def test_unusable_folder_name_asks_for_a_project_id(tmp_path: Path) -> None:
    with pytest.raises(ContextError) as info:
        init_corpus(tmp_path / "ab")
    assert (info.value.code, info.value.hint) == (
        "USAGE_ERROR",
        "pass --project-id ID (3-64 characters: a-z, 0-9, '.', '_', '-')",
    )
    assert not (tmp_path / "ab").exists()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_new_task_and_report_have_no_shape_findings(tmp_path: Path, lang: str) -> None:
    root = tmp_path / "shop"
    init_corpus(root, lang=lang)
    assert (
        new_artifact(root, "task", "t-001-checkout", lang=lang)
        == ".project-corpus/tasks/t-001-checkout.md"
    )
    rel = new_artifact(root, "report", "r-001-load-test", task_id="t-001-checkout", lang=lang)
    assert "Task-ID: t-001-checkout\n" in (root / rel).read_text(encoding="utf-8")
    assert issues(root) == []
    assert placeholders(root) == {
        PROJECT: PROJECT_GUIDANCE,
        ".project-corpus/tasks/t-001-checkout.md": TASK_GUIDANCE,
        rel: [line + 1 for line in REPORT_GUIDANCE],  # one line more: its Task-ID
    }


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_untouched_scaffolds_side_by_side_give_a_clean_doctor(
    tmp_path: Path, lang: str, cli: Callable[..., Run]
) -> None:
    """Two fresh tasks and two fresh reports share no text (no DUPLICATE_MEMORY_ITEM from
    the template's guidance), as getting-started promises."""
    root = tmp_path / "shop"
    init_corpus(root, lang=lang)
    for kind, artifact in [("task", "t-001"), ("task", "t-002"), ("report", "r-001")]:
        assert cli("new", kind, artifact, root).code == 0
    assert cli("new", "report", "r-002", root, "--task", "t-002").code == 0
    assert issues(root) == []


def test_new_writes_the_corpus_language_unless_lang_is_given(
    tmp_path: Path, cli: Callable[..., Run]
) -> None:
    root = tmp_path / "proekt"
    assert cli("init", root, "--lang", "ru").code == 0
    assert cli("new", "task", "t-001", root).code == 0
    assert cli("new", "report", "r-001", root, "--lang", "en").code == 0
    task = (root / ".project-corpus/tasks/t-001.md").read_text(encoding="utf-8")
    report = (root / ".project-corpus/reports/r-001.md").read_text(encoding="utf-8")
    assert "## Objective\nРезультат, который должна дать задача t-001." in task
    assert "## Summary\nWhat report r-001 records" in report
    english = tmp_path / "project"
    init_corpus(english)
    assert cli("new", "task", "t-001", english).code == 0
    text = (english / ".project-corpus/tasks/t-001.md").read_text(encoding="utf-8")
    assert "## Objective\nThe outcome task t-001 must produce." in text


def test_a_report_for_a_missing_task_is_refused_and_nothing_written(
    example: Path, cli: Callable[..., Run]
) -> None:
    before = tree_digest(example)
    run = cli("new", "report", "r-100-x", example, "--task", "t-999", "--format", "json")
    error = run.error()
    assert (run.code, error["error"]) == (2, "USAGE_ERROR")
    assert error["detail"] == "--task t-999: no such task in .project-corpus/tasks/"
    assert error["hint"] == (
        f"create it first with `project-corpus new task t-999 {example}`, or check the ID"
    )
    assert tree_digest(example) == before
    # a task named by its file stem or its Task-ID is found
    assert cli("new", "report", "r-100-x", example, "--task", "t-018-redis7").code == 0


def test_new_creates_an_absent_artifact_folder(tmp_path: Path) -> None:
    root = copy_fixture(FIXTURES / "published" / "software-project", tmp_path / "sw")
    assert new_artifact(root, "task", "l-013-audit-log").startswith(".project-corpus/tasks/")
    (root / ".project-corpus/history").mkdir()
    assert issues(root) == []


def test_init_over_an_existing_corpus_is_init_exists_and_changes_nothing(
    example: Path, cli: Callable[..., Run]
) -> None:
    before = tree_digest(example)
    run = cli("init", example)
    assert run.code == 2
    error = run.error()
    assert error["error"] == "INIT_EXISTS"
    assert ".project-corpus/policy.toml" in str(error["detail"])
    assert (
        error["hint"]
        == "init and new only create files: move those away, or pick another ROOT or ID"
    )
    assert tree_digest(example) == before


def test_one_existing_file_stops_init_before_anything_is_written(tmp_path: Path) -> None:
    root = tmp_path / "half"
    (root / ".project-corpus").mkdir(parents=True)
    (root / ".project-corpus/policy.toml").write_text("# ours\n", encoding="utf-8")
    (root / "AGENTS.md").write_text("# Ours\n", encoding="utf-8")
    before = tree_digest(root)
    with pytest.raises(ContextError) as info:
        init_corpus(root)
    assert info.value.code == "INIT_EXISTS"
    assert tree_digest(root) == before
    assert (root / "AGENTS.md").read_bytes() == b"# Ours\n"


def test_init_beside_an_owners_agents_md_keeps_it_and_appends_one_pointer(
    tmp_path: Path, cli: Callable[..., Run]
) -> None:
    root = tmp_path / "owned"
    root.mkdir()
    owner = b"# Ours\n\nBe brief."
    (root / "AGENTS.md").write_bytes(owner)
    written = init_corpus(root)
    assert "AGENTS.md" in written
    text = (root / "AGENTS.md").read_bytes()
    assert text.startswith(owner + b"\n\n## Project memory (Project Corpus)\n")
    assert text.count(b"## Project memory (Project Corpus)") == 1
    assert issues(root) == []
    again = cli("init", root)
    assert again.code == 2
    assert (root / "AGENTS.md").read_bytes() == text


def test_init_mentions_import_when_memory_is_kept_in_a_known_layout(
    tmp_path: Path, cli: Callable[..., Run]
) -> None:
    root = tmp_path / "bank"
    (root / "memory-bank").mkdir(parents=True)
    (root / "memory-bank/activeContext.md").write_text("# Active\n", encoding="utf-8")
    run = cli("init", root, "--format", "json")
    assert run.code == 0
    result = run.json()
    assert isinstance(result, dict)
    assert "project-corpus import" in str(result["hint"])
    assert "memory-bank" in str(result["hint"])


def test_not_a_corpus_error_mentions_import_when_memory_is_present(
    tmp_path: Path, cli: Callable[..., Run]
) -> None:
    root = tmp_path / "claude"
    root.mkdir()
    (root / "CLAUDE.md").write_text("# Notes\n", encoding="utf-8")
    run = cli("context", "doctor", root)
    error = run.error()
    assert error["error"] == "CONTEXT_ROOT"
    assert "project-corpus import" in str(error["hint"])
    assert "CLAUDE.md" in str(error["hint"])
    bare = tmp_path / "bare"
    bare.mkdir()
    assert "import" not in str(cli("context", "doctor", bare).error()["hint"])


@pytest.mark.parametrize("link", ["AGENTS.md", ".project-corpus", ".project-corpus/state"])
def test_a_link_in_the_way_is_init_exists_and_nothing_is_written(tmp_path: Path, link: str) -> None:
    root, outside = tmp_path / "linked", tmp_path / "outside"
    outside.mkdir()
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(outside / "target")
    before = tree_digest(tmp_path)
    with pytest.raises(ContextError) as info:
        init_corpus(root)
    assert info.value.code == "INIT_EXISTS"
    assert tree_digest(tmp_path) == before


def test_new_over_an_existing_task_is_init_exists(example: Path, cli: Callable[..., Run]) -> None:
    before = tree_digest(example)
    run = cli("new", "task", "t-018-redis7", example)
    assert (run.code, run.error()["error"]) == (2, "INIT_EXISTS")
    assert tree_digest(example) == before


def test_new_refuses_a_bad_id_and_task_on_a_task(example: Path, cli: Callable[..., Run]) -> None:
    assert cli("new", "task", "Bad ID", example).error()["error"] == "USAGE_ERROR"
    assert cli("new", "task", "t-100-x", example, "--task", "t-018-redis7").code == 2
    assert (
        cli("new", "report", "r-100-x", example, "--task", "Bad").error()["error"] == "USAGE_ERROR"
    )


def test_getting_started_five_commands_reach_a_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Run]
) -> None:
    import shlex

    doc = (Path(__file__).resolve().parents[2] / "docs" / "getting-started.md").read_text(
        encoding="utf-8"
    )
    block = doc.split("## Five commands\n\n```bash\n", 1)[1].split("```", 1)[0]
    commands = [shlex.split(line.split("#", 1)[0]) for line in block.strip().split("\n")]
    assert len(commands) == 5
    monkeypatch.chdir(tmp_path)
    for argv in commands:
        assert argv[0] == "project-corpus"
        run = cli(*argv[1:])  # not a terminal: JSON
        assert run.code == 0, (argv, run.err)
    assert run.json()["project_id"] == "my-project"  # type: ignore[index]
