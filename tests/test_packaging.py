"""The package we publish: its name, URLs, licence, and a wheel that installs and runs.

Names and URLs have one home, `project_corpus.core.about`; these tests keep `pyproject.toml`, the
schemas, the hints and the docs in agreement with it, and hold that no placeholder URL ships.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from project_corpus import __version__
from project_corpus.core.about import DISTRIBUTION
from project_corpus.core.about import HOMEPAGE
from project_corpus.core.about import MCP_INSTALL_HINT
from project_corpus.core.about import PROJECT_URLS
from project_corpus.core.about import SCHEMA_BASE_URL
from project_corpus.core.schemas import load_schema
from project_corpus.core.schemas import schema_names
from project_corpus.output.sarif import INFORMATION_URI
from tests.conftest import REPO

PLACEHOLDERS = re.compile(
    r"project-corpus\.dev|github\.com/project-corpus/|OWNER/|example\.(com|org)/|"
    r"pip install '?project-corpus(\[| |'|$)",
    re.MULTILINE,
)
PUBLISHED_TEXT = ("README.md", "CHANGELOG.md", "pyproject.toml", ".pre-commit-hooks.yaml")
RUNTIME_DEPENDENCIES = ("click", "yaml", "snowballstemmer")


def pyproject() -> dict[str, object]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def shipped_text_files() -> list[Path]:
    roots = [REPO / "src", REPO / "docs", REPO / "action"]
    found = [
        p
        for root in roots
        for p in root.rglob("*")
        if p.suffix in (".py", ".md", ".json", ".yml", ".yaml", ".toml")
    ]
    return sorted(found) + [REPO / name for name in PUBLISHED_TEXT]


def test_distribution_name_urls_and_version_come_from_one_place() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert project["name"] == DISTRIBUTION != "project-corpus"
    assert project["urls"] == PROJECT_URLS
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert project["classifiers"]
    assert project["keywords"]
    assert project["scripts"] == {"project-corpus": "project_corpus.__main__:run"}
    assert INFORMATION_URI == HOMEPAGE == PROJECT_URLS["Homepage"]
    assert f"## [{__version__}]" in (REPO / "CHANGELOG.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", schema_names())
def test_schema_id_lives_at_the_project_home(name: str) -> None:
    assert load_schema(name)["$id"] == f"{SCHEMA_BASE_URL}/{name}.schema.json"


def test_mcp_install_hint_names_our_distribution_from_the_repository() -> None:
    # the package is not on the index yet: the hint installs the extra from the git URL
    assert f"pip install '{DISTRIBUTION}[mcp] @ git+{HOMEPAGE}'" in MCP_INSTALL_HINT
    assert MCP_INSTALL_HINT.startswith("install the [mcp] extra: ")


def test_no_placeholder_url_or_upstream_install_hint_anywhere() -> None:
    offenders = [
        f"{path.relative_to(REPO)}: {match.group(0)!r}"
        for path in shipped_text_files()
        for match in PLACEHOLDERS.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_license_is_mit() -> None:
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c)" in text


def _dependency_dir(tmp_path: Path) -> Path:
    """A folder holding links to the runtime dependencies of the current environment only."""
    folder = tmp_path / "deps"
    folder.mkdir()
    for name in RUNTIME_DEPENDENCIES:
        spec = importlib.util.find_spec(name)
        assert spec is not None
        assert spec.origin is not None
        package = Path(spec.origin).parent if spec.submodule_search_locations else Path(spec.origin)
        (folder / package.name).symlink_to(package)
    return folder


def _build(out: Path) -> tuple[Path, Path]:
    """(sdist, wheel) built as the release workflow builds them (`python -m build`, here
    without isolation: no network), both passing `twine check --strict`."""
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)],
        check=True,
        capture_output=True,
    )
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(sdist), str(wheel)],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2, checked.stdout
    return sdist, wheel


def _fresh_venv(tmp_path: Path, wheel: Path) -> Path:
    env_dir = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "runtime-deps.pth").write_text(f"{_dependency_dir(tmp_path)}\n", encoding="utf-8")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    return env_dir


@pytest.mark.slow
def test_built_wheel_installs_runs_and_ships_no_placeholder(tmp_path: Path) -> None:
    sdist, wheel = _build(tmp_path / "dist")
    assert wheel.name.startswith(f"project_corpus_context-{__version__}-")
    assert sdist.name == f"project_corpus_context-{__version__}.tar.gz"
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
    top = f"project_corpus_context-{__version__}"
    for shipped in ("LICENSE", "README.md", "CHANGELOG.md", "src/project_corpus/__init__.py"):
        assert f"{top}/{shipped}" in members
    assert not any("/.project-corpus/cache/" in name for name in members)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        meta = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        texts = {
            n: archive.read(n).decode("utf-8", "replace") for n in names if not n.endswith(".pyc")
        }
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "License-Expression: MIT" in meta
    assert "License-File: LICENSE" in meta
    assert f"Name: {DISTRIBUTION}" in meta
    assert f"Project-URL: Homepage, {HOMEPAGE}" in meta
    assert not any("/cache/" in n for n in names)
    assert [n for n, text in texts.items() if PLACEHOLDERS.search(text)] == []
    env_dir = _fresh_venv(tmp_path, wheel)
    home = {"HOME": str(tmp_path), "PATH": os.environ.get("PATH", ""), "NO_COLOR": "1"}
    done = subprocess.run(
        [str(env_dir / "bin" / "project-corpus"), "--version"],
        capture_output=True,
        text=True,
        env=home,
        cwd=tmp_path,
    )
    assert (done.returncode, done.stdout) == (0, f"project-corpus {__version__}\n"), done.stderr
    init = subprocess.run(  # the templates are package data: init works from the wheel
        [str(env_dir / "bin" / "project-corpus"), "init", "from-wheel", "--format", "json"],
        capture_output=True,
        text=True,
        env=home,
        cwd=tmp_path,
    )
    assert init.returncode == 0, init.stderr
    assert (tmp_path / "from-wheel" / ".project-corpus" / "state" / "STATUS.md").is_file()
    where = subprocess.run(
        [
            str(env_dir / "bin" / "python"),
            "-c",
            "import project_corpus, json; print(json.dumps(project_corpus.__file__))",
        ],
        capture_output=True,
        text=True,
        env=home,
        cwd=tmp_path,
        check=True,
    )
    assert str(env_dir) in json.loads(where.stdout)
