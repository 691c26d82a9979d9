"""Every guard of policy.toml validation, with its exact code, line and detail (SPEC §1.4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from project_corpus.core.limits import MAX_POLICY_BYTES
from project_corpus.corpus import policy as policy_module
from project_corpus.corpus.policy import PROFILE_CAPABILITIES
from project_corpus.corpus.policy import in_scope
from project_corpus.corpus.policy import may_hold
from project_corpus.corpus.policy import parse_policy
from project_corpus.corpus.policy import policy_line
from project_corpus.corpus.policy import scope_problem
from tests.conftest import POLICY
from tests.conftest import MakeCorpus

Found = list[tuple[str, int, str]]
REQUIREMENTS = ("expected_hash", "verified_readback", "audit_receipt")
BASE = (
    "corpus.read corpus.stat corpus.search corpus.timeline corpus.context corpus.validate "
    "migration.plan audit.read git.status git.diff"
).split()
SAFE_EDIT = [*BASE, "state.update", "task.create", "report.create", "mcp.stdio"]
MAINTAINER = [*SAFE_EDIT, "migration.apply"]


def found(text: str) -> Found:
    return [(f.code, f.line, f.detail) for f in parse_policy(text.encode())[1]]


def policy_with(**replace: str) -> str:
    """POLICY with each `key = ...` line (first occurrence) replaced by `key = VALUE`."""
    lines = POLICY.split("\n")
    for key, value in replace.items():
        index = next(i for i, line in enumerate(lines) if line.startswith(f"{key} ="))
        lines[index] = f"{key} = {value}"
    return "\n".join(lines)


# --- types of the top-level strings -------------------------------------------------------------


@pytest.mark.parametrize("value", ["3", "2.0", "true", '["SAFE_EDIT"]', '{ name = "x" }'])
@pytest.mark.parametrize(
    ("key", "line"), [("policy_version", 1), ("project_id", 2), ("profile", 3)]
)
def test_a_non_string_top_level_value_is_a_schema_finding(key: str, line: int, value: str) -> None:
    assert found(policy_with(**{key: value})) == [
        ("POLICY_SCHEMA", line, f"`{key}` must be a string")
    ]


def test_a_non_string_profile_never_skips_the_capability_check() -> None:
    """`profile = 3` must not make a MAINTAINER-only capability pass silently."""
    text = policy_with(profile="3", allow='["migration.apply"]')
    assert ("POLICY_SCHEMA", 3, "`profile` must be a string") in found(text)
    policy, _ = parse_policy(text.encode())
    assert policy.profile == ""


@pytest.mark.parametrize(
    ("key", "value", "code", "line"),
    [
        ("policy_version", '"1.0"', "POLICY_VERSION", 1),
        ("project_id", '"Bad ID"', "POLICY_PROJECT_ID", 2),
        ("profile", '"ROOT"', "POLICY_PROFILE", 3),
    ],
)
def test_a_wrong_string_value_has_its_code_at_its_line(
    key: str, value: str, code: str, line: int
) -> None:
    assert (code, line, value.strip('"')) in found(policy_with(**{key: value}))


# --- keys and tables ----------------------------------------------------------------------------


def test_an_unknown_top_level_key_before_the_tables_is_flagged_at_its_line() -> None:
    text = 'extra = "x"\n' + POLICY
    assert found(text) == [("POLICY_UNKNOWN_KEY", 1, "extra")]
    assert found(POLICY.replace('profile = "SAFE_EDIT"\n', 'profile = "SAFE_EDIT"\nzz = 1\n')) == [
        ("POLICY_UNKNOWN_KEY", 4, "zz")
    ]


@pytest.mark.parametrize(
    ("table", "line"), [("capabilities", 5), ("scopes", 7), ("requirements", 10)]
)
def test_an_unknown_key_in_each_table_is_flagged_with_the_table_name(table: str, line: int) -> None:
    text = POLICY.replace(f"[{table}]\n", f"[{table}]\nsurprise = 1\n")
    assert found(text) == [("POLICY_UNKNOWN_KEY", line, f"{table}.surprise")]


@pytest.mark.parametrize(
    ("table", "line"), [("capabilities", 4), ("scopes", 6), ("requirements", 9)]
)
def test_a_missing_table_is_a_schema_finding(table: str, line: int) -> None:
    keys = {"capabilities": ["allow"], "scopes": ["read", "write"], "requirements": REQUIREMENTS}
    lines = [
        text
        for text in POLICY.split("\n")
        if text != f"[{table}]" and not any(text.startswith(f"{k} =") for k in keys[table])
    ]
    result = found("\n".join(lines))
    assert ("POLICY_SCHEMA", 1, f"missing `{table}`") in result
    assert all(code != "POLICY_UNKNOWN_KEY" for code, _, _ in result)


@pytest.mark.parametrize("table", ["capabilities", "scopes", "requirements"])
def test_a_table_of_the_wrong_type_is_a_schema_finding(table: str) -> None:
    header = POLICY.index("[capabilities]")
    text = f"{table} = 3\n" + POLICY[:header] + "[other]\n" + POLICY[header:]
    text = text.replace(f"[{table}]\n", "[ignored]\n")
    result = found(text)
    assert ("POLICY_SCHEMA", 1, f"`{table}` must be a table") in result
    assert f"missing `{table}`" not in {detail for _, _, detail in result}


@pytest.mark.parametrize(
    ("key", "table", "line"),
    [("allow", "capabilities", 4), ("read", "scopes", 6), ("write", "scopes", 6)],
)
def test_a_missing_key_in_a_table_is_a_schema_finding_at_the_table(
    key: str, table: str, line: int
) -> None:
    text = "\n".join(t for t in POLICY.split("\n") if not t.startswith(f"{key} ="))
    assert found(text) == [("POLICY_SCHEMA", line, f"missing `{table}.{key}`")]


@pytest.mark.parametrize("key", REQUIREMENTS)
def test_a_missing_requirement_is_a_schema_finding(key: str) -> None:
    text = "\n".join(t for t in POLICY.split("\n") if not t.startswith(f"{key} ="))
    assert found(text) == [("POLICY_SCHEMA", 9, f"missing `requirements.{key}`")]


@pytest.mark.parametrize(
    ("key", "value", "line", "detail"),
    [
        ("allow", '"corpus.read"', 5, "`capabilities.allow` must be a list of strings"),
        ("allow", "[1]", 5, "`capabilities.allow` must be a list of strings"),
        ("read", '[".project-corpus/state/**", 2]', 7, "`scopes.read` must be a list of strings"),
        ("write", "{}", 8, "`scopes.write` must be a list of strings"),
        ("allow", '["corpus.read", "corpus.read"]', 5, "`capabilities.allow` has duplicates"),
        ("expected_hash", '"true"', 10, "`requirements.expected_hash` must be a boolean"),
        ("audit_receipt", "1", 12, "`requirements.audit_receipt` must be a boolean"),
    ],
)
def test_mistyped_table_values_are_schema_findings_at_their_line(
    key: str, value: str, line: int, detail: str
) -> None:
    assert ("POLICY_SCHEMA", line, detail) in found(policy_with(**{key: value}))


# --- capabilities -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "names"),
    [("READ_ONLY", BASE), ("SAFE_EDIT", SAFE_EDIT), ("MAINTAINER", MAINTAINER)],
)
def test_each_profile_allows_exactly_its_capability_set(profile: str, names: list[str]) -> None:
    assert PROFILE_CAPABILITIES[profile] == frozenset(names)
    allow = "[" + ", ".join(f'"{n}"' for n in names) + "]"
    assert found(policy_with(profile=f'"{profile}"', allow=allow)) == []
    extra = next((n for n in MAINTAINER if n not in names), None)
    if extra is not None:
        allow = allow[:-1] + f', "{extra}"]'
        assert found(policy_with(profile=f'"{profile}"', allow=allow)) == [
            ("POLICY_PROFILE_CAPABILITY", 5, f"{extra} not in {profile}")
        ]


def test_a_malformed_capability_name_is_flagged_once_whatever_the_profile() -> None:
    for profile in ('"READ_ONLY"', '"ROOT"'):
        result = found(policy_with(profile=profile, allow='["Corpus.Read", "1x", "x y"]'))
        assert [f for f in result if f[0] == "POLICY_CAPABILITY"] == [
            ("POLICY_CAPABILITY", 5, "Corpus.Read"),
            ("POLICY_CAPABILITY", 5, "1x"),
            ("POLICY_CAPABILITY", 5, "x y"),
        ]
    unknown = found(policy_with(profile='"ROOT"', allow='["made.up"]'))
    assert unknown == [("POLICY_PROFILE", 3, "ROOT")]


# --- scopes and the write gate ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scope", "problem"),
    [
        ("", "empty or untrimmed"),
        (" a/**", "empty or untrimmed"),
        ("a/** ", "empty or untrimmed"),
        ("a\\b/**", "contains `\\` or `:`"),
        ("c:/x", "contains `\\` or `:`"),
        ("/abs/**", "absolute"),
        ("a//b/**", "empty, `.` or `..` component"),
        ("./a/**", "empty, `.` or `..` component"),
        ("a/./b", "empty, `.` or `..` component"),
        ("a/../b/**", "empty, `.` or `..` component"),
        ("a/", "empty, `.` or `..` component"),
    ],
)
def test_each_unusable_scope_has_its_reason(scope: str, problem: str) -> None:
    assert scope_problem(scope) == problem
    toml = scope.replace("\\", "\\\\")
    read = found(policy_with(read=f'[".project-corpus/state/**", "{toml}"]'))
    assert read == [("POLICY_SCOPE", 7, f"{scope!r}: {problem}")]


@pytest.mark.parametrize("scope", ["a/**", "a/b.md", ".project-corpus/tasks?/**", "x*"])
def test_usable_scopes_have_no_problem(scope: str) -> None:
    assert scope_problem(scope) is None


def test_a_bad_write_scope_is_located_at_the_write_line() -> None:
    assert found(policy_with(write='["/abs/**"]')) == [("POLICY_SCOPE", 8, "'/abs/**': absolute")]


@pytest.mark.parametrize(
    "values",
    [
        (False, False, False),
        (False, True, True),
        (True, False, True),
        (True, True, False),
    ],
)
def test_write_scopes_need_every_requirement_true(values: tuple[bool, bool, bool]) -> None:
    settings = {key: str(v).lower() for key, v in zip(REQUIREMENTS, values, strict=True)}
    gate = (
        "POLICY_WRITE_REQUIREMENTS",
        9,
        "write scopes need expected_hash, verified_readback and audit_receipt",
    )
    assert found(policy_with(write='["notes/**"]', **settings)) == [gate]
    assert found(policy_with(**settings)) == []  # no write scope: nothing to gate


def test_write_scopes_with_every_requirement_true_pass() -> None:
    policy, findings = parse_policy(policy_with(write='["notes/**"]').encode())
    assert findings == []
    assert policy.write == ("notes/**",)
    assert policy.requirements == dict.fromkeys(REQUIREMENTS, True)


def test_a_non_boolean_requirement_never_satisfies_the_write_gate() -> None:
    result = found(policy_with(write='["notes/**"]', audit_receipt='"true"'))
    assert [code for code, _, _ in result] == ["POLICY_SCHEMA", "POLICY_WRITE_REQUIREMENTS"]


# --- the parsed record --------------------------------------------------------------------------


def test_the_parsed_policy_records_fields_digest_and_lines() -> None:
    policy, _ = parse_policy(POLICY.encode())
    assert (policy.policy_version, policy.project_id, policy.profile) == (
        "2.0",
        "demo-project",
        "SAFE_EDIT",
    )
    assert policy.allow == ("corpus.context", "mcp.stdio")
    assert policy.write == ()
    assert policy.lines == {"project_id": 2, "profile": 3, "allow": 5, "read": 7, "write": 8}
    assert policy_line(policy, "profile") == 3
    assert policy_line(policy, "nowhere") == 1


def test_table_headers_with_spaces_are_located() -> None:
    text = POLICY.replace("[scopes]", "[ scopes ]").replace("read = [", "rd = [")
    assert ("POLICY_UNKNOWN_KEY", 7, "scopes.rd") in found(text)
    assert ("POLICY_SCHEMA", 6, "missing `scopes.read`") in found(text)


@pytest.mark.parametrize(
    ("data", "detail"),
    [
        (b"\xff" + POLICY.encode(), "not UTF-8 at byte 0"),
        (b"a = = b", None),
        (b"a = " + b"[" * 20000 + b"]" * 20000, "tables or arrays nested too deeply"),
    ],
)
def test_unparsable_bytes_keep_their_digest(data: bytes, detail: str | None) -> None:
    policy, findings = parse_policy(data)
    assert [f.code for f in findings] == ["POLICY_PARSE"]
    assert findings[0].line == 1
    if detail:
        assert findings[0].detail == detail
    assert len(policy.sha256) == 64
    assert policy.profile == ""


# --- scope matching -----------------------------------------------------------------------------


def test_a_prefix_scope_with_glob_characters_is_still_a_literal_prefix() -> None:
    for glob in ("?", "*", "[sx]"):
        scope = f".project-corpus/tasks{glob}/**"
        assert in_scope(f".project-corpus/tasks{glob}/a.md", [scope])
        assert not in_scope(".project-corpus/tasksX/a.md", [scope])
        assert not in_scope(".project-corpus/taskss/a.md", [scope])


def test_in_scope_is_false_without_scopes_and_tries_every_scope() -> None:
    assert not in_scope(".project-corpus/tasks/a.md", [])
    scopes = ["x/**", "y.md", ".project-corpus/tasks/**"]
    assert in_scope(".project-corpus/tasks/a.md", scopes)
    assert in_scope("y.md", scopes)


GLOBBY = st.text(alphabet="ab-*?[]!", min_size=1, max_size=6)


@given(GLOBBY, st.text(alphabet="ab/*?[]", max_size=8))
def test_a_prefix_scope_grants_exactly_the_paths_below_its_literal_prefix(
    prefix: str, rest: str
) -> None:
    scope = f"{prefix}/**"
    assert in_scope(f"{prefix}/{rest}", [scope])
    other = prefix.replace("*", "X").replace("?", "X").replace("[", "X")
    assert in_scope(f"{other}/{rest}", [scope]) == (other == prefix)


# --- which folders may hold sources -------------------------------------------------------------


@pytest.mark.parametrize(
    ("scopes", "folder", "expected"),
    [
        ([".project-corpus/tasks?/**"], ".project-corpus/tasks?", True),
        ([".project-corpus/tasks?/**"], ".project-corpus/tasks?/deep", True),
        ([".project-corpus/tasks?/**"], ".project-corpus", True),
        ([".project-corpus/tasks?/**"], ".project-corpus/tasksX", False),
        ([".project-corpus/tasks?/**"], ".project-corpus/tasks?x", False),
        ([".project-corpus/tasks?/**"], ".project-corpus/other", False),
        (["a/b*/**"], "a/bX", True),
        (["a/b*/**"], "a", True),
        (["a/b*/**"], "c", False),
        ([".project-corpus/history/2026-*.md"], ".project-corpus/history/2026-x", True),
        ([".project-corpus/history/2026-*.md"], ".project-corpus/history", True),
        ([".project-corpus/history/2026-*.md"], ".project-corpus/history/private", False),
        ([".project-corpus/tasks/**"], ".project-corpus", True),
        ([".project-corpus/tasks/**"], ".project-corpus/tasks/a/b", True),
        ([".project-corpus/tasks/**"], ".project-corpus/task", False),
        (["x/**", ".project-corpus/tasks/**"], ".project-corpus/tasks/a", True),
        ([], ".project-corpus/tasks", False),
    ],
)
def test_may_hold_tells_folders_that_could_hold_a_scoped_path(
    scopes: list[str], folder: str, expected: bool
) -> None:
    assert may_hold(folder, scopes) is expected


SCOPE_TEXT = st.text(alphabet="ab/*?[]", min_size=1, max_size=8)


@given(
    SCOPE_TEXT,
    st.text(alphabet="ab/?*[", min_size=1, max_size=6),
    st.text(alphabet="ab/.", max_size=6),
)
def test_a_folder_holding_a_scoped_path_is_never_dismissed(
    scope: str, folder: str, rest: str
) -> None:
    if in_scope(f"{folder}/{rest}", [scope]):
        assert may_hold(folder, [scope])


# --- the policy's size cap ----------------------------------------------------------------------


def test_the_policy_is_read_up_to_exactly_one_mebibyte(make_corpus: MakeCorpus) -> None:
    from project_corpus.corpus.snapshot import collect

    assert MAX_POLICY_BYTES == 1024 * 1024
    padding = MAX_POLICY_BYTES - len(POLICY.encode()) - 2
    exact = POLICY + "#" + "x" * padding + "\n"
    root = make_corpus({".project-corpus/policy.toml": exact})
    assert [f.code for f in collect(root, strict=False).findings] == []
    root = make_corpus({".project-corpus/policy.toml": exact + "\n"}, name="over")
    [finding] = collect(root, strict=False).findings
    assert finding.code == "POLICY_PARSE"
    assert finding.detail.endswith(
        f"{MAX_POLICY_BYTES + 1} bytes exceeds the limit of {MAX_POLICY_BYTES}"
    )


def test_a_key_written_as_a_dotted_key_is_located_at_line_one() -> None:
    body = POLICY[: POLICY.index("[requirements]")].replace("write = []", 'write = ["notes/**"]')
    dotted = (
        'policy_version = "2.0"\n'
        + "requirements.expected_hash = true\n"
        + "requirements.verified_readback = true\n"
        + "requirements.audit_receipt = false\n"
        + body.replace('policy_version = "2.0"\n', "")
    )
    assert found(dotted) == [
        (
            "POLICY_WRITE_REQUIREMENTS",
            1,
            "write scopes need expected_hash, verified_readback and audit_receipt",
        )
    ]


@pytest.mark.parametrize(
    ("tail", "line", "detail"),
    [
        (
            "this is = = not toml\n",
            13,
            "Expected '=' after a key in a key/value pair (at line 13, column 6)",
        ),
        ("x =", 1, "Invalid value (at end of document)"),
    ],
)
def test_a_toml_error_is_located_at_the_line_it_names_else_line_one(
    tail: str, line: int, detail: str
) -> None:
    assert found(POLICY + tail) == [("POLICY_PARSE", line, detail)]


def test_a_missing_requirement_does_not_hide_a_mistyped_one() -> None:
    text = "\n".join(t for t in POLICY.split("\n") if not t.startswith("expected_hash ="))
    text = text.replace("audit_receipt = true", 'audit_receipt = "yes"')
    assert found(text) == [
        ("POLICY_SCHEMA", 9, "missing `requirements.expected_hash`"),
        ("POLICY_SCHEMA", 11, "`requirements.audit_receipt` must be a boolean"),
    ]


# Policy-like lines: tables, keys, near misses (`[a.b]`, `ab =`, `a`), quoted keys, blanks.
_KEY_PARTS = st.sampled_from(["a", "b", "read", "allow", "-", "_", "1", ".", '"', " ", "\t"])
_LINE = st.builds(
    "".join,
    st.lists(st.sampled_from(["", " ", "\t", "\u3000", "[", "]", "=", "[[", " = 1"]) | _KEY_PARTS),
)


@given(st.lists(_LINE, max_size=12), st.sampled_from(["a", "b", "read", "allow", "a-b", "a_1"]))
def test_a_bare_key_is_found_on_the_line_its_own_pattern_finds(lines: list[str], key: str) -> None:
    # One scan for every bare key gives what a pattern compiled for that key finds.
    text = "\n".join(lines)
    pattern = policy_module._key_pattern(key)
    expected = next((n for n, line in enumerate(lines, 1) if pattern.match(line)), 1)
    assert policy_module._line_of(text, key) == expected


def test_a_key_that_is_not_bare_is_still_found_by_its_own_pattern() -> None:
    text = 'x = 1\n"a b" = 2\n[ a.b ]\n'
    assert policy_module._line_of(text, '"a b"') == 2
    assert policy_module._line_of(text, "a.b") == 3
    assert policy_module._line_of(text, "a b") == 1
