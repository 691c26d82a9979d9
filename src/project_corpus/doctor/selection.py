"""Which checks a run reports: `--select` / `--ignore` on the command line (docs/doctor.md).

Both take codes or kebab-case names, comma-separated or repeated, in any case. They narrow
the configured set (lint.yaml `rules:` still decides severities and what is off): `--select`
keeps only the named checks, `--ignore` then drops some. A check left out is skipped (listed
in `checks_skipped`), exactly as a check configured `off`.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence

from project_corpus.core.errors import ContextError
from project_corpus.doctor._config import LintConfig
from project_corpus.doctor._config import RuleFacts
from project_corpus.doctor._config import resolve_code


def closest(text: str, checks: Mapping[str, RuleFacts], count: int = 3) -> list[str]:
    """Up to COUNT codes whose code or name is closest to TEXT (for a did-you-mean)."""
    import difflib  # only for a mistake: the doctor's start-up stays lean

    wanted = text.strip().upper().replace("-", "_")
    candidates = {code: code for code in checks}
    candidates.update(
        {facts.name.upper().replace("-", "_"): code for code, facts in checks.items()}
    )
    found = difflib.get_close_matches(wanted, list(candidates), n=count * 2, cutoff=0.6)
    return list(dict.fromkeys(candidates[match] for match in found))[:count]


def unknown_hint(text: str, checks: Mapping[str, RuleFacts]) -> str:
    near = closest(text, checks)
    guess = f"did you mean {', '.join(near)}? " if near else ""
    return guess + "`project-corpus explain` lists every check"


def lookup(text: str, checks: Mapping[str, RuleFacts]) -> str | None:
    """The code of TEXT: a code or a name, in any case (`volatile-without-freshness`)."""
    cleaned = text.strip()
    return resolve_code(cleaned.upper(), checks) or resolve_code(cleaned.lower(), checks)


def parse_codes(values: Iterable[str], option: str, checks: Mapping[str, RuleFacts]) -> list[str]:
    """Codes named by VALUES (each may be a comma-separated list); USAGE_ERROR for an unknown."""
    codes: list[str] = []
    for value in values:
        for part in filter(None, (p.strip() for p in value.split(","))):
            code = lookup(part, checks)
            if code is None:
                raise ContextError(
                    "USAGE_ERROR",
                    f"{option}: unknown check {part!r}",
                    hint=unknown_hint(part, checks),
                )
            codes.append(code)
    return codes


def narrow(
    lint: LintConfig,
    checks: Mapping[str, RuleFacts],
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
) -> LintConfig:
    """LINT with every check outside `--select` or inside `--ignore` turned off."""
    selected = set(parse_codes(select, "--select", checks)) if select else set(checks)
    selected -= set(parse_codes(ignore, "--ignore", checks))
    if not select and not ignore:
        return lint
    rules = dict(lint.rules)
    rules.update({code: "off" for code in checks if code not in selected})
    return lint._replace(rules=rules)
