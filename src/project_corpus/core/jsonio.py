"""Canonical JSON, its digests, indented output and strict JSON parsing (docs/architecture.md,
docs/cli.md). Reading an input file from ROOT is `corpus.inputs`."""

from __future__ import annotations

import json
from functools import lru_cache
from json.encoder import encode_basestring

from project_corpus.core.digest import sha256_hex
from project_corpus.core.errors import ContextError


def canonical_bytes(value: object) -> bytes:
    """Canonical JSON: sorted keys, no spaces, UTF-8, NaN refused (docs/architecture.md)."""
    text = json.dumps(
        value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
    )
    return text.encode("utf-8")


def canonical_sha256(value: object) -> str:
    return sha256_hex(canonical_bytes(value))


def pretty(value: object) -> str:
    """The CLI's JSON: sorted keys, indent 2, UTF-8 unescaped, trailing newline."""
    return indented(value, end="\n")


def indented(
    value: object, *, sort_keys: bool = True, allow_nan: bool = False, end: str = ""
) -> str:
    """`json.dumps(VALUE, ensure_ascii=False, indent=2, ...) + END`, byte for byte, faster.

    With an indent the standard library encodes in pure Python; here every container of
    scalars (one finding, one result) is encoded by the C encoder with separators that carry
    its indentation, and the text is joined once at the end (about half the time on an
    11,000-finding report).
    """
    out: list[str] = []
    _write(value, "", (sort_keys, allow_nan), out)
    out.append(end)
    return "".join(out)


_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
_STR_TYPE = frozenset({str})
_LIST_TYPES = frozenset({list, tuple})
# Flat dicts encoded per C call: small texts reuse memory instead of faulting in new pages.
_BATCH = 64
_ROWS = 256


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


def _write(value: object, pad: str, options: tuple[bool, bool], out: list[str]) -> None:
    """Append the text of VALUE at the indentation PAD (its first line not indented)."""
    inner = pad + "  "
    if isinstance(value, dict) and value and all(type(k) is str for k in value):
        if all(type(v) in _SCALAR_TYPES for v in value.values()):
            body = _flat_encoder(inner, options).encode(value)[1:-1]
            out.append("{\n" + inner + body + "\n" + pad + "}")
            return
        out.append("{\n" + inner)
        pairs = sorted(value.items()) if options[0] else value.items()
        for n, (key, item) in enumerate(pairs):
            out.append((",\n" + inner if n else "") + encode_basestring(key) + ": ")
            _write(item, inner, options, out)
        out.append("\n" + pad + "}")
    elif isinstance(value, (list, tuple)) and value:
        if all(type(v) in _SCALAR_TYPES for v in value):
            body = _flat_encoder(inner, options).encode(value)[1:-1]
            out.append("[\n" + inner + body + "\n" + pad + "]")
            return
        out.append("[\n" + inner)
        if _uniform_rows(value, inner, options, out):
            pass
        elif all(_is_flat_dict(v) for v in value):
            _flat_dicts(value, inner, options, out)
        else:
            for n, item in enumerate(value):
                out.append(",\n" + inner if n else "")
                _write(item, inner, options, out)
        out.append("\n" + pad + "]")
    else:
        # Scalars, empty containers, non-string keys, other types: the standard encoder. A
        # JSON text has no raw newline inside a string, so indenting its lines is exact.
        text = json.dumps(
            value, ensure_ascii=False, sort_keys=options[0], indent=2, allow_nan=options[1]
        )
        out.append(text.replace("\n", "\n" + pad) if pad else text)


def _is_flat_dict(value: object) -> bool:
    """A non-empty dict of string keys and scalar values (one finding, one result)."""
    return (
        type(value) is dict
        and bool(value)
        and _STR_TYPE.issuperset(map(type, value))
        and _SCALAR_TYPES.issuperset(map(type, value.values()))
    )


def _flat_dicts(
    values: list[object] | tuple[object, ...], pad: str, options: tuple[bool, bool], out: list[str]
) -> None:
    """Append flat dicts that sit at PAD, a batch per C encoder call: its item separator
    indents the dicts' items, and the separators between the dicts (the only `},\n` followed
    by `{`, as no JSON string holds a raw newline) are then re-indented."""
    inner = pad + "  "
    encoder = _flat_encoder(inner, options)
    between = "},\n" + inner + "{"
    indented_between = "\n" + pad + "},\n" + pad + "{\n" + inner
    for start in range(0, len(values), _BATCH):
        text = encoder.encode(values[start : start + _BATCH])[2:-2]
        head = ",\n" + pad + "{\n" if start else "{\n"
        out.append(head + inner + text.replace(between, indented_between) + "\n" + pad + "}")


_SCALAR_NAMES = {True: "true", False: "false"}


def _uniform_rows(
    values: list[object] | tuple[object, ...], pad: str, options: tuple[bool, bool], out: list[str]
) -> bool:
    """Append VALUES, dicts that sit at PAD with one set of string keys and scalar values
    (a report's findings), column by column: each column is encoded by a C call per value,
    and each row is one `%` of a template of its keys. False (nothing appended) otherwise."""
    if set(map(type, values)) != {dict}:
        return False
    inner = pad + "  "
    rows: list[dict[str, object]] = values  # type: ignore[assignment]
    keys = list(rows[0])
    if not keys or set(map(type, keys)) != _STR_TYPE or set(map(len, rows)) != {len(keys)}:
        return False
    if options[0]:
        keys.sort()
    elif not all(map(keys.__eq__, map(list, rows))):  # one insertion order
        return False
    try:
        encoded = [_column([row[key] for row in rows], options, inner) for key in keys]
    except KeyError:  # another key set (the same size)
        return False
    columns = [column for column in encoded if column is not None]
    if len(columns) < len(keys):  # a value that is not a scalar
        return False
    names = [encode_basestring(key).replace("%", "%%") + ": %s" for key in keys]
    template = "{\n" + inner + (",\n" + inner).join(names) + "\n" + pad + "}"
    separator = ",\n" + pad
    for start in range(0, len(rows), _ROWS):  # a block at a time: small texts reuse memory
        block = zip(*[column[start : start + _ROWS] for column in columns], strict=True)
        out.append((separator if start else "") + separator.join(map(template.__mod__, block)))
    return True


def _column(values: list[object], options: tuple[bool, bool], pad: str) -> list[str] | None:
    """The JSON text of each scalar, or list of scalars, in VALUES (items of rows indented by
    PAD), as the C encoder writes it; None when a value is neither."""
    types = set(map(type, values))
    if types <= _LIST_TYPES:
        lists: list[list[object]] = values  # type: ignore[assignment]
        if all(_SCALAR_TYPES.issuperset(map(type, v)) for v in lists):
            return _lists(lists, options, pad)
        return None
    if types == _STR_TYPE:
        distinct = set(values)
        if len(distinct) * 2 > len(values):
            return list(map(encode_basestring, values))  # type: ignore[arg-type]
        # Thousands of findings share a few messages, details and paths: each encoded once.
        table = {value: encode_basestring(value) for value in distinct}  # type: ignore[arg-type]
        return list(map(table.__getitem__, values))
    if types == {int}:
        return list(map(int.__repr__, values))
    if types == {bool} or types == {type(None)}:
        return [_SCALAR_NAMES.get(value, "null") for value in values]  # type: ignore[call-overload]
    if not types <= _SCALAR_TYPES:
        return None
    encode = _flat_encoder("", options).encode
    return list(map(encode, values))


def _lists(values: list[list[object]], options: tuple[bool, bool], pad: str) -> list[str]:
    """Lists of scalars (a document's sources) each encoded by one C call, indented by PAD."""
    inner = pad + "  "
    encode = _flat_encoder(inner, options).encode
    close = "\n" + pad + "]"
    return ["[\n" + inner + encode(v)[1:-1] + close if v else "[]" for v in values]


def _reject_constant(name: str) -> object:
    raise ValueError(f"non-standard JSON constant {name}")


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """An object without repeated keys: JSON leaves them undefined, and a reader that keeps
    the first would see another document than one that keeps the last."""
    value: dict[str, object] = {}
    for key, item in pairs:
        if key in value:
            raise ValueError(f"duplicate key {json.dumps(key)}")
        value[key] = item
    return value


def parse_json_bytes(data: bytes, label: str) -> object:
    """Strict UTF-8 JSON (a BOM, NaN/Infinity and repeated keys in an object are refused)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContextError(
            "CONTEXT_INPUT_JSON", f"{label}: not UTF-8 at byte {exc.start}"
        ) from None
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError) as exc:
        raise ContextError("CONTEXT_INPUT_JSON", f"{label}: {exc}") from None
