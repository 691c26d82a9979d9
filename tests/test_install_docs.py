"""The install and pinning commands of the docs work as written (issue #25): README's Install
from a clone and from the git URL (the package index line marked as the future), and the
pre-commit `rev:` and the Action's `@ref` pinned to a commit of this repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import yaml

from project_corpus.core.about import DISTRIBUTION
from project_corpus.core.about import GIT_INSTALL
from project_corpus.core.about import GIT_URL
from project_corpus.core.about import HOMEPAGE
from project_corpus.core.about import PYPI_INSTALL
from project_corpus.core.about import __version__
from tests.test_packaging import _dependency_dir

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
INSTALL = README.split("## Install\n", 1)[1].split("\n## ", 1)[0]
SHA_RE = re.compile(r"\b[0-9a-f]{40}\b")


def bash_blocks(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", text, re.S)


def test_install_names_commands_that_work_today() -> None:
    blocks = bash_blocks(INSTALL)
    lines = [line.split("#", 1)[0].strip() for block in blocks for line in block.splitlines()]
    assert GIT_INSTALL in lines  # pip install 'git+https://github.com/...'
    assert f"pip install '{DISTRIBUTION}[mcp] @ {GIT_URL}'" in lines
    assert f"git clone {HOMEPAGE} && cd {HOMEPAGE.rsplit('/', 1)[1]}" in lines
    assert "python3 -m venv .venv && .venv/bin/pip install ." in lines
    # the package index is the future: never offered as a command to run today
    assert not any(line.startswith(PYPI_INSTALL) for line in lines)
    future = INSTALL.split("*Future:*", 1)[1]
    assert " ".join(future.split()).startswith(
        f"once a release is published to the package index, `{PYPI_INSTALL}`"
    )
    assert "finds nothing today" in future


def test_getting_started_installs_from_the_repository() -> None:
    text = (REPO / "docs" / "getting-started.md").read_text(encoding="utf-8")
    first = bash_blocks(text)[0]
    assert f".venv/bin/{GIT_INSTALL}" in first
    assert PYPI_INSTALL + "\n" not in text


def _clone(target: Path) -> Path:
    """The tracked files of this checkout, as `git clone` would give them."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        source = REPO / rel
        if source.is_file() and not source.is_symlink():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
    return target


@pytest.mark.slow
def test_the_clone_install_of_the_readme_works_in_a_fresh_venv(tmp_path: Path) -> None:
    """README's `python3 -m venv .venv && .venv/bin/pip install .` in a clone, offline: the
    same pip install of the clone's folder, without the network (`--no-build-isolation`
    uses this environment's hatchling; the runtime dependencies come from this one too)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    clone = _clone(tmp_path / "project-corpus-context")
    env_dir = clone / ".venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "runtime-deps.pth").write_text(f"{_dependency_dir(tmp_path)}\n")
    # `pip install .` is "build the clone's wheel, install it": the build runs with this
    # environment's hatchling (the fresh venv has no build backend and no network).
    offline = ["--quiet", "--no-build-isolation", "--no-deps", "--no-index"]
    pip = [sys.executable, "-m", "pip"]
    built = subprocess.run(
        [*pip, "wheel", *offline, "-w", str(tmp_path / "dist"), "."],
        cwd=clone,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    done = subprocess.run(
        [*pip, "--python", str(python), "install", *offline, str(wheel)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    env = {"HOME": str(tmp_path), "PATH": os.environ.get("PATH", ""), "NO_COLOR": "1"}
    command = str(env_dir / "bin" / "project-corpus")
    version = subprocess.run([command, "--version"], capture_output=True, text=True, env=env)
    assert version.stdout == f"project-corpus {__version__}\n", version.stderr
    doctor = subprocess.run(
        [command, "context", "doctor", "fixtures/example", "--format", "text"],
        capture_output=True,
        text=True,
        env=env,
        cwd=clone,
    )
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert doctor.stdout.rstrip().endswith("; ok")


def _pinned(path: str, pattern: str) -> tuple[str, str]:
    """(SHA, the rest of its line) of the one pinned reference in docs/PATH."""
    text = (REPO / "docs" / path).read_text(encoding="utf-8")
    (line,) = [line for line in text.splitlines() if re.search(pattern, line)]
    (sha,) = SHA_RE.findall(line)
    return sha, line.split(sha, 1)[1]


def _at(sha: str, rel: str) -> str:
    """REL's text at commit SHA of this repository (skips when the history is not here)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    found = subprocess.run(
        ["git", "cat-file", "-e", f"{sha}^{{commit}}"], cwd=REPO, capture_output=True
    )
    if found.returncode != 0:
        shallow = subprocess.run(
            ["git", "rev-parse", "--is-shallow-repository"], cwd=REPO, capture_output=True
        )
        if shallow.stdout.strip() == b"true":
            pytest.skip("a shallow clone lacks the pinned commit")
        pytest.fail(f"{sha} is not a commit of this repository")
    shown = subprocess.run(["git", "show", f"{sha}:{rel}"], cwd=REPO, capture_output=True)
    assert shown.returncode == 0, f"{rel} is missing at {sha}"
    return shown.stdout.decode("utf-8")


def test_the_pre_commit_docs_pin_a_commit_that_holds_the_hooks() -> None:
    sha, rest = _pinned("pre-commit.md", r"^\s+rev: ")
    assert rest.lstrip().startswith("# ")  # what it is, in a comment
    text = (REPO / "docs" / "pre-commit.md").read_text(encoding="utf-8")
    block = text.split("```yaml\nrepos:", 1)[1].split("```", 1)[0]
    config = yaml.safe_load("repos:" + block)
    hooks = config["repos"][0]["hooks"]
    assert config["repos"][0]["repo"] == HOMEPAGE
    assert all(hook["always_run"] is True for hook in hooks)  # whatever the pinned manifest says
    manifest = yaml.safe_load(_at(sha, ".pre-commit-hooks.yaml"))
    assert {hook["id"] for hook in hooks} <= {hook["id"] for hook in manifest}


def test_the_action_docs_pin_a_commit_that_holds_the_action() -> None:
    sha, rest = _pinned("github-action.md", r"uses: corpus-tools/project-corpus-context/action@")
    assert rest.lstrip().startswith("# ")
    assert "runs:" in _at(sha, "action/action.yml")
