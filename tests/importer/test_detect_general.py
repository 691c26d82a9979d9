"""Memory found by rules that name no repository's words (docs/import.md, "Layouts", "By name"
and "Beside memory"): records named by what they hold, translation twins, record folders,
memory beside memory, unknown hidden tool folders. Real temporary git repositories, English
and Russian (Cyrillic and transliterated)."""

from __future__ import annotations

from pathlib import Path

from tests.importer.helpers import CLI
from tests.importer.helpers import imports_cleanly
from tests.importer.helpers import plan
from tests.importer.repos import make_repo


def test_records_named_by_what_they_hold_are_memory_anywhere(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "ledgers",
        {
            "mechanics/relay/LANDING_LOG.md": "# Relay landing log\n\n- Wave 1 landed.\n",
            "mechanics/relay/OWNER_REQUESTS.md": "# Requests\n\n- Ship the board.\n",
            "contract/DEPLOYMENT_RECORD.md": "# Deployment\n\nDeployed at block 12.\n",
            "docs/verification-ledger.md": "# Ledger\n\n| check | ok |\n|---|---|\n| a | y |\n",
            "docs/migration-report-2025-01-08.md": "# Migration\n\nAll rows moved.\n",
            "docs/adr-storage-choice.md": "# Storage\n\nWe keep SQLite.\n",
            "ops/migration-plan.md": "# Migration plan\n\n1. Copy.\n",
            "ops/NEXT_STEPS.md": "# Next\n\n- Wire the relay.\n",
            "team/meeting-notes.md": "# Meeting\n\nWe agreed.\n",
            "KNOWN_ISSUES.md": "# Known issues\n\n- The relay clicks.\n",
            "src/relay/driver.md": "# Driver\n\nHow the driver talks to the pins.\n",
        },
    )
    roles, left = plan(root)
    assert roles["mechanics/relay/LANDING_LOG.md"] == "log-file"
    assert roles["mechanics/relay/OWNER_REQUESTS.md"] == "todo-file"
    assert roles["contract/DEPLOYMENT_RECORD.md"] == "note"
    assert roles["docs/verification-ledger.md"] == "log-file"
    assert roles["docs/migration-report-2025-01-08.md"] == "note"  # the date is no kind
    assert roles["docs/adr-storage-choice.md"] == "decision"  # the kind said first
    assert roles["ops/migration-plan.md"] == "plan"
    assert roles["ops/NEXT_STEPS.md"] == "handoff"
    assert roles["team/meeting-notes.md"] == "log-file"  # as NOTES.md: dated sections split
    assert roles["KNOWN_ISSUES.md"] == "todo-file"
    assert left["src/relay/driver.md"] == "not-memory"  # its name says no record
    imports_cleanly(cli, root)


def test_russian_record_names_in_cyrillic_and_in_latin_letters(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "zametki",
        {
            "docs/dorozhnaya-karta-i-beklog.md": "# Дорожная карта\n\n- Реле.\n",
            "docs/dorozhnaya-karta-etapy-8d0cea.md": "# Этапы\n\n- Первый.\n",
            "docs/tekushie-zadachi.md": "# Текущие задачи\n\n- [ ] Собрать плату.\n",
            "docs/adr-zhurnal-reshenij-b34c2e.md": "# Журнал решений\n\n- SQLite.\n",
            "docs/adr-tegi-i-fasety.md": "# Теги\n\nТеги плоские.\n",
            "docs/журнал-решений.md": "# Журнал\n\n- Реле.\n",
            "notes/отчёт.md": "# Отчёт\n\nСделано.\n",
            "work/plan-zapuska.md": "# План\n\n1. Запуск.\n",
            "work/sleduyushchie-shagi.md": "# Дальше\n\n- Реле.\n",
            "work/рабочие-заметки.md": "# Заметки\n\nРеле щёлкает.\n",
            "product/geroi-i-personazhi.md": "# Персонажи\n\nДинозаврик.\n",
        },
    )
    roles, left = plan(root)
    assert roles["docs/dorozhnaya-karta-i-beklog.md"] == "roadmap"
    assert roles["docs/dorozhnaya-karta-etapy-8d0cea.md"] == "roadmap"  # the hash ignored
    assert roles["docs/tekushie-zadachi.md"] == "todo-file"
    assert roles["docs/adr-zhurnal-reshenij-b34c2e.md"] == "decision-log"
    assert roles["docs/adr-tegi-i-fasety.md"] == "decision"
    assert roles["docs/журнал-решений.md"] == "decision-log"
    assert roles["notes/отчёт.md"] == "note"
    assert roles["work/plan-zapuska.md"] == "plan"  # the kind said first
    assert roles["work/sleduyushchie-shagi.md"] == "handoff"
    assert roles["work/рабочие-заметки.md"] == "log-file"
    assert left["product/geroi-i-personazhi.md"] == "not-memory"  # product content
    imports_cleanly(cli, root)


def test_translations_are_read_as_their_original(tmp_path: Path, cli: CLI) -> None:
    active = "# Active Context\n\n## Current Focus\nThe relay.\n\n## Next Steps\n1. Wire it.\n"
    root = make_repo(
        tmp_path / "twins",
        {
            "cline_docs/activeContext.md": active,
            "cline_docs/activeContext.zh-CN.md": "# 活动上下文\n\n## Next Steps\n1. 接线。\n",
            "cline_docs/userProfile.md": "# User\n\nPrefers short answers.\n",
            "cline_docs/userProfile.ru.md": "# Пользователь\n\nКороткие ответы.\n",
            "COMPLETION_REPORT.zh-CN.md": "# 报告\n\n完成。\n",
            "docs/guide.pt-BR.md": "# Guia\n\nInstale.\n",
        },
    )
    roles, left = plan(root)
    assert roles["cline_docs/activeContext.md"] == "active"
    assert roles["cline_docs/activeContext.zh-CN.md"] == "active"
    assert roles["cline_docs/userProfile.md"] == "reference"
    assert roles["cline_docs/userProfile.ru.md"] == "reference"
    assert roles["COMPLETION_REPORT.zh-CN.md"] == "note"
    assert left["docs/guide.pt-BR.md"] == "not-memory"  # a translated guide is still a guide
    imports_cleanly(cli, root)


def test_folders_of_id_named_records_are_records(tmp_path: Path, cli: CLI) -> None:
    quest = "# {0}: Wire the relay\n\n## Quest\nWire it.\n"
    root = make_repo(
        tmp_path / "records",
        {
            "work/lamps/ready/LMP-Q-0001-wire-relay.md": quest.format("LMP-Q-0001"),
            "work/lamps/ready/LMP-Q-0002-test-app.md": quest.format("LMP-Q-0002"),
            "work/lamps/ready/LMP-Q-0003-porch.md": quest.format("LMP-Q-0003"),
            "work/lamps/ready/README.md": "# Ready\n\nQuests to take.\n",
            "history/001-first-board.md": "# The first board\n\nIt smoked.\n",
            "history/002-second-board.md": "# The second board\n\nIt worked.\n",
            "history/003-the-app.md": "# The app\n\nOn the phone.\n",
            "guide/01-install.md": "# Install\n\npip install lamps\n",
            "guide/02-use.md": "# Use\n\nlamps on\n",
            "guide/03-faq.md": "# FAQ\n\nNone yet.\n",
        },
    )
    roles, left = plan(root)
    assert roles["work/lamps/ready/LMP-Q-0001-wire-relay.md"] == "todo-item"  # a status folder
    assert roles["work/lamps/ready/README.md"] == "reference"  # the map of those records
    assert roles["history/002-second-board.md"] == "note"
    assert left["guide/01-install.md"] == "not-memory"  # two-digit chapters are a guide's
    imports_cleanly(cli, root)


def test_memory_beside_memory_is_a_reference_boilerplate_aside(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "beside",
        {
            "ops/2025-01-02-deploy.md": "# Deploy\n\nDone.\n",
            "ops/2025-02-03-rollback.md": "# Rollback\n\nDone.\n",
            "ops/2025-03-04-restore.md": "# Restore\n\nDone.\n",
            "ops/context-reminder.md": "# Reminder\n\nThe relay clicks twice.\n",
            "ops/CONTRIBUTING.md": "# Contributing\n\nOpen a PR.\n",
            "ops/LICENSE.md": "# License\n\nMIT.\n",
            "site/2025-01-02-news.md": "# News\n\nHello.\n",
            "site/about-us.md": "# About\n\nWe.\n",
            "site/pricing.md": "# Pricing\n\nFree.\n",
        },
    )
    roles, left = plan(root)
    assert roles["ops/2025-02-03-rollback.md"] == "log-entry"
    assert roles["ops/context-reminder.md"] == "reference"  # kept beside three records
    assert left["ops/CONTRIBUTING.md"] == "not-memory"
    assert left["ops/LICENSE.md"] == "not-memory"
    assert left["site/pricing.md"] == "not-memory"  # one dated page is no memory folder


def test_unknown_hidden_tool_folders_are_entered_tooling_caches_are_not(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "hidden",
        {
            ".codegpt/context.md": "# Context\n\nThe relay clicks twice.\n",
            ".lamps-seed/update-strategy.md": "# Updates\n\nRebase weekly.\n",
            ".github/ISSUES/lamps-01-wire.md": "# Wire the relay\n\nSoon.\n",
            ".github/ISSUE_TEMPLATE/bug_report.md": "# Bug report\n\nWhat broke?\n",
            ".vscode/notes.md": "# Editor notes\n\nTabs.\n",
            ".changeset/brave-lamps.md": "---\nlamps: patch\n---\n\nFix the relay.\n",
        },
    )
    roles, left = plan(root)
    assert roles[".codegpt/context.md"] == "reference"
    assert roles[".lamps-seed/update-strategy.md"] == "reference"
    assert roles[".github/ISSUES/lamps-01-wire.md"] == "todo-item"
    assert left[".github/ISSUE_TEMPLATE/bug_report.md"] == "not-memory"  # a blank form
    assert ".vscode/notes.md" not in roles
    assert ".vscode/notes.md" not in left
    assert ".changeset/brave-lamps.md" not in roles


def test_a_product_page_named_like_a_record_is_not_memory(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "product",
        {
            "AGENTS.md": "# Agents\n\nRun the tests first.\n",
            "docs/content/docs/guide/incidents.md": "# Incidents\n\nLog a leak.\n",
            "tests/fixtures/report.md": "# Report\n\nA fixture.\n",
            "docs/api/dns-records.md": "# DNS records\n\nGET /records.\n",
            ".claude/commands/game-status.md": "Show the status of $ARGUMENTS.\n",
        },
    )
    roles, left = plan(root)
    assert "docs/content/docs/guide/incidents.md" not in roles
    assert "tests/fixtures/report.md" not in roles
    assert "docs/api/dns-records.md" not in roles
    assert ".claude/commands/game-status.md" not in roles
    assert left["docs/content/docs/guide/incidents.md"] == "not-memory"
