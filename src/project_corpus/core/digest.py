"""SHA-256 hex digests: the one place the tool hashes (sources, policy, item IDs,
fingerprints, canonical JSON).

`import hashlib` loads OpenSSL's libcrypto, about 2 ms of CPU a process: a fifth of what a
small-corpus command may spend beyond the interpreter and click (docs/performance.md).
CPython's own SHA-256 module loads in no time but hashes ~15× slower than OpenSSL's, so the
first `BUILTIN_BYTES` of a process are hashed by it and everything after by OpenSSL (loaded
then). Both compute the same standard digest; only the cost differs.
"""

from __future__ import annotations

import importlib
import sys

# About half of what CPython's module hashes in the ~2 ms OpenSSL takes to load: a large
# corpus pays ~1 ms once, a small one never loads OpenSSL at all.
BUILTIN_BYTES = 128 * 1024


def _builtin() -> object:
    """CPython's SHA-256 constructor (`_sha2` from 3.12, `_sha256` before), or None."""
    # Only the module of this version is tried: a failed import scans the whole of sys.path.
    name = "_sha2" if sys.version_info >= (3, 12) else "_sha256"
    try:
        return importlib.import_module(name).sha256
    except ImportError:  # a build without it: OpenSSL does everything
        return None


_BUILTIN = _builtin()
_left = BUILTIN_BYTES if _BUILTIN is not None else 0


def sha256_hex(data: bytes) -> str:
    """The lowercase hex SHA-256 digest of DATA."""
    global _left
    size = len(data)
    if size <= _left:
        _left -= size
        return str(_BUILTIN(data).hexdigest())  # type: ignore[operator]
    _left = 0
    import hashlib

    return hashlib.sha256(data).hexdigest()
