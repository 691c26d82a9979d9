"""The generated docs: `docs/errors.md` from the error registry, `docs/checks.md` from the check
registry (docs/architecture.md).

    python -m project_corpus.output.docs            # rewrite both files that are out of date
    python -m project_corpus.output.docs --check    # exit 1 naming each file that is out of date

Run from the repository root (or give it with `--root DIR`); a test runs the same comparison.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path

from project_corpus.core.errors import ERRORS
from project_corpus.core.errors import HINTS
from project_corpus.core.errors import exit_code
from project_corpus.core.errors import render_hint
from project_corpus.doctor import CHECKS
from project_corpus.doctor.records import Check

FAMILIES = {
    "project_corpus.doctor.conformance": "Protocol conformance (gate)",
    "project_corpus.doctor.policy": "Policy (gate)",
    "project_corpus.doctor.index": "Stored index (`--index`)",
    "project_corpus.doctor.relations": "Supersession",
    "project_corpus.doctor.content": "Content",
    "project_corpus.doctor.mistakes": "Mistakes people make",
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
ERRORS_HEADER = """\
# Error codes

<!-- Generated from the error registry (`project_corpus.core.errors.ERRORS`) by
     `python -m project_corpus.output.docs`. Do not edit by hand: a test fails when it is stale. -->

Every failure of a `project-corpus` command is a stable code. A command that stops with an
error exits **2** and writes the error envelope to stderr (exit **3** is reserved for
`INTERNAL_ERROR`, a bug):

```json
{"ok": false, "error": "<CODE>", "detail": "<text>", "hint": "<text or null>"}
```

With `--format text` the envelope is a line `error[CODE]: detail` (and `  hint: …`).
The envelope's JSON Schema is `project-corpus schema error`. The conformance and policy codes
are also the codes of `context doctor` findings; over MCP the code comes back in a tool result
with `isError: true`. Codes never change meaning; new codes may be added.

Every code has a hint (the last column; a raise site may give a more precise one). A hint
that names a command names the ROOT the command was given where this table says `ROOT`.

| code | exit | meaning | hint |
|---|---|---|---|
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _hint(code: str) -> str:
    return render_hint(HINTS[code], None) or ""


def render_errors() -> str:
    """The whole text of docs/errors.md, one table row per code in registry order."""
    rows = [
        f"| `{code}` | {exit_code(code)} | {_cell(meaning)} | {_cell(_hint(code))} |\n"
        for code, meaning in ERRORS.items()
    ]
    return ERRORS_HEADER + "".join(rows)


CHECKS_HEADER = """# Memory Doctor checks

<!-- Generated from the check registry by `python -m project_corpus.output.docs`.
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


def render_checks() -> str:
    """The full text of docs/checks.md, one entry per check in registry order."""
    lines = [CHECKS_HEADER, *_table(), ""]
    family = ""
    for item in CHECKS:
        if FAMILIES[item.run.__module__] != family:
            family = FAMILIES[item.run.__module__]
            lines += [f"## {family}", ""]
        lines += _entry(item)
    return "\n".join(lines).rstrip("\n") + "\n"


GENERATED: dict[str, Callable[[], str]] = {
    "docs/checks.md": render_checks,
    "docs/errors.md": render_errors,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite (or with `--check` only compare) every generated doc under the root."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    root = Path(args[args.index("--root") + 1]) if "--root" in args[:-1] else Path()
    stale = []
    for rel, render in GENERATED.items():
        path = root / rel
        expected = render()
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == expected:
            continue
        stale.append(rel)
        if not check:
            path.write_text(expected, encoding="utf-8", newline="\n")
    if check and stale:
        for rel in stale:
            sys.stderr.write(f"{rel} is out of date: run `python -m project_corpus.output.docs`\n")
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
