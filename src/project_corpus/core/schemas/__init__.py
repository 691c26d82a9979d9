"""JSON Schemas shipped with the package (`project-corpus schema NAME`).

Each schema is a file `<name>.schema.json` in this folder; the file list is the registry.
"""

from __future__ import annotations

import json
from importlib import resources

from project_corpus.core.errors import ContextError

SUFFIX = ".schema.json"


def schema_names() -> list[str]:
    folder = resources.files(__package__)
    return sorted(p.name[: -len(SUFFIX)] for p in folder.iterdir() if p.name.endswith(SUFFIX))


def schema_text(name: str) -> str:
    if name not in schema_names():
        raise ContextError(
            "USAGE_ERROR", f"unknown schema {name!r}; one of: {', '.join(schema_names())}"
        )
    return resources.files(__package__).joinpath(name + SUFFIX).read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, object]:
    value = json.loads(schema_text(name))
    assert isinstance(value, dict)
    return value
