"""The trust grant record (docs/mcp.md): its TOML form, atomic writing and strict loading.

`trust.py` decides what a grant allows; this module only knows what a grant file is.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import tomllib
from collections.abc import Callable
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from project_corpus.core.errors import ContextError
from project_corpus.core.limits import MAX_GRANT_BYTES
from project_corpus.core.records import SHA256_RE
from project_corpus.core.versions import GRANT_VERSION
from project_corpus.core.versions import PROTOCOL_VERSION
from project_corpus.corpus import fs
from project_corpus.corpus.policy import CAPABILITY_RE
from project_corpus.corpus.policy import ID_RE
from project_corpus.corpus.policy import PROFILE_CAPABILITIES
from project_corpus.corpus.vocabulary import PROFILE_ORDER

TRANSPORTS = frozenset({"stdio-mcp"})
# The runtime hard limits: what this runtime can do at all (the MAINTAINER profile's set).
HARD_LIMITS = PROFILE_CAPABILITIES[PROFILE_ORDER[-1]]
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
REMAKE = "recreate it with `project-corpus trust grant {root} --capability ...`"
WRITABLE = "make the grant's folder writable, or pass another path with --out"
_IDENTITY_RE = re.compile(r"^[0-9]+:[0-9]+\Z")
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


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


def inside(path: Path, root: str) -> bool:
    return os.path.commonpath([str(path), root]) == root


# --- TOML ----------------------------------------------------------------------------------


def render_grant(record: Grant) -> str:
    """The grant as TOML, keys in protocol order (tomllib only reads, so we write by hand)."""
    lines = [f"{key} = {_toml_value(value)}" for key, value in record._asdict().items()]
    return (
        "# project-corpus trust grant (docs/mcp.md). Re-run `trust grant` to change it.\n"
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
        raise ContextError(
            "TRUST_PATH",
            f"{text!r} is not valid UTF-8; cannot record it",
            hint="move the project to a path that is valid UTF-8",
        ) from None
    out = []
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def write_atomic(path: Path, data: bytes) -> None:
    """Write PATH via a 0600 temp file in the same directory, fsync and os.replace."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, staging = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise ContextError("TRUST_PATH", f"{path}: {exc.strerror or exc}", hint=WRITABLE) from None
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
        raise ContextError("TRUST_PATH", f"{path}: {exc.strerror or exc}", hint=WRITABLE) from None
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
    if root is not None and inside(real, fs.resolve_root(root)):
        raise ContextError(
            "TRUST_PATH",
            f"{path}: a grant inside the project is never trusted",
            hint="make one outside it with `project-corpus trust grant {root} --capability ...`",
        )
    return parse_grant(_decode_toml(_read_grant_file(real), str(path))).as_dict()


def _read_grant_file(path: Path) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        raise ContextError(
            "TRUST_MISSING",
            f"{path}: no trust grant",
            hint="create one with `project-corpus trust grant {root} --capability ...`",
        ) from None
    except OSError as exc:
        raise ContextError(
            "TRUST_PATH", f"{path}: {exc.strerror or exc}", hint="pass a readable grant file"
        ) from None
    try:
        _check_grant_file(path, os.fstat(fd))
        data = os.read(fd, MAX_GRANT_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_GRANT_BYTES:
        raise ContextError(
            "TRUST_INVALID", f"{path}: larger than {MAX_GRANT_BYTES} bytes", hint=REMAKE
        )
    return data


def _check_grant_file(path: Path, st: os.stat_result) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise ContextError(
            "TRUST_PATH", f"{path}: not a regular file", hint="pass the grant file itself"
        )
    # As ssh refuses a key that anyone but its owner could change (#26): a grant writable by
    # a group could have its capabilities widened by any member.
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        who = "every user" if st.st_mode & stat.S_IWOTH else "its group"
        raise ContextError(
            "TRUST_PATH",
            f"{path}: writable by {who} (mode {stat.S_IMODE(st.st_mode):04o}); never trusted",
            hint=f"chmod 600 {path}",
        )


def _decode_toml(data: bytes, label: str) -> dict[str, object]:
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ContextError(
            "TRUST_INVALID", f"{label}: not UTF-8 at byte {exc.start}", hint=REMAKE
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ContextError("TRUST_INVALID", f"{label}: {exc}", hint=REMAKE) from None
    except RecursionError:  # tomllib recurses once per nested table or array
        raise ContextError(
            "TRUST_INVALID", f"{label}: tables or arrays nested too deeply", hint=REMAKE
        ) from None


def parse_grant(raw: Mapping[str, object]) -> Grant:
    """Validate grant data (exact keys, types, values); TRUST_INVALID names the first problem."""
    keys = set(raw)
    if keys != set(GRANT_KEYS):
        extra, missing = sorted(keys - set(GRANT_KEYS)), sorted(set(GRANT_KEYS) - keys)
        raise ContextError(
            "TRUST_INVALID", f"unknown keys {extra}, missing keys {missing}", hint=REMAKE
        )
    for key in GRANT_KEYS:
        if not _VALIDATORS[key](raw[key]):
            raise ContextError(
                "TRUST_INVALID", f"`{key}` has an invalid value: {raw[key]!r}", hint=REMAKE
            )
    record = Grant._make(tuple(v) if isinstance(v, list) else v for v in map(raw.get, GRANT_KEYS))
    outside = sorted(set(record.capability_ceiling) - HARD_LIMITS)
    if outside:
        raise ContextError(
            "TRUST_CAPABILITY",
            f"capability_ceiling names {outside}, outside the runtime hard limits",
            hint=REMAKE,
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
        return datetime.strptime(value, TIME_FORMAT).strftime(TIME_FORMAT) == value
    except ValueError:
        return False


_VALIDATORS: dict[str, Callable[[object], bool]] = {
    "grant_version": lambda v: v == GRANT_VERSION,
    "project_id": _matches(ID_RE),
    "physical_root": lambda v: isinstance(v, str) and os.path.isabs(v) and "\0" not in v,
    "root_identity": _matches(_IDENTITY_RE),
    "policy_sha256": _matches(SHA256_RE),
    "capability_ceiling": _is_name_list,
    "transports": _is_transport_list,
    "approved_at": _is_utc_time,
    "protocol_version": lambda v: v == PROTOCOL_VERSION,
}
