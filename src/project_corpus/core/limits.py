"""Every limit on what the tool reads, one home (SPEC §2.3 and §10; docs/security.md).

A file, a folder walk or a whole snapshot larger than these is refused with a stable code
(`CONTEXT_LIMIT`, or the reader's own input code) before it can cost more: the snapshot's
sources, the JSON inputs, the policy, the lint configuration, the index, a trust grant, a
baseline report, `.gitignore`, a generated view, a git listing. Bounds a caller gives
(`--limit`, `--max-tokens`, ...) are `core/bounds.py`; cuts of what the tool writes (a
summary's rows, an item's characters) stay beside the view that cuts.
"""

from __future__ import annotations

# The scoped snapshot (SPEC §2.3): the detail of CONTEXT_LIMIT names the limit.
MAX_SOURCES = 2048
MAX_SOURCE_BYTES = 8 * 1024 * 1024  # one source; also the text view's source lines
MAX_TOTAL_BYTES = 64 * 1024 * 1024
MAX_NONBLANK_LINES = 50_000
MAX_DEPTH = 64  # folder levels of a confined walk

# Files read beside the sources.
MAX_INPUT_BYTES = 1024 * 1024  # JSON inputs: --dataset, --input, --bundle, --candidate
MAX_POLICY_BYTES = 1024 * 1024
MAX_VIEW_BYTES = 8 * 1024 * 1024  # a generated view (its marker is in the first bytes)
MAX_CONFIG_BYTES = 256 * 1024  # lint.yaml / --config
MAX_GITIGNORE_BYTES = 64 * 1024
MAX_BASELINE_BYTES = 32 * 1024 * 1024  # --baseline (an earlier JSON or SARIF report)
MAX_INDEX_BYTES = 128 * 1024 * 1024
MAX_GRANT_BYTES = 64 * 1024
MAX_LISTING_BYTES = 32 * 1024 * 1024  # one `git ls-tree` listing (context review)
