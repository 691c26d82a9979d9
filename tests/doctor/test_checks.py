"""Every check: a failing fixture with the exact code, path and line, and a passing fixture.

`FAILING` and `PASSING` are checked against the registry: a new check without both kinds of
fixture fails `test_every_check_has_failing_and_passing_fixtures`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from project_corpus.doctor import CHECKS
from tests.conftest import POLICY
from tests.conftest import PROJECT
from tests.conftest import STATUS
from tests.conftest import TASK
from tests.conftest import MakeCorpus
from tests.conftest import report
from tests.doctor.integrity_cases import INTEGRITY_FAILING
from tests.doctor.integrity_cases import INTEGRITY_PASSING
from tests.doctor.mistakes_cases import MISTAKES_FAILING
from tests.doctor.mistakes_cases import MISTAKES_PASSING
from tests.doctor.support import INDEX_REL
from tests.doctor.support import STATUS_PATH
from tests.doctor.support import Case
from tests.doctor.support import Setup
from tests.doctor.support import Where
from tests.doctor.support import build
from tests.doctor.support import codes
from tests.doctor.support import doctor
from tests.doctor.support import line_with
from tests.doctor.support import located
from tests.doctor.support import sql
from tests.doctor.support import valid_candidate
from tests.doctor.support import write_bundle
from tests.doctor.support import write_json

PROJECT_PATH = ".project-corpus/state/PROJECT.md"
POLICY_PATH = ".project-corpus/policy.toml"
TASK_PATH = ".project-corpus/tasks/tune-eviction.md"
NEW = ".project-corpus/reports/bench-new.md"
OLD = ".project-corpus/reports/bench-old.md"
HISTORY = ".project-corpus/history/notes.md"
CACHE = ".project-corpus/cache"


def history(body: str) -> str:
    return f"# Notes\nOwner: ops\n\n## Notes\n{body}\n"


def policy(old: str, new: str) -> dict[str, str | bytes | None]:
    assert old in POLICY
    return {POLICY_PATH: POLICY.replace(old, new)}


# --- setups that need more than files ----------------------------------------------------------


def link_history(root: Path) -> dict[str, object]:
    target = root / ".project-corpus" / "history"
    target.rename(root / "history-real")
    target.symlink_to("../history-real")
    return {}


def link_report(root: Path) -> dict[str, object]:
    (root / ".project-corpus/reports/linked.md").symlink_to("../../AGENTS.md")
    return {}


def built(root: Path) -> dict[str, object]:
    build(root)
    return {"index": str(root / INDEX_REL)}


def built_then(change: Callable[[Path], None]) -> Setup:
    def setup(root: Path) -> dict[str, object]:
        kwargs = built(root)
        change(root)
        return kwargs

    return setup


def edit(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new), encoding="utf-8")

    return change


def corrupt_index(root: Path) -> None:
    (root / INDEX_REL).write_bytes(b"SQLite format 3\0" + b"\x01" * 1000)


def cache_file(root: Path) -> dict[str, object]:
    (root / CACHE).mkdir(exist_ok=True)
    (root / CACHE / "context.sqlite3").write_bytes(b"x")
    return {}


def bundle_with(
    mutate: Callable[[dict[str, object]], None] | None = None,
    after: Callable[[Path], None] | None = None,
) -> Setup:
    def setup(root: Path) -> dict[str, object]:
        path = write_bundle(root, mutate)
        if after:
            after(root)
        return {"bundle": path}

    return setup


def candidate_with(**overrides: object) -> Setup:
    def setup(root: Path) -> dict[str, object]:
        return {"candidates": [write_json(root, "cand.json", valid_candidate(root, **overrides))]}

    return setup


def in_bundle(needle: str) -> Where:
    return lambda root: ("bundle.json", line_with(root / "bundle.json", needle))


def in_candidate(needle: str) -> Where:
    return lambda root: ("cand.json", line_with(root / "cand.json", needle))


def set_key(key: str, value: object) -> Callable[[dict[str, object]], None]:
    return lambda bundle: bundle.__setitem__(key, value)


TWO_LINE_PARAGRAPH = "Build a small, fast read-through cache for the catalogue service."
BIG_STATUS = STATUS.replace(
    "## Blockers", "Baseline detail line, repeated for size.\n" * 300 + "\n## Blockers"
)

FAILING: dict[str, list[Case]] = {
    "MISSING_REQUIRED_PATH": [Case({"AGENTS.md": None}, "AGENTS.md", 1)],
    "REQUIRED_PATH_LINK": [Case({}, ".project-corpus/history", 1, link_history)],
    "INVALID_ENCODING": [
        Case({HISTORY: b"# Notes\n\xff\xfe\n"}, HISTORY, 2),
        Case({HISTORY: "# Notes\n\n## Notes\nЁж ok\n".encode() + b"ab\xc3(\n"}, HISTORY, 5),
    ],
    "MISSING_METADATA": [
        Case({STATUS_PATH: STATUS.replace("Evidence-Class: OBSERVED\n", "")}, STATUS_PATH, 1)
    ],
    "INVALID_METADATA": [
        Case({STATUS_PATH: STATUS.replace("ACTIVE", "RUNNING")}, STATUS_PATH, 4),
        Case(
            {TASK_PATH: TASK.replace("Protocol-Version: 2.0", "Protocol-Version: 3.0")},
            TASK_PATH,
            2,
        ),
        Case({NEW: report("bench-new", "2026-11-21", "Fine.").replace("2.0", "2")}, NEW, 2),
    ],
    "MISSING_SECTION": [
        Case({PROJECT_PATH: PROJECT.replace("## Non-Goals\n", "")}, PROJECT_PATH, 1)
    ],
    "DUPLICATE_SECTION": [
        Case({STATUS_PATH: STATUS + "\n## Blockers\nA second list.\n"}, STATUS_PATH, 23)
    ],
    "SECTION_ORDER": [
        Case(
            {
                PROJECT_PATH: PROJECT.replace("## Objective", "## X")
                .replace("## Invariants", "## Objective")
                .replace("## X", "## Invariants")
            },
            PROJECT_PATH,
            6,
        )
    ],
    "PROJECT_ID_MISMATCH": [
        Case(
            {STATUS_PATH: STATUS.replace("Project-ID: demo-project", "Project-ID: other-project")},
            STATUS_PATH,
            3,
        ),
        Case(
            {".project-corpus/tasks/foreign.md": TASK.replace("demo-project", "other-project")},
            ".project-corpus/tasks/foreign.md",
            3,
        ),
    ],
    "ROLE_OVERLAP": [Case({PROJECT_PATH: PROJECT + "\n## Blockers\nNONE\n"}, PROJECT_PATH, 18)],
    "PROJECT_ABSOLUTE_ROOT": [
        Case(
            {
                PROJECT_PATH: PROJECT.replace(
                    "Logical-Name: Demo cache\n",
                    "Logical-Name: Demo cache\nProject-Root: /home/alice/work\n",
                )
            },
            PROJECT_PATH,
            5,
        )
    ],
    "GENERATED_VIEW_UNMARKED": [
        Case(
            {".project-corpus/generated/view.md": "# View\n"},
            ".project-corpus/generated/view.md",
            1,
        )
    ],
    "CONTEXT_SCOPE": [Case(policy('".project-corpus/state/**", ', ""), POLICY_PATH, 1)],
    "SOURCE_LINK": [Case({}, ".project-corpus/reports/linked.md", 1, link_report)],
    "SOURCE_PATH": [
        Case(
            {
                ".project-corpus/history/Notes.md": "# N\n",
                ".project-corpus/history/notes.md": "# n\n",
            },
            ".project-corpus/history/notes.md",
            1,
        ),
        Case(
            {
                ".project-corpus/history/caf\u00e9.md": "# C\n",
                ".project-corpus/history/cafe\u0301.md": "# c\n",
            },
            ".project-corpus/history/caf\u00e9.md",
            1,
        ),
        Case({".project-corpus/reports/con.md": "# C\n"}, ".project-corpus/reports/con.md", 1),
    ],
    "POLICY_PARSE": [Case(policy("[capabilities]", "[capabilities"), POLICY_PATH, 4)],
    "POLICY_UNKNOWN_KEY": [
        Case(
            policy('profile = "SAFE_EDIT"\n', 'profile = "SAFE_EDIT"\nowner = "alice"\n'),
            POLICY_PATH,
            4,
        )
    ],
    "POLICY_SCHEMA": [Case(policy("write = []", 'write = "none"'), POLICY_PATH, 8)],
    "POLICY_VERSION": [Case(policy('"2.0"', '"1.0"'), POLICY_PATH, 1)],
    "POLICY_PROJECT_ID": [
        Case(policy('project_id = "demo-project"', 'project_id = "Bad ID"'), POLICY_PATH, 2)
    ],
    "POLICY_PROFILE": [Case(policy('"SAFE_EDIT"', '"ROOT"'), POLICY_PATH, 3)],
    "POLICY_CAPABILITY": [Case(policy('"mcp.stdio"]', '"mcp.stdio", "Bad Cap!"]'), POLICY_PATH, 5)],
    "POLICY_PROFILE_CAPABILITY": [Case(policy('"SAFE_EDIT"', '"READ_ONLY"'), POLICY_PATH, 5)],
    "POLICY_SCOPE": [Case(policy('history/**"]', 'history/**", "../outside/**"]'), POLICY_PATH, 7)],
    "POLICY_WRITE_REQUIREMENTS": [
        Case(
            {
                POLICY_PATH: POLICY.replace(
                    "write = []", 'write = [".project-corpus/tasks/**"]'
                ).replace("audit_receipt = true", "audit_receipt = false")
            },
            POLICY_PATH,
            9,
        )
    ],
    "INDEX_MISSING": [Case({}, INDEX_REL, 1, lambda root: {"check_index": True})],
    "INDEX_CORRUPT": [Case({}, INDEX_REL, 1, built_then(corrupt_index))],
    "INDEX_SCHEMA_MISMATCH": [
        Case(
            {},
            INDEX_REL,
            1,
            built_then(
                lambda root: sql(
                    root, "UPDATE meta SET value = '0' WHERE key = 'index_schema_version'"
                )
            ),
        )
    ],
    "INDEX_PATH": [Case({}, CACHE, 1, lambda root: {"index": str(root / "context.sqlite3")})],
    "INDEX_PROJECT_MISMATCH": [
        Case(
            {},
            INDEX_REL,
            1,
            built_then(
                lambda root: sql(
                    root, "UPDATE meta SET value = 'other-project' WHERE key = 'project_id'"
                )
            ),
        )
    ],
    "MISSING_SOURCE": [
        Case(
            {HISTORY: history("Gone soon.")},
            INDEX_REL,
            1,
            built_then(lambda root: (root / HISTORY).unlink()),
        )
    ],
    "STALE_INDEX": [
        Case({}, NEW, 1, built_then(edit(NEW, "Latency dropped", "Latency fell"))),
        Case(
            {},
            HISTORY,
            1,
            built_then(lambda root: (root / HISTORY).write_text(history("New."), encoding="utf-8")),
        ),
    ],
    "BROKEN_PROVENANCE": [
        Case(
            {},
            INDEX_REL,
            1,
            built_then(
                lambda root: sql(
                    root, f"UPDATE items SET line_end = 999 WHERE source_path = '{TASK_PATH}'"
                )
            ),
        )
    ],
    "SUPERSEDED_RANKED_CURRENT": [
        Case(
            {},
            ".project-corpus/reports/bench-path.md",
            1,
            built_then(
                edit(
                    NEW,
                    "Supersedes: .project-corpus/reports/bench-old.md",
                    "Supersedes: .project-corpus/reports/bench-path.md",
                )
            ),
        )
    ],
    "INVALID_TEMPORAL_RELATION": [
        Case({HISTORY: history("Supersedes: ../elsewhere.md")}, HISTORY, 5)
    ],
    "ORPHAN_SUPERSESSION": [
        Case({HISTORY: history("Supersedes: .project-corpus/reports/gone.md")}, HISTORY, 5)
    ],
    "TEMPORAL_CYCLE": [
        Case({OLD: report("bench-old", "2026-10-01", "Old.", f"Supersedes: {NEW}\n")}, OLD, 7),
        Case({OLD: report("bench-old", "2026-10-01", "Old.", f"Supersedes: {NEW}\n")}, NEW, 7),
    ],
    "DUPLICATE_MEMORY_ITEM": [Case({HISTORY: history(TWO_LINE_PARAGRAPH)}, HISTORY, 5)],
    "VOLATILE_WITHOUT_FRESHNESS": [
        Case({HISTORY: history("We currently deploy on Fridays.")}, HISTORY, 5),
        Case({HISTORY: history("- first\n- Сейчас кэш\n  прогревается вручную.")}, HISTORY, 6),
        Case({HISTORY: history("The dashboard is live.")}, HISTORY, 5),
        # a Task is not a log entry: its Created-At does not date its claims
        Case(
            {TASK_PATH: TASK.replace("The eviction policy module.", "What is live today.")},
            TASK_PATH,
            12,
        ),
        # a date that does not parse dates nothing
        Case(
            {HISTORY: history("We currently deploy.").replace("Owner: ops", "Date: someday")},
            HISTORY,
            5,
        ),
        Case(
            {".project-corpus/history/2026-13-01-standup.md": history("Live.")},
            ".project-corpus/history/2026-13-01-standup.md",
            5,
        ),
    ],
    "INVALID_TIMESTAMP": [Case({OLD: report("bench-old", "2026-02-30", "Old.")}, OLD, 6)],
    "ARTIFACT_SHAPE": [
        Case({TASK_PATH: TASK.replace("## Scope\n", "")}, TASK_PATH, 1),
        Case(
            {".project-corpus/reports/renamed.md": report("bench-zzz", "2026-10-01", "Renamed.")},
            ".project-corpus/reports/renamed.md",
            4,
        ),
    ],
    "OVERSIZED_STATUS": [Case({STATUS_PATH: BIG_STATUS}, STATUS_PATH, 1)],
    "MISSING_ARTIFACT_DIR": [
        Case({".project-corpus/history": None}, ".project-corpus/history/", 1),
        Case({".project-corpus/tasks": None}, ".project-corpus/tasks/", 1),
    ],
    "CACHE_NOT_IGNORED": [Case({".gitignore": None}, CACHE, 1, cache_file)],
    "INVALID_SUPPRESSION": [
        Case({HISTORY: history(f"{directive}\nWe currently deploy.")}, HISTORY, 5)
        for directive in (
            "<!-- Project-Corpus: disable VOLATILE_WITHOUT_FRESHNESS -->",  # wrong case
            "<!-- project-corpus disable VOLATILE_WITHOUT_FRESHNESS -->",  # missing colon
            "<!-- project-corpus: DISABLE VOLATILE_WITHOUT_FRESHNESS -->",
            "<!-- project-corpus: disable volatile_without_freshness -->",
            "<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNES -->",  # unknown code
            "<!-- project-corpus: disable-file MISSING_METADATA -->",  # a gate code
        )
    ],
    "UNUSED_SUPPRESSION": [
        Case(
            {HISTORY: history("<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\nOk.")},
            HISTORY,
            5,
        ),
        Case(
            {HISTORY: history("Fine.\n<!-- project-corpus: disable-file INVALID_TIMESTAMP -->")},
            HISTORY,
            6,
        ),
    ],
    "BUNDLE_PROJECT_MISMATCH": [
        Case(
            {},
            setup=bundle_with(set_key("project_id", "other-project")),
            where=in_bundle('"project_id": "other-project"'),
        )
    ],
    "BUNDLE_SNAPSHOT": [
        Case(
            {},
            setup=bundle_with(set_key("source_snapshot_digest", "nope")),
            where=in_bundle('"source_snapshot_digest"'),
        )
    ],
    "BUNDLE_HASH": [
        Case({}, setup=bundle_with(set_key("query", "edited")), where=in_bundle('"bundle_sha256"'))
    ],
    "BUNDLE_STALE_SOURCE": [
        Case(
            {},
            setup=bundle_with(after=edit(STATUS_PATH, "4 ms", "5 ms")),
            where=in_bundle(f'"{STATUS_PATH}": "'),
        )
    ],
    "BUNDLE_FULL_SNAPSHOT_MISMATCH": [
        Case(
            {},
            setup=bundle_with(
                after=lambda root: (root / HISTORY).write_text(history("Later."), encoding="utf-8")
            ),
            where=in_bundle('"source_snapshot_digest"'),
        )
    ],
    "CANDIDATE_SCHEMA": [Case({}, setup=candidate_with(extra=1), where=in_candidate('"extra"'))],
    "CANDIDATE_PROJECT": [
        Case(
            {}, setup=candidate_with(project_id="other-project"), where=in_candidate('"project_id"')
        )
    ],
    "CANDIDATE_ID": [
        Case({}, setup=candidate_with(candidate_id="Bad ID"), where=in_candidate('"candidate_id"'))
    ],
    "CANDIDATE_KIND": [
        Case({}, setup=candidate_with(kind=["semantic_fact"]), where=in_candidate('"kind"'))
    ],
    "CANDIDATE_STATEMENT": [
        Case({}, setup=candidate_with(statement=" \n "), where=in_candidate('"statement"'))
    ],
    "CANDIDATE_TIME": [
        Case(
            {},
            setup=candidate_with(created_at="2026-02-30T00:00:00Z"),
            where=in_candidate('"created_at"'),
        )
    ],
    "CANDIDATE_EVIDENCE": [
        Case(
            {},
            setup=candidate_with(
                source_refs=[
                    {"source_path": STATUS_PATH, "source_sha256": "0" * 64, "line_start": 10}
                ]
            ),
            where=in_candidate('"source_sha256"'),
        )
    ],
    "CANDIDATE_WITHOUT_EVIDENCE": [
        Case({}, setup=candidate_with(source_refs=[]), where=in_candidate('"source_refs"'))
    ],
}

FAILING.update(INTEGRITY_FAILING)
FAILING.update(MISTAKES_FAILING)

PASSING: dict[str, list[Case]] = {code: [Case({})] for code in FAILING}
PASSING.update(INTEGRITY_PASSING)
PASSING.update(MISTAKES_PASSING)
PASSING.update(
    {
        "PROJECT_ID_MISMATCH": [
            Case({".project-corpus/history/other.md": history("Project-ID: other-project")})
        ],
        "INDEX_MISSING": [Case({}, setup=built)],
        "INDEX_CORRUPT": [Case({}, setup=built)],
        "INDEX_SCHEMA_MISMATCH": [Case({}, setup=built)],
        "INDEX_PATH": [Case({}, setup=built)],
        "INDEX_PROJECT_MISMATCH": [Case({}, setup=built)],
        "MISSING_SOURCE": [Case({}, setup=built)],
        "STALE_INDEX": [Case({}, setup=built)],
        "BROKEN_PROVENANCE": [Case({}, setup=built)],
        "SUPERSEDED_RANKED_CURRENT": [Case({}, setup=built)],
        "INVALID_TEMPORAL_RELATION": [Case({HISTORY: history(f"Supersedes: {OLD}")})],
        "ORPHAN_SUPERSESSION": [
            Case({HISTORY: history("```\nSupersedes: .project-corpus/reports/gone.md\n```")})
        ],
        "DUPLICATE_MEMORY_ITEM": [
            Case({HISTORY: history("Never serve an entry older.\n\nNever serve an entry older.")}),
            Case(
                {
                    HISTORY: history("| Pool | Policy | Hit ratio |\n|---|---|---|\n| a | b | c |"),
                    ".project-corpus/history/more.md": history(
                        "| Pool | Policy | Hit ratio |\n|---|---|---|\n| d | e | f |"
                    ),
                }
            ),
        ],
        "VOLATILE_WITHOUT_FRESHNESS": [
            Case({HISTORY: history("As of 2026-11-01 we currently deploy on Fridays.")}),
            Case({HISTORY: history("По состоянию на 2026-11-01 сейчас кэш прогревается.")}),
            Case(
                {
                    HISTORY: "# Notes\nFreshness-Requirement: re-check weekly\n\n"
                    "## Notes\nWe currently deploy.\n"
                }
            ),
            Case({HISTORY: history("The delivery went alive; currentlyish is not a word.")}),
            # a dated log entry dates its claims (SPEC §8 rev. 4)
            Case(
                {HISTORY: history("We currently deploy.").replace("Owner: ops", "Date: 2026-02-01")}
            ),
            Case({NEW: report("bench-new", "2026-11-21", "The canary is live right now.")}),
            Case(
                {".project-corpus/history/2026-12-01-standup.md": history("Сейчас всё работает.")}
            ),
            Case(
                {
                    HISTORY: history("Now live.").replace(
                        "Owner: ops", "Created-At: 2026-02-01T08:00:00Z"
                    )
                }
            ),
        ],
        "INVALID_TIMESTAMP": [
            Case(
                {
                    HISTORY: "# Notes\nLast-Verified-At: UNVERIFIED\nDate: 2026-02-28\n\n"
                    "## Notes\nx\n"
                }
            )
        ],
        "OVERSIZED_STATUS": [
            Case(
                {STATUS_PATH: BIG_STATUS},
                setup=lambda root: {
                    "config": write_json(root, "lint.yaml", {"status_max_bytes": 100_000})
                },
            )
        ],
        "MISSING_ARTIFACT_DIR": [Case({".project-corpus/history/.gitkeep": ""})],
        "CACHE_NOT_IGNORED": [
            Case({}, setup=cache_file),
            Case({".gitignore": None, ".project-corpus/.gitignore": "cache/\n"}, setup=cache_file),
            Case({".gitignore": None, ".project-corpus/cache/.gitignore": "*\n"}, setup=cache_file),
        ],
        "BUNDLE_PROJECT_MISMATCH": [Case({}, setup=bundle_with())],
        "BUNDLE_SNAPSHOT": [Case({}, setup=bundle_with())],
        "BUNDLE_HASH": [Case({}, setup=bundle_with())],
        "BUNDLE_STALE_SOURCE": [
            Case(
                {},
                setup=bundle_with(
                    after=lambda root: (root / HISTORY).write_text(
                        history("Later."), encoding="utf-8"
                    )
                ),
            )
        ],
        "BUNDLE_FULL_SNAPSHOT_MISMATCH": [Case({}, setup=bundle_with())],
        "INVALID_SUPPRESSION": [
            Case({HISTORY: history(f"{directive}\nWe currently deploy.")})
            for directive in (
                "<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->",
                "<!-- project-corpus: disable-file VOLATILE_WITHOUT_FRESHNESS, INVALID_TIMESTAMP -->",
                "<!-- a comment about the project corpus -->",
            )
        ],
        "UNUSED_SUPPRESSION": [
            Case(
                {
                    HISTORY: history(
                        "<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\n"
                        "We currently deploy.\n\n"
                        "<!-- project-corpus: disable-file DUPLICATE_MEMORY_ITEM -->"
                    )
                    + "Never serve an entry older than its TTL.\n\n"
                    + "Never serve an entry older than its TTL.\n"
                }
            ),
            # a check that did not run (needs --candidate) is not judged
            Case({HISTORY: history("<!-- project-corpus: disable CANDIDATE_KIND -->\nOk.")}),
        ],
    }
)
for _code in (
    "CANDIDATE_SCHEMA",
    "CANDIDATE_PROJECT",
    "CANDIDATE_ID",
    "CANDIDATE_KIND",
    "CANDIDATE_STATEMENT",
    "CANDIDATE_TIME",
    "CANDIDATE_EVIDENCE",
    "CANDIDATE_WITHOUT_EVIDENCE",
):
    PASSING[_code] = [Case({}, setup=candidate_with())]


def _run(make_corpus: MakeCorpus, case: Case) -> tuple[Path, dict[str, object]]:
    root = make_corpus(case.files)
    kwargs = case.setup(root)
    return root, doctor(root, **kwargs)


def _params(table: dict[str, list[Case]]) -> list[object]:
    return [
        pytest.param(code, case, id=f"{code}-{n}")
        for code, cases in table.items()
        for n, case in enumerate(cases)
    ]


@pytest.mark.parametrize(("code", "case"), _params(FAILING))
def test_failing_fixture_reports_the_code_at_its_line(
    make_corpus: MakeCorpus, code: str, case: Case
) -> None:
    root, result = _run(make_corpus, case)
    path, line = case.where(root) if case.where else (case.path, case.line)
    assert (code, path, line) in located(result), sorted(located(result))  # type: ignore[type-var]
    assert not os.path.isabs(path)


@pytest.mark.parametrize(("code", "case"), _params(PASSING))
def test_passing_fixture_does_not_report_the_code(
    make_corpus: MakeCorpus, code: str, case: Case
) -> None:
    _, result = _run(make_corpus, case)
    assert code not in codes(result)
    assert code not in result["checks_skipped"]  # type: ignore[operator]


def test_every_check_has_failing_and_passing_fixtures() -> None:
    registry = [check.code for check in CHECKS]
    assert sorted(FAILING) == sorted(registry)
    assert sorted(PASSING) == sorted(registry)
    assert all(FAILING[code] and PASSING[code] for code in registry)


def test_base_corpus_is_clean(make_corpus: MakeCorpus) -> None:
    result = doctor(make_corpus())
    assert result["issues"] == []
    assert result["ok"] is True
