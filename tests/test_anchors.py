"""Whole-value patterns end at `\\Z`, not `$` (R3-8 of #26): `$` also matches before a final
newline, so `ID_RE.match("t-1\\n")` accepted an ID with a newline: `new task $'t-1\\n'`
created `tasks/t-1\\n.md`, `init --project-id $'abc\\n'` wrote a policy.toml that then failed
POLICY_PARSE, and `candidate_id: "c-001\\n"` was valid though the published schema rejects it.

Each pattern that checks a whole value (an ID, a code, a key, a digest, a date) is listed in
`WHOLE_VALUE` with a value it accepts; a meta-test finds every pattern of the package that
ends with `$` and requires it to be a per-line pattern (`LINE_PATTERNS`: applied to one line
of a document split on `\\n`, which never holds a newline).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from project_corpus.adapters.mcp_server import grant_file
from project_corpus.core import records
from project_corpus.core import timeparse
from project_corpus.corpus import policy
from project_corpus.doctor import baseline
from project_corpus.review import git as review_git
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.conftest import valid_candidate

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "project_corpus"

WHOLE_VALUE = {
    "corpus.policy.ID_RE": (policy.ID_RE, "t-1.x_y"),
    "corpus.policy.CAPABILITY_RE": (policy.CAPABILITY_RE, "corpus.context"),
    "core.records.SHA256_RE": (records.SHA256_RE, "0" * 64),
    "core.timeparse._DATETIME_RE": (timeparse._DATETIME_RE, "2026-11-20T09:00:00+01:00"),
    "core.timeparse._DATE_RE": (timeparse._DATE_RE, "2026-11-20"),
    "core.timeparse.STRICT_UTC_RE": (timeparse.STRICT_UTC_RE, "2026-11-20T09:00:00Z"),
    "mcp_server.grant_file._IDENTITY_RE": (grant_file._IDENTITY_RE, "1000:1000"),
    "review.git.REVISION_RE": (review_git.REVISION_RE, "HEAD~2"),
    "review.git.COMMIT_RE": (review_git.COMMIT_RE, "a" * 40),
    "doctor.baseline.FINGERPRINT_RE": (baseline.FINGERPRINT_RE, "0" * 32),
    "doctor.baseline.CODE_RE": (baseline.CODE_RE, "BROKEN_REFERENCE"),
}
# Applied to one line of a document split on "\n" (or with re.MULTILINE, to a line of a text):
# a line never ends with a newline, so `$` is its end.
LINE_PATTERNS = {
    "corpus.markdown.META_RE",
    "corpus.markdown.HEADING_RE",
    "corpus.markdown.COMMENT_RE",
    "doctor.content.TABLE_DELIMITER_RE",
    "doctor._suppress.directive_re()",
    "output.sarif.HEADING_RE",
    "importer.artifacts.ITEM_RE",
    "importer.sections.HEADING_RE",
    "importer.sections.FM_TITLE_RE",
    "importer.shapes._QUICK_HEADING_RE",
    "importer.folders._DATED_TAIL_RE",
    "importer.naming._LANGUAGE_RE",
    "importer.naming._TAIL_RE",
    "importer.standing.LABEL_RE",
    "importer.shapes._RECORD_DATE_RE",
}


@pytest.mark.parametrize("name", sorted(WHOLE_VALUE))
def test_a_whole_value_pattern_refuses_a_trailing_newline(name: str) -> None:
    pattern, value = WHOLE_VALUE[name]
    assert pattern.match(value)
    for bad in (f"{value}\n", f"{value}\r\n", f"{value}\n\n", f"{value}\nx"):
        assert not pattern.match(bad), repr(bad)
        assert not pattern.search(bad), repr(bad)


def _dollar_patterns() -> set[str]:
    """`module.NAME` / `module.function()` of every pattern literal ending with `$`."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            literals = [
                n.value
                for n in ast.walk(node)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
            compiled = any(
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == "compile"
                for n in ast.walk(node)
            )
            if compiled and any(text.endswith("$") for text in literals):
                if isinstance(node, ast.FunctionDef):
                    found.add(f"{module}.{node.name}()")
                elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                    found.add(f"{module}.{node.targets[0].id}")
    return found


def test_every_pattern_ending_with_dollar_is_a_line_pattern() -> None:
    found = _dollar_patterns()
    assert found - LINE_PATTERNS == set(), "end a whole-value pattern with \\Z (WHOLE_VALUE)"
    assert LINE_PATTERNS - found == set(), "a LINE_PATTERNS entry no longer ends with $"


def test_new_refuses_an_id_with_a_newline(cli: object, make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    run: Run = cli("new", "task", "t-1\n", root)  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "USAGE_ERROR"
    assert not any(root.joinpath(".project-corpus/tasks").glob("t-1*"))


def test_init_refuses_a_project_id_with_a_newline(cli: object, tmp_path: Path) -> None:
    run: Run = cli("init", tmp_path / "new", "--project-id", "abc\n")  # type: ignore[operator]
    assert run.code == 2
    assert run.error()["error"] == "USAGE_ERROR"
    assert not (tmp_path / "new" / ".project-corpus").exists()


def test_a_candidate_id_with_a_newline_is_invalid(cli: object, make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    for name, value in (("good", "c-001"), ("bad", "c-001\n")):
        candidate = valid_candidate(root, "demo-project", candidate_id=value)
        (root / f"{name}.json").write_text(json.dumps(candidate), encoding="utf-8")
    run: Run = cli("context", "candidate-validate", root, "--input", root / "good.json")  # type: ignore[operator]
    assert run.code == 0, run.out
    run = cli("context", "candidate-validate", root, "--input", root / "bad.json")  # type: ignore[operator]
    assert run.code == 1
    assert {issue["code"] for issue in json.loads(run.out)["issues"]} == {"CANDIDATE_ID"}


def test_the_patterns_compile_with_their_anchor() -> None:
    for pattern, _ in WHOLE_VALUE.values():
        assert pattern.pattern.endswith(r"\Z")
        assert not pattern.flags & re.MULTILINE
