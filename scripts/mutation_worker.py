"""The test runner of scripts/mutation.py: a fork server, so a mutant costs a fork, not a
fresh interpreter.

Started as `mutation_worker.py BASETEMP STAGE...` with PYTHONPATH pointing at a private copy
of the package, the worker imports pytest and every test module once (a collection run),
then forgets the project's and the tests' modules. For each request (one JSON line on stdin:
the test stages with their timeouts) it forks one child per stage; the child imports the
package afresh from the copy (where the mutant has just been written; no bytecode is ever
cached) and runs `pytest -x` on the stage. The first stage that fails decides; the answer
(one JSON line on stdout) is killed, survived or timeout.

A test that starts the CLI or the server in a subprocess sees the mutant only if the child
inherits PYTHONPATH: with an environment built from scratch (the MCP SDK's stdio client
passes HOME, PATH and a few others only) the child imports the unmutated package of the
editable install, and a mutant that only such a test can kill "survives". Tests that build
a child environment must carry PYTHONPATH over (tests/mcp_server/test_mcp_server.py's `child_env`).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import subprocess
import sys
import time
import warnings

import pytest

PYTEST_ARGS = ("-x", "-q", "-p", "no:cacheprovider")
BASETEMP = sys.argv[1] if len(sys.argv) > 1 else ""


def _forget_project_modules() -> None:
    for name in list(sys.modules):
        if name.split(".")[0] in ("project_corpus", "tests"):
            del sys.modules[name]


def _child(stage: str, basetemp: str) -> None:
    code = 1
    try:
        os.setpgid(0, 0)
        code = int(pytest.main([*PYTEST_ARGS, f"--basetemp={basetemp}", stage]))
    finally:
        os._exit(code)


def run_stage(stage: str, timeout: float) -> str:
    """killed, survived or timeout: one stage in a forked child with its own temporary root
    (pytest's clean-up of the shared /tmp/pytest-of-<user> races with other pytest runs on
    the machine; a leftover tree of the hostile tests is deeper than shutil.rmtree goes)."""
    basetemp = os.path.join(BASETEMP, str(time.monotonic_ns()))
    pid = os.fork()
    if pid == 0:
        _child(stage, basetemp)
    try:
        return _wait(pid, timeout)
    finally:
        subprocess.run(["rm", "-rf", basetemp], check=False)


def _wait(pid: int, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.02)


def run(stages: list[tuple[str, float]]) -> str:
    """The first stage that fails decides; survived when none does."""
    for stage, timeout in stages:
        outcome = run_stage(stage, timeout)
        if outcome != "survived":
            return outcome
    return "survived"


def main() -> int:
    answers = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.dont_write_bytecode = True
    os.makedirs(BASETEMP, exist_ok=True)
    pytest.main(["--collect-only", *PYTEST_ARGS, *sys.argv[2:]])
    _forget_project_modules()
    with warnings.catch_warnings():  # finalize the collection's garbage here, not in a child
        warnings.simplefilter("ignore")
        gc.collect()
    gc.freeze()  # what is left is shared by every child and never scanned again
    for line in sys.stdin:
        outcome = run([(stage, timeout) for stage, timeout in json.loads(line)])
        os.write(answers, (json.dumps(outcome) + "\n").encode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
