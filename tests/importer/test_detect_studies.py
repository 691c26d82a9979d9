"""Studies, plans and backlogs named by what they hold, dated record folders, and what only
imitates records (docs/import.md, "Sixth round"): `*-study`, `*_RESEARCH`, `*-planning`,
`TASKS-…`, `technical-debt-…`, `2026-08-14-appsec-review/README.md`, `docs/perf/`; templates'
and fixtures' records, a test suite's `spec/` and a memory bank's prompt library stay out.
Real temporary git repositories, English and Russian."""

from __future__ import annotations

from pathlib import Path

from tests.importer.helpers import CLI
from tests.importer.helpers import imports_cleanly
from tests.importer.helpers import plan
from tests.importer.repos import make_repo


def test_studies_research_and_planning_are_memory_by_name(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "studies",
        {
            "docs/otel-standardization-study.md": "# OTel or not\n\n## Options\nA or B.\n",
            "hw/DISPLAY_RESEARCH.md": "# Display\n\n## Problem\nBlank screen.\n",
            "docs/omk-inventory-planning.md": "# Inventory\n\n## Features\nLoans.\n",
            "docs/planning.md": "# Planning\n\n## Vision\nLamps.\n",
            "docs/исследование-кэша.md": "# Кэш\n\n## Вывод\nНужен.\n",
            "docs/planirovanie-zapuska.md": "# Запуск\n\n## Этапы\nТри.\n",
            "study.md": "# Study\n\nThe word alone names nothing.\n",
        },
    )
    roles, left = plan(root)
    for path in (
        "docs/otel-standardization-study.md",
        "hw/DISPLAY_RESEARCH.md",
        "docs/исследование-кэша.md",
    ):
        assert roles[path] == "note", path
    for path in ("docs/omk-inventory-planning.md", "docs/planning.md"):
        assert roles[path] == "plan", path
    assert roles["docs/planirovanie-zapuska.md"] == "plan"  # the Russian head noun first
    assert left["study.md"] == "not-memory"
    imports_cleanly(cli, root)


def test_backlogs_named_kind_first_and_debt_registers_are_memory(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "backlogs",
        {
            "TASKS-billing-audit-critical.md": "# Billing audit\n\n- [ ] Fix refunds\n",
            "todo.machine.md": "## Program\n\n- [x] Board\n",
            "docs/backend/technical-debt-bigint.md": "# Bigint\n\nOwed.\n",
            "docs/технический-долг-кэш.md": "# Кэш\n\nДолг.\n",
            "docs/todo-workflow.md": "# How we keep TODOs\n\nOne file.\n",
            "docs/adr-guide.md": "# Writing an ADR\n\nUse the form.\n",
        },
    )
    roles, left = plan(root)
    assert roles["TASKS-billing-audit-critical.md"] == "todo-file"
    assert roles["todo.machine.md"] == "todo-file"
    assert roles["docs/backend/technical-debt-bigint.md"] == "note"
    assert roles["docs/технический-долг-кэш.md"] == "note"
    # A guide to keeping such records is no record.
    assert left["docs/todo-workflow.md"] == "not-memory"
    assert left["docs/adr-guide.md"] == "not-memory"
    imports_cleanly(cli, root)


def test_a_dated_folder_is_one_record_and_its_readme_its_first_page(
    tmp_path: Path, cli: CLI
) -> None:
    root = make_repo(
        tmp_path / "dated",
        {
            "docs/security/2026-08-14-appsec-review/README.md": "# Review\n\nSix repos.\n",
            "docs/security/2026-08-14-appsec-review/scope.md": "# Scope\n\nAuth.\n",
            "meetings/2025-03-02/index.md": "# Standup\n\nRelay.\n",
            "blog/2025-01-02-launch/index.md": "# Launch\n\nWe shipped.\n",
            "tests/fixtures/2025-01-02-case/README.md": "# Case\n\nInput.\n",
        },
    )
    roles, left = plan(root)
    assert roles["docs/security/2026-08-14-appsec-review/README.md"] == "log-entry"
    assert roles["docs/security/2026-08-14-appsec-review/scope.md"] == "log-entry"
    assert roles["meetings/2025-03-02/index.md"] == "log-entry"
    assert left["blog/2025-01-02-launch/index.md"] == "not-memory"  # a post
    assert left["tests/fixtures/2025-01-02-case/README.md"] == "not-memory"
    imports_cleanly(cli, root)


def test_benchmark_write_ups_count_under_documentation_only(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "perf",
        {
            "docs/perf/docs_benchmark.md": "# Benchmark\n\n## Observations\nSlow tail.\n",
            "docs/бенчмарки/поиск.md": "# Поиск\n\n## Наблюдения\nБыстро.\n",
            "tools/perf/usage.md": "# Perf tool\n\nRun it.\n",
            "docs/performance/lazy-loading.md": "# Lazy loading\n\nA guide.\n",
        },
    )
    roles, left = plan(root)
    assert roles["docs/perf/docs_benchmark.md"] == "note"
    assert roles["docs/бенчмарки/поиск.md"] == "note"
    assert left["tools/perf/usage.md"] == "not-memory"  # a module's folder
    assert left["docs/performance/lazy-loading.md"] == "not-memory"  # a guide


def test_templates_and_fixtures_records_and_a_test_suites_spec_stay_out(
    tmp_path: Path, cli: CLI
) -> None:
    adr = "# ADR-0001\n\nStatus: Accepted\n"
    root = make_repo(
        tmp_path / "forms",
        {
            **{f"src/tool/templates/0.5/default/docs/adr/ADR-000{n}.md": adr for n in range(1, 4)},
            "src/tool/templates/0.5/default/docs/adr/index.md": "# ADRs\n",
            "scripts/tests/fixtures/sentry-status/no-steps.md": "# Case\n\nNone.\n",
            "scripts/tests/fixtures/sentry-status/no-report.md": "# Case\n\nNone.\n",
            "spec/support/README-postgres-testing.md": "# Postgres tests\n\nRun rspec.\n",
            "apps/billing/spec/STRIPE_TESTING_GUIDE.md": "# Stripe tests\n\nUse mocks.\n",
            "docs/spec/protocol.md": "# Protocol\n\nFrames.\n",
            "spec/adr/ADR-0002.md": "# ADR-0002\n\nStatus: Accepted\n",
        },
    )
    roles, left = plan(root)
    for n in range(1, 4):
        assert left[f"src/tool/templates/0.5/default/docs/adr/ADR-000{n}.md"] == "not-memory"
    assert left["src/tool/templates/0.5/default/docs/adr/index.md"] == "not-memory"
    assert left["scripts/tests/fixtures/sentry-status/no-steps.md"] == "not-memory"
    assert left["spec/support/README-postgres-testing.md"] == "not-memory"
    assert left["apps/billing/spec/STRIPE_TESTING_GUIDE.md"] == "not-memory"
    assert roles["docs/spec/protocol.md"] == "spec-doc"
    assert roles["spec/adr/ADR-0002.md"] == "decision"
    imports_cleanly(cli, root)


def test_a_memory_banks_prompt_library_is_not_memory(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(
        tmp_path / "bank",
        {
            "memory-bank/activeContext.md": "# Active\n\n## Next Steps\n- Relay.\n",
            "memory-bank/notes/wiring.md": "# Wiring\n\nRed to A.\n",
            "memory-bank/prompts/update-memory.prompt.md": "# Update\n\nRead all.\n",
            "memory-bank/chatmodes/plan.chatmode.md": "# Plan mode\n\nThink first.\n",
            "memory-bank/review.prompt.md": "# Review\n\nCheck.\n",
        },
    )
    roles, left = plan(root)
    assert roles["memory-bank/activeContext.md"] == "active"
    assert roles["memory-bank/notes/wiring.md"] == "reference"
    for path in (
        "memory-bank/prompts/update-memory.prompt.md",
        "memory-bank/chatmodes/plan.chatmode.md",
        "memory-bank/review.prompt.md",
    ):
        assert left[path] == "not-memory", path
    imports_cleanly(cli, root)


def test_an_all_caps_how_to_is_no_key_document(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "caps",
        {
            "ARCHITECTURE.md": "# Architecture\n\nThree services.\n",
            "MODEL_API.md": "# Model API\n\nPOST /invoke.\n",
            "docs/STORAGE_SETUP.md": "# Storage setup\n\nRun the script.\n",
            "docs/TESTING.md": "# Testing\n\nRun pytest.\n",
            "docs/БАЗА_УСТАНОВКА.md": "# Установка базы\n\nЗапустите скрипт.\n",
            "docs/MONITORING_SETUP_SUMMARY.md": "# Monitoring\n\nWhat we set up.\n",
        },
    )
    roles, left = plan(root)
    assert roles["ARCHITECTURE.md"] == "reference"
    for path in (
        "MODEL_API.md",
        "docs/STORAGE_SETUP.md",
        "docs/TESTING.md",
        "docs/БАЗА_УСТАНОВКА.md",
    ):
        assert left[path] == "not-memory", path  # read for its shape, and it has none
    assert roles["docs/MONITORING_SETUP_SUMMARY.md"] == "note"  # a summary of work done
