"""Trust grants (SPEC §11): written outside the project, strict to load, and only narrowing."""

from __future__ import annotations

import os
import shutil
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from project_corpus.adapters.mcp_server import grant_file
from project_corpus.adapters.mcp_server import trust
from project_corpus.core.errors import ContextError
from tests.conftest import Run

POLICY = """\
policy_version = "2.0"
project_id = "demo-project"
profile = "{profile}"

[capabilities]
allow = {allow}

[scopes]
read = [
  ".project-corpus/state/**",
  ".project-corpus/tasks/**",
  ".project-corpus/reports/**",
  ".project-corpus/history/**",
]
write = []

[requirements]
expected_hash = true
verified_readback = true
audit_receipt = true
"""

PROJECT = """\
# Demo — Project
Protocol-Version: 2.0
Project-ID: demo-project
Logical-Name: Demo

## Objective

Keep a small demo corpus.

## Invariants

- Sources are Markdown.

## Durable Scope Boundaries

- Only this folder.

## Non-Goals

- None.
"""

STATUS = """\
# Demo — Status
Protocol-Version: 2.0
Project-ID: demo-project
Lifecycle-Status: PAUSED
Active-Task-ID: NONE
Last-Verified-At: UNVERIFIED
Evidence-Class: UNVERIFIED

## Current Verified Baseline

NONE

## Blockers

NONE

## Evidence References

NONE

## Exact Next Action

NONE
"""

ALLOW = '["corpus.read", "corpus.context", "mcp.stdio"]'
MCP = ("mcp.stdio", "corpus.context")


def _corpus(root: Path, profile: str = "SAFE_EDIT", allow: str = ALLOW) -> Path:
    """A minimal conformant corpus (SPEC §1.1)."""
    base = root / ".project-corpus"
    for sub in ("state", "tasks", "reports", "history"):
        (base / sub).mkdir(parents=True)
    (root / "AGENTS.md").write_text("# Agents\n", encoding="utf-8")
    (base / "policy.toml").write_text(POLICY.format(profile=profile, allow=allow), encoding="utf-8")
    (base / "state" / "PROJECT.md").write_text(PROJECT, encoding="utf-8")
    (base / "state" / "STATUS.md").write_text(STATUS, encoding="utf-8")
    return root


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


@pytest.fixture
def project(tmp_path: Path, home: Path) -> Path:
    return _corpus(tmp_path / "project")


def _grant(root: Path, out: Path | None = None) -> dict[str, object]:
    return trust.grant(root, [*MCP, "corpus.read"], out=out)


def _codes(denials: tuple[trust.Denial, ...]) -> list[str]:
    return [denial.code for denial in denials]


def test_grant_writes_outside_the_project_by_default(project: Path, home: Path) -> None:
    result = _grant(project)
    path = home / "project-corpus" / "trust" / "demo-project.toml"
    assert result["path"] == str(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert list(data) == list(grant_file.GRANT_KEYS)
    assert data["grant_version"] == "1"
    assert data["protocol_version"] == "2.0"
    assert data["project_id"] == "demo-project"
    assert data["physical_root"] == str(project.resolve())
    st_root = os.stat(project)
    assert data["root_identity"] == f"{st_root.st_dev}:{st_root.st_ino}"
    assert data["capability_ceiling"] == ["corpus.context", "corpus.read", "mcp.stdio"]
    assert data["transports"] == ["stdio-mcp"]
    assert data["approved_at"].endswith("Z")
    assert not [p for p in path.parent.iterdir() if p.name != path.name]  # no staging left


def test_grant_default_path_falls_back_to_home_config(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/ignored")
    result = _grant(project)
    assert result["path"] == str(
        tmp_path / "home" / ".config" / "project-corpus" / "trust" / "demo-project.toml"
    )


def test_grant_refuses_a_path_inside_the_project(project: Path) -> None:
    with pytest.raises(ContextError) as info:
        _grant(project, out=project / ".project-corpus" / "grant.toml")
    assert info.value.code == "TRUST_PATH"
    assert not (project / ".project-corpus" / "grant.toml").exists()


def test_grant_refuses_a_link_into_the_project(project: Path, tmp_path: Path) -> None:
    (tmp_path / "sneaky").symlink_to(project)
    with pytest.raises(ContextError) as info:
        _grant(project, out=tmp_path / "sneaky" / "grant.toml")
    assert info.value.code == "TRUST_PATH"


def test_grant_refuses_xdg_config_inside_the_project(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(project / "config"))
    with pytest.raises(ContextError) as info:
        _grant(project)
    assert info.value.code == "TRUST_PATH"


@pytest.mark.parametrize("names", [["corpus.context", "root.shell"], ["Bad Name"], []])
def test_grant_refuses_capabilities_outside_hard_limits(project: Path, names: list[str]) -> None:
    with pytest.raises(ContextError) as info:
        trust.grant(project, names)
    assert info.value.code == "TRUST_CAPABILITY"


def test_grant_refuses_an_unknown_transport(project: Path) -> None:
    with pytest.raises(ContextError) as info:
        trust.grant(project, MCP, transports=["http"])
    assert info.value.code == "TRUST_CAPABILITY"


def test_grant_refuses_a_broken_policy(project: Path) -> None:
    (project / ".project-corpus" / "policy.toml").write_text("policy_version = [", encoding="utf-8")
    with pytest.raises(ContextError) as info:
        _grant(project)
    assert info.value.code == "POLICY_PARSE"


def test_grant_refuses_a_missing_policy(project: Path) -> None:
    (project / ".project-corpus" / "policy.toml").unlink()
    with pytest.raises(ContextError) as info:
        _grant(project)
    assert info.value.code == "MISSING_REQUIRED_PATH"


def test_show_and_load_round_trip(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "elsewhere" / "g.toml"
    written = _grant(project, out=out)
    loaded = grant_file.load_grant(out, root=project)
    assert loaded == written["grant"]
    shown = trust.show(project, out)
    assert shown["ok"] is True
    assert shown["grant"] == loaded
    assert shown["effective_capabilities"] == ["corpus.context", "corpus.read", "mcp.stdio"]
    assert shown["denials"] == []


def test_show_finds_the_default_grant(project: Path) -> None:
    _grant(project)
    assert trust.show(project)["ok"] is True


def test_regrant_replaces_the_file(project: Path) -> None:
    first = _grant(project)
    second = trust.grant(project, ["corpus.context"])
    assert first["path"] == second["path"]
    assert grant_file.load_grant(str(second["path"]))["capability_ceiling"] == ["corpus.context"]


def test_load_missing_grant(tmp_path: Path) -> None:
    with pytest.raises(ContextError) as info:
        grant_file.load_grant(tmp_path / "none.toml")
    assert info.value.code == "TRUST_MISSING"


def test_load_refuses_a_grant_inside_the_project(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "g.toml"
    _grant(project, out=out)
    shutil.copy(out, project / "g.toml")
    assert grant_file.load_grant(project / "g.toml")  # valid by itself...
    with pytest.raises(ContextError) as info:  # ...but never trusted for this project
        grant_file.load_grant(project / "g.toml", root=project)
    assert info.value.code == "TRUST_PATH"


def test_load_refuses_a_world_writable_grant(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "g.toml"
    _grant(project, out=out)
    out.chmod(0o666)
    with pytest.raises(ContextError) as info:
        grant_file.load_grant(out)
    assert info.value.code == "TRUST_PATH"


def test_load_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ContextError) as info:
        grant_file.load_grant(tmp_path)
    assert info.value.code == "TRUST_PATH"


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (lambda t: t + 'extra = "x"\n', "TRUST_INVALID"),
        (lambda t: t.replace('grant_version = "1"', 'grant_version = "2"'), "TRUST_INVALID"),
        (
            lambda t: t.replace('protocol_version = "2.0"', "protocol_version = 2.0"),
            "TRUST_INVALID",
        ),
        (lambda t: t.replace('"stdio-mcp"', '"http"'), "TRUST_INVALID"),
        (lambda t: t.replace('"corpus.read"', '"corpus.context"'), "TRUST_INVALID"),  # duplicate
        (lambda t: t.replace('"corpus.read"', '"root.shell"'), "TRUST_CAPABILITY"),
        (lambda t: t.replace('Z"', '+01:00"'), "TRUST_INVALID"),
        (lambda t: t.replace('approved_at = "', "approved_at = 5 #"), "TRUST_INVALID"),
        (lambda t: t.replace('policy_sha256 = "', 'policy_sha256 = "X'), "TRUST_INVALID"),
        (
            lambda t: t.replace('project_id = "demo-project"', 'project_id = "../x"'),
            "TRUST_INVALID",
        ),
        (lambda t: t.replace('physical_root = "', 'physical_root = "relative'), "TRUST_INVALID"),
        (lambda t: t.replace('root_identity = "', 'root_identity = "x'), "TRUST_INVALID"),
        (lambda t: "\n".join(t.splitlines()[2:]), "TRUST_INVALID"),  # a missing key
        (lambda t: t + "[[[", "TRUST_INVALID"),
        (lambda t: t + "# \udcff", "TRUST_INVALID"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_load_is_strict(project: Path, tmp_path: Path, edit: object, code: str) -> None:
    out = tmp_path / "g.toml"
    _grant(project, out=out)
    text = edit(out.read_text(encoding="utf-8"))  # type: ignore[operator]
    out.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(ContextError) as info:
        grant_file.load_grant(out)
    assert info.value.code == code


def test_load_refuses_a_link_loop(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    with pytest.raises(ContextError) as info:
        grant_file.load_grant(tmp_path / "loop")
    assert info.value.code == "TRUST_PATH"


def test_grant_reports_an_unwritable_target(project: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    (tmp_path / "dir").mkdir()
    for out in (tmp_path / "file" / "g.toml", tmp_path / "dir"):
        with pytest.raises(ContextError) as info:
            _grant(project, out=out)
        assert info.value.code == "TRUST_PATH"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_load_refuses_a_huge_file(tmp_path: Path) -> None:
    out = tmp_path / "g.toml"
    out.write_text("#" * (grant_file.MAX_GRANT_BYTES + 1), encoding="utf-8")
    with pytest.raises(ContextError) as info:
        grant_file.load_grant(out)
    assert info.value.code == "TRUST_INVALID"


def test_effective_capabilities_intersect_four_sets(project: Path) -> None:
    loaded = grant_file.load_grant(str(_grant(project)["path"]))
    effective, denials = trust.effective_capabilities(project, loaded, [*MCP, "corpus.read"])
    assert effective == {"corpus.context", "corpus.read", "mcp.stdio"}
    assert denials == ()


def test_session_subset_narrows(project: Path) -> None:
    loaded = grant_file.load_grant(str(_grant(project)["path"]))
    effective, denials = trust.effective_capabilities(project, loaded, ["mcp.stdio"])
    assert effective == {"mcp.stdio"}
    assert _codes(denials) == ["TRUST_DENIED"]
    assert "session" in denials[0].detail
    with pytest.raises(ContextError) as info:
        trust.require("corpus.context", effective, denials)
    assert info.value.code == "TRUST_DENIED"
    with pytest.raises(ContextError) as info:
        trust.require("corpus.read", effective, denials)
    assert info.value.code == "TRUST_DENIED"
    trust.require("mcp.stdio", effective, denials)


def test_empty_session_denies_everything(project: Path) -> None:
    loaded = grant_file.load_grant(str(_grant(project)["path"]))
    effective, _ = trust.effective_capabilities(project, loaded, [])
    assert effective == frozenset()


def test_session_refuses_unknown_names(project: Path) -> None:
    loaded = grant_file.load_grant(str(_grant(project)["path"]))
    with pytest.raises(ContextError) as info:
        trust.effective_capabilities(project, loaded, ["mcp.stdoi"])
    assert info.value.code == "TRUST_CAPABILITY"


def test_grant_ceiling_narrows(project: Path) -> None:
    loaded = grant_file.load_grant(str(trust.grant(project, ["mcp.stdio"])["path"]))
    effective, denials = trust.effective_capabilities(project, loaded, MCP)
    assert effective == {"mcp.stdio"}
    assert "capability_ceiling" in denials[0].detail


def test_policy_allow_narrows_and_grant_never_widens(tmp_path: Path, home: Path) -> None:
    root = _corpus(tmp_path / "ro", profile="READ_ONLY", allow='["corpus.context"]')
    loaded = grant_file.load_grant(str(trust.grant(root, sorted(grant_file.HARD_LIMITS))["path"]))
    effective, denials = trust.effective_capabilities(root, loaded, grant_file.HARD_LIMITS)
    assert effective == {"corpus.context"}
    assert _codes(denials) == ["TRUST_DENIED"]
    assert "profile READ_ONLY" in denials[0].detail
    with pytest.raises(ContextError) as info:
        trust.require("mcp.stdio", effective, denials)
    assert info.value.code == "TRUST_DENIED"


def test_policy_edit_after_granting_is_drift(project: Path) -> None:
    loaded = grant_file.load_grant(str(_grant(project)["path"]))
    policy = project / ".project-corpus" / "policy.toml"
    policy.write_text(policy.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    effective, denials = trust.effective_capabilities(project, loaded, [*MCP, "corpus.read"])
    assert effective == {"corpus.read"}
    assert _codes(denials) == ["TRUST_POLICY_DRIFT"]
    with pytest.raises(ContextError) as info:
        trust.require("mcp.stdio", effective, denials)
    assert info.value.code == "TRUST_POLICY_DRIFT"
    assert info.value.hint
    assert trust.show(project)["ok"] is False


def test_grant_for_another_copy_is_root_changed(project: Path, tmp_path: Path) -> None:
    loaded = grant_file.load_grant(str(_grant(project)["path"]))
    copy = tmp_path / "copy"
    shutil.copytree(project, copy)
    effective, denials = trust.effective_capabilities(copy, loaded, MCP)
    assert effective == frozenset()
    assert _codes(denials) == ["TRUST_ROOT_CHANGED"]


def test_recreated_root_at_the_same_path_is_root_changed(project: Path, tmp_path: Path) -> None:
    loaded = grant_file.load_grant(str(_grant(project)["path"]))
    shutil.copytree(project, tmp_path / "copy")
    shutil.rmtree(project)
    (tmp_path / "copy").rename(project)
    effective, denials = trust.effective_capabilities(project, loaded, MCP)
    assert effective == frozenset()
    assert _codes(denials) == ["TRUST_ROOT_CHANGED"]
    assert "device:inode" in denials[0].detail


def test_grant_for_another_project_denies_everything(
    project: Path, tmp_path: Path, home: Path
) -> None:
    loaded = grant_file.load_grant(str(_grant(project)["path"]))
    other = _corpus(tmp_path / "other")
    policy = other / ".project-corpus" / "policy.toml"
    policy.write_text(
        policy.read_text(encoding="utf-8").replace("demo-project", "other-project"),
        encoding="utf-8",
    )
    effective, denials = trust.effective_capabilities(other, loaded, MCP)
    assert effective == frozenset()
    assert _codes(denials) == ["TRUST_PROJECT"]


def test_grant_without_a_transport_is_malformed(project: Path) -> None:
    record = grant_file.parse_grant(grant_file.load_grant(str(_grant(project)["path"])))
    loaded = record._replace(transports=()).as_dict()
    with pytest.raises(ContextError) as info:
        trust.effective_capabilities(project, loaded, MCP)
    assert info.value.code == "TRUST_INVALID"


@given(st.text(max_size=40))
def test_toml_strings_round_trip(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        with pytest.raises(ContextError):
            grant_file._toml_string(text)
        return
    assert tomllib.loads(f"v = {grant_file._toml_string(text)}")["v"] == text


def test_undecodable_text_is_refused() -> None:
    with pytest.raises(ContextError) as info:
        grant_file._toml_string("bad \udcff byte")
    assert info.value.code == "TRUST_PATH"


def test_awkward_root_path_round_trips(tmp_path: Path, home: Path) -> None:
    root = _corpus(tmp_path / 'we"ird\\ \t päth')
    out = tmp_path / "g.toml"
    trust.grant(root, MCP, out=out)
    loaded = grant_file.load_grant(out)
    assert loaded["physical_root"] == str(root.resolve())
    effective, denials = trust.effective_capabilities(root, loaded, MCP)
    assert effective == set(MCP)
    assert denials == ()


def test_no_home_directory_needs_an_explicit_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_home() -> Path:
        raise RuntimeError("no home")

    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    with pytest.raises(ContextError) as info:
        trust.default_grant_path("demo-project")
    assert info.value.code == "TRUST_PATH"


def test_grant_answers_ok(project: Path) -> None:
    assert _grant(project)["ok"] is True


def test_a_policy_with_several_problems_refuses_with_the_first_and_lists_all(
    project: Path,
) -> None:
    policy = project / ".project-corpus" / "policy.toml"
    text = policy.read_text(encoding="utf-8").replace('profile = "SAFE_EDIT"', "profile = 3")
    policy.write_text(text + "surprise = 1\n", encoding="utf-8")
    with pytest.raises(ContextError) as info:
        _grant(project)
    assert info.value.code == "POLICY_UNKNOWN_KEY"
    assert info.value.detail == (
        ".project-corpus/policy.toml: POLICY_UNKNOWN_KEY: requirements.surprise; "
        "POLICY_SCHEMA: `profile` must be a string"
    )


# --- issue #25: what `trust grant` and `trust show` tell a person --------------------------


def test_grant_warns_about_a_capability_the_policy_does_not_allow(project: Path) -> None:
    result = trust.grant(project, [*MCP, "state.update", "migration.apply"])
    assert result["ok"] is True  # written: the grant is a ceiling, the policy narrows it
    warnings = result["warnings"]
    assert isinstance(warnings, list)
    assert [w.split(" ", 1)[0] for w in warnings] == ["migration.apply", "state.update"]
    # state.update is in the SAFE_EDIT profile: only `allow` (line 6) must change
    assert (
        "add 'state.update' to `[capabilities] allow` (.project-corpus/policy.toml:6)"
        in (warnings[1])
    )
    assert "profile" not in warnings[1]
    # migration.apply needs another profile too (line 3)
    assert "choose a profile that includes it (.project-corpus/policy.toml:3)" in warnings[0]
    assert all("a policy edit invalidates this grant" in w for w in warnings)
    assert trust.grant(project, MCP)["warnings"] == []


def test_trust_show_exits_1_when_the_grant_denies_and_prints_every_field(
    project: Path, cli: Callable[..., Run]
) -> None:
    grant = (
        "trust",
        "grant",
        project,
        "--capability",
        "mcp.stdio",
        "--capability",
        "corpus.context",
    )
    assert cli(*grant).code == 0
    shown = cli("trust", "show", project, "--format", "text")
    assert shown.code == 0
    assert "ok: true\n" in shown.out
    policy = project / ".project-corpus/policy.toml"
    policy.write_text(policy.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    denied = cli("trust", "show", project, "--format", "text")
    assert denied.code == 1  # the command ran and found that the grant does not hold
    assert "ok: false\n" in denied.out
    assert "    code: TRUST_POLICY_DRIFT\n" in denied.out  # nested objects, indented, whole
    assert "{" not in denied.out
    assert "True" not in denied.out
    assert "False" not in denied.out


def test_policy_warnings_name_line_one_when_the_policy_does_not_say_where_a_key_is() -> None:
    """A policy record without key lines (built by hand, or a key the parser did not place):
    the warning still names a line a person can open, the first."""
    from project_corpus.core.records import Policy

    policy = Policy("2.0", "demo-app", "READ_ONLY", (), (), (), {}, "0" * 64, {})
    (warning,) = trust.policy_warnings(policy, ["mcp.stdio"])
    assert "`[capabilities] allow` (.project-corpus/policy.toml:1)" in warning
    assert "choose a profile that includes it (.project-corpus/policy.toml:1)" in warning
    placed = policy._replace(lines={"allow": 7, "profile": 3})
    (warning,) = trust.policy_warnings(placed, ["mcp.stdio"])
    assert "`[capabilities] allow` (.project-corpus/policy.toml:7)" in warning
    assert "includes it (.project-corpus/policy.toml:3)" in warning
