"""`project-corpus explain CODE`: what any code the tool prints means (docs/cli.md).

A doctor check's code or kebab-case name gives the check's documentation (its docstring);
an error code of `core.errors.ERRORS` (what an error envelope names) gives its meaning, exit
code and hint. A code that is both (the conformance codes) is explained as the check, which
says more. Anything else is USAGE_ERROR with a did-you-mean over both tables.
"""

from __future__ import annotations

import difflib

from project_corpus.core.errors import ERRORS
from project_corpus.core.errors import HINTS
from project_corpus.core.errors import ContextError
from project_corpus.core.errors import exit_code
from project_corpus.core.errors import render_hint
from project_corpus.doctor.registry import CHECKS_BY_CODE
from project_corpus.doctor.selection import closest
from project_corpus.doctor.selection import lookup


def explain(text: str) -> dict[str, object]:
    """The explanation of TEXT (a check's code or name, or an error code, in any case)."""
    found = lookup(text, CHECKS_BY_CODE)
    if found is not None:
        item = CHECKS_BY_CODE[found]
        return {
            "code": item.code,
            "kind": "check",
            "name": item.name,
            "severity": item.severity,
            "gate": item.gate,
            "summary": item.summary,
            "doc": item.doc,
        }
    code = text.strip().upper().replace("-", "_")
    if code in ERRORS:
        return {
            "code": code,
            "kind": "error",
            "exit_code": exit_code(code),
            "summary": ERRORS[code],
            "hint": render_hint(HINTS[code], None),
        }
    raise ContextError("USAGE_ERROR", f"no check or error code {text!r}", hint=_unknown_hint(text))


def _unknown_hint(text: str) -> str:
    wanted = text.strip().upper().replace("-", "_")
    near = closest(text, CHECKS_BY_CODE)
    near += [c for c in difflib.get_close_matches(wanted, list(ERRORS), n=3) if c not in near]
    guess = f"did you mean {', '.join(near[:3])}? " if near else ""
    return guess + "`project-corpus explain` lists every check; docs/errors.md every error code"


def explain_text(data: dict[str, object]) -> str:
    """The text view of an `explain` result."""
    if data["kind"] == "check":
        head = f"{data['code']} ({data['name']}) — default severity {data['severity']}"
        gate = " (a conformance gate: never off, never suppressed)" if data["gate"] else ""
        return f"{head}{gate}\n\n{data['doc']}\n"
    head = f"{data['code']} — an error (exit {data['exit_code']}), not a doctor finding"
    return f"{head}\n\n{data['summary']}\n\nHint: {data['hint']}\n"
