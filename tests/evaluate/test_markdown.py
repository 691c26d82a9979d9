"""The Markdown rendering of a CorpusEval v1 result (PR comments, CI job summaries)."""

from __future__ import annotations

import json

import pytest

from project_corpus.evaluate import render_eval
from project_corpus.evaluate.markdown import render_markdown
from project_corpus.output.escape import markdown_cell as escape_cell


def _report(**changes: object) -> dict[str, object]:
    results = [
        {"case_index": 0, "name": "good", "pass": True, "failed_metrics": [], "problems": []},
        {
            "case_index": 1,
            "name": "bad | <b>name</b>\nsecond line",
            "pass": False,
            "failed_metrics": ["top_source_correct", "must_contain_ok"],
            "problems": ["must_contain_ok: bundle text lacks 'a|b'"],
        },
    ]
    report: dict[str, object] = {
        "ok": False,
        "project_id": "demo-project",
        "case_count": 2,
        "pass_rate": 0.5,
        "source_recall_mean": None,
        "forbidden_contamination_rate": 0.0,
        "project_policy_isolation_pass_rate": None,
        "metric_pass_rates": {"top_source_correct": 0.0, "source_recall": None},
        "results": results,
        "non_authoritative": True,
    }
    report.update(changes)
    return report


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("a|b", "a\\|b"),
        ("a\nb\r\nc", "a b c"),
        ("<script>", "&lt;script&gt;"),
        ("x & y", "x &amp; y"),
        ("back\\slash", "back\\\\slash"),
        ("`code`", "\\`code\\`"),
        ("Русский", "Русский"),
    ],
)
def test_escape_cell(text: str, escaped: str) -> None:
    assert escape_cell(text) == escaped


def test_header_summarises_the_run() -> None:
    text = render_markdown(_report())
    lines = text.splitlines()
    assert lines[0] == "## ❌ CorpusEval: demo-project: 1/2 cases passed (50.0%)"
    assert "- Source recall (mean): untested" in lines
    assert "- Forbidden contamination rate: 0.0%" in lines
    assert "- Project/policy isolation pass rate: untested" in lines


def test_one_row_per_case_with_escaped_cells() -> None:
    lines = render_markdown(_report()).splitlines()
    assert "| 0 | good | ✅ |  |" in lines
    name = "bad \\| &lt;b&gt;name&lt;/b&gt; second line"
    bad = f"| 1 | {name} | ❌ | top_source_correct, must_contain_ok |"
    assert bad in lines
    for line in lines:
        if line.startswith("| "):
            assert line.replace("\\|", "").count("|") in (5, 3)


def test_failures_section_lists_problems() -> None:
    text = render_markdown(_report())
    assert "### Failures" in text
    name = "bad \\| &lt;b&gt;name&lt;/b&gt; second line"
    assert f"- **{name}**: must_contain_ok: bundle text lacks 'a\\|b'" in text


def test_passing_report_has_no_failures_section() -> None:
    results = [
        {"case_index": 0, "name": "good", "pass": True, "failed_metrics": [], "problems": []}
    ]
    text = render_markdown(_report(ok=True, pass_rate=1.0, results=results))
    assert text.startswith("## ✅ CorpusEval: demo-project: 1/1 cases passed (100.0%)\n")
    assert "Failures" not in text
    assert "| source_recall | untested |" in text
    assert text.endswith(
        "_Non-authoritative: read the primary sources before any authority claim._\n"
    )


def test_render_eval_json_is_the_cli_json() -> None:
    report = _report()
    text = render_eval(report, "json")
    assert json.loads(text) == report
    assert text.endswith("\n")
    assert render_eval(report, "markdown") == render_markdown(report)


def test_render_survives_odd_values() -> None:
    text = render_markdown({"results": ["x", {"name": 3}], "metric_pass_rates": []})
    assert "0/2 cases passed (untested)" in text
