"""The entry point: the `project-corpus` console script and `python -m project_corpus`.

`main` answers `--version` without importing click and hands everything else to `cli.main`.
`run` is what the `project-corpus` script calls: it runs the command without the cyclic
garbage collector, flushes the standard streams and leaves with `os._exit`, skipping the
interpreter's teardown of the snapshot's hundreds of thousands of small objects (a quarter
of a second on a maximum-size corpus).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys

from project_corpus.core.about import __version__

# Not `typing.TYPE_CHECKING`: importing typing would cost `--version` a third of its time.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:
        sys.stdout.write(f"project-corpus {__version__}\n")
        return 0
    from project_corpus.adapters.cli.app import main as cli_main

    return cli_main(args)


def run() -> None:
    # A command is one short pass over acyclic records: reference counting frees them, and
    # the cyclic collector would only rescan the growing heap (the MCP server, a long-lived
    # process, keeps it on).
    gc.disable()
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError):  # a closed pipe: nothing left to tell
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
