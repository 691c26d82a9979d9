"""Memory integrity (SPEC §8): references resolved in one place, the three situations that
corrupt an agent's memory in every output, the opt-in clock, generated corpora."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from datetime import date
from pathlib import Path

import anyio
import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.corpus.snapshot import collect
from tests.conftest import BASE_FILES
from tests.conftest import FIXTURES
from tests.conftest import STATUS
from tests.conftest import MakeCorpus
from tests.conftest import Run
from tests.conftest import copy_fixture
from tests.conftest import report
from tests.conftest import write_files
from tests.doctor.support import STATUS_PATH
from tests.doctor.support import doctor
from tests.doctor.support import issues
from tests.doctor.support import line_with
from tests.doctor.support import located
from tests.doctor.support import write_json

Cli = Callable[..., Run]
HISTORY = ".project-corpus/history/notes.md"
REPORTS = ".project-corpus/reports"
PRIVATE = ".project-corpus/history/private-notes.md"
THREE = {"ACTIVE_TASK_MISSING", "CITED_REPORT_MISSING", "STATUS_BEHIND_EVIDENCE"}


def edit(path: Path, old: str, new: str, count: int = -1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def three_situations(root: Path) -> dict[str, tuple[str, int]]:
    """The issue's three mistakes in a copy of the example: the active task names nothing,
    an Evidence Reference names a report that was renamed away, and STATUS was verified two
    years back (so newer reports it does not cite exist). Returns where each is expected."""
    status = root / STATUS_PATH
    edit(status, "Active-Task-ID: t-021-eviction", "Active-Task-ID: t-404-missing")
    edit(status, "- r-2026-10-31-redis7-cutover —", "- r-2026-10-30-redis7-cutover —")
    edit(status, "Last-Verified-At: 2026-11-20T09:00:00Z", "Last-Verified-At: 2024-11-20T09:00:00Z")
    drill = f"{REPORTS}/r-2026-10-05-rollback-drill.md"
    return {
        "ACTIVE_TASK_MISSING": (STATUS_PATH, line_with(status, "Active-Task-ID:")),
        "CITED_REPORT_MISSING": (STATUS_PATH, line_with(status, "r-2026-10-30-redis7-cutover")),
        "STATUS_BEHIND_EVIDENCE": (drill, line_with(root / drill, "Created-At:")),
    }


def test_the_three_situations_in_json_text_and_sarif(example: Path, cli: Cli) -> None:
    expected = three_situations(example)
    run = cli("context", "doctor", example, "--format", "json")
    assert run.code == 1
    report = json.loads(run.out)
    for code, (path, line) in expected.items():
        assert (code, path, line) in located(report), code
    text = cli("context", "doctor", example, "--format", "text").out
    for code, (path, line) in expected.items():
        assert any(f"{path}:{line}:" in row and code in row for row in text.splitlines())
    sarif = json.loads(cli("context", "doctor", example, "--format", "sarif").out)
    results = {
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in sarif["runs"][0]["results"]
    }
    for code, (path, line) in expected.items():
        assert (code, path, line) in results, code
    rules = [rule["id"] for rule in sarif["runs"][0]["tool"]["driver"]["rules"]]
    assert set(rules) >= THREE


@pytest.mark.slow
def test_the_three_situations_in_the_mcp_doctor_tool(example: Path) -> None:
    from mcp import Client

    from project_corpus.adapters.mcp_server import server as mcp_server
    from project_corpus.adapters.mcp_server import trust

    expected = three_situations(example)
    grant = str(trust.grant(example, ["mcp.stdio", "corpus.context"])["path"])
    session, _ = mcp_server.start_session(
        str(example), grant, frozenset({"mcp.stdio", "corpus.context"})
    )

    async def main() -> dict[str, object]:
        async with Client(mcp_server.build_server(session)) as client:
            result = await client.call_tool("corpus_context_doctor", {})
            return dict(result.structured_content or {})

    report = anyio.run(main)
    for code, (path, line) in expected.items():
        assert (code, path, line) in located(report), code


def test_a_reference_the_policy_denies_is_out_of_scope_and_reveals_nothing(
    example: Path,
) -> None:
    history = example / ".project-corpus/history/2026-08-14-launch-retrospective.md"
    edit(history, "\n## ", f"\nSee {PRIVATE} and [notes](private-notes.md#top).\n\n## ", 1)
    found = [i for i in issues(doctor(example)) if i["code"] == "BROKEN_REFERENCE"]
    assert len(found) == 2
    assert all("is outside the read scope" in str(i["detail"]) for i in found)
    assert "ZEBRAFISH" not in json.dumps(doctor(example))


def test_a_relative_link_from_status_cites_the_report(make_corpus: MakeCorpus) -> None:
    old = f"{REPORTS}/old-uncited.md"
    assert collect(make_corpus()).by_path[old].authority_class == "SCOPED_REPORT"
    linked = STATUS.replace("- bench-new\n", "- bench-new\n- [heap](../reports/old-uncited.md)\n")
    corpus = collect(make_corpus({STATUS_PATH: linked}, name="linked"))
    assert corpus.by_path[old].authority_class == "CITED_REPORT"


def test_status_age_is_off_by_default_and_reads_an_injected_today(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus()
    assert "STATUS_AGE" in doctor(root)["checks_skipped"]  # type: ignore[operator]
    day = date(2026, 11, 20)  # Last-Verified-At 2026-11-20T09:00:00Z
    for today, days, fires in [(day, 0, False), (date(2026, 11, 21), 0, True), (day, 30, False)]:
        result = doctor(root, max_status_age=days, today=today)
        assert ("STATUS_AGE" in {i["code"] for i in issues(result)}) is fires


def test_status_age_needs_a_maximum_age(make_corpus: MakeCorpus, cli: Cli) -> None:
    root = make_corpus()
    config = write_json(root, "lint.yaml", {"rules": {"STATUS_AGE": "WARN"}})
    with pytest.raises(ContextError) as info:
        doctor(root, config=config)
    assert info.value.code == "CONFIG_INVALID"
    assert "status_max_age_days" in info.value.detail
    result = doctor(root, config=config, max_status_age=10_000)
    assert "STATUS_AGE" not in result["checks_skipped"]  # type: ignore[operator]
    for bad in (-1, "30", True):
        config = write_json(root, "lint.yaml", {"status_max_age_days": bad})
        with pytest.raises(ContextError) as info:
            doctor(root, config=config)
        assert info.value.code == "CONFIG_INVALID"
    run = cli("context", "doctor", root, "--max-status-age", "0", "--format", "json")
    assert "STATUS_AGE" in {i["code"] for i in json.loads(run.out)["issues"]}
    assert cli("context", "doctor", root, "--max-status-age", "-1").code == 2


def test_one_finding_per_reference_and_line(make_corpus: MakeCorpus) -> None:
    gone = f"{REPORTS}/gone.md"
    body = f"{gone} and {gone} again, [also](../reports/gone.md)\n\nLater: {gone}\n"
    root = make_corpus({HISTORY: f"# Notes\nDate: 2026-02-01\n\n## Notes\n{body}"})
    found = [
        (i["line"], i["detail"]) for i in issues(doctor(root)) if i["code"] == "BROKEN_REFERENCE"
    ]
    assert [line for line, _ in found] == [5, 5, 7]


INTEGRITY = {
    "ACTIVE_TASK_MISSING": (STATUS_PATH, 5),
    "ACTIVE_TASK_CLOSED": (STATUS_PATH, 5),
    "LIFECYCLE_MISMATCH": (STATUS_PATH, 5),
    "BROKEN_REFERENCE": (".project-corpus/history/notes.md", 5),
    "CITED_REPORT_MISSING": (STATUS_PATH, 19),
    "STATUS_BEHIND_EVIDENCE": (f"{REPORTS}/r-2026-11-05-probe.md", 6),
    "UNVERIFIED_STATUS": (STATUS_PATH, 6),
    "STATUS_AGE": (STATUS_PATH, 6),
}
LATER = date(2027, 1, 1)


def test_every_integrity_code_has_its_fixture_directory() -> None:
    folders = sorted(p.name for p in (FIXTURES / "integrity").iterdir() if p.is_dir())
    assert folders == sorted(INTEGRITY)


@pytest.mark.parametrize("code", sorted(INTEGRITY))
def test_each_integrity_fixture_reports_exactly_its_code(code: str, tmp_path: Path) -> None:
    root = copy_fixture(FIXTURES / "integrity" / code, tmp_path / code)
    collect(root)  # conformant: every other command accepts it
    path, line = INTEGRITY[code]
    assert located(doctor(root, today=LATER)) == {(code, path, line)}


@pytest.mark.parametrize("name", ["minimal", "example"])
def test_the_clean_fixtures_have_no_integrity_finding(name: str, tmp_path: Path) -> None:
    root = copy_fixture(FIXTURES / name, tmp_path / name)
    assert located(doctor(root, max_status_age=10_000, today=LATER)) == set()


# --- generated corpora ---------------------------------------------------------------------

KINDS = ("path", "link", "encoded", "definition", "id")


def _reference(kind: str, report_id: str) -> str:
    return {
        "path": f"See {REPORTS}/{report_id}.md for it.",
        "link": f"Read [the run](../reports/{report_id}.md#summary).",
        "encoded": f"Read [the run](../reports/{report_id.replace('-', '%2D')}.md).",
        "definition": f"[run-{report_id}]: ../reports/{report_id}.md",
        "id": f"- {report_id} — the run",
    }[kind]


def _build(root: Path, refs: list[tuple[str, int]]) -> dict[int, tuple[str, int, str]]:
    """A corpus whose STATUS (IDs) and a history note (paths, links) reference reports
    rep-000…; returns {reference number: (path, line, kind)}."""
    write_files(root, dict(BASE_FILES))
    ids = [(n, k, i) for n, (k, i) in enumerate(refs) if k == "id"]
    others = [(n, k, i) for n, (k, i) in enumerate(refs) if k != "id"]
    evidence = "".join(_reference("id", f"rep-{i:03d}") + "\n" for _, _, i in ids)
    write_files(root, {STATUS_PATH: STATUS.replace("- bench-new\n", "- bench-new\n" + evidence)})
    lines = [_reference(k, f"rep-{i:03d}") for _, k, i in others]
    write_files(root, {HISTORY: "# Notes\nDate: 2026-02-01\n\n## Notes\n" + "\n\n".join(lines)})
    where = {n: (STATUS_PATH, 18 + j, k) for j, (n, k, _) in enumerate(ids)}
    where |= {n: (HISTORY, 5 + 2 * j, k) for j, (n, k, _) in enumerate(others)}
    return where


def _report_path(root: Path, i: int, moved: bool = False) -> Path:
    return root / REPORTS / (f"rep-{i:03d}-moved.md" if moved else f"rep-{i:03d}.md")


def _apply(root: Path, state: dict[int, str], op: str, i: int) -> None:
    """Rename (content kept, so its Report-ID still resolves), remove, or re-add report I."""
    for moved in (False, True):
        _report_path(root, i, moved).unlink(missing_ok=True)
    if op != "remove":
        text = report(f"rep-{i:03d}", "2026-10-01", f"Run {i}.")
        _report_path(root, i, moved=op == "rename").write_text(text, encoding="utf-8")
    state[i] = {"remove": "absent", "rename": "moved", "readd": "present"}[op]


def _expected_broken(
    where: dict[int, tuple[str, int, str]], refs: list[tuple[str, int]], state: dict[int, str]
) -> set[tuple[str, int]]:
    broken = set()
    for n, (kind, i) in enumerate(refs):
        absent = state[i] == "absent" or (state[i] == "moved" and kind != "id")
        if absent:
            path, line, _ = where[n]
            broken.add((path, line))
    return broken


REPORT_COUNT = 4


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    refs=st.lists(
        st.tuples(st.sampled_from(KINDS), st.integers(0, REPORT_COUNT - 1)), min_size=1, max_size=8
    ),
    ops=st.lists(
        st.tuples(st.sampled_from(("rename", "remove", "readd")), st.integers(0, REPORT_COUNT - 1)),
        max_size=6,
    ),
)
def test_exactly_the_broken_references_are_reported(
    refs: list[tuple[str, int]], ops: list[tuple[str, int]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "c"
        for folder in ("tasks", "reports", "history"):
            (root / ".project-corpus" / folder).mkdir(parents=True)
        where = _build(root, refs)
        state: dict[int, str] = {}
        for i in range(REPORT_COUNT):
            _apply(root, state, "readd", i)
        for op, i in [("readd", 0), *ops]:
            _apply(root, state, op, i)
            found = {
                (str(f["path"]), int(str(f["line"])), str(f["code"]))
                for f in issues(doctor(root))
                if f["code"] in ("BROKEN_REFERENCE", "CITED_REPORT_MISSING")
            }
            # STATUS's references are citations (CITED_REPORT_MISSING), the note's are not.
            expected = {
                (path, line, "CITED_REPORT_MISSING" if path == STATUS_PATH else "BROKEN_REFERENCE")
                for path, line in _expected_broken(where, refs, state)
            }
            assert found == expected, (op, i, state)


@pytest.mark.parametrize(
    ("created", "after"),
    [
        ("2026-11-19T23:00:00-12:00", True),  # 2026-11-20T11:00:00Z
        ("2026-11-20T10:00:00Z", True),
        ("2026-11-20", False),  # midnight, before 09:00
        ("2026-11-20T09:00:00Z", False),  # the same instant is not after
        ("2026-11-18T23:59:00-23:59", False),  # 2026-11-19T23:58:00Z
    ],
)
def test_behind_compares_instants_across_offsets(
    make_corpus: MakeCorpus, created: str, after: bool
) -> None:
    late = f"{REPORTS}/bench-late.md"
    root = make_corpus({late: report("bench-late", created, "Latency rose to 5 ms.")})
    assert (("STATUS_BEHIND_EVIDENCE", late, 6) in located(doctor(root))) is after
