"""`project-corpus lsp` driven by a real LSP client over stdio (docs/editors.md)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from lsprotocol import types

from tests.conftest import MakeCorpus
from tests.lsp.support import Session
from tests.lsp.support import apply
from tests.lsp.support import codes
from tests.lsp.support import run_session

pytestmark = pytest.mark.slow

HISTORY = ".project-corpus/history/notes.md"
STATUS = ".project-corpus/state/STATUS.md"
TASK = ".project-corpus/tasks/tune-eviction.md"
CLEAN = "# Notes\nDate: 2026-11-02\n\n## Cache\nThe cache keeps hot pages.\n"
# Line 5 (0-based 4): the term after an emoji (two UTF-16 units) and a Cyrillic word.
CLAIM = "# Notes\n\n## Cache\nSome context first.\nКэш 😀 is currently slow.\n"
TERM_COLUMN = len("Кэш ") + 2 + len(" is ")  # UTF-16 units before `currently`


def test_diagnostics_on_open_sit_on_the_term_of_the_unsaved_text(make_corpus: MakeCorpus) -> None:
    root = make_corpus({HISTORY: CLEAN})

    async def script(s: Session) -> list[types.Diagnostic]:
        uri = s.open(root / HISTORY, CLAIM)  # the editor's text differs from the file
        return await s.current(uri)

    found = run_session(root, script)
    assert codes(found) == ["VOLATILE_WITHOUT_FRESHNESS"]
    (diagnostic,) = found
    start = types.Position(line=4, character=TERM_COLUMN)
    end = types.Position(line=4, character=TERM_COLUMN + len("currently"))
    assert diagnostic.range == types.Range(start=start, end=end)
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    assert diagnostic.source == "project-corpus"
    assert diagnostic.code_description is not None
    assert diagnostic.code_description.href.endswith("checks.md#volatile_without_freshness")
    assert "\nhelp: Date the claim" in diagnostic.message


def test_a_change_that_fixes_the_claim_clears_its_diagnostic(make_corpus: MakeCorpus) -> None:
    root = make_corpus({HISTORY: CLEAN})

    async def script(s: Session) -> tuple[list[str], list[str]]:
        uri = s.open(root / HISTORY, CLAIM)
        before = codes(await s.current(uri))
        s.change(uri, CLAIM.replace("currently", "as of 2026-11-02"))
        return before, codes(await s.current(uri))

    before, after = run_session(root, script)
    assert before == ["VOLATILE_WITHOUT_FRESHNESS"]
    assert after == []


def test_the_dating_quick_fix_applied_clears_the_finding(make_corpus: MakeCorpus) -> None:
    root = make_corpus({HISTORY: CLAIM})
    today = datetime.datetime.now(datetime.UTC).date().isoformat()

    async def script(s: Session) -> tuple[list[str], str, list[str]]:
        uri = s.open(root / HISTORY)
        found = await s.current(uri)
        context = types.CodeActionContext(diagnostics=found)
        where = found[0].range
        params = types.CodeActionParams(types.TextDocumentIdentifier(uri), where, context)
        actions = await s.client.text_document_code_action_async(params)
        assert actions is not None
        titles = [a.title for a in actions if isinstance(a, types.CodeAction)]
        (dating,) = [a for a in actions if isinstance(a, types.CodeAction) and "Date" in a.title]
        assert dating.edit is not None
        assert dating.edit.changes is not None
        fixed = apply(CLAIM, dating.edit.changes[uri])
        s.change(uri, fixed)
        return titles, fixed, codes(await s.current(uri))

    titles, fixed, after = run_session(root, script)
    assert titles == [
        f"Date the claim: as of {today}",
        "Suppress VOLATILE_WITHOUT_FRESHNESS for this item",
    ]
    assert f"Кэш 😀 is currently (as of {today}) slow." in fixed
    assert after == []


def test_the_suppression_quick_fix_applied_clears_the_finding(make_corpus: MakeCorpus) -> None:
    root = make_corpus({HISTORY: CLAIM})

    async def script(s: Session) -> tuple[str, list[str]]:
        uri = s.open(root / HISTORY)
        found = await s.current(uri)
        context = types.CodeActionContext(diagnostics=found)
        params = types.CodeActionParams(types.TextDocumentIdentifier(uri), found[0].range, context)
        actions = await s.client.text_document_code_action_async(params) or []
        (suppress,) = [
            a for a in actions if isinstance(a, types.CodeAction) and "Suppress" in a.title
        ]
        assert suppress.edit is not None
        assert suppress.edit.changes is not None
        fixed = apply(CLAIM, suppress.edit.changes[uri])
        s.change(uri, fixed)
        return fixed, codes(await s.current(uri))

    fixed, after = run_session(root, script)
    assert "first.\n<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\nКэш" not in fixed
    assert "\n<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\nSome context" in fixed
    assert after == []


def test_go_to_definition_from_the_active_task_id_opens_the_task(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    status = (root / STATUS).read_text(encoding="utf-8")
    line = status.split("\n").index("Active-Task-ID: tune-eviction")

    async def script(s: Session) -> object:
        uri = s.open(root / STATUS)
        await s.current(uri)
        at = types.Position(line=line, character=len("Active-Task-ID: tune"))
        params = types.DefinitionParams(types.TextDocumentIdentifier(uri), at)
        return await s.client.text_document_definition_async(params)

    found = run_session(root, script)
    assert isinstance(found, (list, tuple))
    assert [location.uri for location in found] == [(root / TASK).as_uri()]


def test_a_file_changed_on_disk_refreshes_an_open_documents_cross_document_finding(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus()
    status = (root / STATUS).read_text(encoding="utf-8")
    cited = status.split("\n").index("- bench-new")
    report = root / ".project-corpus/reports/bench-new.md"

    async def script(s: Session) -> tuple[list[str], list[types.Diagnostic]]:
        uri = s.open(root / STATUS)
        before = codes(await s.current(uri))
        report.unlink()  # outside the editor
        event = types.FileEvent(uri=report.as_uri(), type=types.FileChangeType.Deleted)
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([event]))
        after = await s.wait(uri, lambda p: bool(p.diagnostics))
        return before, after

    before, after = run_session(root, script)
    assert before == []
    assert codes(after) == ["CITED_REPORT_MISSING"]
    assert after[0].range.start == types.Position(line=cited, character=len("- "))
    assert after[0].range.end == types.Position(line=cited, character=len("- bench-new"))


def test_links_and_hover_name_the_targets_title_and_state(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    status = (root / STATUS).read_text(encoding="utf-8").split("\n")

    async def script(s: Session) -> tuple[object, object]:
        uri = s.open(root / STATUS)
        await s.current(uri)
        document = types.TextDocumentIdentifier(uri)
        found = await s.client.text_document_document_link_async(types.DocumentLinkParams(document))
        at = types.Position(line=status.index("Active-Task-ID: tune-eviction"), character=17)
        shown = await s.client.text_document_hover_async(types.HoverParams(document, at))
        return found, shown

    found, shown = run_session(root, script)
    assert isinstance(found, (list, tuple))
    targets = sorted((link.range.start.line, link.target) for link in found)
    reports = root / ".project-corpus/reports"
    assert targets == [
        (status.index("Active-Task-ID: tune-eviction"), (root / TASK).as_uri()),
        (status.index("- bench-new"), (reports / "bench-new.md").as_uri()),
        (
            status.index("- .project-corpus/reports/bench-path.md"),
            (reports / "bench-path.md").as_uri(),
        ),
    ]
    assert isinstance(shown, types.Hover)
    assert isinstance(shown.contents, types.MarkupContent)
    assert shown.contents.value.startswith("**Task: tune eviction**")
    assert "Task-Status: OPEN" in shown.contents.value
    assert "ACTIVE_TASK, current" in shown.contents.value


def test_an_oversized_edit_is_a_limit_diagnostic_not_a_hang(make_corpus: MakeCorpus) -> None:
    root = make_corpus({HISTORY: CLEAN})
    hostile = "# Notes\n\n" + "currently x\n" * 50_001  # over the non-blank line limit

    async def script(s: Session) -> tuple[list[types.Diagnostic], list[str]]:
        uri = s.open(root / HISTORY, hostile)
        failed = await s.current(uri)
        s.change(uri, CLEAN)
        return failed, codes(await s.current(uri))

    failed, after = run_session(root, script)
    assert codes(failed) == ["CONTEXT_LIMIT"]
    assert "nonblank_lines" in failed[0].message
    assert after == []


def test_documents_outside_the_corpus_or_not_on_disk_get_no_findings(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus()
    outside = tmp_path / "elsewhere.md"
    outside.write_text("It is currently broken.\n", encoding="utf-8")
    unsaved = root / ".project-corpus/history/new.md"  # not on disk: not a source yet

    async def script(s: Session) -> tuple[list[str], list[str], list[str]]:
        agents = s.open(root / "AGENTS.md", "It is currently broken.\n")
        other = s.open(outside)
        new = s.open(unsaved, "# New\n\nIt is currently broken.\n")
        status = s.open(root / STATUS)
        await s.current(status)
        return tuple(
            codes(s.published[u].diagnostics) if u in s.published else []
            for u in (agents, other, new)
        )  # type: ignore[return-value]

    assert run_session(root, script) == ([], [], [])


def test_the_server_asks_for_corpus_file_events(make_corpus: MakeCorpus) -> None:
    root = make_corpus()

    async def script(s: Session) -> list[types.RegistrationParams]:
        await s.current(s.open(root / STATUS))
        return s.registrations

    (registered,) = run_session(root, script)
    (registration,) = registered.registrations
    assert registration.method == "workspace/didChangeWatchedFiles"
    options = registration.register_options
    assert isinstance(options, dict)
    assert options["watchers"] == [{"globPattern": "**/.project-corpus/**"}]


def test_closing_a_document_clears_its_diagnostics(make_corpus: MakeCorpus) -> None:
    root = make_corpus({HISTORY: CLAIM})

    async def script(s: Session) -> tuple[list[str], list[str]]:
        uri = s.open(root / HISTORY)
        before = codes(await s.current(uri))
        document = types.TextDocumentIdentifier(uri)
        s.client.text_document_did_close(types.DidCloseTextDocumentParams(document))
        after = await s.wait(uri, lambda p: p.version is None)
        return before, codes(after)

    assert run_session(root, script) == (["VOLATILE_WITHOUT_FRESHNESS"], [])
