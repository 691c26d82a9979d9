"""Task briefs named by a last word `task`, status-led proposals, tracked work items in front
matter, and folders of retired work items and of a work breakdown (docs/import.md, "Seventh
round"): `*_codex_task.md`, `docs/research/*` opening with `Status:`, front matter with an
owner and a priority, `graveyard/`, `icebox/`, `wbs/`. Real temporary git repositories,
English and Russian where a rule has words."""

from __future__ import annotations

from pathlib import Path

from tests.importer.helpers import CLI
from tests.importer.helpers import imports_cleanly
from tests.importer.helpers import plan
from tests.importer.repos import make_repo


def test_a_name_ending_in_task_is_a_task_brief(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "tasks",
        {
            "docs/auth_refactor_codex_task.md": "# Auth refactor\n\nMove the session code.\n",
            "docs/миграция-бд-задача.md": "# Миграция\n\nПеренести таблицы.\n",
            "work/задача-кэш.md": "# Кэш\n\nСбросить кэш.\n",
        },
    )
    roles, _ = plan(root)
    for path in (
        "docs/auth_refactor_codex_task.md",
        "docs/миграция-бд-задача.md",
        "work/задача-кэш.md",
    ):
        assert roles[path] == "todo-item", path
    imports_cleanly(cli, root)


def test_a_how_to_ending_in_task_is_no_task_brief(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "howto",
        {
            "TODO.md": "# TODO\n\n- [ ] Ship\n",
            "docs/how-to-write-a-task.md": "# Writing a task\n\nKeep it short.\n",
            "docs/как-поставить-задача.md": "# Как поставить задачу\n\nКоротко.\n",
        },
    )
    roles, left = plan(root)
    assert left["docs/how-to-write-a-task.md"] == "not-memory", roles
    assert left["docs/как-поставить-задача.md"] == "not-memory", roles


def test_a_status_line_marks_a_record_in_a_proposals_folder(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "research",
        {
            "docs/research/channels_spec.md": (
                "# Channels — spec\n\n> Status: research-stage draft. First-class channels.\n"
                "\nBody.\n"
            ),
            "docs/design/cache.md": "# Cache\n\n**Status**: ✅ implemented\n\nBody.\n",
            "docs/research/кэш.md": "# Кэш\n\n**Статус**: предложено\n\nТекст.\n",
        },
    )
    roles, _ = plan(root)
    for path in ("docs/research/channels_spec.md", "docs/design/cache.md", "docs/research/кэш.md"):
        assert roles[path] == "note", path
    imports_cleanly(cli, root)


def test_a_status_line_elsewhere_or_in_front_matter_says_nothing(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "pages",
        {
            "TODO.md": "# TODO\n\n- [ ] Ship\n",
            "docs/product/setup-screen.md": "# Setup\n\n> **Status**: Implemented\n\nBody.\n",
            "docs/research/page.md": "---\ntitle: Page\nstatus: draft\n---\n# Page\n\nText.\n",
            "docs/research/плоскость.md": "---\nstatus: draft\n---\n# Плоскость\n\nТекст.\n",
        },
    )
    _, left = plan(root)
    for path in (
        "docs/product/setup-screen.md",
        "docs/research/page.md",
        "docs/research/плоскость.md",
    ):
        assert left[path] == "not-memory", path


def test_front_matter_of_a_tracked_work_item_is_a_record(tmp_path: Path, cli: CLI) -> None:
    item = "---\ntitle: Retire command\nlane: inbox\npriority: medium\n---\n# Retire\n\nWhy.\n"
    page = "---\ntitle: Retire\nsidebar_position: 2\ntags: [cli]\n---\n# Retire\n\nHow.\n"
    root = make_repo(
        tmp_path / "items",
        {"docs/cli/retire-command.md": item, "docs/pages/retire.md": page},
    )
    roles, left = plan(root)
    assert roles["docs/cli/retire-command.md"] == "note"
    assert left["docs/pages/retire.md"] == "not-memory"
    imports_cleanly(cli, root)


def test_retired_items_and_a_work_breakdown_are_memory_by_folder(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "folders",
        {
            "docs/method/graveyard/PROCESS_feedback-command.md": "# Feedback\n\nDropped.\n",
            "icebox/offline-mode.md": "# Offline mode\n\nLater.\n",
            "docs/wbs/phase-1-ingest.md": "# Phase 1\n\n- [ ] Ingest\n",
        },
    )
    roles, _ = plan(root)
    assert roles["docs/method/graveyard/PROCESS_feedback-command.md"] == "todo-item"
    assert roles["icebox/offline-mode.md"] == "todo-item"
    assert roles["docs/wbs/phase-1-ingest.md"] == "plan"
    imports_cleanly(cli, root)
