"""Records of work on the project, found by how people keep them (docs/import.md, "Layouts",
fifth round): fix, solution, debugging and implementation write-ups, analyses and audits under
documentation, initiatives and design records, requirements kept one per file, dated record
names, upper-case IDs without a dash; user guides, code modules and prompt libraries stay
out. Real temporary git repositories, English and Russian."""

from __future__ import annotations

from pathlib import Path

from tests.importer.helpers import CLI
from tests.importer.helpers import imports_cleanly
from tests.importer.helpers import plan
from tests.importer.repos import make_repo


def test_write_ups_of_work_done_are_memory_by_folder_and_name(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "writeups",
        {
            "docs/fixes/relay-double-click.md": "# Relay\n\n## Problem\nIt clicks.\n",
            "docs/debugging/pin-timeout.md": "# Pin timeout\n\nFound it.\n",
            "docs/implementations/app-sync.md": "# Sync\n\nImplemented.\n",
            "docs/solutions/porch-wifi.md": "# Wi-Fi\n\nA repeater.\n",
            "docs/auth-flow-fixes.md": "# Auth\n\n## What broke\nTokens.\n",
            "docs/pr-1245-summary.md": "# PR 1245\n\nMerged.\n",
            "docs/root-cause-analysis.md": "# Root cause\n\nThe relay.\n",
            "docs/current-progress.md": "# Progress\n\nHalf done.\n",
            "docs/prd-porch-lamps.md": "# PRD\n\nLamps on the porch.\n",
            "book/summary.md": "# Summary\n\n- [Install](install.md)\n",
            "book/install.md": "# Install\n\npip install lamps\n",
        },
    )
    roles, left = plan(root)
    for path in (
        "docs/fixes/relay-double-click.md",
        "docs/debugging/pin-timeout.md",
        "docs/implementations/app-sync.md",
        "docs/solutions/porch-wifi.md",
        "docs/auth-flow-fixes.md",
        "docs/pr-1245-summary.md",
        "docs/root-cause-analysis.md",
        "docs/current-progress.md",
    ):
        assert roles[path] == "note", path
    assert roles["docs/prd-porch-lamps.md"] == "plan"  # the kind said first
    assert left["book/summary.md"] == "not-memory"  # a book's table of contents
    assert left["book/install.md"] == "not-memory"
    imports_cleanly(cli, root)


def test_analysis_and_audit_folders_count_under_documentation_only(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "audits",
        {
            "docs/analysis/listing-apis.md": "# Listing\n\nThree calls.\n",
            "docs/audit/2026-03-02-full.md": "# Audit\n\nFindings.\n",
            "docs/context/current/active-sprint.md": "# Sprint 4\n\nRelay.\n",
            "mechanics/audit/PARTS.md": "# Parts\n\nThe audit mechanic's parts.\n",
            "tools/analysis/README.md": "# Analysis\n\nThe analysis module.\n",
            "tools/analysis/graph.md": "# Graph\n\nHow the module draws.\n",
        },
    )
    roles, left = plan(root)
    assert roles["docs/analysis/listing-apis.md"] == "note"
    assert roles["docs/audit/2026-03-02-full.md"] == "log-entry"  # dated
    assert roles["docs/context/current/active-sprint.md"] == "reference"
    assert left["mechanics/audit/PARTS.md"] == "not-memory"  # a product's module
    assert left["tools/analysis/graph.md"] == "not-memory"


def test_initiatives_designs_and_requirements_are_kept(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "initiatives",
        {
            "docs/initiatives/prompt_templates_lifecycle/design_doc.md": "# Design\n\nA.\n",
            "docs/initiatives/prompt_templates_lifecycle/data_model.md": "# Model\n\nB.\n",
            "docs/templates/design_doc.md": "# Design doc\n\n## Context\n<fill in>\n",
            "memory/designs/DESIGN001-welcome.md": "# DESIGN001\n\nWelcome page.\n",
            "memory/designs/DESIGN002-auth.md": "# DESIGN002\n\nSign-in.\n",
            "memory/designs/DESIGN003-nav.md": "# DESIGN003\n\nNavigation.\n",
            "docs/product-requirements/private-repos.md": "# Private repos\n\nOpt in.\n",
            "docs/delivery/issue_map.md": "# Issues\n\n| issue | sprint |\n|---|---|\n",
        },
    )
    roles, left = plan(root)
    assert roles["docs/initiatives/prompt_templates_lifecycle/design_doc.md"] == "plan"
    assert left["docs/templates/design_doc.md"] == "not-memory"  # a blank form
    assert roles["memory/designs/DESIGN002-auth.md"] == "plan"
    assert roles["docs/product-requirements/private-repos.md"] == "spec-doc"
    assert roles["docs/delivery/issue_map.md"] == "plan"
    imports_cleanly(cli, root)


def test_upper_case_ids_without_a_dash_name_records(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "ids",
        {
            "work/TASK001-relay.md": "# TASK001\n\nRelay.\n",
            "work/TASK002-app.md": "# TASK002\n\nApp.\n",
            "work/TASK003-porch.md": "# TASK003\n\nPorch.\n",
            "manual/HTTP2-setup.md": "# HTTP/2\n\nEnable it.\n",
        },
    )
    roles, left = plan(root)
    assert roles["work/TASK002-app.md"] == "note"
    assert left["manual/HTTP2-setup.md"] == "not-memory"  # one digit: a name, not an ID


def test_a_date_at_the_end_of_a_name_makes_a_record(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "dated",
        {
            "docs/engineering/session-summary-2025-10-01.md": "# Session\n\nDone.\n",
            "docs/engineering/release-pipeline-2025-08-20.md": "# Release\n\nFixed.\n",
            "posts/launch-2025-01-02.md": "# Launch\n\nHello.\n",
            "docs/engineering/getting-started.md": "# Start\n\nInstall it.\n",
        },
    )
    roles, left = plan(root)
    assert roles["docs/engineering/release-pipeline-2025-08-20.md"] == "log-entry"
    assert "posts/launch-2025-01-02.md" not in roles  # a web site's post
    assert left["docs/engineering/getting-started.md"] == "not-memory"


def test_russian_records_of_work(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "raboty",
        {
            "docs/исправления/реле.md": "# Реле\n\n## Проблема\nЩёлкает.\n",
            "docs/анализ/api.md": "# API\n\nТри вызова.\n",
            "docs/инициативы/s7/дизайн.md": "# Дизайн\n\nКарточки.\n",
            "docs/требования/вход.md": "# Вход\n\nПо паролю.\n",
            "docs/релиз-сводка.md": "# Сводка\n\nВыпущено.\n",
            "docs/ispravleniya/pin.md": "# Пин\n\nИсправлено.\n",
            "docs/руководство.md": "# Руководство\n\nУстановите.\n",
        },
    )
    roles, left = plan(root)
    assert roles["docs/исправления/реле.md"] == "note"
    assert roles["docs/анализ/api.md"] == "note"
    assert roles["docs/инициативы/s7/дизайн.md"] == "plan"
    assert roles["docs/требования/вход.md"] == "spec-doc"
    assert roles["docs/релиз-сводка.md"] == "note"
    assert roles["docs/ispravleniya/pin.md"] == "note"
    assert left["docs/руководство.md"] == "not-memory"
    imports_cleanly(cli, root)


def test_examples_folders_by_any_name_hold_no_records(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "examples",
        {
            "test-guardrails/bad-examples/long-summary.md": "# Summary\n\nToo long.\n",
            "docs/long-summary.md": "# Summary\n\nOf the sprint.\n",
        },
    )
    roles, left = plan(root)
    assert left["test-guardrails/bad-examples/long-summary.md"] == "not-memory"
    assert roles["docs/long-summary.md"] == "note"


def test_a_folder_index_is_not_counted_against_the_memory_below(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "index",
        {
            "ops/handovers/README.md": "# Handovers\n\nOne folder per sprint.\n",
            "ops/handovers/s6/README.md": "# Sprint 6\n\nTwo records.\n",
            "ops/handovers/s6/operational-baseline.md": "# Baseline\n\nGreen.\n",
            "ops/handovers/s6/postdeploy-handover.md": "# Handover\n\nDone.\n",
        },
    )
    roles, _ = plan(root)
    assert roles["ops/handovers/README.md"] == "reference"


def test_a_dated_record_header_keeps_a_page_no_rule_names(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "headers",
        {
            "docs/backend/vault-attachment.md": "# Vault attachment\n\n**Date:** 2025-10-14\n\nX.\n",
            "docs/backend/pin-timeout.md": "# Таймаут\n\nДата: 14.10.2025\n\nИсправлено.\n",
            "docs/backend/install.md": "# Install\n\nLast updated: 2025-10-14\n\npip install\n",
            "docs/backend/task-spec-example-1.md": "# Example\n\nDate: 2025-10-14\n",
            "docs/backend/undated.md": "# Notes\n\nDate: to be decided\n",
        },
    )
    roles, left = plan(root)
    assert roles["docs/backend/vault-attachment.md"] == "note"
    assert roles["docs/backend/pin-timeout.md"] == "note"
    assert left["docs/backend/install.md"] == "not-memory"  # a guide says when it was updated
    assert left["docs/backend/task-spec-example-1.md"] == "not-memory"  # an example form
    assert left["docs/backend/undated.md"] == "not-memory"  # no real date
    imports_cleanly(cli, root)


def test_sprints_releases_debriefs_and_reviews_by_their_words(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "sprints",
        {
            "work/sprint/s4-relay.md": "# Sprint 4\n\nThe relay.\n",
            "docs/releases/v1-2.md": "# 1.2\n\nShipped the app.\n",
            "docs/porch-launch-debrief.md": "# Debrief\n\nIt rained.\n",
            "docs/rfc-lamp-protocol.md": "# RFC\n\nMQTT.\n",
            "docs/разбор-падения-реле.md": "# Разбор\n\nРеле сгорело.\n",
            "docs/спринт-5.md": "# Спринт 5\n\nПлата.\n",
        },
    )
    roles, _ = plan(root)
    assert roles["work/sprint/s4-relay.md"] == "plan"
    assert roles["docs/releases/v1-2.md"] == "log-entry"
    assert roles["docs/porch-launch-debrief.md"] == "note"
    assert roles["docs/rfc-lamp-protocol.md"] == "decision"  # the kind said first
    assert roles["docs/разбор-падения-реле.md"] == "postmortem"  # Russian names the kind first
    assert roles["docs/спринт-5.md"] == "plan"
    imports_cleanly(cli, root)


def test_findings_alone_and_a_month_ending_a_name_keep_a_record(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "months",
        {
            "poc/relay-poc/FINDINGS.md": "# Findings\n\nThe relay needs 5 V.\n",
            "docs/webhooks/improvements-sept-2025.md": "# Improvements\n\nRetries.\n",
            "docs/webhooks/summary.md": "# Summary\n\n- [Setup](setup.md)\n",
        },
    )
    roles, left = plan(root)
    assert roles["poc/relay-poc/FINDINGS.md"] == "note"
    assert roles["docs/webhooks/improvements-sept-2025.md"] == "note"  # the date dropped
    assert left["docs/webhooks/summary.md"] == "not-memory"  # a summary alone is contents
