"""The confined filesystem layer ON ITS OWN (SPEC §2.2, §4, §14).

Every test calls `fs` directly, without the callers' `lstat` pre-checks or
`portable_input_path`'s normalisation, so each guard of the layer (no-follow opens, the
`fstat` regular-file check, the path splitter, the size bound, exclusive creation, the
publication fallback, descriptor hygiene) is pinned by a test of its own.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from project_corpus.core.errors import ContextError
from project_corpus.corpus import fs


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """root/ with a/b/f.md (a real file), a/link -> b (a linked directory), out/secret.md
    outside the root, and root/a/escape -> ../../out (a link leaving the root)."""
    root = tmp_path / "root"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f.md").write_bytes(b"inside\n")
    (root / "a" / "link").symlink_to("b")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "secret.md").write_bytes(b"secret\n")
    (root / "a" / "escape").symlink_to(tmp_path / "out")
    return root


@pytest.fixture
def no_fd_leak() -> Iterator[None]:
    before = open_fds()
    yield
    assert open_fds() == before


# --- the path splitter -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "rel",
    ["", ".", "..", "a/..", "../a", "a/../b", "a/./b", "./a", "a//b", "/a", "a/", "a\\b", "a\0b"],
)
def test_the_splitter_refuses_every_non_portable_path(rel: str) -> None:
    with pytest.raises(ValueError, match="not a portable relative path"):
        fs._split(rel)


def test_the_splitter_keeps_portable_components() -> None:
    assert fs._split("a") == ["a"]
    assert fs._split("a/b.md") == ["a", "b.md"]
    assert fs._split(".hidden/x..y") == [".hidden", "x..y"]


@pytest.mark.parametrize("rel", ["..", "a/..", "a/../b", "a/.", "a//b"])
def test_open_dir_refuses_dot_components_before_opening_anything(tree: Path, rel: str) -> None:
    with pytest.raises(ValueError, match="portable"):
        fs.open_dir(tree, rel).__enter__()


def test_read_relative_never_climbs_out_with_dot_dot(tree: Path) -> None:
    # `a/b/../../../out/secret.md` would reach the file outside the root if `..` passed.
    with pytest.raises(ContextError) as info:
        fs.read_relative(tree, "a/b/../../../out/secret.md", 100, code="POLICY_PARSE")
    assert info.value.code == "POLICY_PARSE"
    assert "not a portable path inside the root" in info.value.detail


# --- no-follow directory opens ----------------------------------------------------------------


def test_open_dir_never_follows_a_linked_intermediate_directory(tree: Path) -> None:
    with pytest.raises(OSError, match=r"symbolic links|Not a directory|No such file") as info:
        fs.open_dir(tree, "a/link").__enter__()
    assert info.value.errno in (errno.ELOOP, errno.ENOTDIR)
    with pytest.raises(OSError, match=r"symbolic links|Not a directory|No such file"):
        fs.open_dir(tree, "a/escape").__enter__()


def test_a_read_through_a_linked_directory_is_refused(tree: Path) -> None:
    with pytest.raises(ContextError) as info:
        fs.read_relative(tree, "a/link/f.md", 100, code="SOURCE_LINK")
    assert info.value.code == "SOURCE_LINK"
    with pytest.raises(ContextError):
        fs.read_relative(tree, "a/escape/secret.md", 100, code="SOURCE_LINK")
    assert fs.read_relative(tree, "a/b/f.md", 100, code="SOURCE_LINK") == b"inside\n"


def test_open_dir_never_follows_a_linked_root(tree: Path) -> None:
    (tree.parent / "alias").symlink_to(tree)
    with pytest.raises(OSError, match=r"symbolic links|Not a directory|No such file"):
        fs.open_dir(tree.parent / "alias").__enter__()


def test_open_dir_opens_directories_only(tree: Path) -> None:
    with pytest.raises(NotADirectoryError):
        fs.open_dir(tree, "a/b/f.md").__enter__()


def test_directory_descriptors_are_close_on_exec(tree: Path) -> None:
    with fs.open_dir(tree, "a/b") as fd:
        assert fcntl.fcntl(fd, fcntl.F_GETFD) & fcntl.FD_CLOEXEC
        assert fs.entry_kind(fd, "f.md") == "file"
    with fs.open_dir(tree) as fd:
        assert fs.entry_kind(fd, "a") == "dir"


# --- the reader -------------------------------------------------------------------------------


def read(tree: Path, rel_dir: str, name: str, limit: int = 100) -> bytes:
    with fs.open_dir(tree, rel_dir) as fd:
        return fs.read_at(
            fd, name, limit, label=name, link_code="SOURCE_LINK", limit_code="CONTEXT_LIMIT"
        )


def test_the_reader_never_follows_a_linked_file(tree: Path) -> None:
    (tree / "a" / "b" / "alias.md").symlink_to("f.md")
    with pytest.raises(ContextError) as info:
        read(tree, "a/b", "alias.md")
    assert (info.value.code, info.value.detail) == (
        "SOURCE_LINK",
        "alias.md: a symbolic link is never followed",
    )


def test_the_reader_refuses_a_directory_by_its_fstat(tree: Path) -> None:
    with pytest.raises(ContextError) as info:
        read(tree, "a", "b")
    assert (info.value.code, info.value.detail) == ("SOURCE_LINK", "b: not a regular file")


def test_the_reader_refuses_a_fifo_without_blocking(tree: Path) -> None:
    os.mkfifo(tree / "a" / "pipe.md")
    with pytest.raises(ContextError) as info:
        read(tree, "a", "pipe.md")
    assert (info.value.code, info.value.detail) == ("SOURCE_LINK", "pipe.md: not a regular file")


def test_the_reader_refuses_a_device(no_fd_leak: None) -> None:
    with fs.open_dir(Path("/dev")) as fd, pytest.raises(ContextError, match="not a regular"):
        fs.read_at(fd, "null", 10, label="null", link_code="SOURCE_LINK")


def test_file_descriptors_are_close_on_exec_and_non_blocking(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int]] = []
    real_fstat = os.fstat

    def spy(fd: int) -> os.stat_result:
        seen.append((fcntl.fcntl(fd, fcntl.F_GETFD), fcntl.fcntl(fd, fcntl.F_GETFL)))
        return real_fstat(fd)

    monkeypatch.setattr(os, "fstat", spy)
    assert read(tree, "a/b", "f.md") == b"inside\n"
    [(fd_flags, status_flags)] = seen
    assert fd_flags & fcntl.FD_CLOEXEC
    assert status_flags & os.O_NONBLOCK
    assert status_flags & os.O_ACCMODE == os.O_RDONLY


def test_a_file_of_exactly_the_limit_is_read_whole(tree: Path) -> None:
    (tree / "exact.md").write_bytes(b"x" * 64)
    assert read(tree, "", "exact.md", limit=64) == b"x" * 64


def test_a_file_one_byte_over_the_limit_is_refused_with_the_limit_code(tree: Path) -> None:
    (tree / "over.md").write_bytes(b"x" * 65)
    with pytest.raises(ContextError) as info:
        read(tree, "", "over.md", limit=64)
    assert info.value.code == "CONTEXT_LIMIT"
    assert info.value.detail == "over.md: 65 bytes exceeds the limit of 64"


def test_an_empty_file_reads_as_empty(tree: Path) -> None:
    (tree / "empty.md").write_bytes(b"")
    assert read(tree, "", "empty.md", limit=0) == b""


def test_a_file_larger_than_one_chunk_is_read_completely(tree: Path) -> None:
    data = bytes(range(256)) * (3 * 4096 + 7)  # about 3 MiB: several 1 MiB reads
    (tree / "big.md").write_bytes(data)
    assert read(tree, "", "big.md", limit=len(data)) == data


@pytest.mark.parametrize("growth", [1, 5000, 3 << 20])
def test_a_file_growing_past_the_limit_while_read_is_refused(
    tree: Path, monkeypatch: pytest.MonkeyPatch, growth: int
) -> None:
    """The size check passes on `fstat`; the file then grows before it is read."""
    path = tree / "growing.md"
    path.write_bytes(b"x" * 100)
    real_fstat = os.fstat

    def fstat_then_grow(fd: int) -> os.stat_result:
        result = real_fstat(fd)
        with path.open("ab") as handle:
            handle.write(b"y" * growth)
        return result

    monkeypatch.setattr(os, "fstat", fstat_then_grow)
    with pytest.raises(ContextError) as info:
        read(tree, "", "growing.md", limit=100)
    assert info.value.code == "CONTEXT_LIMIT"
    assert info.value.detail == "growing.md: grew past the limit of 100 bytes while read"


def test_a_file_growing_after_its_first_chunk_is_refused(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file has exactly the limit when first read, then one byte more: the reader asks
    for the byte past the limit, so the growth is seen, never silently cut off."""
    path = tree / "growing.md"
    path.write_bytes(b"x" * 100)
    real_read = os.read
    calls: list[int] = []

    def read_then_grow(fd: int, size: int) -> bytes:
        data = real_read(fd, size)
        if not calls:
            with path.open("ab") as handle:
                handle.write(b"y")
        calls.append(size)
        return data

    monkeypatch.setattr(os, "read", read_then_grow)
    with pytest.raises(ContextError) as info:
        read(tree, "", "growing.md", limit=100)
    assert info.value.detail == "growing.md: grew past the limit of 100 bytes while read"
    assert calls[:2] == [101, 1]


def test_a_missing_file_is_the_link_code(tree: Path, no_fd_leak: None) -> None:
    with pytest.raises(ContextError) as info:
        read(tree, "a", "missing.md")
    assert (info.value.code, info.value.detail) == (
        "SOURCE_LINK",
        f"missing.md: cannot be opened ({os.strerror(errno.ENOENT)})",
    )


def test_reads_and_refusals_leak_no_descriptor(tree: Path, no_fd_leak: None) -> None:
    (tree / "a" / "b" / "alias.md").symlink_to("f.md")
    os.mkfifo(tree / "a" / "pipe.md")
    (tree / "over.md").write_bytes(b"x" * 65)
    for _ in range(3):
        assert read(tree, "a/b", "f.md") == b"inside\n"
        for rel_dir, name in (("a/b", "alias.md"), ("a", "pipe.md"), ("a", "b"), ("", "over.md")):
            with pytest.raises(ContextError):
                read(tree, rel_dir, name, limit=64)


def test_failed_directory_opens_leak_no_descriptor(tree: Path, no_fd_leak: None) -> None:
    for rel in ("a/b/c/d", "a/link/x", "a/b/f.md/x", "a/b/missing"):
        with (
            pytest.raises(OSError, match=r"symbolic links|Not a directory|No such file"),
            fs.open_dir(tree, rel),
        ):
            pass
    with fs.open_dir(tree, "a/b"):
        pass


# --- read_relative ------------------------------------------------------------------------------


@pytest.mark.parametrize("rel", ["", "a/../a/b/f.md", "/a/b/f.md", "a\\b\\f.md", "a//b/f.md"])
def test_read_relative_refuses_non_portable_paths_with_its_code(tree: Path, rel: str) -> None:
    with pytest.raises(ContextError) as info:
        fs.read_relative(tree, rel, 100, code="POLICY_PARSE")
    assert (info.value.code, info.value.detail) == (
        "POLICY_PARSE",
        f"{rel}: not a portable path inside the root",
    )


def test_read_relative_reports_a_missing_directory_with_its_code(tree: Path) -> None:
    with pytest.raises(ContextError) as info:
        fs.read_relative(tree, "nowhere/f.md", 100, code="POLICY_PARSE")
    assert (info.value.code, info.value.detail) == (
        "POLICY_PARSE",
        f"nowhere/f.md: {os.strerror(errno.ENOENT)}",
    )


def test_read_relative_reads_nested_and_top_level_files(tree: Path) -> None:
    (tree / "top.md").write_bytes(b"top")
    assert fs.read_relative(tree, "top.md", 3, code="POLICY_PARSE") == b"top"
    assert fs.read_relative(tree, "a/b/f.md", 7, code="POLICY_PARSE") == b"inside\n"


def test_read_relative_limit_code_defaults_to_its_code(tree: Path) -> None:
    with pytest.raises(ContextError) as info:
        fs.read_relative(tree, "a/b/f.md", 3, code="POLICY_PARSE")
    assert info.value.code == "POLICY_PARSE"
    with pytest.raises(ContextError) as info:
        fs.read_relative(tree, "a/b/f.md", 3, code="POLICY_PARSE", limit_code="CONTEXT_LIMIT")
    assert info.value.code == "CONTEXT_LIMIT"


def test_read_relative_refuses_a_special_file_with_its_code(tree: Path) -> None:
    os.mkfifo(tree / "a" / "pipe.md")
    with pytest.raises(ContextError) as info:
        fs.read_relative(tree, "a/pipe.md", 100, code="POLICY_PARSE")
    assert (info.value.code, info.value.detail) == ("POLICY_PARSE", "a/pipe.md: not a regular file")


# --- resolve_root and entry kinds ----------------------------------------------------------------


def test_resolve_root_refuses_a_file_and_a_missing_path(tree: Path) -> None:
    for path, what in (
        (tree / "a" / "b" / "f.md", "is not a directory"),
        (tree / "missing", "does not exist"),
    ):
        with pytest.raises(ContextError) as info:
            fs.resolve_root(path)
        assert (info.value.code, info.value.detail) == ("CONTEXT_ROOT", f"{path} {what}")
        assert (
            info.value.hint
            == "pass the project folder: the one that holds AGENTS.md and .project-corpus/"
        )


def test_resolve_root_resolves_links_in_the_root_itself(tree: Path) -> None:
    (tree.parent / "alias").symlink_to(tree)
    assert fs.resolve_root(tree.parent / "alias") == str(tree)
    assert fs.resolve_root(str(tree)) == str(tree)


def test_entry_kinds_never_follow_links(tree: Path) -> None:
    os.mkfifo(tree / "a" / "pipe")
    with fs.open_dir(tree, "a") as fd:
        kinds = {name: fs.entry_kind(fd, name) for name in ("b", "link", "escape", "pipe", "no")}
    assert kinds == {"b": "dir", "link": "link", "escape": "link", "pipe": "special", "no": None}


# --- the walk -----------------------------------------------------------------------------------


def walked(root: Path, rel: str = "a") -> list[tuple[str, str]]:
    return [(e.path, e.kind) for _, e in fs.walk(root, rel)]


def test_the_walk_recurses_in_code_point_order_and_never_enters_links(tree: Path) -> None:
    (tree / "a" / "b" / "c").mkdir()
    (tree / "a" / "b" / "c" / "deep.md").write_bytes(b"")
    (tree / "a" / "B.md").write_bytes(b"")
    os.mkfifo(tree / "a" / "pipe.md")
    assert walked(tree) == [
        ("a/B.md", "file"),
        ("a/b", "dir"),
        ("a/b/c", "dir"),
        ("a/b/c/deep.md", "file"),
        ("a/b/f.md", "file"),
        ("a/escape", "link"),
        ("a/link", "link"),
        ("a/pipe.md", "special"),
    ]


def test_the_walk_yields_the_entry_directory_descriptor(tree: Path) -> None:
    for fd, entry in fs.walk(tree, "a"):
        if entry.kind == "file":
            data = fs.read_at(fd, entry.name, 100, label=entry.path, link_code="POLICY_PARSE")
            assert data == b"inside\n"


def test_after_a_deeper_folder_the_walk_yields_its_parent_folder_descriptor(
    tree: Path, no_fd_leak: None
) -> None:
    """Leaving a/b/c reopens a/b, not the walk's root folder: every file the walk names is
    read through the descriptor it yields with it (the kind comes from the listing)."""
    (tree / "a" / "b" / "c").mkdir()
    (tree / "a" / "b" / "c" / "deep.md").write_bytes(b"deep\n")
    (tree / "a" / "b" / "g.md").write_bytes(b"after the deeper folder\n")
    read = {
        entry.path: fs.read_at(fd, entry.name, 100, label=entry.path, link_code="POLICY_PARSE")
        for fd, entry in fs.walk(tree, "a")
        if entry.kind == "file"
    }
    assert read == {
        "a/b/c/deep.md": b"deep\n",
        "a/b/f.md": b"inside\n",
        "a/b/g.md": b"after the deeper folder\n",
    }


def test_the_walk_goes_on_after_an_entry_that_vanished(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry listed by scandir is gone when it is stat-ed: left out, the walk goes on."""
    (tree / "a" / "c.md").write_bytes(b"")
    real_stat = os.stat

    def vanished_b(path: str, *args: object, **kwargs: object) -> os.stat_result:
        if path == "b" and kwargs.get("dir_fd") is not None:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", vanished_b)
    assert walked(tree) == [("a/c.md", "file"), ("a/escape", "link"), ("a/link", "link")]


def test_a_directory_that_cannot_be_entered_is_yielded_as_a_link_and_the_walk_goes_on(
    tree: Path, monkeypatch: pytest.MonkeyPatch, no_fd_leak: None
) -> None:
    """A directory swapped for a link (or unreadable) between its stat and its open."""
    (tree / "a" / "b2").mkdir()
    (tree / "a" / "b2" / "g.md").write_bytes(b"")
    real_open = os.open

    def refuse_b(path: str, flags: int, *args: object, **kwargs: object) -> int:
        if path == "b" and kwargs.get("dir_fd") is not None:
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP))
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refuse_b)
    assert walked(tree) == [
        ("a/b", "dir"),
        ("a/b", "link"),
        ("a/b2", "dir"),
        ("a/b2/g.md", "file"),
        ("a/escape", "link"),
        ("a/link", "link"),
    ]


def test_walks_leak_no_descriptor_even_when_abandoned(tree: Path, no_fd_leak: None) -> None:
    (tree / "a" / "b" / "c" / "d").mkdir(parents=True)
    for _ in range(3):
        assert len(walked(tree)) == 6
    walk = fs.walk(tree, "a")
    for _, entry in walk:
        if entry.path == "a/b/c/d":
            break
    walk.close()


# --- exclusive creation and publication -----------------------------------------------------------


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    path = tmp_path / "cache"
    path.mkdir()
    with fs.open_dir(tmp_path, "cache") as fd:
        yield path, fd


def test_write_exclusive_creates_with_its_mode(cache: tuple[Path, int], no_fd_leak: None) -> None:
    path, fd = cache
    old = os.umask(0)
    try:
        fs.write_exclusive(fd, "new", b"data" * 1000)
        fs.write_exclusive(fd, "private", b"", mode=0o600)
    finally:
        os.umask(old)
    assert (path / "new").read_bytes() == b"data" * 1000
    assert stat.S_IMODE((path / "new").stat().st_mode) == 0o644
    assert stat.S_IMODE((path / "private").stat().st_mode) == 0o600


def test_write_exclusive_never_replaces_a_file_or_writes_through_a_link(
    cache: tuple[Path, int], tmp_path: Path, no_fd_leak: None
) -> None:
    path, fd = cache
    (path / "taken").write_bytes(b"old")
    with pytest.raises(FileExistsError):
        fs.write_exclusive(fd, "taken", b"new")
    assert (path / "taken").read_bytes() == b"old"
    (tmp_path / "victim").write_bytes(b"victim")
    (path / "trap").symlink_to(tmp_path / "victim")
    (path / "dangling").symlink_to(tmp_path / "nothing-here")
    for name in ("trap", "dangling"):
        with pytest.raises(FileExistsError):
            fs.write_exclusive(fd, name, b"new")
    assert (tmp_path / "victim").read_bytes() == b"victim"
    assert not (tmp_path / "nothing-here").exists()


def test_publish_links_a_new_target_and_removes_the_staging_file(
    cache: tuple[Path, int],
) -> None:
    path, fd = cache
    fs.write_exclusive(fd, "staging", b"new")
    fs.publish(fd, "staging", "target")
    assert sorted(os.listdir(path)) == ["target"]
    assert (path / "target").read_bytes() == b"new"


def test_publish_replaces_an_existing_target(cache: tuple[Path, int]) -> None:
    path, fd = cache
    (path / "target").write_bytes(b"old")
    fs.write_exclusive(fd, "staging", b"new")
    fs.publish(fd, "staging", "target")
    assert sorted(os.listdir(path)) == ["target"]
    assert (path / "target").read_bytes() == b"new"


@pytest.mark.parametrize("error", [errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV])
@pytest.mark.parametrize("existing", [False, True])
def test_publish_falls_back_to_rename_without_hard_links(
    cache: tuple[Path, int], monkeypatch: pytest.MonkeyPatch, error: int, existing: bool
) -> None:
    """A filesystem without hard links (some FUSE, SMB and vfat mounts) refuses link()."""
    path, fd = cache
    if existing:
        (path / "target").write_bytes(b"old")

    def no_hard_links(*args: object, **kwargs: object) -> None:
        raise OSError(error, os.strerror(error))

    monkeypatch.setattr(os, "link", no_hard_links)
    fs.write_exclusive(fd, "staging", b"new")
    fs.publish(fd, "staging", "target")
    assert sorted(os.listdir(path)) == ["target"]
    assert (path / "target").read_bytes() == b"new"


def test_publish_never_follows_a_linked_staging_file(
    cache: tuple[Path, int], tmp_path: Path
) -> None:
    path, fd = cache
    (tmp_path / "elsewhere").write_bytes(b"elsewhere")
    (path / "staging").symlink_to(tmp_path / "elsewhere")
    fs.publish(fd, "staging", "target")
    assert (path / "target").is_symlink()  # the link itself, not a hard link to its target
    assert os.stat(tmp_path / "elsewhere").st_nlink == 1


# --- depth ------------------------------------------------------------------------------------


def nest(root: Path, depth: int) -> str:
    path = "a/" + "/".join(["d"] * depth)
    (root / path).mkdir(parents=True)
    return path


def test_the_walk_enters_exactly_max_depth_folders(tmp_path: Path, no_fd_leak: None) -> None:
    assert fs.MAX_DEPTH == 64
    deepest = nest(tmp_path, fs.MAX_DEPTH)
    assert walked(tmp_path)[-1] == (deepest, "dir")


def test_one_folder_deeper_than_max_depth_is_the_limit(tmp_path: Path, no_fd_leak: None) -> None:
    deepest = nest(tmp_path, fs.MAX_DEPTH + 1)
    with pytest.raises(ContextError) as info:
        walked(tmp_path)
    assert (info.value.code, info.value.detail) == (
        "CONTEXT_LIMIT",
        f"depth: {deepest} is nested more than 64 folders deep",
    )


# --- permission denied (simulated: the tests may run as root, who ignores modes) ---------------


@pytest.fixture
def denied(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names whose no-follow open below a directory descriptor fails with EACCES."""
    names: list[str] = []
    real_open = os.open

    def open_unless_denied(path: str, flags: int, *args: object, **kwargs: object) -> int:
        if path in names and kwargs.get("dir_fd") is not None:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", open_unless_denied)
    return names


def test_an_unreadable_folder_on_the_way_is_source_permission(
    tree: Path, denied: list[str], no_fd_leak: None
) -> None:
    denied.append("b")
    with pytest.raises(ContextError) as info:
        fs.read_relative(tree, "a/b/f.md", 100, code="POLICY_PARSE")
    assert (info.value.code, info.value.detail) == (
        "SOURCE_PERMISSION",
        "a/b/f.md: permission denied",
    )


def test_an_unreadable_file_is_source_permission(tree: Path, denied: list[str]) -> None:
    denied.append("f.md")
    with pytest.raises(ContextError) as info:
        read(tree, "a/b", "f.md")
    assert (info.value.code, info.value.detail) == ("SOURCE_PERMISSION", "f.md: permission denied")


def test_an_unreadable_walk_root_is_one_unreadable_entry(tree: Path, denied: list[str]) -> None:
    denied.append("b")
    assert [(fd, e) for fd, e in fs.walk(tree, "a/b")] == [(-1, fs.Entry("a/b", "b", "unreadable"))]


def test_a_folder_replaced_while_walked_is_refused(tree: Path, no_fd_leak: None) -> None:
    """The walk re-opens a parent after its subtree: a different folder there (same path,
    other device:inode) is a swap, never walked as if it were the same."""

    def walk_and_swap() -> None:
        for _, entry in fs.walk(tree, "a"):
            if entry.path == "a/b/f.md":
                os.rename(tree / "a", tree / "a-old")
                (tree / "a").mkdir()

    with pytest.raises(ContextError) as info:
        walk_and_swap()
    assert (info.value.code, info.value.detail) == (
        "SOURCE_LINK",
        "a: the folder was replaced while it was read",
    )


def test_an_abandoned_walk_closes_even_descriptor_zero(tree: Path) -> None:
    """Without a stdin the walk's descriptor may be 0: closing the walk still closes it."""
    (tree / "a" / "b" / "c").mkdir()
    saved = os.dup(0)
    os.close(0)
    try:
        walk = fs.walk(tree, "a/b")
        fd, _ = next(walk)
        assert fd == 0
        walk.close()
        assert not os.path.exists("/proc/self/fd/0")
    finally:
        os.dup2(saved, 0)
        os.close(saved)


def test_a_folder_that_cannot_be_listed_is_unreadable_and_closed(
    tree: Path, monkeypatch: pytest.MonkeyPatch, no_fd_leak: None
) -> None:
    inode = (tree / "a" / "b").stat().st_ino
    real_scandir = os.scandir

    def refuse_b(fd: int) -> object:
        if os.fstat(fd).st_ino == inode:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real_scandir(fd)

    monkeypatch.setattr(os, "scandir", refuse_b)
    assert walked(tree) == [
        ("a/b", "dir"),
        ("a/b", "unreadable"),
        ("a/escape", "link"),
        ("a/link", "link"),
    ]


# --- user-given input paths ---------------------------------------------------------------------


def test_input_paths_inside_the_root(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = fs.resolve_root(tree)
    assert fs.portable_input_path(root, str(tree / "a" / "b" / "f.md")) == "a/b/f.md"
    monkeypatch.chdir(tree / "a")
    assert fs.portable_input_path(root, "b/f.md") == "a/b/f.md"


def test_an_input_path_through_a_link_to_the_root_is_refused(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the resolved root counts: a path spelled through a link to it is not inside."""
    (tree.parent / "alias").symlink_to(tree)
    monkeypatch.chdir(tree.parent / "alias")
    assert fs.portable_input_path(fs.resolve_root(tree), "a/b/f.md") == "a/b/f.md"
    with pytest.raises(ContextError, match="must be a file inside the project root"):
        fs.portable_input_path(fs.resolve_root(tree), str(tree.parent / "alias" / "a" / "b"))


@pytest.mark.parametrize(
    ("user_path", "detail"),
    [
        ("a/../a/b/f.md", "`..` is not allowed"),
        ("a\\..\\a\\b\\f.md", "`..` is not allowed"),
        ("..", "`..` is not allowed"),
        ("../out/secret.md", "`..` is not allowed"),
        ("/etc/passwd", "must be a file inside the project root"),
        (".", "must be a file inside the project root"),
    ],
)
def test_input_paths_outside_the_root_or_with_dot_dot_are_refused(
    tree: Path, monkeypatch: pytest.MonkeyPatch, user_path: str, detail: str
) -> None:
    monkeypatch.chdir(tree)
    with pytest.raises(ContextError) as info:
        fs.portable_input_path(fs.resolve_root(tree), user_path, code="POLICY_PARSE")
    assert (info.value.code, info.value.detail) == ("POLICY_PARSE", f"{user_path}: {detail}")


def test_an_input_path_from_a_cwd_outside_the_root_is_refused(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tree.parent / "out")
    with pytest.raises(ContextError) as info:
        fs.portable_input_path(fs.resolve_root(tree), "secret.md")
    assert info.value.code == "CONTEXT_INPUT_PATH"
