"""The shape of the package (docs/architecture.md, STYLE.md): every file in a room, imports that
only point down, no cycle, small functions and modules.

Imports are read from the source with `ast`, counting imports inside functions and under
`TYPE_CHECKING` (a lazy import that points up is a cycle in disguise).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "project_corpus"
PACKAGE = "project_corpus"
# The stages from the bottom up (docs/architecture.md): a module may import its own stage and
# the stages below it, never one above.
# The adapters (the ways in) share one room, `adapters/`, and keep their ranks inside it: the
# command line starts the servers, never the other way round.
LAYERS = (
    ("core",),
    ("corpus",),
    ("index", "scaffold", "retrieval"),
    ("doctor",),
    ("review", "importer"),
    ("output", "evaluate"),
    ("workspace",),
    ("adapters.mcp_server", "adapters.github", "adapters.lsp"),
    ("adapters.cli",),
    ("__main__", "__init__"),
)
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
RANK["adapters"] = RANK["adapters.mcp_server"]  # the room's own __init__ imports nothing
# One stage package per name in LAYERS, nothing loose beside them (docs/decisions.md, "Twelve
# top-level packages").
MAX_TOP_LEVEL = 12
MAX_FUNCTION_LINES = 40
MAX_MODULE_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


MODULES = {module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def imports_of(name: str) -> Iterator[str]:
    """Every module of the package that NAME imports (the longest existing prefix)."""
    path = MODULES[name]
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = name.split(".") if is_package else name.split(".")[:-1]
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            targets = [module, *(f"{module}.{alias.name}" for alias in node.names)]
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def stage(name: str) -> str:
    parts = name.split(".")
    if len(parts) > 2 and parts[1] == "adapters":
        return f"adapters.{parts[2]}"
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_top_level_entry_is_a_stage_of_the_layers() -> None:
    entries = [
        p.name
        for p in SRC.iterdir()
        if (p.suffix == ".py" and p.name not in {"__init__.py", "__main__.py"})
        or (p.is_dir() and (p / "__init__.py").exists())
    ]
    assert len(entries) <= MAX_TOP_LEVEL, sorted(entries)
    assert {Path(e).stem for e in entries} <= {n.split(".")[0] for n in RANK} - {
        "__main__",
        "__init__",
    }
    assert all(entry == Path(entry).stem for entry in entries)  # packages, no loose module


def test_imports_only_point_down_the_stages() -> None:
    upward = [
        f"{name} -> {target}"
        for name in MODULES
        for target in imports_of(name)
        if RANK[stage(target)] > RANK[stage(name)]
    ]
    assert upward == []


def test_no_module_imports_the_package_root() -> None:
    rooted = [name for name in MODULES for target in imports_of(name) if target == PACKAGE]
    assert rooted == []


def test_no_module_imports_another_packages_private_module() -> None:
    private = [
        f"{name} -> {target}"
        for name in MODULES
        for target in imports_of(name)
        if target.rpartition(".")[2].startswith("_")
        and not (name + ".").startswith(target.rpartition(".")[0] + ".")
    ]
    assert private == []


def test_no_import_cycle() -> None:
    edges = {name: set(imports_of(name)) - {PACKAGE} for name in MODULES}
    # A package's __init__ re-exports its children: an edge to a parent package is not a cycle.
    edges = {n: {t for t in ts if not n.startswith(t + ".")} for n, ts in edges.items()}
    state: dict[str, int] = {}
    cycles: list[str] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target in sorted(edges[node]):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*trail[trail.index(target) :], target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[node] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_functions_and_modules_stay_small() -> None:
    too_long = []
    for name, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            too_long.append(f"{name}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{name}.{node.name}: {length} lines")
    assert too_long == []


def test_the_protocol_vocabulary_has_one_home() -> None:
    """No module but `corpus/vocabulary.py` spells a section name, an ID key or the profile
    order as a string literal (docstrings aside): each is named from there."""
    from project_corpus.corpus import vocabulary

    sections = {*vocabulary.PROJECT_SECTIONS, *vocabulary.STATUS_SECTIONS}
    sections |= {*vocabulary.TASK_SECTIONS, *vocabulary.REPORT_SECTIONS}
    words = sections | set(vocabulary.ID_KEYS.values()) | set(vocabulary.PROFILE_ORDER)
    spelled = []
    for name, path in MODULES.items():
        if name == "project_corpus.corpus.vocabulary":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        spelled += [
            f"{name}:{node.lineno}: {node.value}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in words and id(node) not in docstrings
        ]
    assert spelled == []


# The tests of the repository as a whole (layout, docs, packaging, hooks, patterns across the
# package); every other test lives in the folder of the stage it tests (`tests/<stage>/`).
REPOSITORY_TESTS = {
    "test_anchors.py",
    "test_docs.py",
    "test_fixture_copies.py",
    "test_hooks.py",
    "test_hostile.py",
    "test_install_docs.py",
    "test_packaging.py",
    "test_pins.py",
    "test_published_corpora.py",
    "test_regex_linearity.py",
    "test_release.py",
    "test_structure.py",
}


def test_each_stages_tests_are_in_its_own_folder() -> None:
    tests = Path(__file__).resolve().parent
    loose = {path.name for path in tests.glob("test_*.py")}
    assert loose <= REPOSITORY_TESTS, sorted(loose - REPOSITORY_TESTS)
    folders = {p.name for p in tests.iterdir() if p.is_dir() and any(p.glob("test_*.py"))}
    # An adapter's tests are in a folder of its own name (`tests/cli/`, not `tests/adapters/cli/`).
    stages = {name for name in RANK if name not in {"__main__", "__init__", "adapters"}}
    leaves = {name.rpartition(".")[2]: name for name in stages}
    # Every folder is a stage (or one of the cross-cutting suites), every existing stage has one.
    assert folders <= set(leaves) | {"hostile", "trust"}, sorted(folders - set(leaves))
    existing = {leaf for leaf, name in leaves.items() if SRC.joinpath(*name.split(".")).is_dir()}
    assert existing <= folders
