"""Generate `docs/checks.md` from the check registry.

    python -m project_corpus.doctor.docs > docs/checks.md

A test fails when the committed file differs from `render()`.
"""

from __future__ import annotations

import re
import sys

from project_corpus.doctor import CHECKS
from project_corpus.doctor._records import Check

FAMILIES = {
    "project_corpus.doctor.conformance": "Protocol conformance (gate)",
    "project_corpus.doctor.policy": "Policy (gate)",
    "project_corpus.doctor.index": "Stored index (`--index`)",
    "project_corpus.doctor.relations": "Supersession",
    "project_corpus.doctor.content": "Content",
    "project_corpus.doctor.integrity": "Memory integrity",
    "project_corpus.doctor.repository": "Repository",
    "project_corpus.doctor.hygiene": "Suppression hygiene",
    "project_corpus.doctor.bundles": "Bundle (`--bundle`)",
    "project_corpus.doctor.candidates": "Candidates (`--candidate`, `context candidate-validate`)",
}
RUNS = {
    "": "always",
    "index": "with `--index`",
    "stored": "with `--index`, when the index opens",
    "bundle": "with `--bundle`",
    "candidates": "with `--candidate`; `candidate-validate`",
    "clock": "off by default; with `status_max_age_days` or `--max-status-age`",
}
HEADER = """# Memory Doctor checks

<!-- Generated from the check registry by `python -m project_corpus.doctor.docs > docs/checks.md`.
     Do not edit: change the check's docstring in src/project_corpus/doctor/ instead. -->

Every check of `project-corpus context doctor` (docs/doctor.md), in registry order, which is also
the order of SARIF `rules[]`. A check's first docstring line is its SARIF
`shortDescription`; the whole text is its SARIF help and the entry below. Configuration,
inline suppression, output formats and the design decisions behind these checks are in
[doctor.md](doctor.md).

**Gate** checks are the Protocol V2 conformance codes: every other context command refuses
a corpus with one of them (`PROTOCOL_NONCONFORMANT`), so they are always FAIL and cannot be
turned off, downgraded, ignored or suppressed.
"""


def anchor(check: Check) -> str:
    return check.code.lower()


def _table() -> list[str]:
    rows = ["| code | name | severity | runs | gate |", "|---|---|---|---|---|"]
    for item in CHECKS:
        rows.append(
            f"| [`{item.code}`](#{anchor(item)}) | `{item.name}` | {item.severity} | "
            f"{RUNS[item.needs]} | {'yes' if item.gate else ''} |"
        )
    return rows


def _entry(item: Check) -> list[str]:
    summary, _, body = item.doc.partition("\n")
    body = re.sub(r"^## ", "#### ", body.strip(), flags=re.MULTILINE)
    gate = "; gate: cannot be disabled or suppressed" if item.gate else ""
    return [
        f'<a id="{anchor(item)}"></a>',
        "",
        f"### `{item.code}` — {item.name}",
        "",
        f"**{item.severity}** by default; runs {RUNS[item.needs]}{gate}.",
        "",
        summary,
        "",
        *([body, ""] if body else []),
    ]


def render() -> str:
    """The full text of docs/checks.md."""
    lines = [HEADER, *_table(), ""]
    family = ""
    for item in CHECKS:
        if FAMILIES[item.run.__module__] != family:
            family = FAMILIES[item.run.__module__]
            lines += [f"## {family}", ""]
        lines += _entry(item)
    return "\n".join(lines).rstrip("\n") + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
