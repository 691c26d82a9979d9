"""JSON input files (`--dataset`, `--input`, `--bundle`, `--candidate`): a regular, non-linked
file inside ROOT, at most 1 MiB, strict UTF-8 JSON (docs/cli.md)."""

from __future__ import annotations

from project_corpus.core.jsonio import parse_json_bytes
from project_corpus.core.limits import MAX_INPUT_BYTES
from project_corpus.corpus import fs


def load_json_input(root: str, user_path: str) -> tuple[str, object]:
    """Read a JSON input file confined to ROOT; returns (portable path, value)."""
    portable = fs.portable_input_path(root, user_path)
    data = fs.read_relative(root, portable, MAX_INPUT_BYTES, code="CONTEXT_INPUT_PATH")
    return portable, parse_json_bytes(data, portable)
