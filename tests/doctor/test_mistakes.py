"""SPEC §8 rev. 4, "Mistakes people make, caught", end to end on real corpora: what the doctor
says, where (line and column), what the gate refuses, and that `explain` knows every code a
hint or a doc sends people to (issue #35, items 3-8)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.core.errors import ERRORS
from project_corpus.core.errors import HINTS
from project_corpus.doctor import CHECKS_BY_CODE
from project_corpus.doctor.mistakes import placeholders
from project_corpus.doctor.mistakes import template_lines
from tests.conftest import REPO
from tests.conftest import TASK
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.conftest import report
from tests.doctor.support import doctor
from tests.doctor.support import issues

Cli = Callable[..., Run]
TASK_PATH = ".project-corpus/tasks/tune-eviction.md"
NEW = ".project-corpus/reports/bench-new.md"
HISTORY = ".project-corpus/history/notes.md"
SRC = REPO / "src" / "project_corpus"
TEMPLATES = SRC / "scaffold" / "templates"


def where(report_: dict[str, object], code: str) -> list[tuple[object, object, object, object]]:
    return [
        (i["path"], i["line"], i.get("column"), i["severity"])
        for i in issues(report_)
        if i["code"] == code
    ]


# --- item 3: Protocol-Version of a Task or Report -------------------------------------------------


@pytest.mark.parametrize(
    ("path", "text"),
    [
        (TASK_PATH, TASK.replace("Protocol-Version: 2.0", "Protocol-Version: 3.0")),
        (NEW, report("bench-new", "2026-11-21", "Fine.").replace("Version: 2.0", "Version: 2")),
    ],
)
def test_another_protocol_version_fails_the_doctor_and_the_gate_alike(
    make_corpus: MakeCorpus, cli: Cli, path: str, text: str
) -> None:
    root = make_corpus({path: text})
    result = doctor(root)
    assert where(result, "INVALID_METADATA") == [(path, 2, 19, "FAIL")]
    assert result["ok"] is False
    assert cli("context", "doctor", root).code == 1
    # every other command refuses the corpus, naming the same code and place
    for command in (("context", "build", root), ("context", "query", root, "cache")):
        run = cli(*command)
        assert run.code == 2
        error = run.error()
        assert (error["error"], error["detail"]) == ("PROTOCOL_NONCONFORMANT", "INVALID_METADATA")
        assert f"{path}:2: INVALID_METADATA" in str(error["hint"])


def test_a_task_without_protocol_version_is_only_its_shape(make_corpus: MakeCorpus) -> None:
    root = make_corpus({TASK_PATH: TASK.replace("Protocol-Version: 2.0\n", "")})
    codes = {i["code"] for i in issues(doctor(root))}
    assert codes == {"ARTIFACT_SHAPE"}


# --- item 4: Task-Status ------------------------------------------------------------------------


def test_unknown_task_status_is_a_warning_at_its_value(
    make_corpus: MakeCorpus, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus({TASK_PATH: TASK.replace("OPEN", "in progress maybe")})
    assert where(doctor(root), "UNKNOWN_TASK_STATUS") == [(TASK_PATH, 5, 14, "WARN")]
    monkeypatch.chdir(root)
    run = cli("context", "doctor", "--format", "text", "--fail-on", "WARN")
    assert run.code == 1
    first = run.out.splitlines()[0]
    assert first.startswith(f"{TASK_PATH}:5:14: WARN UNKNOWN_TASK_STATUS ")
    assert "'in progress maybe' is not a known state" in first


def test_task_states_in_the_configuration_are_known_in_any_case(make_corpus: MakeCorpus) -> None:
    files = {TASK_PATH: TASK.replace("OPEN", "Needs Review")}
    assert where(doctor(make_corpus(files, name="a")), "UNKNOWN_TASK_STATUS")
    lint = {".project-corpus/lint.yaml": "task_states: [NEEDS_REVIEW]\n"}
    assert where(doctor(make_corpus({**files, **lint}, name="b")), "UNKNOWN_TASK_STATUS") == []


# --- item 5: placeholders from the shipped templates ----------------------------------------------


def test_placeholders_are_every_guidance_line_of_the_shipped_templates() -> None:
    """Read from the package's templates, both languages: a template edit changes them."""
    table = placeholders()
    for kind, name in (("project", "PROJECT.md"), ("task", "task.md"), ("report", "report.md")):
        for language in ("en", "ru"):
            text = (TEMPLATES / language / name).read_text(encoding="utf-8")
            lines = list(template_lines(text))
            assert lines, (language, name)
            for title, line in lines:
                filled = line.replace("$task_id", "t-042").replace("$report_id", "r-042")
                assert any(p.fullmatch(filled) for p in table[kind][title]), (language, line)
    assert set(table) == {"project", "task", "report"}  # STATUS states facts (decisions.md)


def test_a_fresh_corpus_is_not_reported_clean(tmp_path: Path, cli: Cli) -> None:
    root = tmp_path / "fresh"
    assert cli("init", root).code == 0
    assert cli("new", "task", "t-001", root).code == 0
    run = cli("context", "doctor", root, "--format", "text", "-q", "--no-show-source")
    lines = run.out.splitlines()
    assert len(lines) == 8  # four PROJECT sections, four Task sections
    assert all(" WARN SCAFFOLD_PLACEHOLDER " in line for line in lines)
    # the user replaces one: that finding goes, the others stay
    task = root / ".project-corpus/tasks/t-001.md"
    text = task.read_text(encoding="utf-8")
    task.write_text(text.replace("The outcome task t-001 must produce.", "A cache."), "utf-8")
    again = cli("context", "doctor", root, "--format", "text", "-q", "--no-show-source").out
    assert len(again.splitlines()) == 7
    assert f"{task.relative_to(tmp_path / 'fresh')}:9:" not in again


# --- item 6: a dated log entry dates its claims --------------------------------------------------


@pytest.mark.parametrize(
    ("path", "meta"),
    [
        (HISTORY, "Date: 2026-11-30"),
        (HISTORY, "Created-At: 2026-11-30T10:00:00Z"),
        (".project-corpus/history/2026-12-01-standup.md", "Owner: ops"),
        (".project-corpus/reports/r-live.md", "Created-At: 2026-11-30"),
    ],
)
def test_a_dated_log_entry_dates_its_volatile_claims(
    make_corpus: MakeCorpus, path: str, meta: str
) -> None:
    body = "Сейчас кэш прогревается; the canary is live right now."
    dated = make_corpus({path: f"# Standup\n{meta}\n\n## Notes\n{body}\n"}, name="dated")
    assert where(doctor(dated), "VOLATILE_WITHOUT_FRESHNESS") == []
    undated = make_corpus({HISTORY: f"# Standup\nOwner: ops\n\n## Notes\n{body}\n"}, name="u")
    assert where(doctor(undated), "VOLATILE_WITHOUT_FRESHNESS") == [(HISTORY, 5, 1, "WARN")]


# --- item 7: where bad UTF-8 starts ---------------------------------------------------------------


def test_invalid_encoding_is_located_at_the_first_bad_byte(
    make_corpus: MakeCorpus, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = "# Notes\n\n## Notes\nЁж — ok ".encode() + b"\xc3(bad \xff\n"
    root = make_corpus({HISTORY: data})
    assert where(doctor(root), "INVALID_ENCODING") == [(HISTORY, 4, 9, "FAIL")]
    monkeypatch.chdir(root)
    run = cli("context", "doctor", "--format", "text", "-q")
    assert run.out.startswith(f"{HISTORY}:4:9: FAIL INVALID_ENCODING ")
    assert "byte 30 (line 4, column 9)" in run.out
    refused = cli("context", "build", ".").error()
    assert refused["error"] == "SOURCE_ENCODING"
    assert refused["detail"] == f"{HISTORY}: not UTF-8 at byte 30 (line 4, column 9)"
    assert "`project-corpus explain INVALID_ENCODING`" in str(refused["hint"])


# --- item 8: `explain` knows every code the tool names -------------------------------------------

EXPLAIN_RE = re.compile(r"explain ([A-Z][A-Z0-9_]+)\b")


def _named_codes() -> set[str]:
    """Every CODE of an `explain CODE` in a hint, the package's code, the docs or the Action."""
    texts = [*HINTS.values()]
    for folder, pattern in ((SRC, "*.py"), (REPO / "docs", "*.md"), (REPO / "action", "*")):
        texts += [p.read_text(encoding="utf-8") for p in sorted(folder.rglob(pattern)) if p.is_file()]  # fmt: skip
    texts += [p.read_text(encoding="utf-8") for p in sorted(REPO.glob("*.md"))]
    # `explain CODE` in a usage line is a metavariable, not a code
    return {code for text in texts for code in EXPLAIN_RE.findall(text)} - {"CODE"}


def test_the_scan_finds_what_hints_name() -> None:
    assert {"INVALID_ENCODING", "POLICY_SCOPE", "SOURCE_LINK"} <= _named_codes()


@pytest.mark.parametrize("code", sorted(_named_codes()))
def test_every_code_a_hint_or_doc_names_is_explained(cli: Cli, code: str) -> None:
    run = cli("explain", code, "--format", "json")
    assert run.code == 0, run.err
    assert json.loads(run.out)["code"] == code


@pytest.mark.parametrize("code", sorted(set(ERRORS) - set(CHECKS_BY_CODE)))
def test_every_error_code_is_explained_with_its_meaning_and_hint(cli: Cli, code: str) -> None:
    data = json.loads(cli("explain", code.lower(), "--format", "json").out)
    assert data["kind"] == "error"
    assert data["summary"] == ERRORS[code]
    assert data["exit_code"] in (2, 3)
    assert "{root}" not in str(data["hint"])


def test_explain_an_error_code_in_text(cli: Cli) -> None:
    out = cli("explain", "SOURCE_ENCODING", "--format", "text").out
    assert out.startswith("SOURCE_ENCODING — an error (exit 2), not a doctor finding\n")
    assert ERRORS["SOURCE_ENCODING"] in out
    # its hint sends people to the doctor's code, which says how to fix it
    assert "`project-corpus explain INVALID_ENCODING`" in out


def test_explain_guesses_over_checks_and_errors(cli: Cli) -> None:
    run = cli("explain", "INDEX_STAEL")
    assert (run.code, run.error()["error"]) == (2, "USAGE_ERROR")
    assert "INDEX_STALE" in str(run.error()["hint"])
