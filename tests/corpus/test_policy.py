"""policy.toml validation codes and the exact scope-matching rule."""

from __future__ import annotations

import fnmatch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from project_corpus.corpus.policy import in_scope
from project_corpus.corpus.policy import parse_policy
from tests.conftest import POLICY


def codes(text: str | bytes) -> list[str]:
    data = text.encode() if isinstance(text, str) else text
    return sorted({f.code for f in parse_policy(data)[1]})


def test_the_reference_policy_is_valid_and_parsed() -> None:
    policy, findings = parse_policy(POLICY.encode())
    assert findings == []
    assert policy.project_id == "demo-project"
    assert policy.profile == "SAFE_EDIT"
    assert "corpus.context" in policy.allow
    assert policy.read[0] == ".project-corpus/state/**"
    assert len(policy.sha256) == 64


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda p: b"\xff" + p.encode(), "POLICY_PARSE"),
        (lambda p: p + "this is = = not toml\n", "POLICY_PARSE"),
        (lambda p: p + 'extra = "x"\n', "POLICY_UNKNOWN_KEY"),
        (
            lambda p: p.replace("[requirements]", "[requirements]\nsurprise = true"),
            "POLICY_UNKNOWN_KEY",
        ),
        (lambda p: p.replace("write = []", 'write = "x"'), "POLICY_SCHEMA"),
        (lambda p: p.replace('profile = "SAFE_EDIT"\n', ""), "POLICY_SCHEMA"),
        (
            lambda p: p.replace(
                'allow = ["corpus.context", "mcp.stdio"]',
                'allow = ["corpus.context", "corpus.context"]',
            ),
            "POLICY_SCHEMA",
        ),
        (lambda p: p.replace("expected_hash = true", 'expected_hash = "yes"'), "POLICY_SCHEMA"),
        (lambda p: p.replace('"2.0"', '"1.0"', 1), "POLICY_VERSION"),
        (
            lambda p: p.replace('project_id = "demo-project"', 'project_id = "Bad ID"'),
            "POLICY_PROJECT_ID",
        ),
        (lambda p: p.replace('"SAFE_EDIT"', '"ROOT"'), "POLICY_PROFILE"),
        (lambda p: p.replace('"mcp.stdio"]', '"Bad Cap!"]'), "POLICY_CAPABILITY"),
        (lambda p: p.replace('"SAFE_EDIT"', '"READ_ONLY"'), "POLICY_PROFILE_CAPABILITY"),
        (lambda p: p.replace("read = [", 'read = ["../outside/**", '), "POLICY_SCOPE"),
        (lambda p: p.replace("read = [", 'read = [" padded/**", '), "POLICY_SCOPE"),
        (lambda p: p.replace("read = [", 'read = ["/abs/**", '), "POLICY_SCOPE"),
        (lambda p: p.replace("read = [", 'read = ["c:/x", '), "POLICY_SCOPE"),
        (
            lambda p: p.replace("write = []", 'write = ["notes/**"]').replace(
                "audit_receipt = true", "audit_receipt = false"
            ),
            "POLICY_WRITE_REQUIREMENTS",
        ),
    ],
)
def test_each_policy_defect_has_its_code(change: object, code: str) -> None:
    assert callable(change)
    assert code in codes(change(POLICY))


def test_policy_findings_are_located_at_the_offending_line() -> None:
    text = POLICY.replace('"SAFE_EDIT"', '"ROOT"')
    finding = next(f for f in parse_policy(text.encode())[1] if f.code == "POLICY_PROFILE")
    assert finding.path == ".project-corpus/policy.toml"
    assert finding.line == 3


def test_prefix_scope_is_a_literal_prefix_test_at_any_depth() -> None:
    scopes = [".project-corpus/tasks/**"]
    assert in_scope(".project-corpus/tasks/a.md", scopes)
    assert in_scope(".project-corpus/tasks/deep/er/a.md", scopes)
    assert not in_scope(".project-corpus/tasksX/a.md", scopes)
    assert not in_scope(".project-corpus/TASKS/a.md", scopes)


def test_other_scopes_are_case_sensitive_fnmatch_with_star_crossing_slashes() -> None:
    scopes = [".project-corpus/history/2026-*.md"]
    assert in_scope(".project-corpus/history/2026-01.md", scopes)
    assert in_scope(".project-corpus/history/2026-x/deep.md", scopes)
    assert not in_scope(".project-corpus/history/private-notes.md", scopes)
    assert not in_scope(".project-corpus/history/2026-01.MD", scopes)


@given(st.text(alphabet="ab/.*?[]-", max_size=12), st.text(alphabet="ab/.-", max_size=16))
def test_scope_matching_agrees_with_the_reference_rule(scope: str, path: str) -> None:
    expected = (
        path.startswith(scope[:-2]) if scope.endswith("/**") else fnmatch.fnmatchcase(path, scope)
    )
    assert in_scope(path, [scope]) == expected
