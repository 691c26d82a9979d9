"""Names of the documents an import writes: IDs and file names from the owner's titles and
paths, ASCII and unique (docs/import.md, "Names"). Pure."""

from __future__ import annotations

import hashlib
import re

from project_corpus.corpus.policy import ID_RE
from project_corpus.importer.layouts import kebab

_CYRILLIC = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        "a b v g d e e zh z i y k l m n o p r s t u f h ts ch sh sch - y - e yu ya".split(),
        strict=True,
    )
)
_NOT_ID_RE = re.compile(r"[^a-z0-9.]+")
MAX_SLUG = 56


def slug(text: str) -> str:
    """TEXT as an ID fragment: Latin lower case, Cyrillic transliterated, other runs `-`."""
    folded = "".join(_CYRILLIC.get(c, c) for c in kebab(text))
    cut = _NOT_ID_RE.sub("-", folded).strip("-.")[:MAX_SLUG]
    return cut.strip("-.")


class Names:
    """Unique names per folder: `base`, then `base-2`, `base-3`…; an unusable base becomes
    `doc-<hash>` (the same text always gives the same name)."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def take(self, folder: str, base: str, fallback: str) -> str:
        name = base if ID_RE.match(base) else ""
        if not name:
            name = f"doc-{hashlib.sha256(fallback.encode()).hexdigest()[:10]}"
        unique, counter = name, 1
        while f"{folder}/{unique}".casefold() in self.taken:
            counter += 1
            unique = f"{name}-{counter}"
        self.taken.add(f"{folder}/{unique}".casefold())
        return unique
