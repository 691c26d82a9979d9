"""The release workflow (.github/workflows/release.yml, docs/releasing.md) does what it says:
a `v*` tag builds and checks both distributions, runs the wheel, and releases with the tag's
CHANGELOG section. Its shell steps are run here for real, against this checkout."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from project_corpus import __version__
from tests.conftest import REPO

RELEASE = REPO / ".github" / "workflows" / "release.yml"
CHANGELOG = REPO / "CHANGELOG.md"
SECTION_RE = re.compile(r"^## \[(Unreleased|\d+\.\d+\.\d+)\](?: — (\d{4}-\d{2}-\d{2}))?$")


def workflow() -> dict[object, object]:
    loaded = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def steps() -> list[dict[str, str]]:
    jobs = workflow()["jobs"]
    assert isinstance(jobs, dict)
    (job,) = jobs.values()
    return list(job["steps"])


def step(name: str) -> dict[str, str]:
    (found,) = [s for s in steps() if s.get("name", "").startswith(name)]
    return found


def run_step(name: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    return subprocess.run(
        [bash, "-euo", "pipefail", "-c", step(name)["run"]],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_version_tag_triggers_it_and_only_the_release_step_may_write() -> None:
    meta = workflow()
    triggers = meta.get("on", meta.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers == {"push": {"tags": ["v*"]}}
    assert meta["permissions"] == {"contents": "read"}
    commands = " ".join(s.get("run", "") for s in steps())
    for needed in ("python -m build", "twine check --strict", "-m venv", "gh release create"):
        assert needed in commands
    tokens = [s["name"] for s in steps() if "GH_TOKEN" in s.get("env", {})]
    assert tokens == ["Attach both to the GitHub release"]
    checkout = steps()[0]
    assert checkout["with"]["persist-credentials"] is False  # type: ignore[index]


def test_changelog_has_a_dated_section_per_version_and_one_for_this_version() -> None:
    headings = [line for line in CHANGELOG.read_text(encoding="utf-8").splitlines() if line.startswith("## ")]  # fmt: skip
    matches = [SECTION_RE.match(line) for line in headings]
    assert all(matches), [h for h, m in zip(headings, matches, strict=True) if not m]
    versions = [m.group(1) for m in matches if m]
    assert versions[0] == "Unreleased"
    assert __version__ in versions
    assert len(set(versions)) == len(versions)
    assert all(m.group(2) for m in matches if m and m.group(1) != "Unreleased")


def test_the_version_step_takes_the_tags_changelog_section(tmp_path: Path) -> None:
    env = {"TAG": f"v{__version__}", "RUNNER_TEMP": str(tmp_path)}
    done = run_step("The tag is the package's version", REPO, env)
    assert done.returncode == 0, done.stdout + done.stderr
    notes = (tmp_path / "notes.md").read_text(encoding="utf-8")
    assert notes.strip()
    assert "## [" not in notes  # this version's section only
    section = CHANGELOG.read_text(encoding="utf-8").split(f"## [{__version__}]", 1)[1]
    assert notes.strip().splitlines()[0] in section


def test_the_version_step_refuses_a_tag_that_is_not_the_version(tmp_path: Path) -> None:
    done = run_step("The tag is the package's version", REPO, {"TAG": "v99.0.0", "RUNNER_TEMP": str(tmp_path)})  # fmt: skip
    assert done.returncode == 1
    assert "::error::tag v99.0.0" in done.stdout


@pytest.mark.slow
def test_the_smoke_commands_run(tmp_path: Path) -> None:
    """The smoke step's commands, with this environment's `project-corpus` for the wheel's."""
    script = step("Install the wheel in a clean venv and run it")["run"]
    lines = [line for line in script.splitlines() if "pip install" not in line and "-m venv" not in line]  # fmt: skip
    shutil.copytree(REPO / "fixtures" / "example", tmp_path / "src-example", ignore=shutil.ignore_patterns("cache"))  # fmt: skip
    bindir = Path(sys.executable).parent
    script = "\n".join(lines).replace('bin="$RUNNER_TEMP/clean/bin"', f'bin="{bindir}"')
    script = script.replace("cp -R fixtures/example", f"cp -R {tmp_path / 'src-example'}")
    runner = tmp_path / "runner"
    runner.mkdir()
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=REPO,
        env={**os.environ, "TAG": f"v{__version__}", "RUNNER_TEMP": str(runner), "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (runner / "fresh" / ".project-corpus" / "state" / "PROJECT.md").is_file()
    assert "SCAFFOLD_PLACEHOLDER" in done.stdout  # the fresh corpus's guidance, reported
