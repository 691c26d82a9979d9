"""Mutation testing of the security core: does every guard have a test that misses it?

A small AST mutator, no dependency. For each module of the security core it enumerates
mutants, applies ONE at a time to a copy of the package on a temporary PYTHONPATH (the
working tree is never touched), runs that module's mapped tests with `pytest -x`, and
counts the mutant killed when the tests fail or time out. It prints the score per module
and every surviving mutant; mutants judged equivalent (no test can tell them from the
original) are listed in EQUIVALENT with the reason, excluded from the score and printed
apart. Figures and the equivalents are documented in docs/testing.md.

Operators (each site gives one mutant per applicable operator):
  compare   flip a comparison (`<`→`>=`, `==`→`!=`, `in`→`not in`, `is`→`is not`, ...)
  boundary  move a bound (`<`↔`<=`, `>`↔`>=`)
  flag      drop one `os.O_*` flag from a `|` expression
  raise     delete a `raise` statement (replaced by `pass`)
  boolop    swap `and`/`or`
  not       drop a `not`
  int       off-by-one on an integer constant (n+1 and n-1)
  bool      flip a True/False constant
  loop      `continue`↔`break`
  call      delete a call statement (`os.close(fd)`, `findings.append(...)`, ...)

Usage (from the repository root, with the project's virtualenv):
  python scripts/mutation.py                       # every module of the core
  python scripts/mutation.py fs policy --list      # only list the mutants
  python scripts/mutation.py index --whole-suite   # the whole suite as the runner
Not run in CI: a full run takes tens of minutes on two cores.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "src" / "project_corpus"


class Target(NamedTuple):
    """A module under test: its file (relative to the package), the tests that guard it,
    and the functions to mutate (empty: the whole module)."""

    path: str
    tests: tuple[str, ...]
    functions: tuple[str, ...] = ()


TARGETS = {
    "fs": Target(
        "corpus/fs.py",
        (
            "tests/corpus/test_fs.py",
            "tests/hostile/test_file_system.py",
            "tests/corpus/test_confinement.py",
            "tests/corpus/test_snapshot.py",
            "tests/index/test_index_guards.py",
            "tests/index/test_index.py",
        ),
    ),
    "policy": Target(
        "corpus/policy.py", ("tests/corpus/test_policy_guards.py", "tests/corpus/test_policy.py")
    ),
    "index": Target(
        "index/store.py",
        (
            "tests/index/test_index_guards.py",
            "tests/index/test_index.py",
            "tests/hostile/test_staging.py",
            "tests/hostile/test_planted_index.py",
            "tests/hostile/test_tampered_index.py",
            "tests/hostile/test_write_guards.py",
            "tests/retrieval/test_indexed.py",
        ),
    ),
    "roots": Target(
        "corpus/roots.py",
        (
            "tests/hostile/test_init_roots.py",
            "tests/hostile/test_roots.py",
            "tests/hostile/test_root_permission.py",
            "tests/corpus/test_confinement.py",
            "tests/cli/test_first_run_messages.py",
        ),
    ),
    "scaffold": Target(
        "scaffold/create.py",
        (
            "tests/hostile/test_write_guards.py",
            "tests/hostile/test_init_roots.py",
            "tests/scaffold/test_scaffold.py",
            "tests/test_anchors.py",
        ),
    ),
    "outfile": Target(
        "adapters/cli/outfile.py",
        ("tests/hostile/test_write_guards.py", "tests/hostile/test_output_path.py"),
    ),
    "candidate": Target(
        "corpus/candidate.py",
        ("tests/corpus/test_candidate_guards.py", "tests/corpus/test_candidate.py"),
    ),
    "snapshot": Target(
        "corpus/snapshot.py",
        (
            "tests/corpus/test_confinement.py",
            "tests/hostile/test_file_system.py",
            "tests/corpus/test_snapshot.py",
        ),
        ("SourceReader", "_read_policy"),
    ),
    "worktree": Target(
        "corpus/worktree.py",
        (
            "tests/corpus/test_confinement.py",
            "tests/hostile/test_file_system.py",
            "tests/corpus/test_snapshot.py",
        ),
    ),
    "required": Target(
        "corpus/required.py",
        (
            "tests/corpus/test_confinement.py",
            "tests/corpus/test_snapshot.py",
            "tests/hostile/test_file_system.py",
            "tests/doctor/test_checks.py",
        ),
    ),
    "trust": Target("mcp_server/trust.py", ("tests/trust/", "tests/mcp_server/test_mcp_server.py")),
    "grant_file": Target(
        "mcp_server/grant_file.py", ("tests/trust/", "tests/mcp_server/test_mcp_server.py")
    ),
}

_ZERO = "os.O_RDONLY is 0 on every POSIX system: dropping it from `|` changes nothing"
_EMPTY_READ = "with 0 bytes left the loop reads b'' and breaks: one more empty read, same data"
_CHUNK = (
    "the length asked of one read (the stat size + 1, at least 64 KiB, then 1 MiB): the loop "
    "reads until end of file or the bound whatever it is, so the data is the same"
)
_FSYNC = "durability across a power loss: no test short of pulling the plug can observe it"
_CLOSE = "an in-memory SQLite connection is freed with its object; nothing observable leaks"
_TOKEN = "the staging name's random length: any length is unique enough and still refused"
_PEP446 = "Python opens every descriptor non-inheritable (PEP 446): O_CLOEXEC is implied"
EQUIVALENT: dict[tuple[str, str, str], str] = {
    ("fs", "", "`O_RDONLY` dropped"): _ZERO,
    ("fs", "", "`O_RDONLY` dropped #2"): _ZERO,
    ("fs", "", "`O_CLOEXEC` dropped"): _PEP446,
    ("fs", "", "`O_CLOEXEC` dropped #2"): _PEP446,
    ("fs", "write_exclusive", "`O_CLOEXEC` dropped"): _PEP446,
    ("fs", "_read_bounded", "`1` → 2"): "reads one byte more past the limit: the same "
    "`len(data) > max_bytes` verdict, a one-byte larger bound",
    ("fs", "_read_bounded", "`1` → 2 #2"): _CHUNK,
    ("fs", "_read_bounded", "`1` → 0 #2"): _CHUNK,
    ("fs", "_read_bounded", "`1` → 2 #3"): _CHUNK,
    ("fs", "_read_bounded", "`1` → 0 #3"): _CHUNK,
    ("fs", "_read_bounded", "`16` → 17"): _CHUNK,
    ("fs", "_read_bounded", "`16` → 15"): _CHUNK,
    ("fs", "_read_bounded", "`1` → 2 #4"): _CHUNK,
    ("fs", "_read_bounded", "`20` → 21"): _CHUNK,
    ("fs", "_read_bounded", "`20` → 19"): _CHUNK,
    ("fs", "_read_bounded", "`0` → -1"): _EMPTY_READ,
    ("fs", "resolve_root", "`1` → 0"): "an absolute path split on `os.sep` starts with an "
    "empty part: joining it after `os.sep` adds nothing to the project folder the hint names",
    ("fs", "walk", "`1` → 2 #3"): "`fd = -2` marks 'no descriptor' as well as -1: only "
    "`fd >= 0` is ever tested",
    ("fs", "write_exclusive", "`os.fsync(fd)` deleted"): _FSYNC,
    ("fs", "publish", "`os.fsync(dir_fd)` deleted"): _FSYNC,
    ("index", "serialize", "`conn.execute('PRAGMA page_size = 4096')` deleted"): "4096 is "
    "SQLite's default page size; the pragma only pins it against a different build default",
    ("index", "serialize", "`conn.commit()` deleted"): "`serialize()` of an in-memory database "
    "includes the open transaction's pages",
    ("index", "serialize", "`conn.close()` deleted"): _CLOSE,
    ("index", "_load", "`conn.close()` deleted"): _CLOSE,
    ("index", "_publish", "`8` → 9"): _TOKEN,
    ("index", "_publish", "`8` → 7"): _TOKEN,
    ("index", "_check_cache_dir", "`False` flipped"): "after losing the race to create "
    "cache/, looking again with create=True finds it and creates nothing either",
    ("index", "_check_cache_dir", "`True` flipped"): "build ignores the answer after creating "
    "cache/ (only the create=False callers use it)",
    ("fs", "_read_bounded", "`remaining > 0`: > → >="): _EMPTY_READ,
    ("required", "generated_views", "`2048` → 2049"): "the marker is looked for in the first "
    "512 characters: 2048 bytes hold them at 4 bytes each; one byte more decodes the same",
    ("required", "generated_views", "`2048` → 2047"): "the marker is 22 ASCII characters: "
    "within the first 512 characters it ends by byte 1982 (490 four-byte characters before "
    "it), so every slice of 1982 bytes or more finds it or misses it alike",
    ("index", "load_verified", "`False` flipped"): "the open keeps the sources only "
    "(verify_index reads no item): loading every item row as well costs time, not a different "
    "answer; check_schema has type-checked every row either way",
    ("roots", "_outside_corpus", "`1` → 0"): "parts[0] is the empty string before the "
    "path's leading separator: joining it after os.sep gives the same path",
    ("policy", "may_hold", "`3` → 2"): "the scope ends with `/**`, so scope[:-2] is "
    "scope[:-3] and a `/`: one holds a `*` exactly when the other does",
    ("grant_file", "write_atomic", "`handle.flush()` deleted"): "closing the file at the end "
    "of `with` flushes it before os.replace; only the fsync then misses the data: " + _FSYNC,
    ("grant_file", "write_atomic", "`os.fsync(handle.fileno())` deleted"): _FSYNC,
    ("grant_file", "write_atomic", "`_fsync_dir(path.parent)` deleted"): _FSYNC,
    ("grant_file", "_fsync_dir", "`os.fsync(fd)` deleted"): _FSYNC,
    ("grant_file", "_fsync_dir", "`O_RDONLY` dropped"): _ZERO,
    ("grant_file", "_fsync_dir", "`O_DIRECTORY` dropped"): "the folder os.replace has just "
    "written into is a directory; O_DIRECTORY only refuses a non-directory, and every error "
    "of this durability step is suppressed anyway",
    ("grant_file", "_read_grant_file", "`O_RDONLY` dropped"): _ZERO,
    ("grant_file", "_read_grant_file", "`O_CLOEXEC` dropped"): _PEP446,
    ("grant_file", "_read_grant_file", "`1` → 2"): "reads one byte more past the limit: the "
    "same `len(data) > MAX_GRANT_BYTES` verdict",
}

_FLIP = {
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BOUNDARY = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}


class Mutant(NamedTuple):
    number: int
    line: int
    function: str
    operator: str
    description: str


class Mutator(ast.NodeTransformer):
    """Walks a module in a fixed order, numbering every mutation site; with TARGET set,
    replaces the node of that site (and only that one)."""

    def __init__(self, functions: tuple[str, ...], target: int | None = None) -> None:
        self.functions, self.target = functions, target
        self.sites: list[Mutant] = []
        self.scope: list[str] = []

    def _active(self) -> bool:
        name = ".".join(self.scope)
        return not self.functions or any(
            name == f or name.startswith(f + ".") for f in self.functions
        )

    def _site(
        self, node: ast.AST, operator: str, description: str, build: Callable[[], ast.AST]
    ) -> ast.AST | None:
        """Number a site; the replacement when it is the target, else None."""
        if not self._active():
            return None
        number = len(self.sites)
        line = getattr(node, "lineno", 0)
        self.sites.append(Mutant(number, line, ".".join(self.scope), operator, description))
        return build() if number == self.target else None

    def _first(
        self, node: ast.AST, options: list[tuple[str, str, Callable[[], ast.AST]]]
    ) -> ast.AST:
        replaced: ast.AST | None = None
        for operator, description, build in options:
            result = self._site(node, operator, description, build)
            replaced = replaced or result
        return replaced or node

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> ast.AST:
        self.scope.append(node.name)
        try:
            return self.generic_visit(node)
        finally:
            self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        text = ast.unparse(node)
        options = []
        for i, op in enumerate(node.ops):
            for operator, table in (("compare", _FLIP), ("boundary", _BOUNDARY)):
                new = table.get(type(op))
                if new is not None:
                    options.append(
                        (operator, f"`{text}`: {_sym(op)} → {_sym(new())}", _swap_op(node, i, new))
                    )
        return self._first(node, options)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        if not isinstance(node.op, ast.BitOr):
            return self.generic_visit(node)
        leaves = list(_flatten_or(node))
        options = []
        for i, leaf in enumerate(leaves):
            if isinstance(leaf, ast.Attribute) and leaf.attr.startswith("O_"):
                rest = leaves[:i] + leaves[i + 1 :]
                options.append(("flag", f"`{leaf.attr}` dropped", _rebuild_or(rest, node)))
        return self._first(node, options)

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        self.generic_visit(node)
        text = ast.unparse(node).split("(")[0]
        return self._first(node, [("raise", f"`{text}(...)` deleted", _pass(node))])

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        text = _short(ast.unparse(node))
        build = lambda: ast.copy_location(ast.BoolOp(new(), node.values), node)  # noqa: E731
        return self._first(node, [("boolop", f"`{text}`: and/or swapped", build)])

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        text = _short(ast.unparse(node))
        return self._first(node, [("not", f"`{text}`: `not` dropped", lambda: node.operand)])

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        value = node.value
        if isinstance(value, bool):
            build = lambda: ast.copy_location(ast.Constant(not value), node)  # noqa: E731
            return self._first(node, [("bool", f"`{value}` flipped", build)])
        if isinstance(value, int):
            return self._first(
                node,
                [("int", f"`{value}` → {value + d}", _constant(node, value + d)) for d in (1, -1)],
            )
        return node

    def visit_Continue(self, node: ast.Continue) -> ast.AST:
        return self._first(node, [("loop", "`continue` → `break`", lambda: ast.Break())])

    def visit_Break(self, node: ast.Break) -> ast.AST:
        return self._first(node, [("loop", "`break` → `continue`", lambda: ast.Continue())])

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.value, ast.Call):
            return node
        text = _short(ast.unparse(node.value))
        return self._first(node, [("call", f"`{text}` deleted", _pass(node))])


def _sym(op: ast.cmpop) -> str:
    symbols = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
               ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
               ast.IsNot: "is not"}  # fmt: skip
    return symbols[type(op)]


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _swap_op(node: ast.Compare, i: int, new: type[ast.cmpop]) -> Callable[[], ast.AST]:
    def build() -> ast.AST:
        ops = list(node.ops)
        ops[i] = new()
        return ast.copy_location(ast.Compare(node.left, ops, node.comparators), node)

    return build


def _flatten_or(node: ast.expr) -> Iterator[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        yield from _flatten_or(node.left)
        yield from _flatten_or(node.right)
    else:
        yield node


def _rebuild_or(leaves: list[ast.expr], where: ast.AST) -> Callable[[], ast.AST]:
    def build() -> ast.AST:
        result = leaves[0]
        for leaf in leaves[1:]:
            result = ast.BinOp(result, ast.BitOr(), leaf)
        return ast.copy_location(result, where)

    return build


def _pass(where: ast.AST) -> Callable[[], ast.AST]:
    return lambda: ast.copy_location(ast.Pass(), where)


def _constant(where: ast.AST, value: int) -> Callable[[], ast.AST]:
    return lambda: ast.copy_location(ast.Constant(value), where)


def mutants(source: str, functions: tuple[str, ...]) -> list[Mutant]:
    """Every mutant of SOURCE (restricted to FUNCTIONS when given)."""
    mutator = Mutator(functions)
    mutator.visit(ast.parse(source))
    seen: dict[tuple[str, str], int] = {}
    result = []
    for site in mutator.sites:  # a repeated description in one function gets " #2", " #3"...
        count = seen[site.function, site.description] = (
            seen.get((site.function, site.description), 0) + 1
        )
        suffix = f" #{count}" if count > 1 else ""
        result.append(site._replace(description=site.description + suffix))
    return result


def mutate(source: str, functions: tuple[str, ...], number: int) -> str:
    """SOURCE with mutant NUMBER applied."""
    tree = Mutator(functions, number).visit(ast.parse(source))
    return ast.unparse(ast.fix_missing_locations(tree))


class Result(NamedTuple):
    mutant: Mutant
    outcome: str  # killed, timeout, survived, equivalent


Stages = tuple[tuple[str, float], ...]  # (test file or folder, timeout in seconds)


class Worker:
    """A fork server (scripts/mutation_worker.py) over a private copy of the package."""

    def __init__(self, copy: Path, tests: tuple[str, ...]) -> None:
        env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
        worker = str(Path(__file__).with_name("mutation_worker.py"))
        command = [sys.executable, worker, str(copy / "basetemp"), *tests]
        self.copy = copy
        self.process = subprocess.Popen(
            command, cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def run(self, stages: Stages) -> str:
        """Run the stages in order until one fails: killed, survived or timeout."""
        assert self.process.stdin
        assert self.process.stdout
        self.process.stdin.write(json.dumps(stages) + "\n")
        self.process.stdin.flush()
        return str(json.loads(self.process.stdout.readline()))

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait()


def _stages(worker: Worker, tests: tuple[str, ...]) -> Stages:
    """Each stage (the module's dedicated tests first, so most mutants die before the slower
    stages are collected) with a timeout of 5 times what it takes unmutated, at least 20 s.
    The unmutated tests must pass."""
    stages = []
    for stage in tests:
        start = time.monotonic()
        if worker.run(((stage, 1800.0),)) != "survived":  # run it alone to see why
            raise SystemExit(f"{stage} fails without any mutant: no figure for this module")
        stages.append((stage, max(20.0, 5 * (time.monotonic() - start))))
    return tuple(stages)


class Options(NamedTuple):
    tests: tuple[str, ...]
    jobs: int
    numbers: frozenset[int]  # empty: every mutant


def run_module(name: str, target: Target, workdir: Path, options: Options) -> list[Result]:
    """Run the mutants of one module on JOBS copies of the package; prints as it goes."""
    original = (PACKAGE / target.path).read_text(encoding="utf-8")
    todo = [
        m
        for m in mutants(original, target.functions)
        if not options.numbers or m.number in options.numbers
    ]
    copies = [_copy(workdir / f"worker-{job}") for job in range(options.jobs)]
    workers = [Worker(copy, options.tests) for copy in copies]
    stages = _stages(workers[0], options.tests)

    def worker(job: int) -> list[Result]:
        file = copies[job] / "project_corpus" / target.path
        results = []
        try:
            for mutant in todo[job :: options.jobs]:
                if (name, mutant.function, mutant.description) in EQUIVALENT:
                    outcome = "equivalent"
                else:
                    file.write_text(mutate(original, target.functions, mutant.number), "utf-8")
                    outcome = workers[job].run(stages)
                results.append(Result(mutant, outcome))
                print(f"  {outcome:10} #{mutant.number} {_label(target, mutant)}", flush=True)
        finally:
            file.write_text(original, encoding="utf-8")
            workers[job].close()
        return results

    with ThreadPoolExecutor(options.jobs) as pool:
        done = [r for chunk in pool.map(worker, range(options.jobs)) for r in chunk]
    return sorted(done, key=lambda r: r.mutant.number)


def _copy(path: Path) -> Path:
    """A private copy of the package under PATH (made once per worker, no bytecode)."""
    if not path.exists():
        ignore = shutil.ignore_patterns("__pycache__")
        shutil.copytree(PACKAGE, path / "project_corpus", ignore=ignore)
    return path


def _label(target: Target, mutant: Mutant) -> str:
    where = f"{target.path}:{mutant.line} {mutant.function or '<module>'}"
    return f"{where} [{mutant.operator}] {mutant.description}"


def score(results: list[Result]) -> tuple[int, int, float]:
    """(killed, counted, percent): equivalents are not counted; a timeout is a kill."""
    counted = [r for r in results if r.outcome != "equivalent"]
    killed = sum(r.outcome in ("killed", "timeout") for r in counted)
    return killed, len(counted), 100.0 * killed / len(counted) if counted else 100.0


def _report(name: str, target: Target, results: list[Result]) -> None:
    killed, counted, percent = score(results)
    equivalent = [r for r in results if r.outcome == "equivalent"]
    print(f"{name}: {percent:.1f} % ({killed}/{counted} killed, {len(equivalent)} equivalent)")
    for result in results:
        if result.outcome == "survived":
            print(f"  SURVIVED   {_label(target, result.mutant)}")
    for result in equivalent:
        key = (name, result.mutant.function, result.mutant.description)
        print(f"  EQUIVALENT {_label(target, result.mutant)}: {EQUIVALENT[key]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", choices=[*TARGETS, []], metavar="MODULE")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--whole-suite", action="store_true", help="then tests/ (whole suite)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--number", type=int, action="append", default=[], help="only these")
    args = parser.parse_args(argv)
    names = args.modules or list(TARGETS)
    if args.list:
        for name in names:
            target = TARGETS[name]
            source = (PACKAGE / target.path).read_text(encoding="utf-8")
            for mutant in mutants(source, target.functions):
                print(f"{name} #{mutant.number} {_label(target, mutant)}")
        return 0
    summary = []
    tmp = tempfile.mkdtemp(prefix="mutation-")
    try:
        for name in names:
            target = TARGETS[name]
            print(f"{name}: mutating {target.path}", flush=True)
            tests = (*target.tests, "tests/") if args.whole_suite else target.tests
            options = Options(tests, max(1, args.jobs), frozenset(args.number))
            summary.append((name, target, run_module(name, target, Path(tmp), options)))
    finally:  # `rm -rf`: the hostile tests nest folders deeper than shutil.rmtree recurses
        subprocess.run(["rm", "-rf", tmp], check=False)
        for name, target, results in summary:  # the modules done, even if a later one stops
            _report(name, target, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
