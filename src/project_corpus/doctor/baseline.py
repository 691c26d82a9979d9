"""`context doctor --baseline FILE`: report only the findings an earlier report lacks.

FILE is an earlier doctor report, JSON or SARIF (docs/doctor.md, "Baseline"). Findings are
matched by their `fingerprint` (code, path and normalised anchor text, never the line), the
identity `context review` uses too. The report's `issues` keep the new findings only; the
findings that were already there and those the baseline has but this run does not are listed
under `baseline` (`unchanged`, `absent`), so SARIF can carry `baselineState` for all three.

The baseline is the tool's own output, not corpus content: it may lie outside ROOT (CI keeps
it in a temporary folder), is opened without following a final link, must be a regular file
of at most 32 MiB and strict UTF-8 JSON; anything else is `BASELINE_INVALID`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from collections.abc import Sequence
from urllib.parse import unquote

from project_corpus.core.errors import ContextError
from project_corpus.core.jsonio import parse_json_bytes
from project_corpus.core.limits import MAX_BASELINE_BYTES
from project_corpus.doctor.report import FINGERPRINT_KEY

FINGERPRINT_RE = re.compile(r"^[0-9a-f]{32}\Z")
CODE_RE = re.compile(r"^[A-Z][A-Z0-9_]*\Z")
SARIF_SEVERITIES = {"error": "FAIL", "warning": "WARN", "note": "WARN", "none": "WARN"}
Entry = dict[str, object]


def _invalid(label: str, detail: str) -> ContextError:
    return ContextError(
        "BASELINE_INVALID",
        f"{label}: {detail}",
        hint="pass an earlier `context doctor --format json` or `--format sarif` report",
    )


def read_baseline(user_path: str) -> list[Entry]:
    """The findings of the report at USER_PATH, as doctor report entries."""
    label = os.path.basename(user_path) or user_path
    try:
        fd = os.open(user_path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as exc:
        raise _invalid(label, f"cannot be opened ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _invalid(label, "not a regular file")
        if st.st_size > MAX_BASELINE_BYTES:
            raise _invalid(label, f"{st.st_size} bytes; at most {MAX_BASELINE_BYTES}")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_BASELINE_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_BASELINE_BYTES:
        raise _invalid(label, f"grew past {MAX_BASELINE_BYTES} bytes while read")
    try:
        value = parse_json_bytes(data, label)
    except ContextError as exc:
        raise _invalid(label, exc.detail.removeprefix(f"{label}: ")) from None
    return baseline_entries(value, label)


def baseline_entries(value: object, label: str) -> list[Entry]:
    """The findings of a doctor JSON report (`issues`) or a SARIF log (`runs[].results`)."""
    if isinstance(value, Mapping) and isinstance(value.get("issues"), list):
        issues: list[object] = value["issues"]
        return [_checked(issue, f"{label}: /issues/{n}") for n, issue in enumerate(issues)]
    if isinstance(value, Mapping) and isinstance(value.get("runs"), list):
        return _sarif_entries(value["runs"], label)
    raise _invalid(label, "neither a doctor JSON report (`issues`) nor a SARIF log (`runs`)")


def _sarif_entries(runs: list[object], label: str) -> list[Entry]:
    entries = []
    for r, run in enumerate(runs):
        results = run.get("results") if isinstance(run, Mapping) else None
        if not isinstance(results, list):
            raise _invalid(label, f"/runs/{r}/results is not an array")
        for n, result in enumerate(results):
            where = f"{label}: /runs/{r}/results/{n}"
            if not isinstance(result, Mapping):
                raise _invalid(where, "not an object")
            if result.get("baselineState") != "absent":  # absent: not a finding of that run
                entries.append(_checked(_from_sarif(result), where))
    return entries


def _from_sarif(result: Mapping[str, object]) -> Entry:
    """A SARIF result of `output.sarif` as a doctor report entry (best effort; checked after)."""
    prints = result.get("fingerprints") or result.get("partialFingerprints")
    region: Mapping[str, object] = {}
    uri: object = None
    locations = result.get("locations")
    if isinstance(locations, list) and locations and isinstance(locations[0], Mapping):
        physical = locations[0].get("physicalLocation")
        if isinstance(physical, Mapping):
            artifact = physical.get("artifactLocation")
            uri = artifact.get("uri") if isinstance(artifact, Mapping) else None
            found = physical.get("region")
            region = found if isinstance(found, Mapping) else {}
    message = result.get("message")
    properties = result.get("properties")
    return {
        "code": result.get("ruleId"),
        "severity": SARIF_SEVERITIES.get(str(result.get("level", "warning")), "WARN"),
        "path": unquote(uri) if isinstance(uri, str) else None,
        "line": region.get("startLine", 1),
        "message": message.get("text") if isinstance(message, Mapping) else None,
        "detail": properties.get("detail", "") if isinstance(properties, Mapping) else "",
        "fingerprint": prints.get(FINGERPRINT_KEY) if isinstance(prints, Mapping) else None,
        "suppressed": bool(result.get("suppressions")),
        "suppression": None,
    }


def _checked(issue: object, where: str) -> Entry:
    """ISSUE with the keys and types of a report entry; BASELINE_INVALID naming WHERE."""
    if not isinstance(issue, Mapping):
        raise _invalid(where, "not an object")
    fingerprint, code, path, line = (issue.get(k) for k in ("fingerprint", "code", "path", "line"))
    if not isinstance(fingerprint, str) or not FINGERPRINT_RE.match(fingerprint):
        raise _invalid(where, "no project-corpus fingerprint (32 hex digits)")
    if not isinstance(code, str) or not CODE_RE.match(code):
        raise _invalid(where, "no finding code")
    if not isinstance(path, str) or not path:
        raise _invalid(where, "no path")
    message, detail = issue.get("message"), issue.get("detail", "")
    suppression = issue.get("suppression")
    return {
        "code": code,
        "severity": issue.get("severity") if issue.get("severity") in ("FAIL", "WARN") else "WARN",
        "path": path,
        "line": line if isinstance(line, int) and not isinstance(line, bool) and line > 0 else 1,
        "message": message if isinstance(message, str) and message else code,
        "detail": detail if isinstance(detail, str) else "",
        "fingerprint": fingerprint,
        "suppressed": issue.get("suppressed") is True,
        "suppression": suppression if suppression in ("inSource", "external") else None,
    }


def split(
    entries: Sequence[Entry], earlier: Sequence[Entry]
) -> tuple[list[Entry], list[Entry], list[Entry]]:
    """(new, unchanged, absent): ENTRIES not in EARLIER, ENTRIES in EARLIER, EARLIER not in
    ENTRIES, each entry marked with its `baseline_state`; matched by fingerprint."""
    before = {str(e["fingerprint"]) for e in earlier}
    now = {str(e["fingerprint"]) for e in entries}
    new = [{**e, "baseline_state": "new"} for e in entries if e["fingerprint"] not in before]
    same = [{**e, "baseline_state": "unchanged"} for e in entries if e["fingerprint"] in before]
    gone = [{**e, "baseline_state": "absent"} for e in earlier if e["fingerprint"] not in now]
    return new, same, gone
