"""JSON input files (`--bundle`, `--candidate`, candidate-validate) and JSON pointer lines.

Inputs follow docs/cli.md: a regular, non-linked file inside ROOT of at most 1 MiB, strict
UTF-8 JSON, else CONTEXT_INPUT_PATH / CONTEXT_INPUT_JSON. The raw text is kept so that a
finding can point at the line of the JSON value it is about.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from functools import cache
from functools import lru_cache

from project_corpus.core.errors import ContextError
from project_corpus.core.jsonio import parse_json_bytes
from project_corpus.core.limits import MAX_INPUT_BYTES
from project_corpus.corpus import fs
from project_corpus.corpus.layout import CANDIDATES_DIR
from project_corpus.doctor.records import LoadedJSON

NEWLINE_RE = re.compile("\n")
MAX_POINTER_DEPTH = 4


@cache
def token_re() -> re.Pattern[str]:
    """A JSON token. A string runs to its closing quote or to the end of the text, so an
    unterminated string is one token and no scan restarts inside it (linear on any text, not
    only valid JSON). Compiled on first use: only `--bundle` and candidates need it."""
    return re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\Z)|[{}\[\],:]|[^\s{}\[\],:"]++', re.DOTALL)


def load_input(root: str, user_path: str) -> LoadedJSON:
    """Read a JSON input file confined to ROOT (CONTEXT_INPUT_PATH / CONTEXT_INPUT_JSON)."""
    portable = fs.portable_input_path(root, user_path)
    data = fs.read_relative(root, portable, MAX_INPUT_BYTES, code="CONTEXT_INPUT_PATH")
    return _loaded(portable, data)


def _loaded(portable: str, data: bytes) -> LoadedJSON:
    value = parse_json_bytes(data, portable)
    return LoadedJSON(portable, value, data.decode("utf-8"))


def candidate_dir_files(root: str) -> list[LoadedJSON]:
    """Every `*.json` directly inside .project-corpus/candidates/ (none when it is absent).

    A linked or special entry, or a linked candidates folder, is CONTEXT_INPUT_PATH."""
    try:
        with fs.open_dir(root, CANDIDATES_DIR) as fd:
            names = sorted(n for n in os.listdir(fd) if n.endswith(".json"))
            return [_read_entry(fd, name) for name in names if fs.entry_kind(fd, name) != "dir"]
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ContextError(
            "CONTEXT_INPUT_PATH",
            f"{CANDIDATES_DIR}: {exc.strerror or exc} (links are never followed)",
        ) from None


def _read_entry(dir_fd: int, name: str) -> LoadedJSON:
    rel = f"{CANDIDATES_DIR}/{name}"
    data = fs.read_at(
        dir_fd,
        name,
        MAX_INPUT_BYTES,
        label=rel,
        link_code="CONTEXT_INPUT_PATH",
        limit_code="CONTEXT_INPUT_PATH",
    )
    return _loaded(rel, data)


def escape_token(key: str) -> str:
    """A JSON pointer reference token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


class _Frame:
    __slots__ = ("index", "is_object", "key", "pointer")

    def __init__(self, pointer: str, is_object: bool) -> None:
        self.pointer, self.is_object = pointer, is_object
        self.key: str | None = None
        self.index = 0

    def child(self) -> str:
        token = escape_token(self.key or "") if self.is_object else str(self.index)
        return f"{self.pointer}/{token}"


@lru_cache(maxsize=4)
def pointer_lines(text: str, max_depth: int = MAX_POINTER_DEPTH) -> dict[str, int]:
    """{JSON pointer: 1-based line where its value starts} for valid JSON TEXT, down to
    MAX_DEPTH levels. One linear pass over the tokens; no second parse. (Cached: callers
    must not modify the result.)"""
    newlines = [m.start() for m in NEWLINE_RE.finditer(text)]
    lines: dict[str, int] = {}
    stack: list[_Frame] = []
    expect_key = False
    for match in token_re().finditer(text):
        token = match.group(0)
        if token in ",:":
            expect_key = token == "," and bool(stack) and stack[-1].is_object
            if token == "," and stack and not stack[-1].is_object:
                stack[-1].index += 1
            continue
        if token in "}]":
            stack.pop()
            continue
        if expect_key:
            stack[-1].key = str(json.loads(token))
            expect_key = False
            continue
        pointer = stack[-1].child() if stack else ""
        if len(stack) <= max_depth:
            lines.setdefault(pointer, bisect.bisect_left(newlines, match.start()) + 1)
        if token in "{[":
            stack.append(_Frame(pointer, token == "{"))
            expect_key = token == "{"
    return lines


def line_of(lines: dict[str, int], pointer: str) -> int:
    """The line of POINTER, or of its nearest existing ancestor (a missing key), or 1."""
    while pointer:
        if pointer in lines:
            return lines[pointer]
        pointer = pointer.rsplit("/", 1)[0]
    return lines.get("", 1)
