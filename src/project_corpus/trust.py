"""Trust grants: the external approval an MCP session needs (SPEC §11).

A grant is a small TOML file kept *outside* the project (by default
`$XDG_CONFIG_HOME/project-corpus/trust/<project_id>.toml`). It pins the project ID, the
resolved root and its `device:inode` identity, the SHA-256 of `policy.toml` as approved, and a
capability ceiling. Project content never grants anything: the effective capabilities are
the intersection of the runtime hard limits, the grant's ceiling, the policy's `allow` list
and the session subset, and a changed policy or root denies `mcp.stdio` and `corpus.context`.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import tomllib
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from project_corpus import fs
from project_corpus.errors import ContextError
from project_corpus.models import Policy
from project_corpus.policy import CAPABILITY_RE
from project_corpus.policy import ID_RE
from project_corpus.policy import MAX_POLICY_BYTES
from project_corpus.policy import POLICY_PATH
from project_corpus.policy import parse_policy

GRANT_VERSION = "1"
PROTOCOL_VERSION = "2.0"
TRANSPORTS = frozenset({"stdio-mcp"})
# The runtime hard limits: the MAINTAINER profile's set (policy.PROFILE_CAPABILITIES).
HARD_LIMITS = frozenset(
    {
        "corpus.read",
        "corpus.stat",
        "corpus.search",
        "corpus.timeline",
        "corpus.context",
        "corpus.validate",
        "migration.plan",
        "audit.read",
        "git.status",
        "git.diff",
        "state.update",
        "task.create",
        "report.create",
        "mcp.stdio",
        "migration.apply",
    }
)
# What a drifted policy or a changed root denies.
GATED = ("mcp.stdio", "corpus.context")
GRANT_KEYS = (
    "grant_version",
    "project_id",
    "physical_root",
    "root_identity",
    "policy_sha256",
    "capability_ceiling",
    "transports",
    "approved_at",
    "protocol_version",
)
MAX_GRANT_BYTES = 64 * 1024
_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
_IDENTITY_RE = re.compile(r"^[0-9]+:[0-9]+$")
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class Grant(NamedTuple):
    """A validated trust grant."""

    grant_version: str
    project_id: str
    physical_root: str
    root_identity: str
    policy_sha256: str
    capability_ceiling: tuple[str, ...]
    transports: tuple[str, ...]
    approved_at: str
    protocol_version: str

    def as_dict(self) -> dict[str, object]:
        """The grant as plain JSON-ready data (tuples become lists)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self._asdict().items()}


class Denial(NamedTuple):
    """Why capabilities that would otherwise be effective are not: a TRUST_* code."""

    code: str
    detail: str
    capabilities: tuple[str, ...]

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
        approved_at=datetime.now(UTC).strftime(_TIME_FORMAT),
        protocol_version=PROTOCOL_VERSION,
    )
    path = _grant_target(resolved, out, policy.project_id)
    _write_atomic(path, render_grant(record).encode("utf-8"))
    return {"ok": True, "path": str(path), "grant": record.as_dict()}


def default_grant_path(project_id: str) -> Path:
    """`$XDG_CONFIG_HOME/project-corpus/trust/<project_id>.toml` (XDG default `~/.config`)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):  # unset, empty or relative: ignored, as the XDG spec says
        try:
            base = str(Path.home() / ".config")
        except RuntimeError:
            raise ContextError("TRUST_PATH", "no home directory; pass a grant path") from None
    return Path(base) / "project-corpus" / "trust" / f"{project_id}.toml"


def root_identity(root: Path) -> str:
    """`<st_dev>:<st_ino>` of the root directory."""
    st = os.stat(root)
    return f"{st.st_dev}:{st.st_ino}"


def read_policy(root: Path) -> Policy:
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
            hint="fix policy.toml (run `context doctor`) before granting trust",
        )
    return policy


def _checked_capabilities(names: Iterable[str], what: str) -> tuple[str, ...]:
    unique = sorted(set(names))
    if not unique:
        raise ContextError("TRUST_CAPABILITY", f"at least one {what} is required")
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
            "TRUST_CAPABILITY", f"transports must be some of {sorted(TRANSPORTS)}, got {unique}"
        )
    return tuple(unique)


def _grant_target(root: Path, out: str | os.PathLike[str] | None, project_id: str) -> Path:
    path = Path(os.path.abspath(out)) if out is not None else default_grant_path(project_id)
    target = Path(os.path.realpath(path.parent)) / path.name
    if _inside(target, root):
        raise ContextError(
            "TRUST_PATH",
            f"{path}: a trust grant must live outside the project",
            hint="omit --out to use the default location under $XDG_CONFIG_HOME",
        )
    return target


def _inside(path: Path, root: Path) -> bool:
    return os.path.commonpath([str(path), str(root)]) == str(root)


# --- TOML ----------------------------------------------------------------------------------


def render_grant(record: Grant) -> str:
    """The grant as TOML, keys in protocol order (tomllib only reads, so we write by hand)."""
    lines = [f"{key} = {_toml_value(value)}" for key, value in record._asdict().items()]
    return (
        "# project-corpus trust grant (SPEC §11). Re-run `trust grant` to change it.\n"
        + "\n".join(lines)
        + "\n"
    )


def _toml_value(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_string(str(item)) for item in value) + "]"
    return _toml_string(str(value))


def _toml_string(text: str) -> str:
    """A TOML basic string: quote, backslash and every control character escaped."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ContextError("TRUST_PATH", f"{text!r} is not valid UTF-8; cannot record it") from None
    out = []
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _write_atomic(path: Path, data: bytes) -> None:
    """Write PATH via a 0600 temp file in the same directory, fsync and os.replace."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, staging = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise ContextError("TRUST_PATH", f"{path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), 0o600)
            os.fsync(handle.fileno())
        os.replace(staging, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(staging)
        raise ContextError("TRUST_PATH", f"{path}: {exc.strerror or exc}") from None
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- load ----------------------------------------------------------------------------------


def load_grant(
    path: str | os.PathLike[str], root: str | os.PathLike[str] | None = None
) -> dict[str, object]:
    """Read and strictly validate a grant file. With ROOT, a grant inside it is refused."""
    real = Path(os.path.realpath(os.path.abspath(path)))
    if root is not None and _inside(real, fs.resolve_root(root)):
        raise ContextError("TRUST_PATH", f"{path}: a grant inside the project is never trusted")
    return parse_grant(_decode_toml(_read_grant_file(real), str(path))).as_dict()


def _read_grant_file(path: Path) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        raise ContextError(
            "TRUST_MISSING",
            f"{path}: no trust grant",
            hint="create one with `project-corpus trust grant ROOT --capability ...`",
        ) from None
    except OSError as exc:
        raise ContextError("TRUST_PATH", f"{path}: {exc.strerror or exc}") from None
    try:
        _check_grant_file(path, os.fstat(fd))
        data = os.read(fd, MAX_GRANT_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_GRANT_BYTES:
        raise ContextError("TRUST_INVALID", f"{path}: larger than {MAX_GRANT_BYTES} bytes")
    return data


def _check_grant_file(path: Path, st: os.stat_result) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise ContextError("TRUST_PATH", f"{path}: not a regular file")
    if st.st_mode & stat.S_IWOTH:
        raise ContextError(
            "TRUST_PATH", f"{path}: writable by every user", hint="chmod 600 the grant file"
        )


def _decode_toml(data: bytes, label: str) -> dict[str, object]:
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ContextError("TRUST_INVALID", f"{label}: not UTF-8 at byte {exc.start}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContextError("TRUST_INVALID", f"{label}: {exc}") from None


def parse_grant(raw: Mapping[str, object]) -> Grant:
    """Validate grant data (exact keys, types, values); TRUST_INVALID names the first problem."""
    keys = set(raw)
    if keys != set(GRANT_KEYS):
        extra, missing = sorted(keys - set(GRANT_KEYS)), sorted(set(GRANT_KEYS) - keys)
        raise ContextError("TRUST_INVALID", f"unknown keys {extra}, missing keys {missing}")
    for key in GRANT_KEYS:
        if not _VALIDATORS[key](raw[key]):
            raise ContextError("TRUST_INVALID", f"`{key}` has an invalid value: {raw[key]!r}")
    record = Grant._make(tuple(v) if isinstance(v, list) else v for v in map(raw.get, GRANT_KEYS))
    outside = sorted(set(record.capability_ceiling) - HARD_LIMITS)
    if outside:
        raise ContextError(
            "TRUST_CAPABILITY",
            f"capability_ceiling names {outside}, outside the runtime hard limits",
        )
    return record


def _matches(pattern: re.Pattern[str]) -> Callable[[object], bool]:
    return lambda value: isinstance(value, str) and bool(pattern.match(value))


def _is_name_list(value: object) -> bool:
    if not isinstance(value, list) or not value:
        return False
    names = [v for v in value if isinstance(v, str) and CAPABILITY_RE.match(v)]
    return len(names) == len(value) == len(set(names))


def _is_transport_list(value: object) -> bool:
    return _is_name_list(value) and isinstance(value, list) and set(value) <= TRANSPORTS


def _is_utc_time(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return datetime.strptime(value, _TIME_FORMAT).strftime(_TIME_FORMAT) == value
    except ValueError:
        return False


_VALIDATORS: dict[str, Callable[[object], bool]] = {
    "grant_version": lambda v: v == GRANT_VERSION,
    "project_id": _matches(ID_RE),
    "physical_root": lambda v: isinstance(v, str) and os.path.isabs(v) and "\0" not in v,
    "root_identity": _matches(_IDENTITY_RE),
    "policy_sha256": _matches(_SHA256_RE),
    "capability_ceiling": _is_name_list,
    "transports": _is_transport_list,
    "approved_at": _is_utc_time,
    "protocol_version": lambda v: v == PROTOCOL_VERSION,
}


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


def _binding_denials(root: Path, record: Grant, policy: Policy) -> list[Denial]:
    if record.project_id != policy.project_id:
        return [
            Denial(
                "TRUST_PROJECT",
                f"the grant is for {record.project_id!r}, the project is {policy.project_id!r}",
                tuple(sorted(HARD_LIMITS)),
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
        layer = next(label for label, names in layers if name not in names)
        result.append(Denial("TRUST_DENIED", f"{name} is not in {layer}", (name,)))
    return result


def require(capability: str, effective: frozenset[str], denials: Iterable[Denial]) -> None:
    """Raise the first denial's code when CAPABILITY is not effective."""
    if capability in effective:
        return
    for denial in denials:
        if capability in denial.capabilities:
            hint = (
                "re-approve with `project-corpus trust grant`"
                if denial.code in ("TRUST_POLICY_DRIFT", "TRUST_ROOT_CHANGED")
                else None
            )
            raise ContextError(denial.code, denial.detail, hint=hint)
    raise ContextError("TRUST_DENIED", f"{capability} is not effective")


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
        "ok": not denials,
        "path": str(grant_path),
        "grant": record,
        "effective_capabilities": sorted(effective),
        "denials": [denial.as_dict() for denial in denials],
    }
