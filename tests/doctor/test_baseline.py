"""`context doctor --baseline FILE`: only findings an earlier JSON or SARIF report lacks."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from project_corpus.core.errors import ContextError
from project_corpus.core.schemas import load_schema
from project_corpus.doctor import memory_doctor
from project_corpus.doctor.baseline import baseline_entries
from project_corpus.output import render_report
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.output.test_output import sarif_validator

Cli = Callable[..., Run]
NOTES = ".project-corpus/history/notes.md"
OLD = "# Notes\nOwner: ops\n\n## Notes\nWe currently deploy on Fridays.\n"
# The old claim moved down one line, and one new volatile claim.
MOVED = (
    "# Notes\nOwner: ops\n\n## Notes\nAn unrelated line first.\n\n"
    "We currently deploy on Fridays.\n\nThe canary is live right now.\n"
)
GONE = "# Notes\nOwner: ops\n\n## Notes\nWe deploy on Fridays.\n"


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).write_text(text, encoding="utf-8")


def volatile(report: dict[str, object]) -> list[dict[str, object]]:
    issues = report["issues"]
    assert isinstance(issues, list)
    return [i for i in issues if i["code"] == "VOLATILE_WITHOUT_FRESHNESS"]


@pytest.fixture
def baselined(make_corpus: MakeCorpus, tmp_path: Path) -> tuple[Path, Path, Path]:
    """(root, JSON baseline, SARIF baseline) of the corpus with the old claim, then the
    corpus changed to MOVED; the baselines live outside ROOT."""
    root = make_corpus({NOTES: OLD})
    report = memory_doctor(root)
    assert len(volatile(report)) == 1
    as_json, as_sarif = tmp_path / "base.json", tmp_path / "base.sarif"
    as_json.write_text(render_report(report, "json"), encoding="utf-8")
    as_sarif.write_text(render_report(report, "sarif"), encoding="utf-8")
    write(root, NOTES, MOVED)
    return root, as_json, as_sarif


@pytest.mark.parametrize("kind", ["json", "sarif"])
def test_baseline_lists_only_the_new_finding(baselined: tuple[Path, Path, Path], kind: str) -> None:
    root, as_json, as_sarif = baselined
    without = memory_doctor(root)
    assert len(volatile(without)) == 2
    report = memory_doctor(root, baseline=str(as_json if kind == "json" else as_sarif))
    new = volatile(report)
    assert [i["line"] for i in new] == [9]
    assert new[0]["baseline_state"] == "new"
    baseline = report["baseline"]
    assert isinstance(baseline, dict)
    assert [(i["code"], i["line"]) for i in baseline["unchanged"]] == [
        ("VOLATILE_WITHOUT_FRESHNESS", 7)
    ]
    assert baseline["absent"] == []
    assert report["summary"] == {"FAIL": 0, "WARN": 1, "suppressed": 0}
    jsonschema.validate(report, load_schema("doctor-report"))


def test_fixed_finding_is_absent_and_sarif_carries_every_state(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus({NOTES: OLD})
    base = tmp_path / "base.json"
    base.write_text(render_report(memory_doctor(root), "json"), encoding="utf-8")
    write(root, NOTES, GONE)
    report = memory_doctor(root, baseline=str(base), fail_on="WARN")
    assert report["issues"] == []
    assert report["ok"] is True
    baseline = report["baseline"]
    assert isinstance(baseline, dict)
    assert [i["baseline_state"] for i in baseline["absent"]] == ["absent"]
    write(root, NOTES, MOVED)
    report = memory_doctor(root, baseline=str(base), fail_on="WARN")
    assert report["ok"] is False  # the new WARN fails with --fail-on WARN
    log = json.loads(render_report(report, "sarif"))
    assert list(sarif_validator().iter_errors(log)) == []
    states = sorted(r["baselineState"] for r in log["runs"][0]["results"])
    assert states == ["new", "unchanged"]
    write(root, NOTES, "# Notes\nOwner: ops\n\n## Notes\nThe canary is live right now.\n")
    log = json.loads(render_report(memory_doctor(root, baseline=str(base)), "sarif"))
    assert list(sarif_validator().iter_errors(log)) == []
    states = sorted(r["baselineState"] for r in log["runs"][0]["results"])
    assert states == ["absent", "new"]


def test_cli_baseline_text_and_exit(baselined: tuple[Path, Path, Path], cli: Cli) -> None:
    root, as_json, _ = baselined
    run = cli("context", "doctor", root, "--baseline", as_json, "--format", "text")
    assert run.code == 0
    assert run.out.count("VOLATILE_WITHOUT_FRESHNESS") == 1
    assert ":9:" in run.out
    assert "1 unchanged, 0 absent since the baseline" in run.out
    run = cli("context", "doctor", root, "--baseline", as_json, "--fail-on", "warn")
    assert run.code == 1


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b"[]",
        b'{"issues": [{"code": "X"}]}',
        b'{"issues": [{"code": "X", "path": "a", "fingerprint": "zz"}]}',
        b'{"runs": [{"results": [{"ruleId": "X"}]}]}',
        b'{"runs": [{}]}',
        b"\xff",
    ],
)
def test_bad_baseline_is_a_stable_error(
    make_corpus: MakeCorpus, tmp_path: Path, cli: Cli, content: bytes
) -> None:
    root = make_corpus()
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    run = cli("context", "doctor", root, "--baseline", bad, "--format", "json")
    assert run.code == 2
    assert run.error()["error"] == "BASELINE_INVALID"
    assert str(tmp_path) not in run.err  # only the file's name is shown


def test_baseline_link_missing_or_folder_is_refused(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus()
    real = tmp_path / "real.json"
    real.write_text(render_report(memory_doctor(root), "json"), encoding="utf-8")
    link = tmp_path / "link.json"
    os.symlink(real, link)
    for path in (link, tmp_path / "missing.json", tmp_path):
        with pytest.raises(ContextError) as err:
            memory_doctor(root, baseline=str(path))
        assert err.value.code == "BASELINE_INVALID"
    assert memory_doctor(root, baseline=str(real))["issues"] == []


def test_sarif_results_marked_absent_are_not_baseline_findings() -> None:
    fingerprint = "0" * 32
    result = {
        "ruleId": "VOLATILE_WITHOUT_FRESHNESS",
        "level": "warning",
        "message": {"text": "m"},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": "a%20b.md"},
                    "region": {"startLine": 3},
                }
            }
        ],
        "fingerprints": {"projectCorpus/v1": fingerprint},
    }
    log = {"runs": [{"results": [result, {**result, "baselineState": "absent"}]}]}
    entries = baseline_entries(log, "x.sarif")
    assert [(e["path"], e["line"], e["fingerprint"]) for e in entries] == [
        ("a b.md", 3, fingerprint)
    ]
