"""Every ref the docs pin exists (issue #35, item 12): a `uses: …@REF` or a pre-commit `rev:` in
docs/, the README or CONTRIBUTING names this repository by an existing tag or a full commit SHA
of its history; a third-party action by a full commit SHA with its version in a comment. A
reader who copies a snippet gets something that resolves."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest

from project_corpus.core.about import HOMEPAGE
from tests.conftest import REPO

OURS = HOMEPAGE.removeprefix("https://github.com/")  # owner/name
USES_RE = re.compile(r"uses:\s*([\w.-]+/[\w.-]+)((?:/[\w.-]+)*)@(\S+)(.*)$")
REPO_RE = re.compile(r"^\s*-?\s*repo:\s*(\S+)")
REV_RE = re.compile(r"^\s*rev:\s*['\"]?([^\s'\"#]+)['\"]?(.*)$")
SHA_RE = re.compile(r"[0-9a-f]{40}")
# A tag or a version named as a ref in prose (`@v1.2.3`): it must exist as well.
PROSE_REF_RE = re.compile(r"`[^`\s]*@(v\d[\w.-]*)`")


class Pin(NamedTuple):
    where: str  # path:line
    repo: str  # owner/name
    ref: str
    comment: str  # the rest of the line


def doc_files() -> list[Path]:
    return [
        *sorted((REPO / "docs").rglob("*.md")),
        REPO / "README.md",
        REPO / "CONTRIBUTING.md",
    ]


def pins(path: Path, name: str) -> list[Pin]:
    """The pinned refs of PATH (called NAME): `uses:` lines, a pre-commit `rev:` under its
    `repo:`, and a tag named in prose."""
    found: list[Pin] = []
    repo = ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        where = f"{name}:{number}"
        uses = USES_RE.search(line)
        if uses:
            found.append(Pin(where, uses.group(1), uses.group(3), uses.group(4)))
        named = REPO_RE.match(line)
        if named:
            repo = named.group(1).removeprefix("https://github.com/").removesuffix(".git")
        rev = REV_RE.match(line)
        if rev and repo:
            found.append(Pin(where, repo, rev.group(1), rev.group(2)))
        found += [Pin(where, OURS, ref, "") for ref in PROSE_REF_RE.findall(line)]
    return found


ALL_PINS = [pin for path in doc_files() for pin in pins(path, path.relative_to(REPO).as_posix())]


def git(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, check=False)


def exists_here(ref: str) -> bool:
    """REF is a tag or a full commit SHA of this repository's history."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    target = ref if SHA_RE.fullmatch(ref) else f"refs/tags/{ref}"
    if git("cat-file", "-e", f"{target}^{{commit}}").returncode == 0:
        return True
    if git("rev-parse", "--is-shallow-repository").stdout.strip() == b"true":
        pytest.skip("a shallow clone lacks older commits and tags")
    return False


def test_the_docs_pin_something() -> None:
    """The scan sees the snippets (a scan that finds nothing checks nothing)."""
    assert {pin.repo for pin in ALL_PINS} >= {OURS, "actions/checkout"}
    assert any(pin.where.startswith("docs/pre-commit.md") for pin in ALL_PINS)
    assert any(pin.where.startswith("docs/review.md") for pin in ALL_PINS)


@pytest.mark.parametrize("pin", [p for p in ALL_PINS if p.repo == OURS], ids=lambda p: p.where)
def test_our_pins_are_existing_tags_or_commits(pin: Pin) -> None:
    assert SHA_RE.fullmatch(pin.ref) or not re.fullmatch(r"[0-9a-f]{7,39}", pin.ref), pin
    assert exists_here(pin.ref), f"{pin.where}: {pin.ref} is neither a tag nor a commit here"
    if SHA_RE.fullmatch(pin.ref):
        assert pin.comment.strip().startswith("#"), f"{pin.where}: say what the SHA is"


@pytest.mark.parametrize("pin", [p for p in ALL_PINS if p.repo != OURS], ids=lambda p: p.where)
def test_third_party_pins_are_full_shas_with_their_version(pin: Pin) -> None:
    assert SHA_RE.fullmatch(pin.ref), pin
    assert re.match(r"\s*#\s*v\d", pin.comment), pin


def test_a_missing_tag_or_commit_is_caught() -> None:
    """The check itself: a tag that was never made and a SHA that is no commit fail it."""
    if git("rev-parse", "--is-shallow-repository").stdout.strip() == b"true":
        pytest.skip("a shallow clone: absence proves nothing")
    assert not exists_here("v0.0.0-never-tagged")
    assert not exists_here("0" * 40)
    head = git("rev-parse", "HEAD").stdout.decode().strip()
    assert exists_here(head)


def test_the_scan_reads_uses_rev_and_prose_refs(tmp_path: Path) -> None:
    doc = tmp_path / "probe.md"
    doc.write_text(
        "```yaml\n- uses: corpus-tools/project-corpus-context/action@v9.9.9 # v9.9.9\n"
        "repos:\n  - repo: https://github.com/corpus-tools/project-corpus-context\n"
        "    rev: abc1234  # short\n```\nOr `project-corpus-context@v8.0.0`.\n",
        encoding="utf-8",
    )
    found = [(p.repo, p.ref) for p in pins(doc, "probe.md")]
    assert found == [(OURS, "v9.9.9"), (OURS, "abc1234"), (OURS, "v8.0.0")]
