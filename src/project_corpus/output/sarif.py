"""SARIF 2.1.0 (one run) for code scanning (docs/doctor.md).

`rules[]` is generated from the check registry (every check, in registry order, so a
`ruleIndex` is stable across runs). Locations are repo-relative, percent-encoded URIs
against `%SRCROOT%`; nothing absolute is written. Each result carries the line-independent
fingerprint both as `fingerprints` and `partialFingerprints` (GitHub uses the latter to
track an alert across commits). Suppressed findings are results with `suppressions`
(`inSource` for a directive, `external` for a lint.yaml `ignore`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Sequence
from urllib.parse import quote

from project_corpus.core.about import DOCS_URL
from project_corpus.core.about import HOMEPAGE
from project_corpus.core.about import __version__
from project_corpus.core.jsonio import indented
from project_corpus.doctor import CHECKS
from project_corpus.doctor.records import Check
from project_corpus.doctor.report import FINGERPRINT_KEY
from project_corpus.output.escape import terminal

SCHEMA_URI = (
    "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
)
SARIF_VERSION = "2.1.0"  # the OASIS format we write (SCHEMA_URI), not one of ours
INFORMATION_URI = HOMEPAGE
DOCS_URI = f"{DOCS_URL}/checks.md"
HEADING_RE = re.compile(r"^#+ (.*)$", re.MULTILINE)
LEVELS = {"FAIL": "error", "WARN": "warning"}  # by severity (models.SEVERITIES)


def help_uri(code: str) -> str:
    """Where the documentation of the check CODE is (SARIF `helpUri`, an editor's link)."""
    return f"{DOCS_URI}#{code.lower()}"


def rule(check: Check) -> dict[str, object]:
    doc = check.doc
    return {
        "id": check.code,
        "name": check.pascal_name,
        "shortDescription": {"text": check.summary},
        "fullDescription": {"text": doc},
        "help": {"text": HEADING_RE.sub(r"\1:", doc), "markdown": doc},
        "helpUri": help_uri(check.code),
        "defaultConfiguration": {"level": LEVELS[check.severity]},
        "properties": {"tags": ["project-corpus", "gate" if check.gate else "memory"]},
    }


def uri(path: str) -> str:
    """A repo-relative path as a percent-encoded URI reference."""
    return quote(path, safe="/")


def region(issue: Mapping[str, object]) -> dict[str, object]:
    """The start line, and the start column when the finding points at a token."""
    found: dict[str, object] = {"startLine": issue["line"]}
    if "column" in issue:
        found["startColumn"] = issue["column"]
    return found


def result(issue: Mapping[str, object], index: Mapping[str, int]) -> dict[str, object]:
    code = str(issue["code"])
    fingerprint = str(issue["fingerprint"])
    data: dict[str, object] = {"ruleId": code}
    if code in index:  # an absent baseline finding may name a check this version lacks
        data["ruleIndex"] = index[code]
    data |= {
        "level": LEVELS.get(str(issue["severity"]), "warning"),
        # Viewers show the text as it is: controls, bidi and zero-width characters escaped.
        "message": {"text": terminal(str(issue["message"]))},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": uri(str(issue["path"])), "uriBaseId": "%SRCROOT%"},
                    "region": region(issue),
                }
            }
        ],
        "fingerprints": {FINGERPRINT_KEY: fingerprint},
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
    }
    if "baseline_state" in issue:
        data["baselineState"] = str(issue["baseline_state"])
    if issue.get("suppressed"):
        data["suppressions"] = [{"kind": str(issue.get("suppression") or "external")}]
    extra = {k: issue[k] for k in ("pointer", "source_path", "source_line", "detail") if k in issue}
    data["properties"] = extra
    return data


def sarif_log(report: Mapping[str, object]) -> dict[str, object]:
    index = {check.code: number for number, check in enumerate(CHECKS)}
    issues = [*_sequence(report.get("issues")), *_baseline_results(report)]
    return {
        "$schema": SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "project-corpus",
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [rule(check) for check in CHECKS],
                    }
                },
                "results": [result(issue, index) for issue in issues],
                "columnKind": "unicodeCodePoints",
            }
        ],
    }


def _sequence(value: object) -> Sequence[Mapping[str, object]]:
    assert isinstance(value, Sequence)
    return value


def _baseline_results(report: Mapping[str, object]) -> list[Mapping[str, object]]:
    """With `--baseline`: the unchanged and the absent findings (each has `baseline_state`)."""
    baseline = report.get("baseline")
    if not isinstance(baseline, Mapping):
        return []
    return [*_sequence(baseline["unchanged"]), *_sequence(baseline["absent"])]


def render(report: Mapping[str, object]) -> str:
    return indented(sarif_log(report), allow_nan=True) + "\n"
