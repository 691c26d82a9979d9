"""A quick probe for memory kept in a layout `project-corpus import` converts (docs/import.md).

`init` and the "not a Project Corpus" error mention `import` when one of these well-known
paths exists at ROOT. Only names are checked (no walk, no read): the error path stays cheap.
`importer/layouts.py` detects the same layouts, and more, by path and shape.
"""

from __future__ import annotations

import os

KNOWN_MEMORY_PATHS = (
    "memory-bank",
    ".memory-bank",
    "docs/adr",
    "docs/adrs",
    "docs/decisions",
    "doc/adr",
    "doc/architecture/decisions",
    "docs/architecture/decisions",
    "docs/architecture-decisions",
    "adr",
    "CLAUDE.md",
    ".cursorrules",
    ".cursor/rules",
    ".windsurfrules",
    ".clinerules",
    ".kiro/specs",
    ".spec-workflow/specs",
    "LOG.md",
    "WORKLOG.md",
    "NOTES.md",
    "docs/worklog",
    "devlog",
    "TODO.md",
    "docs/todos",
    "HANDOFF.md",
    "ROADMAP.md",
)


def known_memory(root: str) -> list[str]:
    """The well-known memory paths that exist at ROOT, in table order."""
    return [rel for rel in KNOWN_MEMORY_PATHS if os.path.lexists(os.path.join(root, rel))]


def import_hint(root: str, shown: str) -> str | None:
    """A sentence pointing to `import` when ROOT keeps memory in a known layout, else None."""
    found = known_memory(root)
    if not found:
        return None
    from shlex import quote

    command = "project-corpus import" + (
        "" if os.path.normpath(shown) == "." else f" {quote(shown)}"
    )
    return f"this repository already keeps memory ({', '.join(found[:3])}): `{command}` converts it"
