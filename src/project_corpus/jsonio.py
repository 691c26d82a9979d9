"""Canonical JSON, digests and the rules for JSON input files (SPEC §4, §10)."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from json.encoder import encode_basestring
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
    return indented(value) + "\n"


def indented(value: object, *, sort_keys: bool = True, allow_nan: bool = False) -> str:
    """`json.dumps(VALUE, ensure_ascii=False, indent=2, ...)`, byte for byte, made faster.

    With an indent the standard library encodes in pure Python (about 3× the compact time
    on an 11,000-finding report); here every container of scalars, such as one finding, is
    encoded by the C encoder with separators that carry its indentation.
    """
    return _indented(value, "", (sort_keys, allow_nan))


_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})


@lru_cache(maxsize=64)
def _flat_encoder(pad: str, options: tuple[bool, bool]) -> json.JSONEncoder:
    """The C encoder of a container of scalars whose items sit at the indentation PAD."""
    sort_keys, allow_nan = options
    return json.JSONEncoder(
        ensure_ascii=False,
        sort_keys=sort_keys,
        allow_nan=allow_nan,
        separators=(",\n" + pad, ": "),
    )


def _indented(value: object, pad: str, options: tuple[bool, bool]) -> str:
    """VALUE as it appears at the indentation PAD (its first line not indented)."""
    inner = pad + "  "
    if isinstance(value, dict) and value and all(type(k) is str for k in value):
        if all(type(v) in _SCALAR_TYPES for v in value.values()):
            body = _flat_encoder(inner, options).encode(value)[1:-1]
        else:
            pairs = sorted(value.items()) if options[0] else value.items()
            body = (",\n" + inner).join(
                f"{encode_basestring(k)}: {_indented(v, inner, options)}" for k, v in pairs
            )
        return "{\n" + inner + body + "\n" + pad + "}"
    if isinstance(value, (list, tuple)) and value:
        if all(type(v) in _SCALAR_TYPES for v in value):
            body = _flat_encoder(inner, options).encode(value)[1:-1]
        elif all(_is_flat_dict(v) for v in value):
            body = _flat_dicts(value, inner, options)
        else:
            body = (",\n" + inner).join(_indented(v, inner, options) for v in value)
        return "[\n" + inner + body + "\n" + pad + "]"
    # Scalars, empty containers, non-string keys, other types: the standard encoder. A JSON
    # text has no raw newline inside a string, so indenting its lines by PAD is exact.
    text = json.dumps(
        value, ensure_ascii=False, sort_keys=options[0], indent=2, allow_nan=options[1]
    )
    return text.replace("\n", "\n" + pad) if pad else text


def _is_flat_dict(value: object) -> bool:
    """A non-empty dict of string keys and scalar values (one finding, one result)."""
    return (
        type(value) is dict
        and bool(value)
        and all(type(k) is str for k in value)
        and all(type(v) in _SCALAR_TYPES for v in value.values())
    )


def _flat_dicts(
    values: list[object] | tuple[object, ...], pad: str, options: tuple[bool, bool]
) -> str:
    """The items of a list of flat dicts that sit at PAD, in one C encoder call: its item
    separator indents the dicts' items, and the separators between the dicts (the only
    `},\n` followed by `{`, as no JSON string holds a raw newline) are then re-indented."""
    inner = pad + "  "
    text = _flat_encoder(inner, options).encode(values)[2:-2]
    between = "\n" + pad + "},\n" + pad + "{\n" + inner
    return "{\n" + inner + text.replace("},\n" + inner + "{", between) + "\n" + pad + "}"


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
