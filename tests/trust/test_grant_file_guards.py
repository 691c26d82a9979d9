"""Every guard of the grant file on its own (docs/mcp.md): the size bound, the private modes,
the TOML escaping, descriptor hygiene, special files and the strict value checks.

Each test pins a guard that the round trips of tests/trust/test_trust.py would not miss if
it were removed (scripts/mutation.py, docs/testing.md).
"""

from __future__ import annotations

import errno
import os
import stat
import string
import threading
from pathlib import Path

import pytest

from project_corpus.adapters.mcp_server import grant_file
from project_corpus.adapters.mcp_server import trust
from project_corpus.core.errors import ContextError
from tests.conftest import MakeCorpus

MCP = ["corpus.context", "mcp.stdio"]
LIMIT = 65536  # docs/mcp.md: a grant file is at most 64 KiB


def granted(make_corpus: MakeCorpus, out: Path) -> Path:
    trust.grant(make_corpus(), MCP, out=out)
    return out


def refused(path: Path, root: Path | None = None) -> ContextError:
    with pytest.raises(ContextError) as info:
        grant_file.load_grant(path, root=root)
    return info.value


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


# --- size -----------------------------------------------------------------------------------


def test_a_grant_of_exactly_64_kib_loads_and_one_byte_more_is_refused(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    out = granted(make_corpus, tmp_path / "g.toml")
    text = out.read_bytes()
    out.write_bytes(text + b"#" * (LIMIT - len(text)))  # a valid grant, padded by a comment
    assert grant_file.load_grant(out)["capability_ceiling"] == MCP
    out.write_bytes(text + b"#" * (LIMIT + 1 - len(text)))  # still valid TOML and a valid grant
    error = refused(out)
    assert (error.code, error.detail) == ("TRUST_INVALID", f"{out}: larger than {LIMIT} bytes")


# --- modes ----------------------------------------------------------------------------------


def test_the_default_grant_folder_is_private_to_its_owner(make_corpus: MakeCorpus) -> None:
    path = Path(str(trust.grant(make_corpus(), MCP)["path"]))
    mode = stat.S_IMODE(path.parent.stat().st_mode)
    assert mode & 0o700 == 0o700
    assert mode & 0o077 == 0


def test_the_grant_file_is_0600_whatever_the_umask(make_corpus: MakeCorpus, tmp_path: Path) -> None:
    root = make_corpus()
    previous = os.umask(0o277)  # would leave a freshly created file read-only to its owner
    try:
        trust.grant(root, MCP, out=tmp_path / "g.toml")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "g.toml").stat().st_mode) == 0o600


# --- TOML -----------------------------------------------------------------------------------


def test_printable_characters_are_written_as_themselves() -> None:
    printable = "".join(c for c in string.printable if c.isprintable() and c not in '"\\')
    assert " " in printable
    assert "~" in printable
    assert grant_file._toml_string(printable) == f'"{printable}"'
    assert grant_file._toml_string("é ü") == '"é ü"'


def test_control_characters_quote_and_backslash_are_escaped() -> None:
    assert grant_file._toml_string("\x00\x1f\x7f\t") == '"\\u0000\\u001F\\u007F\\u0009"'
    assert grant_file._toml_string('a"b\\c') == '"a\\"b\\\\c"'


def test_a_root_path_with_spaces_reads_as_written_in_the_grant(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus(name="my project ~1")
    out = tmp_path / "g.toml"
    trust.grant(root, MCP, out=out)
    assert f'physical_root = "{root.resolve()}"\n' in out.read_text(encoding="utf-8")


def test_deeply_nested_toml_is_invalid_not_a_crash(tmp_path: Path) -> None:
    out = tmp_path / "g.toml"
    out.write_text("a = " + "[" * 20000 + "]" * 20000 + "\n", encoding="utf-8")
    error = refused(out)
    assert error.code == "TRUST_INVALID"
    assert "nested too deeply" in error.detail


# --- special files and error details --------------------------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "g.toml"
    os.mkfifo(fifo)
    outcome: list[object] = []

    def load() -> None:
        try:
            grant_file.load_grant(fifo)
        except ContextError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive():  # a blocking open waits for a writer: release it, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(10)
        pytest.fail("opening a FIFO grant blocked until a writer came")
    [error] = outcome
    assert isinstance(error, ContextError)
    assert (error.code, error.detail) == ("TRUST_PATH", f"{fifo}: not a regular file")


def test_errors_name_the_path_and_the_plain_system_message(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus()
    (tmp_path / "file").write_text("", encoding="utf-8")
    (tmp_path / "dir").mkdir()
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    cases = [
        (tmp_path / "file" / "g.toml", errno.EEXIST),  # its folder cannot be made
        (tmp_path / "dir", errno.EISDIR),  # cannot be replaced
    ]
    for out, number in cases:
        with pytest.raises(ContextError) as info:
            trust.grant(root, MCP, out=out)
        assert (info.value.code, info.value.detail) == (
            "TRUST_PATH",
            f"{out}: {os.strerror(number)}",
        )
    error = refused(tmp_path / "loop")
    assert error.code == "TRUST_PATH"
    assert error.detail == f"{tmp_path / 'loop'}: {os.strerror(errno.ELOOP)}"


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_writing_and_loading_grants_leaves_no_descriptor_open(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus()
    out = tmp_path / "g.toml"
    (tmp_path / "big.toml").write_bytes(b"#" * (LIMIT + 1))
    before = open_fds()
    for _ in range(5):
        trust.grant(root, MCP, out=out)
        grant_file.load_grant(out)
        for bad in (tmp_path / "big.toml", tmp_path):
            with pytest.raises(ContextError):
                grant_file.load_grant(bad)
    assert open_fds() == before


# --- strict values --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("capability_ceiling", "[]"),
        ("capability_ceiling", '"corpus.context"'),
        ("capability_ceiling", '["Bad Name"]'),
        ("capability_ceiling", '["corpus.context", 5]'),
        ("transports", "[]"),
        ("transports", '"stdio-mcp"'),
        ("project_id", "5"),
        ("physical_root", '"/tmp/a\\u0000b"'),
        ("physical_root", "[]"),
        ("root_identity", "5"),
    ],
)
def test_a_mistyped_or_empty_value_is_invalid(
    make_corpus: MakeCorpus, tmp_path: Path, key: str, value: str
) -> None:
    out = granted(make_corpus, tmp_path / "g.toml")
    lines = [
        f"{key} = {value}" if line.startswith(f"{key} = ") else line
        for line in out.read_text(encoding="utf-8").splitlines()
    ]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    error = refused(out)
    assert error.code == "TRUST_INVALID"
    assert error.detail.startswith(f"`{key}` has an invalid value")


@pytest.mark.parametrize("mode", [0o660, 0o620, 0o666, 0o606, 0o622, 0o777])
def test_a_grant_writable_by_its_group_or_others_is_refused_with_a_hint(
    make_corpus: MakeCorpus, tmp_path: Path, mode: int
) -> None:
    """As ssh refuses a key file others could change (#26); chmod 600 makes it usable."""
    out = granted(make_corpus, tmp_path / "g.toml")
    out.chmod(mode)
    error = refused(out)
    assert error.code == "TRUST_PATH"
    assert f"(mode {mode:04o})" in error.detail
    assert error.hint == f"chmod 600 {out}"
    out.chmod(0o600)
    assert grant_file.load_grant(out)


@pytest.mark.parametrize("mode", [0o600, 0o400, 0o640, 0o644])
def test_a_grant_only_its_owner_can_write_is_loaded(
    make_corpus: MakeCorpus, tmp_path: Path, mode: int
) -> None:
    out = granted(make_corpus, tmp_path / "g.toml")
    out.chmod(mode)
    assert grant_file.load_grant(out)
