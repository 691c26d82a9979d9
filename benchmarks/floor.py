"""The performance floor of docs/performance.md: read and SHA-256-hash the scoped sources, nothing
else.

    python benchmarks/floor.py ROOT

Walks `.project-corpus/{state,tasks,reports,history}` under ROOT (real directories only),
reads every `*.md` file and hashes it. It prints one line: the number of files, their bytes
and a digest over all hashes, so the work cannot be optimised away.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Sequence

SOURCE_DIRS = ("state", "tasks", "reports", "history")


def hash_sources(root: str) -> tuple[int, int, str]:
    """Count, total bytes and a combined digest of the scoped Markdown sources under ROOT."""
    count = 0
    size = 0
    combined = hashlib.sha256()
    for name in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, ".project-corpus", name)):
            dirnames.sort()
            for filename in sorted(filenames):
                if not filename.endswith(".md"):
                    continue
                with open(os.path.join(dirpath, filename), "rb") as handle:
                    data = handle.read()
                combined.update(hashlib.sha256(data).digest())
                count += 1
                size += len(data)
    return count, size, combined.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python benchmarks/floor.py ROOT", file=sys.stderr)
        return 2
    count, size, digest = hash_sources(args[0])
    print(f"{count} files {size} bytes {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
