"""Renderers: JSON, text, SARIF 2.1.0 (schema-valid) and GitHub workflow commands.

Golden files in tests/golden/ are regenerated with `UPDATE_GOLDEN=1 pytest tests/test_output.py`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import jsonschema
import pytest

from project_corpus import __version__
from project_corpus.core.errors import ContextError
from project_corpus.core.records import SEVERITIES
from project_corpus.doctor import CHECKS
from project_corpus.output import RENDERERS
from project_corpus.output import render_report
from project_corpus.output.github import annotation
from project_corpus.output.github import escape_data
from project_corpus.output.github import escape_property
from project_corpus.output.sarif import uri
from project_corpus.output.text import FINDING_LINE
from tests.conftest import MakeCorpus
from tests.doctor.support import doctor
from tests.doctor.support import valid_candidate
from tests.doctor.support import write_json

HERE = Path(__file__).resolve().parent.parent
GOLDEN = HERE / "golden"
SARIF_SCHEMA = json.loads((HERE / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
HISTORY = ".project-corpus/history/notes.md"
ABSOLUTE = re.compile(r"(^|[\s'\"(=])/(tmp|home|root|usr|etc|var|private|Users)/")
FINDINGS = {
    HISTORY: "# Notes\nOwner: ops\nCreated-At: soon\n\n## Notes\n"
    "We currently deploy on Fridays.\n\n"
    "<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\n"
    "Right now the cache is cold.\n\n"
    "Supersedes: ../elsewhere.md\n\n"
    "Build a small, fast read-through cache for the catalogue service.\n",
    ".project-corpus/reports/odd name%.md": "# Odd\nProtocol-Version: 2.0\nProject-ID: demo-project\n",
}


def sarif_validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(
        SARIF_SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER
    )


def findings_report(make_corpus: MakeCorpus) -> dict[str, object]:
    root = make_corpus(FINDINGS)
    candidate = write_json(root, "cand.json", valid_candidate(root, kind="rumour"))
    return doctor(root, candidates=[candidate])


def strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"regenerate with UPDATE_GOLDEN=1 ({name})"


# --- SARIF ---------------------------------------------------------------------------------------


def test_the_format_checker_checks_uris() -> None:
    bad = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "x", "informationUri": "a b"}}}],
    }
    assert list(sarif_validator().iter_errors(bad))


def test_sarif_with_findings_is_valid(make_corpus: MakeCorpus, tmp_path: Path) -> None:
    log = json.loads(render_report(findings_report(make_corpus), "sarif"))
    errors = [e.message for e in sarif_validator().iter_errors(log)]
    assert errors == []
    [run] = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [c.code for c in CHECKS]
    assert run["results"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        [location] = result["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        assert artifact["uriBaseId"] == "%SRCROOT%"
        assert not artifact["uri"].startswith("/")
        assert location["physicalLocation"]["region"]["startLine"] >= 1
        assert result["level"] in ("error", "warning")
        assert result["fingerprints"] == result["partialFingerprints"]
    assert not any(ABSOLUTE.search(s) or str(tmp_path) in s for s in strings(log))


def test_sarif_suppressions_and_uris(make_corpus: MakeCorpus) -> None:
    results = json.loads(render_report(findings_report(make_corpus), "sarif"))["runs"][0]["results"]
    suppressed = [r for r in results if "suppressions" in r]
    assert [r["suppressions"] for r in suppressed] == [[{"kind": "inSource"}]]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert ".project-corpus/reports/odd%20name%25.md" in uris


def test_sarif_for_a_clean_corpus(example: Path) -> None:
    log = json.loads(render_report(doctor(example), "sarif"))
    assert list(sarif_validator().iter_errors(log)) == []
    [run] = log["runs"]
    assert run["results"] == []
    driver = run["tool"]["driver"]
    assert driver["name"] == "project-corpus"
    assert driver["semanticVersion"] == __version__
    assert driver["informationUri"].startswith("https://")
    assert not any(ABSOLUTE.search(s) or str(example) in s for s in strings(log))


def test_sarif_rules_come_from_the_registry() -> None:
    rules = json.loads(render_report({"issues": []}, "sarif"))["runs"][0]["tool"]["driver"]["rules"]
    for rule, item in zip(rules, CHECKS, strict=True):
        assert rule["name"] == item.pascal_name
        assert rule["shortDescription"]["text"] == item.summary
        assert rule["fullDescription"]["text"] == item.doc
        assert rule["help"]["markdown"] == item.doc
        assert not re.search(r"^#", rule["help"]["text"], re.MULTILINE)
        assert (
            rule["defaultConfiguration"]["level"]
            == {"FAIL": "error", "WARN": "warning"}[item.severity]
        )


def test_uri_percent_encoding() -> None:
    assert uri(".project-corpus/reports/a b#?.md") == ".project-corpus/reports/a%20b%23%3F.md"
    assert uri("отчёт.md") == "%D0%BE%D1%82%D1%87%D1%91%D1%82.md"
    assert uri("a:b.md") == "a%3Ab.md"


# --- golden files --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "name"),
    [
        ("json", "doctor-findings.json"),
        ("sarif", "doctor-findings.sarif"),
        ("text", "doctor-findings.txt"),
        ("github", "doctor-findings.github.txt"),
    ],
)
def test_golden_output(make_corpus: MakeCorpus, fmt: str, name: str) -> None:
    check_golden(name, render_report(findings_report(make_corpus), fmt))


# --- text ----------------------------------------------------------------------------------------


def test_text_lines(make_corpus: MakeCorpus) -> None:
    report = findings_report(make_corpus)
    lines = render_report(report, "text").splitlines()
    assert lines[-1].startswith("project-corpus: ")
    shown = [issue for issue in report["issues"] if not issue["suppressed"]]
    assert len(lines) - 1 == len(shown)
    for line, issue in zip(lines[:-1], shown, strict=True):
        match = re.match(FINDING_LINE, line)
        assert match is not None, line
        assert match["path"] == issue["path"]
        assert (int(match["line"]), match["code"]) == (issue["line"], issue["code"])
        assert match["severity"] == issue["severity"]  # FAIL and WARN told apart unpainted
        # the token's column when the finding has one; else (no source to read) 1
        assert int(match["column"]) == issue.get("column", 1)
    assert any("column" in issue for issue in shown)
    assert not re.match(FINDING_LINE, lines[-1])  # the summary is no finding
    assert not any("Right now" in line for line in lines)


def test_docs_give_the_finding_line_pattern_of_the_code() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "doctor.md").read_text(encoding="utf-8")
    assert f"`{FINDING_LINE}`" in doc


def test_text_escapes_control_characters_in_paths() -> None:
    report = {
        "ok": False,
        "source_count": 0,
        "summary": {"FAIL": 1, "WARN": 0, "suppressed": 0},
        "issues": [
            {
                "path": "a\nb.md",
                "line": 1,
                "code": "X",
                "message": "m.",
                "suppressed": False,
                "severity": "FAIL",
            }
        ],
    }
    assert render_report(report, "text").splitlines()[0] == "a\\nb.md:1:1: FAIL X m."


# --- GitHub --------------------------------------------------------------------------------------


def test_github_escaping() -> None:
    assert escape_data("50% a\r\nb") == "50%25 a%0D%0Ab"
    assert escape_property("a,b:c%\n") == "a%2Cb%3Ac%25%0A"
    issue = {
        "severity": "FAIL",
        "path": "dir,x/a:b.md",
        "line": 3,
        "code": "CODE",
        "message": "100% bad: yes",
    }
    assert annotation(issue) == "::error file=dir%2Cx/a%3Ab.md,line=3,title=CODE::100%25 bad: yes"
    assert annotation({**issue, "severity": "WARN"}).startswith("::warning ")


def test_github_output_without_overflow(make_corpus: MakeCorpus) -> None:
    lines = render_report(findings_report(make_corpus), "github").splitlines()
    assert all(line.startswith(("::error ", "::warning ")) for line in lines[:-1])
    assert lines[-1].startswith("project-corpus: ")
    assert not any(line.startswith("::notice") for line in lines)


def test_github_output_with_overflow_adds_the_text_report(make_corpus: MakeCorpus) -> None:
    body = "\n\n".join(f"Item {n} is live." for n in range(11))
    report = doctor(make_corpus({HISTORY: f"# Notes\n\n## Notes\n{body}\n"}))
    lines = render_report(report, "github").splitlines()
    assert sum(line.startswith("::warning ") for line in lines) == 11
    notice = next(n for n, line in enumerate(lines) if line.startswith("::notice "))
    text = render_report(report, "text").splitlines()
    assert lines[notice + 1 :] == text


# --- registry of renderers -----------------------------------------------------------------------


def test_every_format_renders_a_report(make_corpus: MakeCorpus) -> None:
    report = findings_report(make_corpus)
    assert set(RENDERERS) == {"json", "text", "sarif", "github"}
    for fmt in RENDERERS:
        assert render_report(report, fmt).endswith("\n")
    assert json.loads(render_report(report, "json")) == report


def test_unknown_format_is_a_usage_error() -> None:
    with pytest.raises(ContextError) as err:
        render_report({}, "xml")
    assert err.value.code == "USAGE_ERROR"


# --- one home per fact ---------------------------------------------------------------------------


def test_the_cli_formats_are_the_renderers() -> None:
    from project_corpus.adapters.cli import lint_commands

    for command in (lint_commands.doctor, lint_commands.candidate_validate):
        option = next(p for p in command.params if p.name == "fmt")
        assert isinstance(option.type, click.Choice)
        assert tuple(option.type.choices) == ("auto", *RENDERERS)


def test_every_format_choice_comes_from_the_one_dependency_free_registry() -> None:
    import ast

    from project_corpus.adapters.cli.app import cli
    from project_corpus.core import formats
    from project_corpus.output.review import REVIEW_RENDERERS

    tree = ast.parse(Path(formats.__file__).read_text(encoding="utf-8"))
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert [getattr(n, "module", None) for n in imports] == ["__future__"]
    rows = {
        tuple(value)
        for name, value in vars(formats).items()
        if name.endswith("_FORMATS") and isinstance(value, tuple)
    }
    assert tuple(REVIEW_RENDERERS) == formats.REVIEW_FORMATS
    assert RENDERERS is formats.REPORT_RENDERERS

    def commands(group: click.Group) -> list[click.Command]:
        ctx = click.Context(group)
        found = [group.get_command(ctx, name) for name in group.list_commands(ctx)]
        nested = [c for c in found if isinstance(c, click.Group)]
        plain = [c for c in found if c is not None and not isinstance(c, click.Group)]
        return plain + [c for g in nested for c in commands(g)]

    choices = [
        tuple(param.type.choices)
        for command in commands(cli)
        for param in command.params
        if param.name == "fmt" and isinstance(param.type, click.Choice)
    ]
    assert len(choices) >= 12
    for choice in choices:
        assert choice[0] == "auto"
        assert choice[1:] in rows


def test_every_severity_has_a_level_a_command_and_a_schema_entry() -> None:
    from project_corpus.core.schemas import load_schema
    from project_corpus.doctor._config import RULE_VALUES
    from project_corpus.output.github import COMMANDS
    from project_corpus.output.sarif import LEVELS

    assert set(LEVELS) == set(COMMANDS) == set(SEVERITIES)
    assert set(RULE_VALUES) == {"off", *SEVERITIES}
    schema: dict[str, Any] = load_schema("doctor-report")
    assert schema["$defs"]["issue"]["properties"]["severity"]["enum"] == list(SEVERITIES)
    assert {check.severity for check in CHECKS} <= set(SEVERITIES)


def test_the_action_escapes_with_the_renderers_functions() -> None:
    from project_corpus.adapters.github import views as github_views

    assert github_views.escape_data is escape_data
    assert github_views.escape_property is escape_property
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
