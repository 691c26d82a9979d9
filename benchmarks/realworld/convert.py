"""Produce the real-world fixtures from their raw sources through `project-corpus import`.

For each corpus (``benchmarks/realworld/corpora/<NAME>/``) the raw files under ``source/`` are
copied into a temporary folder named after the repository (as a clone would be), ``import``
runs on it with no options (or with the ``[import]`` options of the corpus's manifest: the
documented ``--include``/``--exclude`` globs, only where detection cannot decide), and what it
wrote — ``.project-corpus/`` (its ``cache/`` aside) and ``AGENTS.md`` — goes to
``fixtures/realworld/<NAME>/`` with ``SOURCE.md`` (provenance) and ``LICENSE``. The import
checks on every run that its prose is the sources' own lines; nothing here converts text.

    python benchmarks/realworld/convert.py [--check] [--write-eval] [NAME ...]

Without NAME every corpus under ``corpora/`` is produced. ``--check`` regenerates in memory
and exits 1 when the committed output differs. ``--write-eval`` only rewrites each corpus's
``eval.json`` from its ``questions.json``. The manifest format is in README.md beside this
file.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from project_corpus.core.errors import ContextError
from project_corpus.importer import ImportOptions
from project_corpus.workspace import Workspace

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPORA = HERE / "corpora"
FIXTURES = REPO / "fixtures" / "realworld"
CORPUS_DIR = ".project-corpus"
CACHE_DIR = f"{CORPUS_DIR}/cache/"

SHA_RE = re.compile(r"^[0-9a-f]{40}$")
REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
PERMISSIVE = ("MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "Unlicense", "CC0-1.0")
PERMISSIVE_PREFIXES = ("CC-BY-",)
LANGUAGES = ("en", "ru", "mixed")
KINDS = (
    "memory-bank",
    "adr",
    "claude-log",
    "roadmap-changelog",
    "spec",
    "todo-backlog",
    "devlog",
    "other",
)
MANIFEST_KEYS = frozenset({"name", "language", "kind", "held_out", "source", "import"})
IMPORT_KEYS = frozenset({"include", "exclude"})

EVAL_MAX_TOKENS = 300
EVAL_TOP_K = 3
MUST_CONTAIN_MAX = 80


class ConvertError(Exception):
    """A manifest, source or dataset problem; the message names the file."""


# --- manifest -------------------------------------------------------------------------------


def _require(cond: bool, name: str, message: str) -> None:
    if not cond:
        raise ConvertError(f"{name}/manifest.toml: {message}")


def _license_ok(spdx: str) -> bool:
    return spdx in PERMISSIVE or spdx.startswith(PERMISSIVE_PREFIXES)


def _globs(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(g, str) and g.strip() for g in value)


def _check_source(name: str, src: dict[str, Any]) -> None:
    _require(bool(REPO_RE.match(str(src.get("repo", "")))), name, "source.repo is owner/name")
    _require(bool(SHA_RE.match(str(src.get("commit", "")))), name, "source.commit is 40 hex")
    commits = src.get("commits", {})
    _require(all(SHA_RE.match(str(c)) for c in commits.values()), name, "bad source.commits")
    root = CORPORA / name / "source"
    missing = sorted(rel for rel in commits if not (root / rel).is_file())
    _require(not missing, name, f"source.commits names files not under source/: {missing}")
    _require(_license_ok(str(src.get("license", ""))), name, "source.license is not permissive")
    _require(
        (root / str(src.get("license_file", "?"))).is_file(),
        name,
        "source.license_file missing under source/",
    )


def load_manifest(name: str) -> dict[str, Any]:
    path = CORPORA / name / "manifest.toml"
    if not path.is_file():
        raise ConvertError(f"no manifest: {path}")
    manifest = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = sorted(set(manifest) - MANIFEST_KEYS)
    _require(not unknown, name, f"unknown keys {unknown}; allowed {sorted(MANIFEST_KEYS)}")
    _require(manifest.get("name") == name, name, "name must equal the corpus folder name")
    _require(manifest.get("language") in LANGUAGES, name, f"language must be one of {LANGUAGES}")
    _require(manifest.get("kind") in KINDS, name, f"kind must be one of {KINDS}")
    _require(isinstance(manifest.get("held_out"), bool), name, "held_out must be true or false")
    _check_source(name, manifest.get("source", {}))
    options = manifest.get("import", {})
    _require(set(options) <= IMPORT_KEYS, name, "[import] holds only include and exclude")
    _require(all(_globs(v) for v in options.values()), name, "[import] values are glob lists")
    return manifest


def import_options(manifest: dict[str, Any]) -> ImportOptions:
    """The `import` options a manifest stores (none for most corpora)."""
    options = manifest.get("import", {})
    return ImportOptions(
        include=tuple(options.get("include", ())), exclude=tuple(options.get("exclude", ()))
    )


def _command(options: ImportOptions) -> str:
    words = ["project-corpus import"]
    words += [f"--include '{g}'" for g in options.include]
    words += [f"--exclude '{g}'" for g in options.exclude]
    return " ".join(words)


# --- import ---------------------------------------------------------------------------------


def run(name: str, manifest: dict[str, Any]) -> tuple[dict[str, bytes], dict[str, object]]:
    """Import a copy of the corpus's sources: (written file -> bytes, the import's result)."""
    folder = str(manifest["source"]["repo"]).split("/")[1]
    with tempfile.TemporaryDirectory(prefix="realworld-") as tmp:
        root = Path(tmp) / folder
        shutil.copytree(CORPORA / name / "source", root, symlinks=True)
        try:
            result = Workspace(str(root)).import_(import_options(manifest))
        except ContextError as exc:
            raise ConvertError(f"{name}: import failed: {exc.code}: {exc.detail}") from exc
        files = {"AGENTS.md": (root / "AGENTS.md").read_bytes()}
        for path in sorted((root / CORPUS_DIR).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.is_file() and not rel.startswith(CACHE_DIR):
                files[rel] = path.read_bytes()
    return files, result


def imported_sources(result: dict[str, object]) -> list[tuple[str, str]]:
    """(path, role) of every source file the import used, in path order."""
    rows = result.get("sources")
    assert isinstance(rows, list)
    return sorted((str(row["path"]), str(row["role"])) for row in rows)


def _left_out(result: dict[str, object]) -> list[tuple[str, str]]:
    rows = result.get("left_out")
    assert isinstance(rows, list)
    return sorted((str(row["path"]), str(row["reason"])) for row in rows)


def source_md(manifest: dict[str, Any], result: dict[str, object]) -> str:
    src = manifest["source"]
    commits = src.get("commits", {})
    license_commit = commits.get(src["license_file"], src["commit"])
    options = import_options(manifest)
    lines = [
        f"# Source of {manifest['name']}",
        "",
        f"- Repository: https://github.com/{src['repo']}",
        f"- Commit: {src['commit']}",
        f"- Licence: {src['license']} (text in LICENSE beside this file, the repository's "
        f"`{src['license_file']}` at commit {license_commit})",
        f"- Kind: {manifest['kind']}; language: {manifest['language']}; "
        f"held out: {'yes' if manifest['held_out'] else 'no'}",
        f"- Produced by `{_command(options)}` on the raw files (benchmarks/realworld/convert.py)",
        "",
        "Source paths (repository-relative) the import used, each with its role and the commit",
        "it was read at:",
        "",
    ]
    lines += [
        f"- `{rel}` ({role}; commit {commits.get(rel, src['commit'])})"
        for rel, role in imported_sources(result)
    ]
    left = _left_out(result)
    if left:
        lines += ["", "Left out by the import:", ""]
        lines += [f"- `{rel}` ({reason})" for rel, reason in left]
    lines += ["", "Every line of prose is the source's own; the import checks it on every run.", ""]
    return "\n".join(lines)


def build(name: str) -> dict[str, bytes]:
    """Every generated file of one corpus: fixture-relative path -> bytes."""
    manifest = load_manifest(name)
    files, result = run(name, manifest)
    files["SOURCE.md"] = source_md(manifest, result).encode("utf-8")
    license_rel = manifest["source"]["license_file"]
    files["LICENSE"] = (CORPORA / name / "source" / license_rel).read_bytes()
    questions = FIXTURES / name / "questions.json"
    if questions.is_file():
        files["eval.json"] = eval_json(name, questions, files).encode("utf-8")
    return files


# --- questions and eval ---------------------------------------------------------------------


def _check_question(i: int, q: dict[str, Any], files: dict[str, bytes], where: str) -> None:
    tag = f"{where} question {i + 1}"
    if not isinstance(q.get("query"), str) or not q["query"].strip():
        raise ConvertError(f"{tag}: query must be a non-empty string")
    answer = q.get("answer", {})
    path = answer.get("path", "")
    if path not in files or not path.startswith(f"{CORPUS_DIR}/") or not path.endswith(".md"):
        raise ConvertError(f"{tag}: answer.path {path!r} is not an imported document")
    lines = files[path].decode("utf-8").split("\n")
    first, last = answer.get("lines", [0, 0])
    if not 1 <= first <= last <= len(lines):
        raise ConvertError(f"{tag}: answer.lines {answer.get('lines')} outside {path}")
    needle = q.get("must_contain", "")
    if not needle or len(needle) > MUST_CONTAIN_MAX:
        raise ConvertError(f"{tag}: must_contain must be 1-{MUST_CONTAIN_MAX} characters")
    if needle not in "\n".join(lines[first - 1 : last]):
        raise ConvertError(f"{tag}: must_contain {needle!r} not in {path}:{first}-{last}")


def eval_json(name: str, questions: Path, files: dict[str, bytes]) -> str:
    """CorpusEval v1 cases derived from questions.json (after checking every answer)."""
    data = json.loads(questions.read_text(encoding="utf-8"))
    where = f"{name}/questions.json"
    if data.get("corpus") != name or not isinstance(data.get("questions"), list):
        raise ConvertError(f"{where}: needs corpus={name!r} and a questions list")
    cases = []
    for i, q in enumerate(data["questions"]):
        _check_question(i, q, files, where)
        path = q["answer"]["path"]
        cases.append(
            {
                "name": f"{q.get('intent', 'q')}: {q['query']}",
                "query": q["query"],
                "max_tokens": EVAL_MAX_TOKENS,
                "top_k": EVAL_TOP_K,
                "expected_top_source_path": path,
                "expected_top_k_paths": [path],
                "must_contain": [q["must_contain"]],
            }
        )
    doc = {"schema_version": "1", "cases": cases}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


# --- writing and checking -------------------------------------------------------------------


def _existing(target: Path) -> set[str]:
    """Committed files the generator owns (questions.json is written by hand)."""
    found: set[str] = set()
    for path in target.rglob("*"):
        rel = path.relative_to(target).as_posix()
        if path.is_file() and not rel.startswith(CACHE_DIR) and rel != "questions.json":
            found.add(rel)
    return found


def write(name: str, files: dict[str, bytes], only: set[str] | None = None) -> None:
    target = FIXTURES / name
    for rel in sorted(_existing(target) - set(files)) if only is None else []:
        (target / rel).unlink()
    for folder in sorted(target.rglob("*"), reverse=True) if only is None else []:
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    for rel, data in sorted(files.items()):
        if only is not None and rel not in only:
            continue
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def differences(name: str, files: dict[str, bytes]) -> list[str]:
    target = FIXTURES / name
    problems = [f"{name}: unexpected file {rel}" for rel in sorted(_existing(target) - set(files))]
    for rel, data in sorted(files.items()):
        path = target / rel
        if not path.is_file():
            problems.append(f"{name}: missing {rel}")
        elif path.read_bytes() != data:
            problems.append(f"{name}: {rel} differs from the import's output")
    return problems


def corpus_names(requested: list[str]) -> list[str]:
    if requested:
        return requested
    return sorted(p.parent.name for p in CORPORA.glob("*/manifest.toml"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="corpora (default: all)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the output differs")
    parser.add_argument("--write-eval", action="store_true", help="only rewrite eval.json")
    args = parser.parse_args(argv)
    problems: list[str] = []
    for name in corpus_names(args.names):
        try:
            files = build(name)
        except (ConvertError, OSError, ValueError, KeyError) as exc:
            problems.append(f"{name}: {exc}")
            continue
        if args.check:
            problems += differences(name, files)
        else:
            write(name, files, {"eval.json"} if args.write_eval else None)
            print(f"{name}: {len(files)} files")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
