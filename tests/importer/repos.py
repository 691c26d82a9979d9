"""Real temporary git repositories holding memory the way owners keep it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.conftest import write_files

BRIEF = """# Project Brief: Lamp controller

A small service that switches the garden lamps from a phone.

## Goals
- Switch every lamp in under a second.

## Technical Requirements
- Works on the local network only.

## Out of Scope
- No cloud account.
"""

ACTIVE = """# Active Context

## Current Focus
The relay board answers on the bench; the phone app is half done.

## Known Issues
- The relay clicks twice on power-up.

## Next Steps
1. Wire the second relay board.
2. Test the app on the porch.

## Notes
```python
# not a heading: inside a fence
print("ok")
```

| board | relays |
|---|---|
| A | 4 |
"""

PROGRESS = """---
updated: 2025-03-02
---
# Progress

## What Works
- The bench rig switches four lamps.
  - nested: the timer too
"""

ADR = """# 1. Use MQTT

Date: 2024-11-05

## Status
Accepted

## Context
We need a light protocol.

## Decision
Use MQTT over the local network.
"""

ADR_UNDATED = """# 2. Keep one broker

## Decision
One broker on the Pi.
"""

CLAUDE = """# CLAUDE.md

Run `make test` before every commit.
"""

MEMORY_REPO = {
    "README.md": "# Lamp controller\n\nSwitches garden lamps.\n\n## Install\nRun it.\n",
    "memory-bank/projectbrief.md": BRIEF,
    "memory-bank/activeContext.md": ACTIVE,
    "memory-bank/progress.md": PROGRESS,
    "memory-bank/techContext.md": "# Tech Context\n\nPython 3.12 on a Raspberry Pi.\n",
    "docs/adr/0001-use-mqtt.md": ADR,
    "docs/adr/0002-keep-one-broker.md": ADR_UNDATED,
    "docs/adr/template.md": "# NNNN. Title\n\n## Decision\n",
    "docs/setup.md": "# Setup\n\nPlug it in.\n",
    "CLAUDE.md": CLAUDE,
}

RUSSIAN_ACTIVE = """# Активный контекст

## Текущее состояние
Релейная плата отвечает на стенде.

## Блокеры
- Реле щёлкает дважды при включении.

## Следующие шаги
1. Подключить вторую плату реле.
"""

COMMIT_DATE = "2024-12-24T10:00:00+00:00"


def git(root: Path, *args: str, date: str = COMMIT_DATE) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_AUTHOR_NAME": "Owner",
        "GIT_AUTHOR_EMAIL": "owner@example.org",
        "GIT_COMMITTER_NAME": "Owner",
        "GIT_COMMITTER_EMAIL": "owner@example.org",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def make_repo(root: Path, files: dict[str, str | bytes | None], commit: bool = True) -> Path:
    """A git repository at ROOT with FILES committed in one commit."""
    root.mkdir(parents=True, exist_ok=True)
    write_files(root, files)
    if commit:
        git(root, "init", "-q", "-b", "main")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "memory")
    return root
