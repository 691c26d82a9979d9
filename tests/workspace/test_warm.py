"""The warm API object (docs/performance.md, "The warm path"): a `Workspace` opened once answers
every call from the sources as they are at that call, equal to the CLI on the same tree, and
holds in memory only what the current sources need."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import project_corpus
from project_corpus.core.errors import ContextError
from project_corpus.core.jsonio import pretty
from project_corpus.corpus import snapshot
from project_corpus.corpus.snapshot import collect
from project_corpus.retrieval.analysis import Analysis
from project_corpus.workspace import Workspace
from project_corpus.workspace import warm as warm_module
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.conftest import report
from tests.conftest import valid_candidate

CLI = Callable[..., Run]
STATUS = ".project-corpus/state/STATUS.md"
POLICY = ".project-corpus/policy.toml"
HISTORY = ".project-corpus/history/2026-01-kickoff.md"
ADDED = ".project-corpus/reports/bench-zebra.md"
QUERY = "zebra failover drill kickoff january"
EDIT_LINE = "Then rehearse the zebra failover drill on the staging cluster.\n"


def change(root: Path, step: str) -> None:
    """One change between two calls: an edit, a new file, a deletion, a narrowed scope."""
    if step == "edit":
        with (root / STATUS).open("a", encoding="utf-8") as handle:
            handle.write(EDIT_LINE)
    elif step == "new":
        text = report("bench-zebra", "2026-11-22", "The zebra failover drill passed twice.")
        (root / ADDED).write_text(text, encoding="utf-8")
    elif step == "delete":
        (root / ADDED).unlink()
    else:
        policy = (root / POLICY).read_text(encoding="utf-8")
        narrowed = policy.replace(', ".project-corpus/history/**"', "")
        assert narrowed != policy
        (root / POLICY).write_text(narrowed, encoding="utf-8")


# What each change must show in the very next call's results (paths among the results).
SEEN = {
    "start": ({HISTORY}, {ADDED}),
    "edit": ({STATUS, HISTORY}, {ADDED}),
    "new": ({STATUS, ADDED, HISTORY}, set()),
    "delete": ({STATUS, HISTORY}, {ADDED}),
    "scope": ({STATUS}, {ADDED, HISTORY}),
}
STEPS = ("start", "edit", "new", "delete", "scope")


def cli_outputs(cli: CLI, root: Path) -> dict[str, object]:
    """The CLI's JSON of the same calls on the tree as it is (the query on a fresh index)."""
    assert cli("context", "build", root).code == 0
    query = cli("context", "query", root, QUERY, "--limit", "8")
    bundle = json.loads(cli("context", "bundle", root, QUERY, "--max-tokens", "400").out)
    bundle.pop("created_at")
    doctor = cli("context", "doctor", root)
    assert doctor.code in (0, 1)
    return {"query": query.out, "bundle": bundle, "doctor": doctor.out}


def warm_outputs(space: Workspace, root: Path) -> dict[str, object]:
    bundle = space.bundle(QUERY, 400, fresh=True)
    bundle.pop("created_at")
    return {
        "query": pretty(space.query(QUERY, 8, fresh=True)),
        "bundle": bundle,
        "doctor": pretty(space.doctor()),
    }


def result_paths(query_text: object) -> set[str]:
    assert isinstance(query_text, str)
    return {str(r["source_path"]) for r in json.loads(query_text)["results"]}


def current_shas(root: Path) -> set[str]:
    return {source.sha256 for source in collect(root).sources}


def test_each_change_is_seen_by_the_next_call_and_equals_the_cli(
    make_corpus: MakeCorpus, cli: CLI
) -> None:
    root = make_corpus()
    space = Workspace(root, warm=True)
    for step in STEPS:
        if step != "start":
            change(root, step)
        got, expected = warm_outputs(space, root), cli_outputs(cli, root)
        assert got == expected, step
        present, absent = SEEN[step]
        paths = result_paths(got["query"])
        assert present <= paths, step
        assert not absent & paths, step
        candidate = valid_candidate(root, "demo-project")
        assert space.validate_candidate(candidate) == project_corpus.validate_candidate(
            collect(root), candidate
        )
        assert space.held() == current_shas(root), step  # only the current sources


def test_only_changed_bytes_are_parsed_and_an_unchanged_tree_reuses_its_analysis(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    parsed: list[int] = []
    analyses: list[int] = []
    real_parse = snapshot.parse_document

    def counting_parse(text: str) -> object:
        parsed.append(1)
        return real_parse(text)

    def counting_analysis(corpus: object, *memo: object) -> Analysis:
        analyses.append(1)
        return Analysis(corpus, *memo)  # type: ignore[arg-type]

    monkeypatch.setattr(snapshot, "parse_document", counting_parse)
    monkeypatch.setattr(warm_module, "Analysis", counting_analysis)
    space = Workspace(root, warm=True)
    space.query("eviction", fresh=True)
    sources = len(collect(root).sources)
    assert (len(parsed), len(analyses)) == (2 * sources, 1)  # the space's, and collect's here
    space.query("eviction", fresh=True)
    space.bundle("eviction", fresh=True)
    space.doctor()
    assert (len(parsed), len(analyses)) == (2 * sources, 1)  # nothing changed: nothing redone
    change(root, "edit")
    space.query("eviction", fresh=True)
    assert (len(parsed), len(analyses)) == (2 * sources + 1, 2)  # STATUS only


def test_a_failing_call_keeps_nothing_stale(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    space = Workspace(root, warm=True)
    before = space.query("eviction", fresh=True)
    (root / STATUS).write_bytes(b"\xff not UTF-8")
    with pytest.raises(ContextError) as info:
        space.query("eviction", fresh=True)
    assert info.value.code in ("SOURCE_ENCODING", "PROTOCOL_NONCONFORMANT")
    assert space.held() <= current_shas_without_status(root)
    report_json = space.doctor()
    assert report_json["ok"] is False
    (root / STATUS).unlink()
    with pytest.raises(ContextError):
        space.bundle("eviction", fresh=True)
    assert space.held() <= {s.sha256 for s in collect(root, strict=False).sources}
    assert before["results"]


def current_shas_without_status(root: Path) -> set[str]:
    return {s.sha256 for s in collect(root, strict=False).sources if s.path != STATUS}


def test_the_memo_never_holds_more_than_the_current_sources(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    space = Workspace(root, warm=True)
    for n in range(12):
        target = root / ".project-corpus" / "reports" / f"churn-{n % 3}.md"
        if n % 4 == 3:
            target.unlink(missing_ok=True)
        else:
            target.write_text(report(f"churn-{n % 3}", "2026-11-01", f"Run {n}."), "utf-8")
        space.query("run", fresh=True) if n % 2 else space.doctor()
        assert space.held() == current_shas(root)
        assert len(space.held()) <= len(collect(root).sources)


def test_the_workspace_is_public_and_validates_before_reading(tmp_path: Path) -> None:
    assert project_corpus.Workspace is Workspace
    assert "Workspace" in project_corpus.__all__
    space = Workspace(tmp_path, warm=True)  # no corpus here: arguments are still checked first
    with pytest.raises(ContextError) as info:
        space.query("eviction", 0, fresh=True)
    assert info.value.code == "QUERY_LIMIT"
    with pytest.raises(ContextError) as info:
        space.bundle("eviction", 79, fresh=True)
    assert info.value.code == "BUDGET_INVALID"
    with pytest.raises(ContextError) as info:
        space.query("eviction", fresh=True)
    assert info.value.code == "CONTEXT_ROOT"
