"""People and machines (SPEC §10): under a real pseudo-terminal the commands print text and
errors print `error[CODE]`; piped, they print the same JSON as `--format json`.

The commands run in a subprocess whose stdout and stderr are the slave ends of two
`os.openpty()` pairs, so `isatty()` is true exactly as in a person's terminal.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.conftest import FIXTURES
from tests.conftest import copy_fixture

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
STATUS = ".project-corpus/state/STATUS.md"


class Ran(NamedTuple):
    code: int
    out: str
    err: str


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return {**env, "TERM": "xterm", **extra}


def run_tty(args: list[str], **env: str) -> Ran:
    """Run the CLI with stdout and stderr on two pseudo-terminals."""
    (out_master, out_slave), (err_master, err_slave) = os.openpty(), os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "project_corpus", *args],
        stdin=subprocess.DEVNULL,
        stdout=out_slave,
        stderr=err_slave,
        env=child_env(**env),
    )
    os.close(out_slave)
    os.close(err_slave)
    chunks: dict[int, list[bytes]] = {out_master: [], err_master: []}
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            for key, _ in selector.select(timeout=60):
                try:
                    data = os.read(key.fd, 65536)
                except OSError:  # EIO: the child closed its end
                    data = b""
                if data:
                    chunks[key.fd].append(data)
                else:
                    selector.unregister(key.fd)
    code = proc.wait(timeout=60)
    for fd in chunks:
        os.close(fd)
    text = {
        fd: b"".join(parts).decode("utf-8").replace("\r\n", "\n") for fd, parts in chunks.items()
    }
    return Ran(code, text[out_master], text[err_master])


def run_piped(args: list[str], **env: str) -> Ran:
    proc = subprocess.run(
        [sys.executable, "-m", "project_corpus", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        env=child_env(**env),
        stdin=subprocess.DEVNULL,
    )
    return Ran(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = copy_fixture(FIXTURES / "example", tmp_path_factory.mktemp("terminal") / "example")
    note = target / ".project-corpus/history/2026-standup.md"
    note.write_text("# Standup\n\n## Notes\nThe canary is currently serving reads.\n")
    assert run_piped(["context", "build", str(target)]).code == 0
    return target


COMMANDS = {
    "query": ["context", "query", "{root}", "eviction policy", "--limit", "3"],
    "bundle": ["context", "bundle", "{root}", "eviction policy", "--max-tokens", "300"],
    "doctor": ["context", "doctor", "{root}"],
}


def argv(name: str, root: Path) -> list[str]:
    return [arg.format(root=root) for arg in COMMANDS[name]]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_text_at_a_terminal_json_when_piped(root: Path, name: str) -> None:
    tty = run_tty(argv(name, root), NO_COLOR="1")
    piped = run_piped(argv(name, root))
    explicit = run_piped([*argv(name, root), "--format", "json"])
    assert (tty.code, piped.code) == (0, 0), tty.err + piped.err
    assert not tty.out.lstrip().startswith("{")
    assert "\x1b[" not in tty.out  # NO_COLOR
    data = json.loads(piped.out)
    if name != "bundle":  # a bundle carries its creation time
        assert piped.out == explicit.out
    if name == "query":
        first = data["results"][0]
        shown = f"{root}/{first['source_path']}"  # from the current folder, as ROOT was given
        assert f"  1. {shown}:{first['line_start']}" in tty.out
        assert first["section"] in tty.out
        assert f"score {first['retrieval_score']}" in tty.out
    elif name == "bundle":
        assert "Summaries:" in tty.out
        assert "Items:" in tty.out
        assert "Budget: " in tty.out
        assert " of 300 tokens" in tty.out
    else:
        # ROOT as given, the line and the column of the volatile term, the severity
        note = f"{root}/.project-corpus/history/2026-standup.md"
        assert f"{note}:4:15: WARN VOLATILE_WITHOUT_FRESHNESS " in tty.out
        assert "    The canary is currently serving reads.\n" in tty.out
        assert tty.out.splitlines()[-1].startswith("project-corpus: 0 FAIL, ")
        assert data["summary"]["WARN"] >= 1


@pytest.mark.slow
def test_errors_at_a_terminal_and_piped(root: Path) -> None:
    args = ["context", "query", str(root), " ?! "]
    tty = run_tty(args, NO_COLOR="1")
    assert (tty.code, tty.out) == (2, "")
    assert tty.err.startswith("error[QUERY_EMPTY]: ")
    piped = run_piped(args)
    assert json.loads(piped.err)["error"] == "QUERY_EMPTY"


@pytest.mark.slow
def test_usage_errors_name_the_subcommand_help(root: Path) -> None:
    tty = run_tty(["context", "doctor", str(root), "--selectt", "X"], NO_COLOR="1")
    assert tty.code == 2
    assert tty.err.startswith("error[USAGE_ERROR]: ")
    assert "  hint: see `project-corpus context doctor --help`" in tty.err
    piped = run_piped(["context", "bundle"])
    assert json.loads(piped.err)["hint"] == "see `project-corpus context bundle --help`"


@pytest.mark.slow
def test_colour_only_on_a_terminal_never_with_no_color_forced_with_force_color(
    root: Path,
) -> None:
    doctor = argv("doctor", root)
    assert "\x1b[" in run_tty(doctor).out
    assert "\x1b[" in run_tty(["context", "query", str(root), " ?! "]).err
    assert "\x1b[" not in run_tty(doctor, NO_COLOR="1").out
    assert "\x1b[" not in run_tty(doctor, NO_COLOR="1", FORCE_COLOR="1").out
    assert "\x1b[" not in run_piped([*doctor, "--format", "text"]).out
    assert "\x1b[" in run_piped([*doctor, "--format", "text"], FORCE_COLOR="1").out
    assert "\x1b[" not in run_piped(doctor, FORCE_COLOR="1").out  # JSON is never coloured


@pytest.mark.slow
def test_every_result_command_has_a_text_view(root: Path, tmp_path: Path) -> None:
    bundle = root / "bundle.json"
    bundle.write_text(run_piped(argv("bundle", root)).out, encoding="utf-8")
    runs = {
        "build": run_tty(["context", "build", str(root)], NO_COLOR="1"),
        "receipt": run_tty(
            ["context", "receipt", str(root), "--bundle", str(bundle), "--consumer", "me"]
        ),
        "candidate-validate": run_tty(["context", "candidate-validate", str(root)]),
        "explain": run_tty(["explain", "UNUSED_SUPPRESSION"]),
    }
    for name, ran in runs.items():
        assert ran.code == 0, (name, ran.err)
        assert not ran.out.lstrip().startswith("{"), name
    assert runs["build"].out.startswith("Indexed ")
    assert "consumer: me" in runs["receipt"].out
    assert runs["explain"].out.startswith("UNUSED_SUPPRESSION (unused-suppression)")
