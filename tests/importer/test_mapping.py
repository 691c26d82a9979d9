"""Where `import` puts what the owners keep, by what it means (docs/import.md, "Mapping")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from project_corpus.importer import run_import
from project_corpus.importer import sections as md
from project_corpus.importer import standing
from tests.importer.helpers import CLI
from tests.importer.helpers import doctor_fails
from tests.importer.helpers import plan_documents
from tests.importer.repos import make_repo

STATE = ".project-corpus/state"
HISTORY = ".project-corpus/history"

DECISIONS = {
    "memory-bank/projectbrief.md": "# Brief\n\nA lamp controller.\n",
    "docs/adr/0001-use-mqtt.md": "# 1. Use MQTT\n\n## Status\n\nAccepted\n\n## Decision\nMQTT.\n",
    "docs/adr/0002-use-http.md": (
        "# 2. Use HTTP\n\n* Status: **Superseded** by [ADR-0001](0001-use-mqtt.md)\n\n"
        "## Decision\nHTTP polling.\n"
    ),
    "docs/adr/0003-use-zigbee.md": "# 3. Zigbee\n\n| Created | Status |\n|---|---|\n"
    "| 2024-01-02 | Rejected |\n\n## Decision\nNo Zigbee.\n",
    "docs/adr/0004-use-grpc.md": "---\nstatus: proposed\n---\n# 4. gRPC\n\n## Decision\nMaybe.\n",
    "docs/adr/0005-one-broker.md": "# 5. One broker\n\n## Decision\nOne broker on the Pi.\n",
    "docs/adr/0006-old-relay.md": "# 6. Old relay\n\nStatus: Deprecated\n\nThe old relay.\n",
    "docs/plans/porch.md": "# Porch lamps\n\n- [x] Wire the porch\n- [ ] Test at night\n",
    "docs/plans/bench.md": "# Bench rig\n\n- [x] Build the rig\n- [x] Test it\n",
    "memory-bank/decisionLog.md": "# Decision Log\n\n## 2024-03-01 MQTT\nWe chose MQTT.\n",
}

RUSSIAN_DECISIONS = {
    "memory-bank/projectbrief.md": "# Бриф\n\nКонтроллер ламп.\n",
    "docs/adr/0001-mqtt.md": "# 1. MQTT\n\n**Статус:** Принято\n\n## Решение\nMQTT.\n",
    "docs/adr/0002-http.md": "# 2. HTTP\n\n## Статус\n\nЗаменено решением 0001\n\n## Решение\nHTTP.\n",
    "docs/adr/0003-zigbee.md": "# 3. Zigbee\n\nСтатус: Отклонено\n\n## Решение\nНет.\n",
    "docs/adr/0004-grpc.md": "# 4. gRPC\n\nСтатус: Предложено\n\n## Решение\nМожет быть.\n",
    "docs/plans/porch.md": "# Крыльцо\n\nСтатус: Завершено\n\nФонари на крыльце.\n",
}


SUPERSEDED_CHAIN = {
    "memory-bank/projectbrief.md": "# Brief\n\nA lamp controller.\n",
    "docs/adr/0001-poll.md": "# 1. Poll\n\nStatus: Superseded by [ADR-2](0002-push.md)\n\nPoll.\n",
    "docs/adr/0002-push.md": "# 2. Push\n\nStatus: Superseded by [ADR-3](./0003-mqtt.md#top)\n",
    "docs/adr/0003-mqtt.md": "# 3. MQTT\n\nStatus: Accepted\n\nMQTT.\n",
}


@pytest.mark.parametrize(
    ("status", "stands"),
    [
        ("Accepted", True),
        ("Accepted, superseded in part by ADR-7", True),
        ("Superceded by ADR-7", False),
        ("Deprecated", False),
        ("Withdrawn", False),
        ("Proposed", True),
        ("Принят", True),
        ("Действует", True),
        ("Устаревшее", False),
        ("Заменён решением 0007", False),
        ("Неактуально", False),
        ("Отменено", False),
    ],
)
def test_the_first_word_of_a_status_that_decides_decides(status: str, stands: bool) -> None:
    doc = md.structure(md.split(f"# ADR\n\nStatus: {status}\n\nText.\n"))
    assert standing.decision_stands(doc) is stands


@pytest.mark.parametrize(
    ("status", "stands"),
    [("In progress", True), ("Implemented", False), ("Готово", False), ("Draft", True)],
)
def test_a_plan_is_over_when_its_status_says_done(status: str, stands: bool) -> None:
    doc = md.structure(md.split(f"# Plan\n\n**Status:** {status}\n\n- [ ] step\n"))
    assert standing.plan_stands(doc) is stands


def placed(tmp_path: Path, files: dict[str, str | bytes | None]) -> dict[str, list[str]]:
    _, documents, _ = plan_documents(make_repo(tmp_path / "lamps", files))
    return documents


def test_standing_decisions_and_open_plans_are_state_and_finished_ones_history(
    tmp_path: Path,
) -> None:
    became = placed(tmp_path, DECISIONS)
    assert became["docs/adr/0001-use-mqtt.md"] == [f"{STATE}/adr-0001-use-mqtt.md"]
    assert became["docs/adr/0002-use-http.md"] == [f"{HISTORY}/adr-0002-use-http.md"]
    assert became["docs/adr/0003-use-zigbee.md"] == [f"{HISTORY}/adr-0003-use-zigbee.md"]
    assert became["docs/adr/0004-use-grpc.md"] == [f"{STATE}/adr-0004-use-grpc.md"]
    assert became["docs/adr/0005-one-broker.md"] == [f"{STATE}/adr-0005-one-broker.md"]
    assert became["docs/adr/0006-old-relay.md"] == [f"{HISTORY}/adr-0006-old-relay.md"]
    assert became["docs/plans/porch.md"] == [f"{STATE}/porch.md"]
    assert became["docs/plans/bench.md"] == [f"{HISTORY}/bench.md"]
    assert became["memory-bank/decisionLog.md"] == [f"{STATE}/decision-log.md"]


def test_russian_status_lines_decide_the_same_way(tmp_path: Path) -> None:
    became = placed(tmp_path, RUSSIAN_DECISIONS)
    assert became["docs/adr/0001-mqtt.md"] == [f"{STATE}/adr-0001-mqtt.md"]
    assert became["docs/adr/0002-http.md"] == [f"{HISTORY}/adr-0002-http.md"]
    assert became["docs/adr/0003-zigbee.md"] == [f"{HISTORY}/adr-0003-zigbee.md"]
    assert became["docs/adr/0004-grpc.md"] == [f"{STATE}/adr-0004-grpc.md"]
    assert became["docs/plans/porch.md"] == [f"{HISTORY}/porch.md"]


def test_a_standing_decision_keeps_its_date_and_the_corpus_passes(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(tmp_path / "lamps", DECISIONS)
    assert cli("import", root).code == 0
    text = (root / STATE / "adr-0005-one-broker.md").read_text(encoding="utf-8")
    assert text.startswith(
        "# 5. One broker\nDate: 2024-12-24\nSource: docs/adr/0005-one-broker.md\n"
    )
    assert doctor_fails(cli, root) == 0


README = """# Lamp controller

Switches the garden lamps from a phone.

## Overview
A relay board on a Raspberry Pi.

## Install
Run `make install` on the Pi.

## Usage
Press the porch button twice to dim.
"""

RUSSIAN_README = """# Контроллер ламп

Включает садовые фонари с телефона.

## О проекте
Релейная плата на Raspberry Pi.

## Установка
Запустите `make install` на Pi.
"""


def lines_of(root: Path, rel: str) -> list[str]:
    return (root / rel).read_text(encoding="utf-8").splitlines()


def test_a_readme_that_project_quotes_keeps_the_rest_as_a_state_reference(
    tmp_path: Path, cli: CLI
) -> None:
    root = make_repo(tmp_path / "lamps", {"README.md": README, "TODO.md": "- [ ] Dim\n"})
    assert cli("import", root).code == 0
    project = lines_of(root, f"{STATE}/PROJECT.md")
    rest = lines_of(root, f"{STATE}/readme.md")
    assert "Switches the garden lamps from a phone." in project
    assert "A relay board on a Raspberry Pi." in project
    assert rest[:2] == ["# Lamp controller", "Source: README.md"]
    assert "Run `make install` on the Pi." in rest
    assert "Press the porch button twice to dim." in rest
    owner = [line for line in README.splitlines() if line and not line.startswith("#")]
    prose = [line for line in project + rest if line in owner]
    assert sorted(prose) == sorted(owner)  # every README line once, none in both documents
    assert doctor_fails(cli, root) == 0


def test_a_readme_beside_a_brief_is_kept_whole_in_either_language(tmp_path: Path) -> None:
    files: dict[str, str | bytes | None] = {
        "README.md": RUSSIAN_README,
        "memory-bank/projectbrief.md": "# Бриф\n\nКонтроллер ламп.\n",
    }
    root = make_repo(tmp_path / "lamps", files)
    run_import(root)
    rest = lines_of(root, f"{STATE}/readme.md")
    assert "Включает садовые фонари с телефона." in rest
    assert "Релейная плата на Raspberry Pi." in rest
    assert "Запустите `make install` на Pi." in rest
    assert "Включает садовые фонари с телефона." not in lines_of(root, f"{STATE}/PROJECT.md")


US_DEVLOG = """# Devlog

## 6/22/2025 Metrics and Display
Counted frames.

## 6/8/2025 Refactor
One instance plays alone.

## 5/29/2025 A simulated player
A bot returns the ball.
"""

RUSSIAN_DEVLOG = """# Журнал

## 22.06.2025 Метрики
Считаем кадры.

## 3 июня 2025 Рефакторинг
Один экземпляр играет сам.

## June 1, 2025 Bot
A bot returns the ball.
"""

AMBIGUOUS_DEVLOG = """# Devlog

## 6/8/2025 Refactor
One instance plays alone.

## 5/4/2025 A simulated player
A bot returns the ball.
"""


def reports(root: Path) -> dict[str, str]:
    folder = root / ".project-corpus" / "reports"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))}


def test_us_dates_in_entry_headings_split_a_devlog_with_the_order_its_dates_decide(
    tmp_path: Path,
) -> None:
    root = make_repo(tmp_path / "tennis", {"docs/devlog.md": US_DEVLOG})
    run_import(root)
    made = reports(root)
    assert sorted(made) == [
        "devlog-5-29-2025-a-simulated-player.md",
        "devlog-6-22-2025-metrics-and-display.md",
        "devlog-6-8-2025-refactor.md",
    ]
    assert "Created-At: 2025-06-08\n" in made["devlog-6-8-2025-refactor.md"]  # 22 decided: M/D


def test_russian_and_month_name_dates_split_a_devlog(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "tennis", {"docs/devlog.md": RUSSIAN_DEVLOG})
    run_import(root)
    created = sorted(
        line
        for text in reports(root).values()
        for line in text.splitlines()
        if "Created-At" in line
    )
    assert created == [
        "Created-At: 2025-06-01",
        "Created-At: 2025-06-03",
        "Created-At: 2025-06-22",
    ]


def test_a_devlog_whose_slash_dates_never_decide_stays_one_document(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "tennis", {"docs/devlog.md": AMBIGUOUS_DEVLOG, "TODO.md": "- [ ] x\n"}
    )
    run_import(root)
    assert reports(root) == {}
    assert (root / HISTORY / "devlog.md").is_file()


def test_a_superseded_record_is_named_by_its_successor_when_both_are_history(
    tmp_path: Path, cli: CLI
) -> None:
    root = make_repo(tmp_path / "lamps", SUPERSEDED_CHAIN)
    assert cli("import", root).code == 0
    push = (root / HISTORY / "adr-0002-push.md").read_text(encoding="utf-8")
    assert "\nSupersedes: .project-corpus/history/adr-0001-poll.md\nSource: " in push
    poll = (root / HISTORY / "adr-0001-poll.md").read_text(encoding="utf-8")
    mqtt = (root / STATE / "adr-0003-mqtt.md").read_text(encoding="utf-8")
    assert "Supersedes:" not in poll + mqtt  # a state document never carries one
    assert doctor_fails(cli, root) == 0
    found = json.loads(cli("context", "query", root, "poll", "--fresh", "--format", "json").out)
    poll_items = [r for r in found["results"] if r["source_path"].endswith("adr-0001-poll.md")]
    assert poll_items
    assert all(r["temporal_status"] == "superseded" for r in poll_items)
