"""The check registry (docs/doctor.md): every check, in the order of `docs/checks.md` and of SARIF
`rules[]`, one module per family. Each check's docstring is its documentation.

Families: `conformance` and `policy` (the gate), `relations`, `integrity`, `content`,
`mistakes`, `hygiene`, `repository`, `index`, `bundles`, `candidates`. The machinery they
share is in `records`, `report`, `selection` and the underscore modules (`_config`, `_inputs`,
`_suppress`, `_volatile`, `_gitignore`).
"""

from __future__ import annotations

from project_corpus.doctor import bundles
from project_corpus.doctor import candidates
from project_corpus.doctor import conformance
from project_corpus.doctor import content
from project_corpus.doctor import hygiene
from project_corpus.doctor import index
from project_corpus.doctor import integrity
from project_corpus.doctor import mistakes
from project_corpus.doctor import policy
from project_corpus.doctor import relations
from project_corpus.doctor import repository
from project_corpus.doctor.records import Check

CHECKS: tuple[Check, ...] = (
    *conformance.CHECKS,
    *policy.CHECKS,
    *index.CHECKS,
    *relations.CHECKS,
    *content.CHECKS,
    *mistakes.CHECKS,
    *integrity.CHECKS,
    *repository.CHECKS,
    *hygiene.CHECKS,
    *bundles.CHECKS,
    *candidates.CHECKS,
)
CHECKS_BY_CODE: dict[str, Check] = {c.code: c for c in CHECKS}
GATES: dict[str, bool] = {c.code: c.gate for c in CHECKS}
