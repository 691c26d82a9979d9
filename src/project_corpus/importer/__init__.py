"""`project-corpus import`: the memory people already keep, as a Protocol V2 corpus
(docs/import.md).

Detect (`layouts.py`, `discover.py`), date (`dates.py`), plan (`plan.py`, `canon.py`,
`artifacts.py`, `names.py`), render and check verbatim (`render.py`, `selfcheck.py`), keep
within the limits (`budget.py`), write with a record (`write.py`), report (`report.py`);
`run.py` runs them in that order.
"""

from __future__ import annotations

from project_corpus.importer.records import ImportOptions
from project_corpus.importer.run import run_import

__all__ = ["ImportOptions", "run_import"]
