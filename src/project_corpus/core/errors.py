"""The one exception type, the table of every stable error code, the exit codes and the
error envelope.

`ERRORS` is the registry: every code the tool can put in an error envelope, with its
one-line meaning. `docs/errors.md` is generated from it and a test keeps the two in sync.
`EXIT_CODES` is the one table of exit codes (docs/cli.md); a test checks the table in
`docs/cli.md` against it. `envelope` builds the error object the CLI writes to stderr and the
MCP server returns as an error result.
"""

from __future__ import annotations

from project_corpus.core.about import LSP_INSTALL_HINT
from project_corpus.core.about import MCP_INSTALL_HINT
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
    # Memory review (docs/review.md)
    "REVIEW_NOT_GIT": "ROOT is not inside a git work tree (context review reads git objects).",
    "REVIEW_REVISION": "A revision is malformed or names no commit in the repository.",
    "REVIEW_NO_CORPUS": "The revision has no .project-corpus/ folder at ROOT's path.",
    "REVIEW_GIT": "git cannot be run, or failed while reading the repository's objects.",
    "BASELINE_INVALID": "The --baseline file is not a readable doctor JSON or SARIF report.",
    "OUTPUT_PATH": "The --output file cannot be written.",
    "USAGE_ERROR": "The command line is invalid.",
    "INIT_EXISTS": "init or new would overwrite a file or write through a link; nothing written.",
    # Import (docs/import.md)
    "IMPORT_NO_MEMORY": "import found no memory in a known layout and --include matched no file.",
    "IMPORT_WRITE": "import cannot write a corpus file: a link or a file is where a folder goes.",
    "IMPORT_VERBATIM": "import's verbatim check failed on a document (a bug); nothing was written.",
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
    "LSP_UNAVAILABLE": "The optional `lsp` extra (pygls) is not installed.",
}


ROOT_MARK = "{root}"  # where a hint names the project root: the ROOT the command was given
_DOCTOR = f"run `project-corpus context doctor {ROOT_MARK}` for the located finding"
_BUILD = f"`project-corpus context build {ROOT_MARK}`"
_POLICY = "fix .project-corpus/policy.toml"
_RECOMPILE = (
    f"a bundle is never edited: compile a new one with "
    f"`project-corpus context bundle {ROOT_MARK} QUERY`"
)
_GRANT = f"make a new grant with `project-corpus trust grant {ROOT_MARK} --capability ...`"


def _explained(code: str, first: str = _DOCTOR) -> str:
    return f"{first}; `project-corpus explain {code}` says how to fix it"


# The hint of every code when the raise site gives none (a test holds the keys equal to
# ERRORS'). ROOT_MARK is replaced by the ROOT the command was given (`render_hint`).
HINTS: dict[str, str] = {
    **{
        code: _explained(code)
        for code in (
            "MISSING_REQUIRED_PATH",
            "REQUIRED_PATH_LINK",
            "INVALID_ENCODING",
            "MISSING_METADATA",
            "INVALID_METADATA",
            "MISSING_SECTION",
            "DUPLICATE_SECTION",
            "SECTION_ORDER",
            "PROJECT_ID_MISMATCH",
            "ROLE_OVERLAP",
            "PROJECT_ABSOLUTE_ROOT",
            "GENERATED_VIEW_UNMARKED",
            "SOURCE_LINK",
            "SOURCE_PATH",
        )
    },
    # The doctor reports a source that is not UTF-8 as INVALID_ENCODING, at its first bad byte.
    "SOURCE_ENCODING": _explained("INVALID_ENCODING"),
    **{
        code: _explained(
            code, f"{_POLICY} (`project-corpus context doctor {ROOT_MARK}` shows the line)"
        )
        for code in (
            "POLICY_PARSE",
            "POLICY_UNKNOWN_KEY",
            "POLICY_SCHEMA",
            "POLICY_VERSION",
            "POLICY_PROJECT_ID",
            "POLICY_PROFILE",
            "POLICY_CAPABILITY",
            "POLICY_PROFILE_CAPABILITY",
            "POLICY_SCOPE",
            "POLICY_WRITE_REQUIREMENTS",
        )
    },
    "PROTOCOL_NONCONFORMANT": (
        f"run `project-corpus context doctor {ROOT_MARK}` for every finding with its line"
    ),
    "CONTEXT_ROOT": "pass the project folder: the one that holds AGENTS.md and .project-corpus/",
    "CONTEXT_SCOPE": f"{_POLICY}: add `.project-corpus/state/**` to `[scopes] read`",
    "CONTEXT_LIMIT": (
        "make what the detail names smaller (split a long document, move old ones out of the read "
        "scope)"
    ),
    "CONTEXT_PROJECT_ID": (
        "give .project-corpus/state/PROJECT.md a line `Project-ID: <id>` (3-64 characters a-z 0-9 "
        ". _ -)"
    ),
    "SOURCE_PERMISSION": "make it readable (e.g. `chmod u+rX`) or move it out of the read scope",
    "INDEX_PATH": (
        "omit --index to use .project-corpus/cache/context.sqlite3, or name another *.sqlite3 file "
        "there"
    ),
    "INDEX_MISSING": f"build it with {_BUILD}, or ask with --fresh (no index)",
    "INDEX_CORRUPT": f"rebuild it with {_BUILD} (the index is disposable)",
    "INDEX_SCHEMA_MISMATCH": f"rebuild it with {_BUILD}",
    "INDEX_PROJECT_MISMATCH": f"rebuild it with {_BUILD}",
    "INDEX_STALE": f"rebuild it with {_BUILD}, or ask with --fresh (no index)",
    "QUERY_EMPTY": "ask with at least one word, e.g. `what is the next action`",
    "QUERY_INVALID": (
        f"ask with a few words of valid text (at most {BOUNDS.query_bytes // 1024} KiB of UTF-8)"
    ),
    "QUERY_LIMIT": (
        f"pass --limit with a whole number from {BOUNDS.limit.low} to {BOUNDS.limit.high} "
        f"(default {BOUNDS.limit.default})"
    ),
    "BUDGET_INVALID": (
        f"pass --max-tokens with a whole number from {BOUNDS.max_tokens.low} to "
        f"{BOUNDS.max_tokens.high} (default {BOUNDS.max_tokens.default})"
    ),
    "BUNDLE_LIMIT": (
        "the mandatory summaries of PROJECT, STATUS and the active Task are too large: shorten them"
    ),
    "BUNDLE_HASH": _RECOMPILE,
    "BUNDLE_SIZE": _RECOMPILE,
    "CONSUMER_INVALID": "pass --consumer with 1 to 128 characters naming who received the bundle",
    "RECEIPT_ITEMS": (
        "pass --item with item_id values from the bundle's items, each once (or omit --item for "
        "all)"
    ),
    "CANDIDATE_SCHEMA": "see `project-corpus schema candidate`",
    "CANDIDATE_PROJECT": "set project_id to the corpus's Project-ID",
    "CANDIDATE_ID": "use 3-64 characters a-z 0-9 . _ - starting with a letter or digit",
    "CANDIDATE_KIND": (
        "use one of semantic_fact, episodic_evidence, procedural_knowledge, environment_gotcha, "
        "premise, resource_reference"
    ),
    "CANDIDATE_STATEMENT": "write the statement in 1 to 4,000 characters",
    "CANDIDATE_TIME": "write created_at as YYYY-MM-DDTHH:MM:SSZ in UTC",
    "CANDIDATE_EVIDENCE": (
        f"run `project-corpus context candidate-validate {ROOT_MARK}` for every problem with its "
        f"line"
    ),
    "EVAL_SCHEMA": "see `project-corpus schema eval-dataset`",
    "CONTEXT_INPUT_PATH": (
        "pass a regular file inside ROOT (relative to the current folder), at most 1 MiB"
    ),
    "CONTEXT_INPUT_JSON": "the file must be strict UTF-8 JSON (no comments, no trailing commas)",
    "CONFIG_INVALID": (
        "`project-corpus explain` lists the codes and names a rule may use; the keys are rules, "
        "ignore, volatile_terms, status_max_bytes, status_max_age_days, task_states"
    ),
    "OUTPUT_PATH": (
        "write the report to a writable file outside .project-corpus/, e.g. --output "
        "lint-report.txt"
    ),
    "USAGE_ERROR": "see `project-corpus --help`",
    "INIT_EXISTS": "init and new only create files: move those away, or pick another ROOT or ID",
    "IMPORT_NO_MEMORY": (
        "name the files with --include GLOB, or start an empty corpus with `project-corpus init`"
    ),
    "IMPORT_WRITE": "replace the link or file in .project-corpus/ with a real folder, then rerun",
    "IMPORT_VERBATIM": "this is a bug in import; rerun with --dry-run and report it",
    "INTERNAL_ERROR": "this is a bug; rerun with --debug and report it",
    "TRUST_PATH": (
        "pass a grant file outside the project (or omit it to use the default under "
        "$XDG_CONFIG_HOME)"
    ),
    "TRUST_MISSING": f"create one with `project-corpus trust grant {ROOT_MARK} --capability ...`",
    "TRUST_INVALID": _GRANT,
    "TRUST_CAPABILITY": "pass capabilities the runtime knows, e.g. --capability corpus.context",
    "TRUST_PROJECT": _GRANT,
    "TRUST_POLICY_DRIFT": f"review the policy change, then {_GRANT}",
    "TRUST_ROOT_CHANGED": _GRANT,
    "TRUST_DENIED": f"`project-corpus trust show {ROOT_MARK}` lists what is effective and why",
    "MCP_UNAVAILABLE": MCP_INSTALL_HINT,
    "MCP_ARGUMENTS": "call the tool with exactly the keys of its input schema",
    "LSP_UNAVAILABLE": LSP_INSTALL_HINT,
    "REVIEW_NOT_GIT": "run it inside a git clone of the project (`git rev-parse --show-toplevel`)",
    "REVIEW_REVISION": (
        "name a commit, branch or tag the clone has (`git log --oneline`); a shallow clone "
        "needs `git fetch --deepen` or `fetch-depth: 0` for older commits"
    ),
    "REVIEW_NO_CORPUS": (
        "the base predates the corpus: review from the commit that added .project-corpus/"
    ),
    "REVIEW_GIT": "check that `git` runs here and the repository is not damaged (`git fsck`)",
    "BASELINE_INVALID": (
        f"pass a report written by `project-corpus context doctor {ROOT_MARK} --format json` "
        "(or sarif)"
    ),
}


class ContextError(Exception):
    """A stable, user-facing failure: a code from `ERRORS`, a detail and a hint (the code's
    `HINTS` entry unless the raise site gives a more precise one). A hint may name the
    project root as `ROOT_MARK`; `envelope(root)` writes the ROOT the command was given."""

    def __init__(self, code: str, detail: str = "", hint: str | None = None) -> None:
        if code not in ERRORS:
            raise ValueError(f"unregistered error code {code!r}")
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.hint = hint if hint is not None else HINTS.get(code)

    def envelope(self, root: str | None = None) -> dict[str, object]:
        return envelope(self.code, self.detail, render_hint(self.hint, root))


def render_hint(hint: str | None, root: str | None) -> str | None:
    """HINT with `ROOT_MARK` replaced by ROOT (shell-quoted; `ROOT` when unknown)."""
    if hint is None or ROOT_MARK not in hint:
        return hint
    from shlex import quote

    return hint.replace(ROOT_MARK, quote(root) if root else "ROOT")


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
