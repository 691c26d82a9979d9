"""What `run.py` measures: the cases, their baselines and targets, and the corpora they need.

Three groups, all run in the same interleaved rounds:

- the maximum corpus (wall time against the read-and-hash floor of the same corpus,
docs/performance.md);
- a many-findings corpus (~11,000 doctor findings: every eighth sentence or so carries an
  undated volatile claim), doctor against its own floor;
- the small example corpus (`fixtures/example`, copied), every context command in CPU time
  against a bare `python -c pass`.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
EXAMPLE = REPO / "fixtures" / "example"
FINDINGS_VOLATILE = ("0.6", "0")  # generate.py --volatile: ~11,000 WARN findings
DOCTOR_CODES = (0, 1)  # 1 means findings
RSS_TARGET_MB = 150.0


@dataclass
class Case:
    """One command to time: how to run it, which floor it is compared with, its targets.

    `metric` is "wall" (seconds of wall time) or "cpu" (user + system time of the process).
    `baseline` names another case's median: "floor", "floor-findings", "bare" (wall time of
    `python -c pass`) or "bare-cpu" (its CPU time); None for the floors themselves.
    """

    name: str
    argv: list[str]
    baseline: str | None = None
    target: float | None = None  # maximum ratio to the baseline
    ok_codes: tuple[int, ...] = (0,)
    tool: bool = True
    metric: str = "wall"


def _cli() -> list[str]:
    return [sys.executable, "-m", "project_corpus"]


def floor_cases(root: str, findings_root: str | None) -> list[Case]:
    """The floors, first: read and hash the maximum corpus (and the many-findings one), and a
    bare interpreter (its wall time for `--version`, its CPU time for the small corpus)."""
    floor = [sys.executable, str(HERE / "floor.py")]
    cases = [
        Case("floor: read + sha256", [*floor, root], tool=False),
        Case("floor: python -c pass", [sys.executable, "-c", "pass"], tool=False),
        Case(
            "floor: python -c pass (CPU)", [sys.executable, "-c", "pass"], tool=False, metric="cpu"
        ),
    ]
    if findings_root:
        cases.append(Case("floor: read + sha256 (findings)", [*floor, findings_root], tool=False))
    return cases


FLOOR_KEYS = {
    "floor: read + sha256": "floor",
    "floor: python -c pass": "bare",
    "floor: python -c pass (CPU)": "bare-cpu",
    "floor: read + sha256 (findings)": "floor-findings",
}


def tool_cases(root: str) -> list[Case]:
    """The commands on the maximum corpus, in run order (build before its readers)."""
    ctx = [*_cli(), "context"]
    index = str(Path(root, ".project-corpus", "cache", "context.sqlite3"))
    return [
        Case("--version", [*_cli(), "--version"], "bare", 2.0),
        Case("context build", [*ctx, "build", root], "floor", 8.0),
        Case(
            "context query (en)",
            [*ctx, "query", root, "what is the exact next action"],
            "floor",
            5.0,
        ),
        Case("context query (ru)", [*ctx, "query", root, "какое текущее состояние"], "floor", 5.0),
        Case("context bundle", [*ctx, "bundle", root, "eviction policy latency"], "floor", 5.0),
        Case("context doctor", [*ctx, "doctor", root], "floor", 5.0, DOCTOR_CODES),
        Case(
            "context doctor --index",
            [*ctx, "doctor", root, "--index", index],
            "floor",
            None,
            DOCTOR_CODES,
        ),
    ]


def findings_cases(findings_root: str) -> list[Case]:
    doctor = [*_cli(), "context", "doctor", findings_root]
    return [Case("context doctor (~11,000 findings)", doctor, "floor-findings", 8.0, DOCTOR_CODES)]


def small_cases(example: str) -> list[Case]:
    """Every context command on the example corpus, CPU time against a bare interpreter."""
    ctx = [*_cli(), "context"]
    bundle, dataset = str(Path(example, "bench-bundle.json")), str(Path(example, "eval.json"))

    def case(name: str, *args: str, codes: tuple[int, ...] = (0,)) -> Case:
        return Case(f"small: {name}", [*ctx, *args], "bare-cpu", 5.0, codes, metric="cpu")

    # A reference without a target: the interpreter and `import click`, leaving as the tool
    # does (`os._exit`, no teardown). What is left of a command's 5x after it is the room for
    # its own imports and work (docs/performance.md).
    startup = [sys.executable, "-c", "import click, os; os._exit(0)"]
    return [
        Case("small: start-up floor (import click)", startup, "bare-cpu", tool=False, metric="cpu"),
        case("build", "build", example),
        case("query", "query", example, "eviction policy"),
        case("bundle", "bundle", example, "eviction policy"),
        case("receipt", "receipt", example, "--bundle", bundle, "--consumer", "bench"),
        case("doctor", "doctor", example, codes=DOCTOR_CODES),
        case("candidate-validate", "candidate-validate", example, codes=DOCTOR_CODES),
        case("eval", "eval", example, "--dataset", dataset, codes=DOCTOR_CODES),
    ]


def generate_findings_corpus(timeout: float, args: list[str]) -> Path:
    """The many-findings corpus in a new temporary directory (generated in a child process)."""
    out = Path(tempfile.mkdtemp(prefix="project-corpus-bench-findings-"))
    argv = [sys.executable, str(HERE / "generate.py"), str(out), "--force", *args]
    argv += ["--volatile", *FINDINGS_VOLATILE]
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, timeout=timeout)
    return out


def prepare_example(env: dict[str, str], timeout: float) -> Path:
    """A copy of fixtures/example (without an index) with what receipt and candidate-validate
    read: a bundle file inside the root and one candidate citing STATUS."""
    root = Path(tempfile.mkdtemp(prefix="project-corpus-bench-example-")) / "example"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("cache"))
    ctx = [*_cli(), "context"]
    subprocess.run(
        [*ctx, "build", str(root)], env=env, check=True, capture_output=True, timeout=timeout
    )
    bundle = subprocess.run(
        [*ctx, "bundle", str(root), "eviction policy"],
        env=env,
        check=True,
        capture_output=True,
        timeout=timeout,
    )
    (root / "bench-bundle.json").write_bytes(bundle.stdout)
    status = ".project-corpus/state/STATUS.md"
    project = json.loads(bundle.stdout)["project_id"]
    candidate = {
        "schema_version": "1",
        "candidate_id": "c-bench-001",
        "project_id": project,
        "kind": "semantic_fact",
        "statement": "STATUS is the canonical current state.",
        "source_refs": [
            {
                "source_path": status,
                "source_sha256": hashlib.sha256((root / status).read_bytes()).hexdigest(),
                "line_start": 1,
            }
        ],
        "created_at": "2026-11-25T12:00:00Z",
        "status": "candidate",
    }
    folder = root / ".project-corpus" / "candidates"
    folder.mkdir(exist_ok=True)
    (folder / "c-bench-001.json").write_text(json.dumps(candidate, indent=2) + "\n", "utf-8")
    return root
