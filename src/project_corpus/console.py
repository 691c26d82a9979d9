"""The console-script entry point: answers `--version` without importing click.

`project-corpus --version` runs on every hook install and CI job; everything else goes to
`cli.main`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from project_corpus import __version__


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:
        sys.stdout.write(f"project-corpus {__version__}\n")
        return 0
    from project_corpus.cli import main as cli_main

    return cli_main(args)
