"""Hostile inputs, fourth round (#36 items 7, 8, 10, 11): what a corpus author or a baseline
file can do to the output — bounded policy findings, a bounded window of a long source line,
a baseline that names files outside the corpus, mentions in a pull request comment."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.corpus.policy import MAX_POLICY_FINDINGS
from project_corpus.corpus.policy import parse_policy
from project_corpus.doctor import memory_doctor
from project_corpus.doctor.baseline import MAX_LINE
from project_corpus.output.escape import markdown_cell
from project_corpus.output.review import render_review
from project_corpus.output.text import SOURCE_WINDOW
from project_corpus.output.text import window
from project_corpus.review import memory_review
from tests.conftest import POLICY
from tests.conftest import STATUS
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.hostile.support import assert_stable
from tests.review.support import OLD_ACTION
from tests.review.support import commit_all
from tests.review.support import init_repo
from tests.review.support import isolate_git

Cli = Callable[..., Run]
STATUS_PATH = ".project-corpus/state/STATUS.md"
NOTES = ".project-corpus/history/notes.md"
READ = 'read = [".project-corpus/state/**", '


def invalid_scopes(n: int) -> str:
    scopes = "".join(f'"/absolute-{k}/**", ' for k in range(n))
    return POLICY.replace(READ, READ + scopes)


def test_many_invalid_scopes_give_a_bounded_count_of_findings() -> None:
    policy, findings = parse_policy(invalid_scopes(6000).encode())
    scoped = [f for f in findings if f.code == "POLICY_SCOPE"]
    assert len(scoped) == MAX_POLICY_FINDINGS + 1
    assert (
        scoped[-1].detail
        == f"and {6000 - MAX_POLICY_FINDINGS} more POLICY_SCOPE finding(s) in this policy"
    )
    assert {f.line for f in scoped} == {7}
    assert len(policy.read) == 6004


def test_a_policy_of_invalid_scopes_is_reported_by_doctor(
    make_corpus: MakeCorpus, cli: Cli
) -> None:
    root = make_corpus({".project-corpus/policy.toml": invalid_scopes(3000)})
    run = cli("context", "doctor", root, "--format", "json")
    assert_stable(run, None, exits=(1,))
    issues = [i for i in json.loads(run.out)["issues"] if i["code"] == "POLICY_SCOPE"]
    assert len(issues) == MAX_POLICY_FINDINGS + 1


def test_the_source_window_is_bounded_and_points_at_the_column() -> None:
    line = "x" * 50_000 + "TOKEN" + "y" * 50_000
    shown, under = window(line, 50_001)
    assert len(shown) <= SOURCE_WINDOW + 2
    assert shown.startswith("…")
    assert shown.endswith("…")
    assert shown[under:].startswith("TOKEN")
    assert window("\tshort\x1b", 2) == ("    short\\x1b", 4)


def test_many_findings_on_one_long_line_print_bounded_text(
    make_corpus: MakeCorpus, cli: Cli
) -> None:
    claims = " ".join(f"see .project-corpus/reports/gone-{k}.md" for k in range(2000))
    root = make_corpus({NOTES: f"# Notes\nDate: 2026-01-05\n\n## Notes\n{claims}\n"})
    run = cli("context", "doctor", root, "--format", "text")
    rows = run.out.splitlines()
    sources = [row for row in rows if row.startswith("    ") and "gone-" in row]
    assert len(sources) >= 2000
    assert max(map(len, sources)) <= len("    ") + SOURCE_WINDOW + 2
    assert len(run.out) < 2000 * 600
    for finding, source, caret in zip(rows, rows[1:], rows[2:], strict=False):
        match = re.match(r"^.+?:5:(\d+): \w+ BROKEN_REFERENCE ", finding)
        if match and caret.strip() == "^":
            assert source[caret.index("^") :].startswith(".project-corpus/reports/gone-")


def test_duplicated_status_keys_each_point_at_their_value(make_corpus: MakeCorpus) -> None:
    extra = "".join(f"Lifecycle-Status:   WRONG{k}\n" for k in range(50))
    status = STATUS.replace("Lifecycle-Status: ACTIVE\n", f"Lifecycle-Status: ACTIVE\n{extra}")
    report = memory_doctor(make_corpus({STATUS_PATH: status}))
    wrong = [i for i in report["issues"] if "WRONG" in str(i["detail"])]  # type: ignore[union-attr]
    assert len(wrong) >= 50
    assert {i["column"] for i in wrong} == {len("Lifecycle-Status:   ") + 1}


def test_a_baseline_that_cannot_be_read_is_context_input_path(
    make_corpus: MakeCorpus, cli: Cli
) -> None:
    if not os.path.exists("/proc/self/mem"):
        pytest.skip("no /proc")
    run = cli("context", "doctor", make_corpus(), "--baseline", "/proc/self/mem")
    assert_stable(run, "CONTEXT_INPUT_PATH")


def sarif_result(uri: str, line: int, fingerprint: str) -> dict[str, object]:
    return {
        "ruleId": "VOLATILE_WITHOUT_FRESHNESS",
        "level": "warning",
        "message": {"text": "m"},
        "locations": [
            {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": {"startLine": line}}}
        ],
        "partialFingerprints": {"projectCorpus/v1": fingerprint},
    }


def test_baseline_entries_outside_the_corpus_never_reach_sarif(
    make_corpus: MakeCorpus, tmp_path: Path, cli: Cli
) -> None:
    results = [
        sarif_result("/etc/passwd", 1, "a" * 32),
        sarif_result("../../../etc/passwd", 2, "b" * 32),
        sarif_result("C:/Windows/win.ini", 3, "c" * 32),
        sarif_result(".project-corpus/history/gone.md", 10**30, "d" * 32),
    ]
    baseline = tmp_path / "base.sarif"
    baseline.write_text(json.dumps({"runs": [{"results": results}]}), encoding="utf-8")
    root = make_corpus()
    run = cli("context", "doctor", root, "--baseline", baseline, "--format", "sarif")
    assert run.code == 0, run.err
    assert "passwd" not in run.out
    assert "win.ini" not in run.out
    (absent,) = [
        r for r in json.loads(run.out)["runs"][0]["results"] if r["baselineState"] == "absent"
    ]
    region = absent["locations"][0]["physicalLocation"]["region"]
    assert 1 <= region["startLine"] <= MAX_LINE
    report = json.loads(
        cli("context", "doctor", root, "--baseline", baseline, "--format", "json").out
    )
    assert report["baseline"]["dropped"] == 3
    text = cli("context", "doctor", root, "--baseline", baseline, "--format", "text").out
    assert "3 baseline entries dropped" in text


def test_a_repeated_key_in_a_baseline_is_not_echoed(
    make_corpus: MakeCorpus, tmp_path: Path, cli: Cli
) -> None:
    key = "\x1b]52;c;SECRET\x07" + "k" * 10_000
    baseline = tmp_path / "base.json"
    baseline.write_text(f'{{"issues": [], {json.dumps(key)}: 1, {json.dumps(key)}: 2}}')
    run = cli("context", "doctor", make_corpus(), "--baseline", baseline)
    assert_stable(run, "BASELINE_INVALID")
    detail = str(run.error()["detail"])
    assert "SECRET" not in detail
    assert "kkkk" not in detail
    assert "repeats a key" in detail


@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("ping @alice", "@alice"),
        ("ping @org/team now", "@org/team"),
        ("mail bob@example.com", "bob@example.com"),
        ("fixes #12", "#12"),
        ("see GH-7", "GH-7"),
        ("see org/repo#3", "#3"),
    ],
)
def test_markdown_neutralises_mentions_and_references(text: str, never: str) -> None:
    cell = markdown_cell(text)
    assert never not in cell
    assert cell.replace("&#8203;", "") == text


def test_review_markdown_notifies_nobody(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git(monkeypatch)
    repo = init_repo(tmp_path / "repo")
    commit_all(repo, "base")
    status = (repo / STATUS_PATH).read_text(encoding="utf-8")
    hostile = "Ask @alice and @acme/security, mail eve@example.com, close #12 and GH-3."
    (repo / STATUS_PATH).write_text(status.replace(OLD_ACTION, hostile), encoding="utf-8")
    markdown = render_review(memory_review(repo, "main"), "markdown")
    for never in ("@alice", "@acme/security", "eve@example.com", "#12", "GH-3"):
        assert never not in markdown
    assert "@&#8203;alice" in markdown
