"""Quick fixes (docs/editors.md): each one, applied to the editor's text, clears its finding
in the doctor's next run over that text (the warm Workspace with the text as its overlay)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from project_corpus.adapters.lsp.diagnostics import by_path
from project_corpus.adapters.lsp.diagnostics import mark
from project_corpus.adapters.lsp.fixes import Edit
from project_corpus.adapters.lsp.fixes import Finding
from project_corpus.adapters.lsp.fixes import Text
from project_corpus.adapters.lsp.fixes import fixes
from project_corpus.corpus.markdown import parse_document
from project_corpus.workspace import Workspace
from tests.conftest import BASE_FILES
from tests.conftest import TASK
from tests.conftest import MakeCorpus

TODAY = "2026-12-03"
TASK_PATH = ".project-corpus/tasks/tune-eviction.md"
PROJECT_PATH = ".project-corpus/state/PROJECT.md"
REPORT_PATH = ".project-corpus/reports/bench-path.md"
STATUS_PATH = ".project-corpus/state/STATUS.md"
REPORT = BASE_FILES[REPORT_PATH]


def apply_chars(text: str, edits: Sequence[Edit]) -> str:
    lines = text.split("\n")

    def offset(line: int, column: int) -> int:
        return sum(len(x) + 1 for x in lines[:line]) + column

    for edit in sorted(edits, key=lambda e: (e.line, e.start), reverse=True):
        start, end = offset(edit.line, edit.start), offset(edit.end_line, edit.end)
        text = text[:start] + edit.text + text[end:]
    return text


def findings(ws: Workspace, path: str, text: str) -> list[dict[str, object]]:
    report = ws.doctor(overlay={path: text.encode("utf-8")}, today=None)
    return [dict(e) for e in by_path(report).get(path, [])]


def offered(path: str, text: str, entry: dict[str, object]) -> list[tuple[str, str]]:
    """(title, fixed text) of each fix offered for ENTRY in TEXT."""
    lines = text.split("\n")
    at = mark(entry, lines)
    finding = Finding(str(entry["code"]), str(entry["detail"]), at.line, at.start, at.end)
    found = fixes(path, Text(tuple(lines), parse_document(text)), finding, TODAY)
    return [(fix.title, apply_chars(text, fix.edits)) for fix in found]


CASES = {
    "a missing task section goes before the next one": (
        TASK_PATH,
        TASK.replace("## Constraints\nMemory stays under 2 GiB.\n\n", ""),
        "ARTIFACT_SHAPE",
        "Add the section heading `## Constraints`",
        "## Scope\nThe eviction policy module.\n\n## Constraints\n\n## Acceptance Criteria",
    ),
    "a missing last PROJECT section goes at the end": (
        PROJECT_PATH,
        BASE_FILES[PROJECT_PATH].replace("## Non-Goals\nNo user interface.\n", ""),
        "MISSING_SECTION",
        "Add the section heading `## Non-Goals`",
        "out of scope.\n\n## Non-Goals\n",
    ),
    "a wrong Protocol-Version is set to 2.0": (
        STATUS_PATH,
        BASE_FILES[STATUS_PATH].replace("Protocol-Version: 2.0", "Protocol-Version: 1.3"),
        "INVALID_METADATA",
        "Set `Protocol-Version: 2.0`",
        "# Status\nProtocol-Version: 2.0\nProject-ID",
    ),
    "a wrong Protocol-Version in a report is set to 2.0": (
        REPORT_PATH,
        REPORT.replace("Protocol-Version: 2.0", "Protocol-Version: 1.3"),
        "INVALID_METADATA",
        "Set `Protocol-Version: 2.0`",
        "# Report bench-path\nProtocol-Version: 2.0\nProject-ID",
    ),
    "a missing Protocol-Version goes under the title": (
        TASK_PATH,
        TASK.replace("Protocol-Version: 2.0\n", ""),
        "ARTIFACT_SHAPE",
        "Set `Protocol-Version: 2.0`",
        "# Task: tune eviction\nProtocol-Version: 2.0\nProject-ID",
    ),
    "a Report-ID that differs from the stem is set to it": (
        REPORT_PATH,
        REPORT.replace("Report-ID: bench-path", "Report-ID: bench-paths"),
        "ARTIFACT_SHAPE",
        "Set `Report-ID: bench-path` (the file stem)",
        "\nReport-ID: bench-path\n",
    ),
    "a finding about the whole file is suppressed for the file": (
        TASK_PATH,
        TASK.replace("## Constraints\nMemory stays under 2 GiB.\n\n", ""),
        "ARTIFACT_SHAPE",
        "Suppress ARTIFACT_SHAPE in this file",
        "95 percent in the weekly benchmark.\n\n<!-- project-corpus: disable-file ARTIFACT_SHAPE -->\n",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_quick_fix_applied_clears_its_finding(make_corpus: MakeCorpus, case: str) -> None:
    path, broken, code, title, expected = CASES[case]
    root = make_corpus({path: broken})
    ws = Workspace(root, warm=True)
    (entry,) = [e for e in findings(ws, path, broken) if e["code"] == code]
    fixed = dict(offered(path, broken, entry))[title]
    assert expected in fixed
    assert findings(ws, path, fixed) == []


def test_a_gate_finding_is_never_offered_a_suppression(make_corpus: MakeCorpus) -> None:
    path, broken = PROJECT_PATH, BASE_FILES[PROJECT_PATH].replace("## Objective", "## Goal")
    root = make_corpus({path: broken})
    (entry,) = findings(Workspace(root, warm=True), path, broken)
    assert entry["code"] == "MISSING_SECTION"
    assert [title for title, _ in offered(path, broken, entry)] == [
        "Add the section heading `## Objective`"
    ]


def test_a_crlf_document_keeps_its_line_ends_under_a_fix(make_corpus: MakeCorpus) -> None:
    status = BASE_FILES[STATUS_PATH].replace("Protocol-Version: 2.0", "Protocol-Version: 1")
    broken = status.replace("\n", "\r\n")
    root = make_corpus({STATUS_PATH: broken})
    ws = Workspace(root, warm=True)
    (entry,) = findings(ws, STATUS_PATH, broken)
    fixed = dict(offered(STATUS_PATH, broken, entry))["Set `Protocol-Version: 2.0`"]
    assert fixed == broken.replace("Protocol-Version: 1", "Protocol-Version: 2.0")
    assert findings(ws, STATUS_PATH, fixed) == []


def test_fixes_are_made_from_the_text_not_the_disk(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    text = REPORT.replace("Report-ID: bench-path", "Report-ID: other-id")
    (entry,) = findings(Workspace(root, warm=True), REPORT_PATH, text)
    assert (root / REPORT_PATH).read_text(encoding="utf-8") == REPORT
    assert "Set `Report-ID: bench-path` (the file stem)" in dict(offered(REPORT_PATH, text, entry))
