"""`digest.sha256_hex`: the same digests whether CPython's module or OpenSSL computes them."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from project_corpus.core import digest


def test_digests_equal_hashlib_before_and_after_the_builtin_budget() -> None:
    # A fresh process: the budget is per process and this one may have spent it.
    probe = (
        "import hashlib, sys\n"
        "from project_corpus.core import digest\n"
        "sizes = [0, 1, 63, 64, 65, 1000, digest.BUILTIN_BYTES, 3 * digest.BUILTIN_BYTES, 5]\n"
        "for n in sizes:\n"
        "    data = bytes(range(256)) * (n // 256) + bytes(n % 256)\n"
        "    assert digest.sha256_hex(data) == hashlib.sha256(data).hexdigest(), n\n"
        "print('hashlib' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout == "True\n"  # the large input went to OpenSSL


def test_small_inputs_do_not_load_openssl() -> None:
    probe = (
        "import sys\n"
        "from project_corpus.core import digest\n"
        "print(digest.sha256_hex(b'abc'), 'hashlib' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    expected = hashlib.sha256(b"abc").hexdigest()
    assert done.stdout == f"{expected} False\n"


def test_in_process_digests_match() -> None:
    for data in (b"", b"x", "ё".encode() * 1000):
        assert digest.sha256_hex(data) == hashlib.sha256(data).hexdigest()
