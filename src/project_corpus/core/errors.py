"""The one exception type, the table of every stable error code, the exit codes and the
error envelope.

`ERRORS` is the registry: every code the tool can put in an error envelope, with its
one-line meaning. `docs/errors.md` is generated from it and a test keeps the two in sync.
`EXIT_CODES` is the one table of exit codes (docs/cli.md); a test checks the table in
`docs/cli.md` against it. `envelope` builds the error object the CLI writes to stderr and the
MCP server returns as an error result.
"""

from __future__ import annotations

from project_corpus.core.bounds import BOUNDS
from project_corpus.core.versions import PROTOCOL_VERSION

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2
EXIT_INTERNAL = 3
# exit code -> how docs/cli.md's "Exit codes" table starts its meaning.
EXIT_CODES: dict[int, str] = {
    EXIT_OK: "success",
    EXIT_FINDINGS: "the command ran and found problems",
    EXIT_ERROR: "a stable error",
    EXIT_INTERNAL: "an internal error (a bug)",
}

ERRORS: dict[str, str] = {
    # Protocol conformance (docs/protocol.md); doctor reports these as findings.
    "PROTOCOL_NONCONFORMANT": "The corpus does not conform to Protocol V2; detail lists the codes.",
    "MISSING_REQUIRED_PATH": "A file or folder that Protocol V2 requires is missing.",
    "REQUIRED_PATH_LINK": (
        "A required path is a symbolic link or a special file instead of a real file or folder."
    ),
    "INVALID_ENCODING": "A scoped source is not strict UTF-8.",
    "MISSING_METADATA": "A required metadata key is missing from PROJECT or STATUS.",
    "INVALID_METADATA": "A metadata value is invalid, duplicated or outside its enumeration.",
    "MISSING_SECTION": "A required H2 section is missing from PROJECT or STATUS.",
    "DUPLICATE_SECTION": "A required H2 section occurs more than once in PROJECT or STATUS.",
    "SECTION_ORDER": "The required sections of PROJECT or STATUS are not in the protocol order.",
    "PROJECT_ID_MISMATCH": (
        "Project IDs differ between PROJECT, STATUS, the policy or a Task/Report."
    ),
    "ROLE_OVERLAP": "PROJECT holds a STATUS section, or STATUS holds a PROJECT section.",
    "PROJECT_ABSOLUTE_ROOT": "PROJECT pins an absolute machine path as the project root.",
    "GENERATED_VIEW_UNMARKED": (
        "A generated view lacks the NON_AUTHORITATIVE_VIEW marker in its first 512 characters."
    ),
    # Policy (docs/protocol.md)
    "POLICY_PARSE": "policy.toml is not UTF-8, not valid TOML, or cannot be read.",
    "POLICY_UNKNOWN_KEY": "policy.toml has a key or table the protocol does not define.",
    "POLICY_SCHEMA": "policy.toml misses a key or table, has a wrong type or duplicate entries.",
    "POLICY_VERSION": f'policy_version is not "{PROTOCOL_VERSION}".',
    "POLICY_PROJECT_ID": "The policy project_id is not a valid project ID.",
    "POLICY_PROFILE": "The policy profile is not READ_ONLY, SAFE_EDIT or MAINTAINER.",
    "POLICY_CAPABILITY": "A capability name in [capabilities] allow is malformed.",
    "POLICY_PROFILE_CAPABILITY": (
        "A capability in [capabilities] allow is outside the profile's capability set."
    ),
    "POLICY_SCOPE": (
        "A scope pattern is empty, untrimmed, absolute or has a `\\`, `:`, `.` or `..` part."
    ),
    "POLICY_WRITE_REQUIREMENTS": "Write scopes are set but not all three [requirements] are true.",
    # Snapshot (docs/protocol.md)
    "CONTEXT_ROOT": "ROOT is not an existing directory.",
    "CONTEXT_SCOPE": "PROJECT.md or STATUS.md is not inside the policy's read scope.",
    "CONTEXT_LIMIT": "A size or count limit was exceeded; detail names the limit.",
    "CONTEXT_PROJECT_ID": "PROJECT.md has no valid Project-ID.",
    "SOURCE_LINK": (
        "A would-be source in the read scope is a symbolic link, a hard link or a special file."
    ),
    "SOURCE_ENCODING": "A source is not strict UTF-8.",
    "SOURCE_PATH": (
        "A source path is not portable: not UTF-8, a device name, or a case or Unicode collision."
    ),
    "SOURCE_PERMISSION": "A scoped folder or file cannot be read (permission denied).",
    # Index (docs/architecture.md)
    "INDEX_PATH": "The --index path is not a .sqlite3 file directly inside .project-corpus/cache/.",
    "INDEX_MISSING": "The index file given with --index does not exist.",
    "INDEX_CORRUPT": "The index is not a readable SQLite database with the expected tables.",
    "INDEX_SCHEMA_MISMATCH": "The index was written with another index schema version.",
    "INDEX_PROJECT_MISMATCH": "The index stores another project ID than PROJECT's.",
    "INDEX_STALE": "A scoped source was added, removed or changed since the index was built.",
    # Retrieval and bundles (docs/retrieval.md, docs/bundle.md)
    "QUERY_EMPTY": "The query has no word character.",
    "QUERY_INVALID": "The query is not valid Unicode text or is longer than "
    f"{BOUNDS.query_bytes // 1024} KiB of UTF-8.",
    "QUERY_LIMIT": "The result limit (--limit) must be an integer "
    f"from {BOUNDS.limit.low} to {BOUNDS.limit.high}.",
    "BUDGET_INVALID": f"max_tokens must be an integer from {BOUNDS.max_tokens.low} to "
    f"{BOUNDS.max_tokens.high:,}.",
    "BUNDLE_LIMIT": "Even the mandatory summaries do not fit the "
    f"{BOUNDS.envelope_bytes:,}-byte envelope.",
    "BUNDLE_HASH": (
        "The bundle's bundle_sha256 does not verify: it was edited, truncated or is not a bundle."
    ),
    "BUNDLE_SIZE": "The bundle's serialized_bytes does not match or exceeds the envelope bound.",
    "CONSUMER_INVALID": "The consumer ID must be 1 to 128 characters, not blank.",
    "RECEIPT_ITEMS": "Delivered item IDs must be unique IDs of the bundle's items.",
    # Candidates (docs/doctor.md)
    "CANDIDATE_SCHEMA": (
        "A candidate is not an object, misses or adds a key, or has a wrong schema_version/status."
    ),
    "CANDIDATE_PROJECT": "A candidate's project_id is not the corpus's project ID.",
    "CANDIDATE_ID": "A candidate_id does not match the ID grammar ^[a-z0-9][a-z0-9._-]{2,63}$.",
    "CANDIDATE_KIND": "A candidate kind is not one of the six Candidate v1 kinds.",
    "CANDIDATE_STATEMENT": (
        "A candidate statement is not a string of 1 to 4,000 characters, or is blank."
    ),
    "CANDIDATE_TIME": "A candidate created_at is not a real UTC time written YYYY-MM-DDTHH:MM:SSZ.",
    "CANDIDATE_EVIDENCE": (
        "A candidate's source ref does not match a scoped source, its hash or its lines."
    ),
    # Evaluation (docs/eval.md)
    "EVAL_SCHEMA": "The evaluation dataset has a wrong type, unknown key or too many cases.",
    # Inputs, configuration, CLI (docs/doctor.md, docs/cli.md)
    "CONTEXT_INPUT_PATH": "A JSON input is not a regular, unlinked file inside ROOT, <= 1 MiB.",
    "CONTEXT_INPUT_JSON": "A JSON input is not strict UTF-8 JSON.",
    "CONFIG_INVALID": "The lint configuration is invalid.",
    "OUTPUT_PATH": "The --output file cannot be written.",
    "USAGE_ERROR": "The command line is invalid.",
    "INIT_EXISTS": "init or new would overwrite a file or write through a link; nothing written.",
    "INTERNAL_ERROR": "An unexpected internal error (a bug); please report it.",
    # Trust grants and MCP (docs/mcp.md)
    "TRUST_PATH": "The trust grant path is inside the project or otherwise unusable.",
    "TRUST_MISSING": "The trust grant file does not exist.",
    "TRUST_INVALID": "The trust grant file is malformed.",
    "TRUST_CAPABILITY": "A capability is outside the runtime hard limits.",
    "TRUST_PROJECT": "The trust grant names another project.",
    "TRUST_POLICY_DRIFT": "policy.toml changed since the trust grant was made.",
    "TRUST_ROOT_CHANGED": "The project root is not the directory the grant was made for.",
    "TRUST_DENIED": "A capability needed by this call is not effective.",
    "MCP_UNAVAILABLE": "The optional `mcp` extra is not installed.",
    "MCP_ARGUMENTS": "MCP tool arguments have an unknown or missing key or a wrong JSON type.",
}


class ContextError(Exception):
    """A stable, user-facing failure: a code from `ERRORS`, a detail and an optional hint."""

    def __init__(self, code: str, detail: str = "", hint: str | None = None) -> None:
        if code not in ERRORS:
            raise ValueError(f"unregistered error code {code!r}")
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.hint = hint

    def envelope(self) -> dict[str, object]:
        return envelope(self.code, self.detail, self.hint)


def envelope(code: str, detail: str, hint: str | None) -> dict[str, object]:
    """The error envelope (`project-corpus schema error`): stderr of the CLI, MCP error results."""
    return {"ok": False, "error": code, "detail": detail, "hint": hint}


def exit_code(code: str) -> int:
    """The exit code of a command that stops with error CODE."""
    return EXIT_INTERNAL if code == "INTERNAL_ERROR" else EXIT_ERROR


def internal_error(exc: BaseException, hint: str) -> dict[str, object]:
    """The envelope of an unexpected exception (a bug)."""
    return envelope("INTERNAL_ERROR", f"{type(exc).__name__}: {exc}", hint)


def printable(text: str) -> str:
    """TEXT with anything that cannot be written as UTF-8 (lone surrogates) escaped."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
