"""The snapshot's confinement and limits, guard by guard (SPEC §2.1–§2.3).

The limits are module constants read at call time, so a test lowers them to reach each
boundary exactly without writing megabytes.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from project_corpus.core.errors import ContextError
from project_corpus.corpus import fs
from project_corpus.corpus import snapshot
from project_corpus.corpus.snapshot import collect
from tests.conftest import POLICY
from tests.conftest import MakeCorpus

R = ".project-corpus/reports/"
H = ".project-corpus/history/"
G = ".project-corpus/generated/"
MARKER = "NON_AUTHORITATIVE_VIEW"


def findings(root: Path) -> list[tuple[str, str, str]]:
    return [(f.code, f.path, f.detail) for f in collect(root, strict=False).findings]


def refused(root: Path) -> ContextError:
    with pytest.raises(ContextError) as info:
        collect(root)
    return info.value


# --- links and special files ---------------------------------------------------------------------


def test_a_linked_or_special_source_is_a_finding_and_reading_goes_on(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus()
    (root / R / "a-link.md").symlink_to(root / "AGENTS.md")
    os.mkfifo(root / R / "b-pipe.md")
    assert findings(root) == [
        ("SOURCE_LINK", R + "a-link.md", "a link is never followed"),
        ("SOURCE_LINK", R + "b-pipe.md", "a special is never followed"),
    ]
    assert len(collect(root, strict=False).sources) == len(collect(make_corpus(name="c")).sources)
    error = refused(root)
    assert (error.code, error.detail) == ("SOURCE_LINK", f"{R}a-link.md: a link is never followed")
    assert [f.line for f in collect(root, strict=False).findings] == [1, 1]


@pytest.mark.parametrize(
    ("swap", "detail"),
    [
        ("link", "a symbolic link is never followed"),
        ("gone", f"cannot be opened ({os.strerror(errno.ENOENT)})"),
    ],
)
def test_a_source_listed_as_a_file_then_swapped_is_refused_when_opened(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch, swap: str, detail: str
) -> None:
    """The walk takes a regular file's type from its folder's listing (no `lstat`): a file
    swapped for a link, or deleted, after the listing is refused by the no-follow open."""
    root = make_corpus()
    source = root / R / "x.md"
    source.write_text("# X\n")
    real_names = fs._names

    def list_then_swap(fd: int) -> tuple[list[str], frozenset[str]]:
        names, files = real_names(fd)
        if "x.md" in files and source.is_file():
            source.unlink()
            if swap == "link":
                source.symlink_to(root / "AGENTS.md")
        return names, files

    monkeypatch.setattr(fs, "_names", list_then_swap)
    error = refused(root)
    assert (error.code, error.detail) == ("SOURCE_LINK", f"{R}x.md: {detail}")
    source.unlink(missing_ok=True)
    source.write_text("# X\n")
    assert findings(root) == [("SOURCE_LINK", R + "x.md", detail)]


@pytest.mark.parametrize("name", ["sub", "x.md"])
def test_an_unreadable_folder_or_source_is_source_permission_in_both_modes(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Root reads through chmod 0, so the open is refused as an unprivileged user's would be."""
    root = make_corpus()
    if name == "sub":
        (root / R / name).mkdir()
    else:
        (root / R / name).write_text("# X\n")
    real_open = os.open

    def refuse_sub(path: str, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        if path == name:
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", refuse_sub)
    for strict in (True, False):
        with pytest.raises(ContextError) as info:
            collect(root, strict=strict)
        assert (info.value.code, info.value.detail) == (
            "SOURCE_PERMISSION",
            f"{R}{name}: permission denied",
        )


def test_a_linked_directory_that_could_hold_sources_is_a_finding(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "x.md").write_text("# secret\n")
    (root / R / "sub").symlink_to(tmp_path / "outside")
    assert findings(root) == [("SOURCE_LINK", R + "sub", "a link is never followed")]


def test_links_that_could_never_be_sources_are_ignored(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    policy = POLICY.replace('".project-corpus/history/**"', '".project-corpus/history/2026-*.md"')
    root = make_corpus({".project-corpus/policy.toml": policy})
    (tmp_path / "outside").mkdir()
    (root / H / "private").symlink_to(tmp_path / "outside")  # a directory out of scope
    (root / H / "private.md").symlink_to(root / "AGENTS.md")  # a file out of scope
    (root / R / "notes.txt").symlink_to(root / "AGENTS.md")  # not Markdown
    (root / R / "dangling").symlink_to(tmp_path / "nothing")  # a link to nothing
    (root / R / "file-link").symlink_to(root / "AGENTS.md")  # a link to a file, not .md
    os.mkfifo(root / R / "pipe.txt")
    assert findings(root) == []


def test_a_real_directory_inside_a_source_root_is_walked(make_corpus: MakeCorpus) -> None:
    from tests.conftest import report

    root = make_corpus({R + "a/deep.md": report("deep", "2026-11-01", "Deep."), R + "zz.md": report("zz", "2026-11-01", "Last.")})  # fmt: skip
    paths = [s.path for s in collect(root).sources]
    assert R + "a/deep.md" in paths
    assert R + "zz.md" in paths


def test_a_linked_source_root_is_never_walked(make_corpus: MakeCorpus, tmp_path: Path) -> None:
    root = make_corpus()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.md").write_text("# X\n")
    os.rename(root / H, tmp_path / "old-history")
    (root / H.rstrip("/")).symlink_to(tmp_path / "elsewhere")
    found = findings(root)
    assert found == [
        ("REQUIRED_PATH_LINK", H.rstrip("/"), "required dir is a link"),
    ]
    assert not any(s.path.startswith(H) for s in collect(root, strict=False).sources)


# --- required paths -----------------------------------------------------------------------------


def test_a_missing_corpus_folder_is_one_finding_not_one_per_child(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("# A\n")
    assert findings(tmp_path) == [
        ("MISSING_REQUIRED_PATH", ".project-corpus", "required dir is missing")
    ]


@pytest.mark.parametrize(
    ("rel", "make", "code", "detail"),
    [
        ("AGENTS.md", "dir", "MISSING_REQUIRED_PATH", "required file is a dir"),
        ("AGENTS.md", "fifo", "REQUIRED_PATH_LINK", "required file is a special"),
        (".project-corpus/tasks", "file", "MISSING_REQUIRED_PATH", "required dir is a file"),
        (".project-corpus/tasks", "link", "REQUIRED_PATH_LINK", "required dir is a link"),
        (".project-corpus/state", None, "MISSING_REQUIRED_PATH", "required dir is missing"),
    ],
)
def test_each_required_path_problem(
    make_corpus: MakeCorpus, tmp_path: Path, rel: str, make: str | None, code: str, detail: str
) -> None:
    root = make_corpus({rel: None}) if rel == "AGENTS.md" else make_corpus()
    path = root / rel
    if path.is_dir():
        for child in path.iterdir():
            child.unlink()
        path.rmdir()
    elif path.exists():
        path.unlink()
    if make == "dir":
        path.mkdir()
    elif make == "fifo":
        os.mkfifo(path)
    elif make == "file":
        path.write_text("x")
    elif make == "link":
        path.symlink_to(tmp_path)
    found = findings(root)
    assert (code, rel, detail) in found
    assert not any(path.startswith(rel + "/") for _, path, _ in found)  # children not repeated
    assert refused(root).code == "PROTOCOL_NONCONFORMANT"


def test_a_missing_artifact_folder_reads_as_empty(make_corpus: MakeCorpus) -> None:
    root = make_corpus()
    for child in (root / H).iterdir():
        child.unlink()
    (root / H).rmdir()
    assert findings(root) == [
        (
            "MISSING_ARTIFACT_DIR",
            H,
            "read as empty; create it with a .gitkeep file to keep it in Git",
        )
    ]
    assert not any(s.path.startswith(H) for s in collect(root).sources)


def test_a_missing_folder_skips_only_its_own_children(make_corpus: MakeCorpus) -> None:
    """state/ gone: its two files are not repeated, and the folders after it are still
    checked (every absent artifact folder is its own warning)."""
    root = make_corpus()
    for rel in (".project-corpus/state", ".project-corpus/tasks", ".project-corpus/reports"):
        shutil.rmtree(root / rel)
    empty = "read as empty; create it with a .gitkeep file to keep it in Git"
    assert findings(root) == [
        ("MISSING_REQUIRED_PATH", ".project-corpus/state", "required dir is missing"),
        ("MISSING_ARTIFACT_DIR", ".project-corpus/tasks/", empty),
        ("MISSING_ARTIFACT_DIR", ".project-corpus/reports/", empty),
    ]
    assert [f.line for f in collect(root, strict=False).findings] == [1, 1, 1]


def test_a_broken_policy_path_gives_no_policy_findings(make_corpus: MakeCorpus) -> None:
    root = make_corpus({".project-corpus/policy.toml": None})
    (root / ".project-corpus/policy.toml").mkdir()
    codes = [code for code, _, _ in findings(root)]
    assert codes[0] == "MISSING_REQUIRED_PATH"
    assert not any(code.startswith("POLICY_") for code in codes)


def test_a_policy_over_its_limit_is_a_parse_finding(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    size = len(POLICY.encode())
    monkeypatch.setattr(snapshot, "MAX_POLICY_BYTES", size)
    assert findings(root) == []
    monkeypatch.setattr(snapshot, "MAX_POLICY_BYTES", size - 1)
    assert findings(root)[0] == (
        "POLICY_PARSE",
        ".project-corpus/policy.toml",
        f".project-corpus/policy.toml: {size} bytes exceeds the limit of {size - 1}",
    )
    assert collect(root, strict=False).findings[0].line == 1


# --- limits -------------------------------------------------------------------------------------


def test_the_source_count_limit_is_exact(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    count = len(collect(root).sources)
    monkeypatch.setattr(snapshot, "MAX_SOURCES", count)
    assert len(collect(root).sources) == count
    monkeypatch.setattr(snapshot, "MAX_SOURCES", count - 1)
    error = refused(root)
    assert (error.code, error.detail) == (
        "CONTEXT_LIMIT",
        f"sources: more than {count - 1} scoped sources",
    )


def test_the_source_size_limit_is_exact(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    largest = max(s.size for s in collect(root).sources)
    monkeypatch.setattr(snapshot, "MAX_SOURCE_BYTES", largest)
    collect(root)
    monkeypatch.setattr(snapshot, "MAX_SOURCE_BYTES", largest - 1)
    error = refused(root)
    assert error.code == "CONTEXT_LIMIT"
    assert error.detail.startswith("source_bytes: ")
    assert error.detail.endswith(f"bytes exceeds the limit of {largest - 1}")


def test_the_snapshot_size_limit_is_exact(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    total = sum(s.size for s in collect(root).sources)
    monkeypatch.setattr(snapshot, "MAX_TOTAL_BYTES", total)
    collect(root)
    monkeypatch.setattr(snapshot, "MAX_TOTAL_BYTES", total - 1)
    error = refused(root)
    assert (error.code, error.detail) == (
        "CONTEXT_LIMIT",
        f"snapshot_bytes: more than {total - 1} bytes in scoped sources",
    )


def test_the_line_limit_is_exact(make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_corpus()
    lines = sum(s.doc.nonblank_lines for s in collect(root).sources)
    monkeypatch.setattr(snapshot, "MAX_NONBLANK_LINES", lines)
    collect(root)
    monkeypatch.setattr(snapshot, "MAX_NONBLANK_LINES", lines - 1)
    error = refused(root)
    assert (error.code, error.detail) == (
        "CONTEXT_LIMIT",
        f"nonblank_lines: more than {lines - 1} non-blank lines",
    )


def test_limits_apply_in_the_doctor_mode_too(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus()
    monkeypatch.setattr(snapshot, "MAX_SOURCES", 1)
    with pytest.raises(ContextError) as info:
        collect(root, strict=False)
    assert info.value.code == "CONTEXT_LIMIT"


def test_bad_utf8_has_its_code_in_each_mode(make_corpus: MakeCorpus) -> None:
    root = make_corpus({R + "bad.md": b"# R\n\xff\n"})
    where = "not UTF-8 at byte 4 (line 2, column 1)"
    assert findings(root) == [("INVALID_ENCODING", R + "bad.md", where)]
    error = refused(root)
    assert (error.code, error.detail) == ("SOURCE_ENCODING", f"{R}bad.md: {where}")


# --- portable paths -----------------------------------------------------------------------------


def test_a_collision_names_the_first_path_and_every_later_one(make_corpus: MakeCorpus) -> None:
    root = make_corpus({R + "A.md": "# A\n", R + "a.md": "# a\n", R + "\u00c5.md": "# x\n", R + "\u00e5.md": "# y\n"})  # fmt: skip
    assert [(c, p, d) for c, p, d in findings(root) if c == "SOURCE_PATH"] == [
        ("SOURCE_PATH", R + "a.md", f"collides with {R}A.md by case or Unicode normalisation"),
        ("SOURCE_PATH", R + "\u00e5.md", f"collides with {R}\u00c5.md by case or Unicode normalisation"),
    ]  # fmt: skip


@pytest.mark.parametrize("name", ["nul.md", "LPT9.md", "COM9.md", "com0.notes.md", "Con/x.md"])
def test_windows_device_names_are_refused(make_corpus: MakeCorpus, name: str) -> None:
    root = make_corpus({H + name: "# D\n"})
    assert ("SOURCE_PATH", H + name, "a path component is a device name on Windows") in findings(
        root
    )
    assert {f.line for f in collect(root, strict=False).findings} == {1}
    error = refused(root)
    assert error.code == "SOURCE_PATH"


@pytest.mark.parametrize("name", ["console.md", "com10.md", "lpt10.md", "lpt.md", "auxiliary.md"])
def test_names_that_only_look_like_devices_are_fine(make_corpus: MakeCorpus, name: str) -> None:
    root = make_corpus({H + name: "# D\n"})
    assert findings(root) == []


# --- generated views ----------------------------------------------------------------------------


def test_generated_views_are_checked_for_their_marker(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            G + "a-marked.md": f"{MARKER} by a tool -->\n# View\n",
            G + "b-unmarked.md": "# View\n",
            G + "late.md": "x" * 600 + MARKER,
            G + "notes.txt": "no marker needed",
            G + "sub.md/inner.md": f"{MARKER} -->\n",
            G + "sub.md/plain.md": "# no marker\n",
        }
    )
    unmarked = f"no {MARKER} in the first 512 characters"
    assert findings(root) == [
        ("GENERATED_VIEW_UNMARKED", G + "b-unmarked.md", unmarked),
        ("GENERATED_VIEW_UNMARKED", G + "late.md", unmarked),
        ("GENERATED_VIEW_UNMARKED", G + "sub.md/plain.md", unmarked),
    ]
    assert {f.line for f in collect(root, strict=False).findings} == {1}


def test_a_linked_generated_view_is_never_read(make_corpus: MakeCorpus) -> None:
    root = make_corpus({G + "real.md": f"{MARKER} -->\n"})
    (root / G / "linked.md").symlink_to(root / G / "real.md")
    assert findings(root) == [
        (
            "GENERATED_VIEW_UNMARKED",
            G + "linked.md",
            f"{G}linked.md: a symbolic link is never followed",
        )
    ]
    assert [f.line for f in collect(root, strict=False).findings] == [1]


def test_every_view_is_checked_after_one_that_cannot_be_read(make_corpus: MakeCorpus) -> None:
    root = make_corpus({G + "real.md": f"{MARKER} -->\n", G + "z-plain.md": "# View\n"})
    for name in ("a-linked.md", "b-linked.md"):
        (root / G / name).symlink_to(root / G / "real.md")
    link = "a symbolic link is never followed"
    assert findings(root) == [
        ("GENERATED_VIEW_UNMARKED", G + "a-linked.md", f"{G}a-linked.md: {link}"),
        ("GENERATED_VIEW_UNMARKED", G + "b-linked.md", f"{G}b-linked.md: {link}"),
        ("GENERATED_VIEW_UNMARKED", G + "z-plain.md", f"no {MARKER} in the first 512 characters"),
    ]


def test_a_linked_generated_folder_is_not_walked(make_corpus: MakeCorpus, tmp_path: Path) -> None:
    root = make_corpus()
    (tmp_path / "views").mkdir()
    (tmp_path / "views" / "x.md").write_text("# unmarked\n")
    (root / G.rstrip("/")).symlink_to(tmp_path / "views")
    assert findings(root) == []


def test_a_generated_view_over_8_mib_is_unmarked_not_read(make_corpus: MakeCorpus) -> None:
    limit = 8 * 1024 * 1024  # spelt out: the module's own constant is what is under test
    head = f"{MARKER} -->\n"
    root = make_corpus({G + "at.md": head + "x" * (limit - len(head))})
    (root / G / "over.md").write_text(head + "x" * (limit + 1 - len(head)))
    assert findings(root) == [
        (
            "GENERATED_VIEW_UNMARKED",
            G + "over.md",
            f"{G}over.md: {limit + 1} bytes exceeds the limit of {limit}",
        )
    ]


def test_an_unreadable_generated_folder_is_source_permission(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus({G + "sub/v.md": f"{MARKER} -->\n"})
    real_open = os.open

    def refuse_sub(path: str, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        if path == "sub":
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", refuse_sub)
    with pytest.raises(ContextError) as info:
        collect(root, strict=False)
    assert (info.value.code, info.value.detail) == (
        "SOURCE_PERMISSION",
        f"{G}sub: permission denied",
    )
