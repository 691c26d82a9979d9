"""Every detected role occurring twice in one repository: `import` exits 0 and the doctor
finds no FAIL (a second project brief once crashed the plan, docs/import.md "Mapping")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from project_corpus.importer.artifacts import FOLDERS
from project_corpus.importer.layouts import ROLE_KIND
from project_corpus.importer.layouts import role
from tests.importer.helpers import CLI
from tests.importer.helpers import doctor_fails
from tests.importer.repos import make_repo

INCLUDE = "scratch/**"
# Two paths per role, as owners keep them: a live memory bank beside an archived one, two logs…
TWICE = {
    "brief": ("memory-bank/projectbrief.md", "archive/old-bank/memory-bank/projectbrief.md"),
    "overview": ("docs/overview.md", "design/vision.md"),
    "readme": ("README.md", "readme.markdown"),
    "active": ("memory-bank/activeContext.md", "archive/old-bank/memory-bank/activeContext.md"),
    "progress": ("memory-bank/progress.md", "archive/old-bank/memory-bank/progress.md"),
    "handoff": ("HANDOFF.md", "docs/status.md"),
    "rules": ("CLAUDE.md", "app/CLAUDE.md"),
    "reference": ("memory-bank/techContext.md", "archive/old-bank/memory-bank/techContext.md"),
    "roadmap": ("ROADMAP.md", "docs/roadmap.md"),
    "spec-doc": (".kiro/specs/lamp/design.md", ".kiro/specs/relay/design.md"),
    "spec-tasks": (".kiro/specs/lamp/tasks.md", ".kiro/specs/relay/tasks.md"),
    "decision": ("docs/adr/0001-use-mqtt.md", "docs/adr/0002-one-broker.md"),
    "decision-log": ("memory-bank/decisionLog.md", "archive/old-bank/memory-bank/decisionLog.md"),
    "log-entry": ("devlog/2025-01-02.md", "devlog/2025-01-03.md"),
    "log-file": ("LOG.md", "docs/worklog.md"),
    "postmortem": ("postmortems/outage.md", "docs/incident-report-relay.md"),
    "changelog": ("CHANGELOG.md", "app/CHANGELOG.md"),
    "todo-file": ("TODO.md", "docs/backlog.md"),
    "todo-item": ("todos/wire-relay.md", "todos/porch-test.md"),
    "included": ("scratch/a.md", "scratch/b.md"),
    "note": ("notes/cache.md", "wiki/relay.md"),
    "plan": (".planning/phases/one.md", ".planning/phases/two.md"),
}
# Every section the plan reads: STATUS's and PROJECT's heading words, dated and versioned entries.
BODY = """# {title}

Date: 2025-01-0{n}

A lead paragraph of {title}.

## Overview
What it is ({n}).

## Requirements
- It must switch lamps.

## Current State
The bench rig works ({n}).

## Blockers
- The relay clicks twice ({n}).

## Next Steps
- [ ] Wire relay board {n}.

## 2025-01-0{n} Session
- Worked on the board.

## v1.{n}.0
- Released.
"""


def _files() -> dict[str, str | bytes | None]:
    files: dict[str, str | bytes | None] = {}
    for name, paths in sorted(TWICE.items()):
        for n, path in enumerate(paths, start=1):
            files[path] = BODY.format(title=f"{name} {n}", n=n)
    return files


def test_every_role_has_a_kind_with_a_folder() -> None:
    assert {kind for kind in ROLE_KIND.values()} <= set(FOLDERS)


def test_the_table_covers_every_role_with_paths_detected_so() -> None:
    assert set(TWICE) == set(ROLE_KIND)
    detected = {path: role(path) for paths in TWICE.values() for path in paths}
    expected = {path: name for name, paths in TWICE.items() for path in paths}
    expected.update({path: None for path in TWICE["included"]})  # only `--include` takes them
    assert detected == expected


@pytest.mark.parametrize("name", sorted(TWICE))
def test_a_role_occurring_twice_imports_with_no_fail(name: str, tmp_path: Path, cli: CLI) -> None:
    files = {path: BODY.format(title=f"{name} {n}", n=n) for n, path in enumerate(TWICE[name], 1)}
    root = make_repo(tmp_path / name, dict(files))
    run = cli("import", root, "--include", INCLUDE, "--format", "json")
    assert run.code == 0, run.err
    made = {s["path"] for s in json.loads(run.out)["sources"]}
    assert made == set(TWICE[name]) or name == "readme"  # a README feeds PROJECT only
    assert doctor_fails(cli, root) == 0


def test_every_role_twice_in_one_repository_imports_with_no_fail(tmp_path: Path, cli: CLI) -> None:
    root = make_repo(tmp_path / "all", _files())
    run = cli("import", root, "--include", INCLUDE)
    assert run.code == 0, run.err
    assert doctor_fails(cli, root) == 0


def test_of_two_memory_banks_the_live_one_is_project_and_the_other_a_reference(
    tmp_path: Path, cli: CLI
) -> None:
    live = "# Lamp controller brief\n\nSwitch the garden lamps.\n"
    old = "# Old lamp brief\n\nA first try.\n"
    files: dict[str, str | bytes | None] = {
        "memory-bank/projectbrief.md": live,
        "memory-bank/activeContext.md": "# Active\n\n## Next Steps\n- Wire it.\n",
        "archive/old-bank/memory-bank/projectbrief.md": old,
        "archive/old-bank/memory-bank/activeContext.md": "# Active\n\n## Next Steps\n- Old.\n",
    }
    root = make_repo(tmp_path / "banks", files)
    assert cli("import", root).code == 0
    state = root / ".project-corpus" / "state"
    assert (state / "PROJECT.md").read_text(encoding="utf-8").startswith(live.split("\n")[0])
    reference = (state / "projectbrief.md").read_text(encoding="utf-8")
    assert reference == old.replace(
        "\n\n", "\nSource: archive/old-bank/memory-bank/projectbrief.md\n\n", 1
    )
    assert "- Wire it." in (state / "STATUS.md").read_text(encoding="utf-8")
    assert doctor_fails(cli, root) == 0
