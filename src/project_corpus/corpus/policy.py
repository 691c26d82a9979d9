"""`policy.toml` parsing, validation and scope matching (docs/protocol.md). Pure functions."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Callable
from collections.abc import Iterable

from project_corpus.core.digest import sha256_hex
from project_corpus.core.records import Finding
from project_corpus.core.records import Policy
from project_corpus.core.versions import PROTOCOL_VERSION
from project_corpus.corpus.layout import POLICY_PATH
from project_corpus.corpus.vocabulary import PROFILE_ORDER

ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{2,63}\Z")
CAPABILITY_RE = re.compile(r"^[a-z][a-z0-9_.-]*\Z")

BASE_CAPABILITIES = frozenset(
    "corpus.read corpus.stat corpus.search corpus.timeline corpus.context corpus.validate "
    "migration.plan audit.read git.status git.diff".split()
)
SAFE_EDIT_EXTRA = frozenset(["state.update", "task.create", "report.create", "mcp.stdio"])
PROFILE_CAPABILITIES = dict(
    zip(
        PROFILE_ORDER,
        (
            BASE_CAPABILITIES,
            BASE_CAPABILITIES | SAFE_EDIT_EXTRA,
            BASE_CAPABILITIES | SAFE_EDIT_EXTRA | {"migration.apply"},
        ),
        strict=True,
    )
)
TOP_LEVEL = ("policy_version", "project_id", "profile", "capabilities", "scopes", "requirements")
TABLE_KEYS = {
    "capabilities": ("allow",),
    "scopes": ("read", "write"),
    "requirements": ("expected_hash", "verified_readback", "audit_receipt"),
}

EMPTY_POLICY = Policy("", "", "", (), (), (), {}, "", {})


def in_scope(path: str, scopes: Iterable[str]) -> bool:
    """True when PATH matches a read scope: `prefix/**` is a literal prefix test, any other
    scope a case-sensitive fnmatch pattern in which `*` also crosses `/`."""
    for scope in scopes:
        if scope.endswith("/**"):
            if path.startswith(scope[:-2]):
                return True
        elif fnmatch.fnmatchcase(path, scope):
            return True
    return False


def may_hold(folder: str, scopes: Iterable[str]) -> bool:
    """True when some path below FOLDER could match a read scope (conservatively: the
    scope's literal prefix, up to its first wildcard, agrees with FOLDER)."""
    inside = folder + "/"
    for scope in scopes:
        wildcard = next((i for i, char in enumerate(scope) if char in "*?["), len(scope))
        literal = scope[:wildcard]
        if scope.endswith("/**") and "*" not in scope[:-3]:
            literal = scope[:-2]
        if inside.startswith(literal) or literal.startswith(inside):
            return True
    return False


def scope_problem(scope: str) -> str | None:
    """Why a scope pattern is unusable, or None."""
    if not scope or scope != scope.strip():
        return "empty or untrimmed"
    if "\\" in scope or ":" in scope:
        return "contains `\\` or `:`"
    if scope.startswith("/"):
        return "absolute"
    if any(part in ("", ".", "..") for part in scope.split("/")):
        return "empty, `.` or `..` component"
    return None


def policy_line(policy: Policy, key: str) -> int:
    """The line of KEY in the policy text a Policy was parsed from (1 when unknown)."""
    return policy.lines.get(key, 1)


# A line that opens a table `[name]` or sets `name = ...` with a bare key: the same lines
# `_key_pattern(name)` finds for such a name (its run of key characters is the whole name).
BARE_KEY_RE = re.compile(r"[A-Za-z0-9_-]+")
BARE_KEY_LINE_RE = re.compile(r"\s*+(?:\[\s*+([A-Za-z0-9_-]++)\s*+\]|([A-Za-z0-9_-]++)\s*+=)")


def _line_of(text: str, key: str) -> int:
    """The first line of TEXT that opens table KEY or sets KEY (1 when none)."""
    if BARE_KEY_RE.fullmatch(key):
        return _bare_key_lines(text).get(key, 1)
    pattern = _key_pattern(key)
    for number, line in enumerate(text.split("\n"), start=1):
        if pattern.match(line):
            return number
    return 1


def _key_pattern(key: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*(\[\s*{re.escape(key)}\s*\]|{re.escape(key)}\s*=)")


def _bare_key_lines(text: str) -> dict[str, int]:
    """{bare key or table name: the first line opening or setting it}: one scan of TEXT
    instead of a regular expression compiled per key (six of them for every policy)."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        match = BARE_KEY_LINE_RE.match(line)
        if match:
            found.setdefault(match.group(1) or match.group(2), number)
    return found


def parse_policy(data: bytes) -> tuple[Policy, list[Finding]]:
    """Parse and validate policy.toml bytes; fields are best effort when findings exist."""
    digest = sha256_hex(data)
    loaded = _load(data)
    if isinstance(loaded, Finding):
        return EMPTY_POLICY._replace(sha256=digest), [loaded]
    text, raw = loaded
    findings: list[Finding] = []
    _check_keys(raw, text, findings)
    version = _field(
        raw, "policy_version", "POLICY_VERSION", PROTOCOL_VERSION.__eq__, text, findings
    )
    project_id = _field(raw, "project_id", "POLICY_PROJECT_ID", _valid_id, text, findings)
    profile = _field(
        raw, "profile", "POLICY_PROFILE", PROFILE_CAPABILITIES.__contains__, text, findings
    )
    allow = _string_list(raw, "capabilities", "allow", text, findings)
    _check_capabilities(allow, profile, text, findings)
    read = _string_list(raw, "scopes", "read", text, findings)
    write = _string_list(raw, "scopes", "write", text, findings)
    _check_scopes(read, write, text, findings)
    requirements = _requirements(raw, text, findings)
    _check_write_requirements(write, requirements, text, findings)
    lines = {
        key: _line_of(text, key) for key in ("project_id", "profile", "allow", "read", "write")
    }
    policy = Policy(
        policy_version=version or "",
        project_id=project_id or "",
        profile=profile or "",
        allow=tuple(allow),
        read=tuple(read),
        write=tuple(write),
        requirements=requirements,
        sha256=digest,
        lines=lines,
    )
    return policy, findings


def _load(data: bytes) -> tuple[str, dict[str, object]] | Finding:
    """The policy's text and TOML table, or the POLICY_PARSE finding that stops parsing."""
    try:
        text = data.decode("utf-8")
        return text, tomllib.loads(text)
    except UnicodeDecodeError as exc:
        return _f("POLICY_PARSE", 1, f"not UTF-8 at byte {exc.start}")
    except tomllib.TOMLDecodeError as exc:
        return _f("POLICY_PARSE", _toml_error_line(str(exc)), str(exc))
    except RecursionError:  # tomllib recurses once per nested table or array
        return _f("POLICY_PARSE", 1, "tables or arrays nested too deeply")


def _valid_id(value: str) -> bool:
    return ID_RE.match(value) is not None


def _field(
    raw: dict[str, object],
    key: str,
    code: str,
    valid: Callable[[str], bool],
    text: str,
    findings: list[Finding],
) -> str | None:
    """A top-level string field; CODE reported (with the value) when VALID rejects it."""
    value = _string(raw, key, text, findings)
    if value is not None and not valid(value):
        findings.append(_f(code, _line_of(text, key), value))
    return value


def _check_scopes(read: list[str], write: list[str], text: str, findings: list[Finding]) -> None:
    for scope in (*read, *write):
        problem = scope_problem(scope)
        if problem:
            line = _line_of(text, "read" if scope in read else "write")
            findings.append(_f("POLICY_SCOPE", line, f"{scope!r}: {problem}"))


def _check_write_requirements(
    write: list[str], requirements: dict[str, bool], text: str, findings: list[Finding]
) -> None:
    if write and not all(requirements.get(k) is True for k in TABLE_KEYS["requirements"]):
        findings.append(
            _f(
                "POLICY_WRITE_REQUIREMENTS",
                _line_of(text, "requirements"),
                "write scopes need expected_hash, verified_readback and audit_receipt",
            )
        )


def _toml_error_line(message: str) -> int:
    """The line a TOML error names in its message ("... (at line 23, column 13)"), else 1."""
    match = re.search(r"\(at line (\d+), column \d+\)$", message)  # compiled when needed
    return int(match.group(1)) if match else 1


def _f(code: str, line: int, detail: str) -> Finding:
    return Finding(code, POLICY_PATH, line, detail, anchor=f"{code}:{detail}")


def _check_keys(raw: dict[str, object], text: str, findings: list[Finding]) -> None:
    for key in sorted(set(raw) - set(TOP_LEVEL)):
        findings.append(_f("POLICY_UNKNOWN_KEY", _line_of(text, key), key))
    for key in TOP_LEVEL:
        if key not in raw:
            findings.append(_f("POLICY_SCHEMA", 1, f"missing `{key}`"))
    for table, keys in TABLE_KEYS.items():
        value = raw.get(table)
        if table in raw and not isinstance(value, dict):
            findings.append(
                _f("POLICY_SCHEMA", _line_of(text, table), f"`{table}` must be a table")
            )
        elif isinstance(value, dict):
            for key in sorted(set(value) - set(keys)):
                findings.append(_f("POLICY_UNKNOWN_KEY", _line_of(text, key), f"{table}.{key}"))
            for key in keys:
                if key not in value:
                    findings.append(
                        _f("POLICY_SCHEMA", _line_of(text, table), f"missing `{table}.{key}`")
                    )


def _string(raw: dict[str, object], key: str, text: str, findings: list[Finding]) -> str | None:
    value = raw.get(key)
    if key in raw and not isinstance(value, str):
        findings.append(_f("POLICY_SCHEMA", _line_of(text, key), f"`{key}` must be a string"))
        return None
    return value if isinstance(value, str) else None


def _string_list(
    raw: dict[str, object], table: str, key: str, text: str, findings: list[Finding]
) -> list[str]:
    section = raw.get(table)
    if not isinstance(section, dict) or key not in section:
        return []
    value = section[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        findings.append(
            _f("POLICY_SCHEMA", _line_of(text, key), f"`{table}.{key}` must be a list of strings")
        )
        return []
    if len(set(value)) != len(value):
        findings.append(_f("POLICY_SCHEMA", _line_of(text, key), f"`{table}.{key}` has duplicates"))
    return list(value)


def _check_capabilities(
    allow: list[str], profile: str | None, text: str, findings: list[Finding]
) -> None:
    line = _line_of(text, "allow")
    allowed = PROFILE_CAPABILITIES.get(profile or "")
    for name in allow:
        if not CAPABILITY_RE.match(name):
            findings.append(_f("POLICY_CAPABILITY", line, name))
        elif allowed is not None and name not in allowed:
            findings.append(_f("POLICY_PROFILE_CAPABILITY", line, f"{name} not in {profile}"))


def _requirements(raw: dict[str, object], text: str, findings: list[Finding]) -> dict[str, bool]:
    section = raw.get("requirements")
    result: dict[str, bool] = {}
    if not isinstance(section, dict):
        return result
    for key in TABLE_KEYS["requirements"]:
        if key not in section:
            continue
        value = section[key]
        if isinstance(value, bool):
            result[key] = value
        else:
            findings.append(
                _f("POLICY_SCHEMA", _line_of(text, key), f"`requirements.{key}` must be a boolean")
            )
    return result
