"""Canonical JSON, digests and the rules for JSON input files (SPEC §4, §10)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from project_corpus.corpus import fs
from project_corpus.errors import ContextError

MAX_INPUT_BYTES = 1024 * 1024


def canonical_bytes(value: object) -> bytes:
    """Canonical JSON: sorted keys, no spaces, UTF-8, NaN refused (SPEC §4)."""
    text = json.dumps(
        value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
    )
    return text.encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical_sha256(value: object) -> str:
    return sha256_hex(canonical_bytes(value))


def pretty(value: object) -> str:
    """The CLI's JSON: sorted keys, indent 2, UTF-8 unescaped, trailing newline."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=2, allow_nan=False) + "\n"


def _reject_constant(name: str) -> object:
    raise ValueError(f"non-standard JSON constant {name}")


def parse_json_bytes(data: bytes, label: str) -> object:
    """Strict UTF-8 JSON (a BOM is refused, NaN/Infinity are refused)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContextError(
            "CONTEXT_INPUT_JSON", f"{label}: not UTF-8 at byte {exc.start}"
        ) from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        raise ContextError("CONTEXT_INPUT_JSON", f"{label}: {exc}") from None


def load_json_input(root: Path, user_path: str) -> tuple[str, object]:
    """Read a JSON input file confined to ROOT; returns (portable path, value)."""
    portable = fs.portable_input_path(root, user_path)
    data = fs.read_relative(root, portable, MAX_INPUT_BYTES, code="CONTEXT_INPUT_PATH")
    return portable, parse_json_bytes(data, portable)
