"""Memory kept under names no tool fixes is picked up (docs/import.md, "Anywhere", "By shape"):
real temporary git repositories, English and Russian."""

from __future__ import annotations

from pathlib import Path

from project_corpus.importer import run_import
from tests.importer.helpers import CLI
from tests.importer.helpers import doctor_fails
from tests.importer.helpers import plan_documents
from tests.importer.repos import make_repo

ACTIVE_EN = "# Active Context\n\n## Current Focus\nThe relay board.\n\n## Next Steps\n1. Wire it.\n"
ACTIVE_RU = (
    "# Активный контекст\n\n## Текущий фокус\nПлата реле.\n\n## Следующие шаги\n1. Собрать.\n"
)


def test_memory_bank_names_in_a_folder_of_any_name_are_a_memory_bank(
    tmp_path: Path, cli: CLI
) -> None:
    root = make_repo(
        tmp_path / "lamps",
        {
            "cline_docs/activeContext.md": ACTIVE_EN,
            "cline_docs/productContext.md": "# Product\n\nLamps for the garden.\n",
            "cline_docs/userProfile.md": "# User\n\nPrefers short answers.\n",
            "ai/project_brief.md": "# Lamps\n\nA lamp controller.\n",
            "ai/system-patterns.md": "# Patterns\n\nOne broker.\n",
        },
    )
    roles, _, left = plan_documents(root)
    assert roles["cline_docs/activeContext.md"] == "active"
    assert roles["cline_docs/productContext.md"] == "reference"
    assert roles["cline_docs/userProfile.md"] == "reference"  # a bank's own file
    assert roles["ai/project_brief.md"] == "brief"
    assert roles["ai/system-patterns.md"] == "reference"
    assert left == {}
    run_import(root)
    status = (root / ".project-corpus/state/STATUS.md").read_text(encoding="utf-8")
    assert "1. Wire it." in status
    assert doctor_fails(cli, root) == 0


def test_a_russian_active_context_in_a_custom_folder_feeds_status(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "rele",
        {".roo/memory/active-context.md": ACTIVE_RU, ".roo/memory/progress.md": "# Прогресс\n"},
    )
    roles, _, _ = plan_documents(root)
    assert roles[".roo/memory/active-context.md"] == "active"
    run_import(root)
    status = (root / ".project-corpus/state/STATUS.md").read_text(encoding="utf-8")
    assert "1. Собрать." in status
    assert "Lifecycle-Status: ACTIVE" in status


def test_nested_agent_rules_are_named_by_their_folder(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "mono",
        {
            "AGENTS.md": "# Agents\n\nRun the tests.\n",
            "apps/web/CLAUDE.md": "# Web\n\nUse pnpm.\n",
            "services/api/AGENTS.md": "# API\n\nНе трогать схему.\n",
            "tools/cli/.github/copilot-instructions.md": "# CLI\n\nKeep flags stable.\n",
            ".roo/rules-code/style.md": "# Style\n\nSmall functions.\n",
        },
    )
    roles, documents, _ = plan_documents(root)
    for path in (
        "apps/web/CLAUDE.md",
        "services/api/AGENTS.md",
        "tools/cli/.github/copilot-instructions.md",
        ".roo/rules-code/style.md",
    ):
        assert roles[path] == "rules", path
    assert documents["apps/web/CLAUDE.md"] == [".project-corpus/state/apps-web-claude.md"]
    assert documents["services/api/AGENTS.md"] == [".project-corpus/state/services-api-agents.md"]


def test_folders_named_by_what_they_keep_are_memory_at_any_depth(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "kinds",
        {
            "project/dev-notes/cache.md": "# Cache\n\nThe cache is per user.\n",
            "docs/status-reports/week-12.md": "# Week 12\n\nShipped the timer.\n",
            "docs/журнал/2025-03-02.md": "# 2 марта\n\nПочинили реле.\n",
            "ops/Incidents/disk-full.md": "# Disk full\n\nThe log volume filled up.\n",
            "team/Decision_Log/storage.md": "# Storage\n\nSQLite it is.\n",
            "team/Decision_Log/README.md": "# Decision log\n\nOne file per decision.\n",
            "notes/2025-04-01-standup.md": "# Standup\n\nAll green.\n",
        },
    )
    roles, documents, left = plan_documents(root)
    assert roles["project/dev-notes/cache.md"] == "note"
    assert roles["docs/status-reports/week-12.md"] == "log-entry"
    assert roles["ops/Incidents/disk-full.md"] == "postmortem"
    assert roles["team/Decision_Log/storage.md"] == "decision"
    assert roles["notes/2025-04-01-standup.md"] == "log-entry"
    assert documents["docs/status-reports/week-12.md"][0].startswith(".project-corpus/reports/")
    assert left["team/Decision_Log/README.md"] == "not-memory"
    # a Russian folder name is no known word: its dated entry is still a journal entry
    assert roles["docs/журнал/2025-03-02.md"] == "log-entry"


DECISION_EN = """# Use SQLite

## Context
Two writers at most.

## Decision
We use SQLite.

## Consequences
One file to back up.
"""
DECISION_RU = """# Хранилище

## Контекст
Не больше двух писателей.

## Решение
Берём SQLite.

## Последствия
Один файл для резервной копии.
"""
STATUS_EN = """# Where the lamps are

## Current state
The relay works on the bench.

## Blockers
- The porch has no socket.

## Next steps
1. Run a cable to the porch.
"""
STATUS_RU = """# Сводка

## Текущее состояние
Реле работает на столе.

## Блокеры
- На крыльце нет розетки.

## Следующие шаги
1. Протянуть кабель.
"""
LOG_EN = "# Bench notes\n\n## 2025-03-01\nWired it.\n\n## 2025-03-02\nTested it.\n"
LOG_RU = "# Заметки\n\n## 01.03.2025\nСобрали.\n\n## 02.03.2025\nПроверили.\n"


def test_unclaimed_docs_are_judged_by_their_headings_in_both_languages(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "shapes",
        {
            "docs/storage.md": DECISION_EN,
            "docs/design/хранилище.md": DECISION_RU,
            "docs/where-we-are.md": STATUS_EN,
            "docs/сводка.md": STATUS_RU,
            "docs/bench.md": LOG_EN,
            "docs/заметки.md": LOG_RU,
            "docs/setup.md": "# Setup\n\n## Install\npip install lamps\n\n## Next steps\nRead on.\n",
            "docs/api/lamps.md": DECISION_EN,
            "src/lamps/plan.md": STATUS_EN,
        },
    )
    roles, _, left = plan_documents(root)
    assert roles["docs/storage.md"] == "decision"
    assert roles["docs/design/хранилище.md"] == "decision"
    assert roles["docs/where-we-are.md"] == "handoff"
    assert roles["docs/сводка.md"] == "handoff"
    assert roles["docs/bench.md"] == "log-file"
    assert roles["docs/заметки.md"] == "log-file"
    assert left["docs/setup.md"] == "not-memory"  # "Next steps" alone says nothing
    assert left["docs/api/lamps.md"] == "not-memory"  # reference text is never judged
    assert left["src/lamps/plan.md"] == "not-memory"  # not a docs-like folder


def test_a_status_judged_by_its_shape_gives_status_its_lines(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "porch", {"docs/сводка.md": STATUS_RU, "docs/storage.md": DECISION_EN}
    )
    run_import(root)
    status = (root / ".project-corpus/state/STATUS.md").read_text(encoding="utf-8")
    assert "1. Протянуть кабель." in status
    assert "- На крыльце нет розетки." in status
    assert doctor_fails(cli, root) == 0


def test_vendored_markdown_is_left_out_with_a_reason(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "vendored",
        {
            "CLAUDE.md": "# Rules\n\nRun the tests.\n",
            "node_modules/lib/CHANGELOG.md": "# Changelog\n\n## 1.0.0\nFirst.\n",
            "node_modules/lib/docs/adr/0001-x.md": DECISION_EN,
            "vendor/pkg/AGENTS.md": "# Theirs\n",
            "third_party/x/memory-bank/progress.md": "# Progress\n",
            "build/docs/handoff.md": STATUS_EN,
            "docs/_build/storage.md": DECISION_EN,
            "README.md": "# Lamps\n",
            "LICENSE.md": "MIT\n",
            "CONTRIBUTING.md": "# Contributing\n",
        },
    )
    roles, _, left = plan_documents(root)
    assert set(roles) == {"CLAUDE.md", "README.md"}
    for folder in ("node_modules", "vendor", "third_party", "build", "docs/_build"):
        assert left[folder] == "vendored", folder
    assert left["LICENSE.md"] == "not-memory"
    assert left["CONTRIBUTING.md"] == "not-memory"
    assert not any(path.startswith("node_modules/") for path in left)


def test_numbered_key_files_agent_folders_and_steering_are_memory(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "numbered",
        {
            "docs/09-decisions.md": "# Decisions\n\n- 2025-01-02: SQLite.\n",
            "docs/03-roadmap.md": "# Дорожная карта\n\n- Реле.\n",
            ".claude/codebase/map.md": "# Map\n\nsrc/ holds the broker.\n",
            "docs/steering/tech.md": "# Tech\n\nPython 3.12.\n",
            "docs/design/SYSTEM_DESIGN.md": "# System design\n\nOne broker.\n",
            "docs/01-install.md": "# Install\n\npip install lamps\n",
        },
    )
    roles, _, left = plan_documents(root)
    assert roles["docs/09-decisions.md"] == "decision-log"
    assert roles["docs/03-roadmap.md"] == "roadmap"
    assert roles[".claude/codebase/map.md"] == "reference"
    assert roles["docs/steering/tech.md"] == "reference"
    assert roles["docs/design/SYSTEM_DESIGN.md"] == "reference"
    assert left["docs/01-install.md"] == "not-memory"


def test_templates_and_agent_prompts_are_not_memory(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "forms",
        {
            "CLAUDE.md": "# Rules\n\nRun the tests.\n",
            "docs/templates/POSTMORTEM.md": "# Postmortem: <title>\n",
            "docs/templates/adr.md": DECISION_EN,
            "docs/adr-template.md": DECISION_RU,
            "docs/sessions/_template.md": "# Session <date>\n",
            "notes/шаблон-template.md": "# Заметка\n",
            ".claude/commands/commit.md": "Commit the staged changes.\n",
            ".claude/notes/broker.md": "# Broker\n\nOne per house.\n",
            "docs/decisions/0002-a-tool-not-a-template.md": DECISION_EN,
        },
    )
    roles, _, left = plan_documents(root)
    assert roles[".claude/notes/broker.md"] == "note"
    assert roles["docs/decisions/0002-a-tool-not-a-template.md"] == "decision"
    for path in (
        "docs/templates/POSTMORTEM.md",
        "docs/templates/adr.md",
        "docs/adr-template.md",
        "docs/sessions/_template.md",
        "notes/шаблон-template.md",
        ".claude/commands/commit.md",
    ):
        assert left[path] == "not-memory", path


def test_russian_folder_words_and_hidden_memory_folders_are_memory(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "ru",
        {
            "docs/решения/хранилище.md": "# Хранилище\n\nSQLite.\n",
            "docs/Отчёты/неделя-12.md": "# Неделя 12\n\nСделали таймер.\n",
            ".context/product/mission.md": "# Mission\n\nGarden lamps.\n",
            ".cache/notes.md": "# Not entered\n",
        },
    )
    roles, _, left = plan_documents(root)
    assert roles["docs/решения/хранилище.md"] == "decision"
    assert roles["docs/Отчёты/неделя-12.md"] == "log-entry"
    assert roles[".context/product/mission.md"] == "reference"
    assert ".cache/notes.md" not in roles
    assert ".cache/notes.md" not in left
