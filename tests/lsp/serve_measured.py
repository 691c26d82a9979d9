"""`project-corpus lsp` for a measured test run: `main` returns instead of `run`'s `os._exit`,
so coverage writes the server's data at exit (tests/lsp/support.py)."""

from __future__ import annotations

import sys

from project_corpus.__main__ import main

if __name__ == "__main__":
    raise SystemExit(main(["lsp", *sys.argv[1:]]))
