"""Trust grants: the external approval an MCP session needs (docs/mcp.md).

A grant is a small TOML file kept *outside* the project (by default
`$XDG_CONFIG_HOME/project-corpus/trust/<project_id>.toml`). It pins the project ID, the
resolved root and its `device:inode` identity, the SHA-256 of `policy.toml` as approved, and a
capability ceiling. Project content never grants anything: the effective capabilities are
the intersection of the runtime hard limits, the grant's ceiling, the policy's `allow` list
and the session subset, and a changed policy or root denies `mcp.stdio` and `corpus.context`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from collections.abc import Mapping
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from project_corpus.adapters.mcp_server.grant_file import HARD_LIMITS
from project_corpus.adapters.mcp_server.grant_file import TIME_FORMAT
from project_corpus.adapters.mcp_server.grant_file import TRANSPORTS
from project_corpus.adapters.mcp_server.grant_file import Grant
from project_corpus.adapters.mcp_server.grant_file import inside
from project_corpus.adapters.mcp_server.grant_file import load_grant
from project_corpus.adapters.mcp_server.grant_file import parse_grant
from project_corpus.adapters.mcp_server.grant_file import render_grant
from project_corpus.adapters.mcp_server.grant_file import write_atomic
from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_POLICY_BYTES
from project_corpus.core.records import Policy
from project_corpus.core.versions import GRANT_VERSION
from project_corpus.core.versions import PROTOCOL_VERSION
from project_corpus.corpus import fs
from project_corpus.corpus.layout import POLICY_PATH
from project_corpus.corpus.policy import CAPABILITY_RE
from project_corpus.corpus.policy import PROFILE_CAPABILITIES
from project_corpus.corpus.policy import parse_policy

# What a drifted policy or a changed root denies.
GATED = ("mcp.stdio", "corpus.context")
REAPPROVE = "re-approve with `project-corpus trust grant {root} --capability ...`"


class Denial(NamedTuple):
    """Why capabilities that would otherwise be effective are not: a TRUST_* code."""

    code: str
    detail: str
    capabilities: tuple[str, ...]
    hint: str = REAPPROVE

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "detail": self.detail, "capabilities": list(self.capabilities)}


# --- grant ---------------------------------------------------------------------------------


def grant(
    root: str | os.PathLike[str],
    capabilities: Iterable[str],
    transports: Iterable[str] = ("stdio-mcp",),
    out: str | os.PathLike[str] | None = None,
) -> dict[str, object]:
    """Approve ROOT as it is now and write the grant; returns `{ok, path, grant}`."""
    resolved = fs.resolve_root(root)
    policy = read_policy(resolved)
    record = Grant(
        grant_version=GRANT_VERSION,
        project_id=policy.project_id,
        physical_root=str(resolved),
        root_identity=root_identity(resolved),
        policy_sha256=policy.sha256,
        capability_ceiling=_checked_capabilities(capabilities, "capability"),
        transports=_checked_transports(transports),
        approved_at=datetime.now(UTC).strftime(TIME_FORMAT),
        protocol_version=PROTOCOL_VERSION,
    )
    path = _grant_target(resolved, out, policy.project_id)
    write_atomic(path, render_grant(record).encode("utf-8"))
    warnings = policy_warnings(policy, record.capability_ceiling)
    return {"ok": True, "path": str(path), "grant": record.as_dict(), "warnings": warnings}


def policy_warnings(policy: Policy, capabilities: Iterable[str]) -> list[str]:
    """A sentence for each granted capability the project policy does not allow: the grant
    cannot make it effective (policy only narrows), and editing the policy afterwards
    invalidates the grant (TRUST_POLICY_DRIFT), so the policy must change first."""
    allowed = PROFILE_CAPABILITIES.get(policy.profile, frozenset())
    found = []
    for name in sorted(set(capabilities) - set(policy.allow)):
        where = f"{POLICY_PATH}:{policy.lines.get('allow', 1)}"
        change = f"add {name!r} to `[capabilities] allow` ({where})"
        if name not in allowed:
            line = policy.lines.get("profile", 1)
            change += f" and choose a profile that includes it ({POLICY_PATH}:{line})"
        found.append(
            f"{name} is not allowed by the policy, so this grant cannot make it effective: "
            f"{change}, then grant again (a policy edit invalidates this grant)"
        )
    return found


def default_grant_path(project_id: str) -> Path:
    """`$XDG_CONFIG_HOME/project-corpus/trust/<project_id>.toml` (XDG default `~/.config`)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):  # unset, empty or relative: ignored, as the XDG spec says
        try:
            base = str(Path.home() / ".config")
        except RuntimeError:
            raise ContextError(
                "TRUST_PATH",
                "no home directory for the default grant location",
                hint="pass the grant file (--trust, --grant or --out), or set XDG_CONFIG_HOME",
            ) from None
    return Path(base) / "project-corpus" / "trust" / f"{project_id}.toml"


def root_identity(root: str) -> str:
    """`<st_dev>:<st_ino>` of the root directory."""
    st = os.stat(root)
    return f"{st.st_dev}:{st.st_ino}"


def read_policy(root: str) -> Policy:
    """The project's policy; a missing or broken policy refuses with its own code."""
    data = fs.read_relative(
        root, POLICY_PATH, MAX_POLICY_BYTES, code="MISSING_REQUIRED_PATH", limit_code="POLICY_PARSE"
    )
    policy, findings = parse_policy(data)
    if findings:
        detail = "; ".join(f"{f.code}: {f.detail}" for f in findings)
        raise ContextError(
            findings[0].code,
            f"{POLICY_PATH}: {detail}",
            hint=(
                "fix policy.toml (`project-corpus context doctor {root}` shows where) "
                "before granting trust"
            ),
        )
    return policy


def _checked_capabilities(names: Iterable[str], what: str) -> tuple[str, ...]:
    unique = sorted(set(names))
    if not unique:
        raise ContextError(
            "TRUST_CAPABILITY",
            f"at least one {what} is required",
            hint="known capabilities: " + " ".join(sorted(HARD_LIMITS)),
        )
    for name in unique:
        if not CAPABILITY_RE.match(name) or name not in HARD_LIMITS:
            raise ContextError(
                "TRUST_CAPABILITY",
                f"{name!r} is outside the runtime hard limits",
                hint="known capabilities: " + " ".join(sorted(HARD_LIMITS)),
            )
    return tuple(unique)


def _checked_transports(names: Iterable[str]) -> tuple[str, ...]:
    unique = sorted(set(names))
    unknown = [name for name in unique if name not in TRANSPORTS]
    if not unique or unknown:
        raise ContextError(
            "TRUST_CAPABILITY",
            f"transports must be some of {sorted(TRANSPORTS)}, got {unique}",
            hint="omit --transport (the default is stdio-mcp)",
        )
    return tuple(unique)


def _grant_target(root: str, out: str | os.PathLike[str] | None, project_id: str) -> Path:
    path = Path(os.path.abspath(out)) if out is not None else default_grant_path(project_id)
    target = Path(os.path.realpath(path.parent)) / path.name
    if inside(target, root):
        raise ContextError(
            "TRUST_PATH",
            f"{path}: a trust grant must live outside the project",
            hint="omit --out to use the default location under $XDG_CONFIG_HOME",
        )
    return target


# --- effective capabilities ----------------------------------------------------------------


def effective_capabilities(
    root: str | os.PathLike[str], grant: Mapping[str, object], session_allow: Iterable[str]
) -> tuple[frozenset[str], tuple[Denial, ...]]:
    """HARD_LIMITS ∩ grant ceiling ∩ policy allow ∩ session allow, minus what a broken binding
    (other project, policy drift, changed root) denies.

    Denials explain every capability of `GATED` that is not effective, first cause first.
    """
    record = parse_grant(grant)
    resolved = fs.resolve_root(root)
    policy = read_policy(resolved)
    session = _session(session_allow)
    layers = (
        ("the runtime hard limits", HARD_LIMITS),
        ("the trust grant's capability_ceiling", frozenset(record.capability_ceiling)),
        (f"the policy allow list (profile {policy.profile})", frozenset(policy.allow)),
        ("the session --allow list", session),
    )
    effective = frozenset.intersection(*(names for _, names in layers))
    denials = _binding_denials(resolved, record, policy)
    for denial in denials:
        effective -= set(denial.capabilities)
    return effective, (*denials, *_layer_denials(effective, denials, layers))


def _session(names: Iterable[str]) -> frozenset[str]:
    """The session subset; an unknown name is refused (a typo must not pass silently)."""
    session = frozenset(names)
    return frozenset(_checked_capabilities(session, "session capability")) if session else session


def _binding_denials(root: str, record: Grant, policy: Policy) -> list[Denial]:
    if record.project_id != policy.project_id:
        return [
            Denial(
                "TRUST_PROJECT",
                f"the grant is for {record.project_id!r}, the project is {policy.project_id!r}",
                tuple(sorted(HARD_LIMITS)),
                "pass this project's own grant, or make one with "
                "`project-corpus trust grant {root} --capability ...`",
            )
        ]
    denials = []
    if record.policy_sha256 != policy.sha256:
        denials.append(
            Denial(
                "TRUST_POLICY_DRIFT",
                f"{POLICY_PATH} changed since the grant was approved at {record.approved_at}",
                GATED,
            )
        )
    if record.physical_root != str(root):
        denials.append(
            Denial(
                "TRUST_ROOT_CHANGED",
                f"the grant is for {record.physical_root}, the root is {root}",
                GATED,
            )
        )
    elif record.root_identity != root_identity(root):
        denials.append(
            Denial(
                "TRUST_ROOT_CHANGED",
                f"{root} is not the directory the grant was made for (device:inode differs)",
                GATED,
            )
        )
    return denials


def _layer_denials(
    effective: frozenset[str], denials: list[Denial], layers: tuple[tuple[str, frozenset[str]], ...]
) -> list[Denial]:
    explained = {name for denial in denials for name in denial.capabilities}
    result = []
    for name in GATED:
        if name in effective or name in explained:
            continue
        number, layer = next((n, lab) for n, (lab, names) in enumerate(layers) if name not in names)
        hint = LAYER_HINTS[number].format(name=name)
        result.append(Denial("TRUST_DENIED", f"{name} is not in {layer}", (name,), hint))
    return result


# How to widen each layer of `effective_capabilities`, in its order.
LAYER_HINTS = (
    "this version of project-corpus does not know {name}",
    "re-approve with `project-corpus trust grant {{root}} --capability {name}` (and the others)",
    'add "{name}" to `allow` in policy.toml (profile SAFE_EDIT or MAINTAINER), then re-approve '
    "with `project-corpus trust grant {{root}} --capability ...`",
    "add `--allow {name}` to the command",
)


def require(capability: str, effective: frozenset[str], denials: Iterable[Denial]) -> None:
    """Raise the first denial's code when CAPABILITY is not effective."""
    if capability in effective:
        return
    for denial in denials:
        if capability in denial.capabilities:
            raise ContextError(denial.code, denial.detail, hint=denial.hint)
    raise ContextError(
        "TRUST_DENIED",
        f"{capability} is not effective",
        hint="`project-corpus trust show {root}` lists what is effective and why",
    )


def show(
    root: str | os.PathLike[str], path: str | os.PathLike[str] | None = None
) -> dict[str, object]:
    """`trust show`: the grant for ROOT and what it makes effective now (no session narrowing).

    `ok` is true when nothing denies `mcp.stdio` or `corpus.context`.
    """
    resolved = fs.resolve_root(root)
    if path is None:
        path = default_grant_path(read_policy(resolved).project_id)
    grant_path = Path(path)
    record = load_grant(grant_path, root=resolved)
    effective, denials = effective_capabilities(resolved, record, HARD_LIMITS)
    return {
        "ok": not denials,  # the CLI exits 1 when false
        "path": str(grant_path),
        "grant": record,
        "effective_capabilities": sorted(effective),
        "denials": [denial.as_dict() for denial in denials],
    }
