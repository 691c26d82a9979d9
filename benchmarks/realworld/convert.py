"""Convert real, public project memory into Project Corpus Protocol 2.0 fixtures.

One TOML manifest per corpus (``benchmarks/realworld/corpora/<NAME>/manifest.toml``) says
which verbatim excerpts of the raw source files (``corpora/<NAME>/source/``) go where. The
converter only adds H1 titles, metadata lines, ``## `` protocol headings and ``NONE``
placeholders; every source line it copies is kept byte for byte, and it checks that.

    python benchmarks/realworld/convert.py [--check] [--write-eval] [NAME ...]

Without NAME every corpus under ``corpora/`` is converted. ``--check`` regenerates in memory
and exits 1 when the committed output differs. ``--write-eval`` only rewrites each corpus's
``eval.json`` from its ``questions.json``. The manifest format is in README.md beside this
file. It runs with the project installed: the Protocol section names come from
`project_corpus.corpus.protocol`, their one home.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from project_corpus.corpus.protocol import PROJECT_SECTIONS
from project_corpus.corpus.protocol import REPORT_SECTIONS
from project_corpus.corpus.protocol import STATUS_SECTIONS
from project_corpus.corpus.protocol import TASK_SECTIONS

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPORA = HERE / "corpora"
FIXTURES = REPO / "fixtures" / "realworld"
CORPUS_DIR = ".project-corpus"

ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{2,63}$")
SHA_RE = re.compile(r"^[0-9a-f]{40}$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
HEADING_RE = re.compile(r"^(#{1,6})\s")
FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
META_RE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*: \S.*$")
LINES_RE = re.compile(r"^(\d+)(?:-(\d+))?$")

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
LIFECYCLES = ("ACTIVE", "PAUSED", "BLOCKED", "COMPLETE")
EVIDENCE = ("OBSERVED", "DOCUMENTED", "INFERRED", "UNVERIFIED")
FOLDERS = ("state", "tasks", "reports", "history")

PROTOCOL_HEADINGS = frozenset(
    f"## {name}" for name in PROJECT_SECTIONS + STATUS_SECTIONS + TASK_SECTIONS + REPORT_SECTIONS
)
NONE_LINE = "NONE"

POLICY = """policy_version = "2.0"
project_id = "{project_id}"
profile = "READ_ONLY"

[capabilities]
allow = ["corpus.read", "corpus.search", "corpus.context"]

[scopes]
read = [".project-corpus/state/**", ".project-corpus/tasks/**", \
".project-corpus/reports/**", ".project-corpus/history/**"]
write = []

[requirements]
expected_hash = true
verified_readback = true
audit_receipt = true
"""

GITIGNORE = "# The context index is derived, disposable and never committed.\ncache/\n"

EVAL_MAX_TOKENS = 300
EVAL_TOP_K = 3
MUST_CONTAIN_MAX = 80
INTENTS = ("why", "how", "what-changed", "status", "next-step", "blockers", "tech", "what", "who")


class ConvertError(Exception):
    """A manifest, source or dataset problem; the message names the file."""


@dataclass
class Source:
    """The raw files of one corpus, read once, split into LF lines."""

    root: Path
    cache: dict[str, list[str]] = field(default_factory=dict)

    def lines(self, rel: str) -> list[str]:
        if rel not in self.cache:
            path = self.root / rel
            if not path.is_file() or ".." in Path(rel).parts:
                raise ConvertError(f"source file not found: {path}")
            text = path.read_bytes().decode("utf-8-sig")
            self.cache[rel] = [line.rstrip("\r") for line in text.split("\n")]
            if self.cache[rel] and self.cache[rel][-1] == "":
                self.cache[rel].pop()
        return self.cache[rel]


@dataclass
class Output:
    """Lines of one generated document, each marked as copied from a source or added."""

    lines: list[str] = field(default_factory=list)
    copied: list[tuple[str, str]] = field(default_factory=list)  # (source file, line)
    added: list[str] = field(default_factory=list)

    def add(self, line: str) -> None:
        self.lines.append(line)
        self.added.append(line)

    def copy(self, rel: str, lines: list[str]) -> None:
        self.lines.extend(lines)
        self.copied.extend((rel, line) for line in lines)

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def text(self) -> str:
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n"


# --- excerpts -------------------------------------------------------------------------------


def _trim(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def _line_range(spec: str, total: int, where: str) -> tuple[int, int]:
    match = LINES_RE.match(spec.strip())
    if not match:
        raise ConvertError(f"{where}: lines must be 'A-B' or 'A', got {spec!r}")
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if not 1 <= first <= last <= total:
        raise ConvertError(f"{where}: lines {spec} outside 1-{total}")
    return first, last


def _line_ranges(spec: str, lines: list[str], where: str) -> list[str]:
    """Lines of 'A-B' or several ranges 'A-B, C-D' (ascending, joined by one blank line)."""
    chosen: list[str] = []
    previous = 0
    for part in spec.split(","):
        first, last = _line_range(part, len(lines), where)
        if first <= previous:
            raise ConvertError(f"{where}: ranges in {spec!r} must ascend without overlap")
        if chosen:
            chosen.append("")
        chosen.extend(_trim(lines[first - 1 : last]))
        previous = last
    return chosen


def _heading_levels(lines: list[str]) -> list[int]:
    """Heading level of each line (0 for none), fenced code excluded."""
    levels: list[int] = []
    fence: str | None = None
    for line in lines:
        match = FENCE_RE.match(line)
        if match:
            marker = match.group(1)[0] * 3
            fence = None if fence == marker else (fence or marker)
            levels.append(0)
            continue
        heading = HEADING_RE.match(line) if fence is None else None
        levels.append(len(heading.group(1)) if heading else 0)
    return levels


def _heading_section(lines: list[str], heading: str, where: str) -> list[str]:
    levels = _heading_levels(lines)
    hits = [i for i, line in enumerate(lines) if line.rstrip() == heading.rstrip() and levels[i]]
    if len(hits) != 1:
        raise ConvertError(f"{where}: heading {heading!r} found {len(hits)} times, need 1")
    start = hits[0]
    end = start + 1
    while end < len(lines) and not (levels[end] and levels[end] <= levels[start]):
        end += 1
    return lines[start + 1 : end]


def excerpt(source: Source, spec: dict[str, Any], where: str) -> tuple[str, list[str]]:
    """The verbatim lines an excerpt names, blank lines at both ends trimmed."""
    unknown = set(spec) - {"file", "lines", "heading"}
    if unknown or "file" not in spec or ("lines" in spec and "heading" in spec):
        raise ConvertError(f"{where}: an excerpt is {{file, lines}} or {{file, heading}}")
    rel = str(spec["file"])
    lines = source.lines(rel)
    if "heading" in spec:
        chosen = _heading_section(lines, str(spec["heading"]), f"{where} ({rel})")
    elif "lines" in spec:
        chosen = _line_ranges(str(spec["lines"]), lines, f"{where} ({rel})")
    else:
        chosen = lines
    chosen = _trim(chosen)
    if not chosen:
        raise ConvertError(f"{where}: excerpt of {rel} is empty")
    return rel, chosen


# --- documents ------------------------------------------------------------------------------


def _metadata(out: Output, pairs: list[tuple[str, str]]) -> None:
    for key, value in pairs:
        line = f"{key}: {value}"
        if not META_RE.match(line):
            raise ConvertError(f"bad metadata line {line!r}")
        out.add(line)


def _sections(
    out: Output, source: Source, names: tuple[str, ...], table: dict[str, Any], where: str
) -> None:
    unknown = set(table) - set(names)
    if unknown:
        raise ConvertError(f"{where}: unknown sections {sorted(unknown)}; allowed {list(names)}")
    for name in names:
        out.blank()
        out.add(f"## {name}")
        out.blank()
        specs = table.get(name, [])
        if not specs:
            out.add(NONE_LINE)
        for i, spec in enumerate(specs):
            if i:
                out.blank()
            rel, lines = excerpt(source, spec, f"{where} section {name!r}")
            out.copy(rel, lines)


def _last_verified(value: str) -> str:
    return f"{value}T00:00:00Z" if DATE_RE.match(value) else value


def project_doc(manifest: dict[str, Any], source: Source) -> Output:
    out = Output()
    out.add(f"# {manifest['logical_name']}")
    _metadata(
        out,
        [
            ("Protocol-Version", "2.0"),
            ("Project-ID", manifest["project_id"]),
            ("Logical-Name", manifest["logical_name"]),
        ],
    )
    table = manifest.get("project", {}).get("sections", {})
    _sections(out, source, PROJECT_SECTIONS, table, "project")
    return out


def status_doc(manifest: dict[str, Any], source: Source) -> Output:
    status = manifest["status"]
    out = Output()
    out.add(f"# Status — {manifest['logical_name']}")
    _metadata(
        out,
        [
            ("Protocol-Version", "2.0"),
            ("Project-ID", manifest["project_id"]),
            ("Lifecycle-Status", status["lifecycle"]),
            ("Active-Task-ID", status["active_task"]),
            ("Last-Verified-At", _last_verified(status["last_verified"])),
            ("Evidence-Class", status["evidence_class"]),
        ],
    )
    _sections(out, source, STATUS_SECTIONS, status.get("sections", {}), "status")
    return out


def _auto_metadata(
    folder: str, stem: str, project_id: str, extra: dict[str, str]
) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    if folder == "tasks":
        pairs = [
            ("Protocol-Version", "2.0"),
            ("Project-ID", project_id),
            ("Task-ID", stem),
            ("Task-Status", extra.get("Task-Status", "OPEN")),
        ]
    elif folder == "reports":
        pairs = [
            ("Protocol-Version", "2.0"),
            ("Project-ID", project_id),
            ("Report-ID", stem),
            ("Result", extra.get("Result", "UNVERIFIED")),
        ]
    taken = {key for key, _ in pairs}
    return pairs + [(key, str(value)) for key, value in extra.items() if key not in taken]


def _required_sections(folder: str) -> tuple[str, ...]:
    return {"tasks": TASK_SECTIONS, "reports": REPORT_SECTIONS}.get(folder, ())


def _body_document(
    out: Output, rel: str, body: list[str], meta: list[tuple[str, str]], title: str | None
) -> None:
    if body[0].startswith("# "):
        out.copy(rel, body[:1])
        body = _trim(body[1:])
    elif title:
        out.add(f"# {title}")
    else:
        raise ConvertError(f"{rel}: no H1 in the source and no title in the manifest")
    _metadata(out, meta)
    if body:
        out.blank()
        out.copy(rel, body)


def _append_missing(out: Output, names: tuple[str, ...]) -> None:
    present = {line.rstrip() for line in out.lines}
    for name in names:
        if f"## {name}" not in present:
            out.blank()
            out.add(f"## {name}")
            out.blank()
            out.add(NONE_LINE)


def other_doc(doc: dict[str, Any], manifest: dict[str, Any], source: Source) -> tuple[str, Output]:
    to = str(doc["to"])
    folder, _, name = to.partition("/")
    if folder not in FOLDERS or not name.endswith(".md") or "/" in name:
        raise ConvertError(f"document {to!r}: must be <state|tasks|reports|history>/<name>.md")
    if to in ("state/PROJECT.md", "state/STATUS.md"):
        raise ConvertError(f"document {to!r}: PROJECT and STATUS come from [project]/[status]")
    stem = name[:-3]
    if folder in ("tasks", "reports") and not ID_RE.match(stem):
        raise ConvertError(f"document {to!r}: the file stem must be a valid ID")
    meta = _auto_metadata(folder, stem, manifest["project_id"], dict(doc.get("metadata", {})))
    out = Output()
    if "sections" in doc:
        out.add(f"# {doc['title']}")
        _metadata(out, meta)
        _sections(out, source, _required_sections(folder), doc["sections"], to)
        return to, out
    spec = {key: doc[key] for key in ("file", "lines", "heading") if key in doc}
    rel, body = excerpt(source, spec, f"document {to!r}")
    _body_document(out, rel, body, meta, doc.get("title"))
    _append_missing(out, _required_sections(folder))
    return to, out


# --- verification ---------------------------------------------------------------------------


def _added_ok(line: str) -> bool:
    return (
        not line.strip()
        or line.startswith("# ")
        or line in PROTOCOL_HEADINGS
        or line == NONE_LINE
        or bool(META_RE.match(line))
    )


def verify(path: str, out: Output, source: Source) -> None:
    """Every copied non-blank source line is in the output verbatim; added lines are protocol."""
    text_lines = set(out.text().split("\n"))
    for rel, line in out.copied:
        if line.strip() and (line not in text_lines or line not in source.lines(rel)):
            raise ConvertError(f"{path}: source line of {rel} not kept verbatim: {line!r}")
    for line in out.added:
        if not _added_ok(line):
            raise ConvertError(f"{path}: converter added a non-protocol line {line!r}")


# --- manifest -------------------------------------------------------------------------------


def _require(cond: bool, name: str, message: str) -> None:
    if not cond:
        raise ConvertError(f"{name}/manifest.toml: {message}")


def _license_ok(spdx: str) -> bool:
    return spdx in PERMISSIVE or spdx.startswith(PERMISSIVE_PREFIXES)


def load_manifest(name: str) -> dict[str, Any]:
    path = CORPORA / name / "manifest.toml"
    if not path.is_file():
        raise ConvertError(f"no manifest: {path}")
    manifest = tomllib.loads(path.read_text(encoding="utf-8"))
    _require(manifest.get("name") == name, name, "name must equal the corpus folder name")
    _require(bool(ID_RE.match(manifest.get("project_id", ""))), name, "bad project_id")
    _require(manifest.get("language") in LANGUAGES, name, f"language must be one of {LANGUAGES}")
    _require(manifest.get("kind") in KINDS, name, f"kind must be one of {KINDS}")
    _require(isinstance(manifest.get("held_out"), bool), name, "held_out must be true or false")
    src = manifest.get("source", {})
    _require(bool(SHA_RE.match(src.get("commit", ""))), name, "source.commit must be 40 hex")
    commits = src.get("commits", {})
    _require(all(SHA_RE.match(str(c)) for c in commits.values()), name, "bad source.commits")
    _require(_license_ok(src.get("license", "")), name, "source.license is not permissive")
    _require(
        (CORPORA / name / "source" / src.get("license_file", "?")).is_file(),
        name,
        "source.license_file missing under source/",
    )
    status = manifest.get("status", {})
    _require(status.get("lifecycle") in LIFECYCLES, name, "bad status.lifecycle")
    _require(status.get("evidence_class") in EVIDENCE, name, "bad status.evidence_class")
    active = status.get("active_task", "")
    _require(active == "NONE" or bool(ID_RE.match(active)), name, "bad status.active_task")
    return manifest


# --- corpus ---------------------------------------------------------------------------------


def _agents_md(manifest: dict[str, Any]) -> str:
    src = manifest["source"]
    return (
        f"# {manifest['logical_name']}\n\n"
        f"Project memory converted from the public repository {src['repo']} "
        f"(commit {src['commit']}) into Project Corpus Protocol 2.0.\n"
        "Read `.project-corpus/state/STATUS.md` first, then `state/PROJECT.md`, then the "
        "durable references in `state/`, the tasks, reports and history.\n"
        "The text is the project's own, copied verbatim; see SOURCE.md.\n"
    )


def _source_md(manifest: dict[str, Any], files: list[str]) -> str:
    src = manifest["source"]
    commits = src.get("commits", {})
    license_commit = commits.get(src["license_file"], src["commit"])
    lines = [
        f"# Source of {manifest['name']}",
        "",
        f"- Repository: https://github.com/{src['repo']}",
        f"- Commit: {src['commit']}",
        f"- Licence: {src['license']} (text in LICENSE beside this file, the repository's "
        f"`{src['license_file']}` at commit {license_commit})",
        f"- Kind: {manifest['kind']}; language: {manifest['language']}; "
        f"held out: {'yes' if manifest['held_out'] else 'no'}",
        "",
        "Source paths (repository-relative), each with the commit it was read at:",
        "",
    ]
    lines += [f"- `{rel}` (commit {commits.get(rel, src['commit'])})" for rel in files]
    lines += ["", "Converted by benchmarks/realworld/convert.py; sentences verbatim.", ""]
    return "\n".join(lines)


def build(name: str) -> dict[str, str]:
    """Every generated file of one corpus: fixture-relative path -> text."""
    manifest = load_manifest(name)
    source = Source(CORPORA / name / "source")
    docs: list[tuple[str, Output]] = [
        ("state/PROJECT.md", project_doc(manifest, source)),
        ("state/STATUS.md", status_doc(manifest, source)),
    ]
    docs += [other_doc(doc, manifest, source) for doc in manifest.get("documents", [])]
    files: dict[str, str] = {}
    for to, out in docs:
        path = f"{CORPUS_DIR}/{to}"
        if path in files:
            raise ConvertError(f"{name}: two documents write {to}")
        verify(path, out, source)
        files[path] = out.text()
    _check_active_task(manifest, files)
    for folder in FOLDERS[1:]:
        if not any(path.startswith(f"{CORPUS_DIR}/{folder}/") for path in files):
            files[f"{CORPUS_DIR}/{folder}/.gitkeep"] = ""
    license_rel = manifest["source"]["license_file"]
    source.lines(license_rel)
    used = sorted(set(source.cache) - {license_rel})
    unread = set(manifest["source"].get("commits", {})) - set(source.cache)
    if unread:
        raise ConvertError(f"{name}: source.commits names files no document uses: {sorted(unread)}")
    files["AGENTS.md"] = _agents_md(manifest)
    files[f"{CORPUS_DIR}/policy.toml"] = POLICY.format(project_id=manifest["project_id"])
    files[f"{CORPUS_DIR}/.gitignore"] = GITIGNORE
    files["SOURCE.md"] = _source_md(manifest, used)
    files["LICENSE"] = (CORPORA / name / "source" / license_rel).read_text(encoding="utf-8")
    questions = FIXTURES / name / "questions.json"
    if questions.is_file():
        files["eval.json"] = eval_json(name, questions, files)
    return files


def _check_active_task(manifest: dict[str, Any], files: dict[str, str]) -> None:
    active = manifest["status"]["active_task"]
    if active != "NONE" and f"{CORPUS_DIR}/tasks/{active}.md" not in files:
        raise ConvertError(f"{manifest['name']}: active task {active} has no tasks/{active}.md")


# --- questions and eval ---------------------------------------------------------------------


def _check_question(i: int, q: dict[str, Any], files: dict[str, str], where: str) -> None:
    tag = f"{where} question {i + 1}"
    if not isinstance(q.get("query"), str) or not q["query"].strip():
        raise ConvertError(f"{tag}: query must be a non-empty string")
    answer = q.get("answer", {})
    path = answer.get("path", "")
    if path not in files or not path.startswith(f"{CORPUS_DIR}/"):
        raise ConvertError(f"{tag}: answer.path {path!r} is not a generated source")
    lines = files[path].split("\n")
    first, last = answer.get("lines", [0, 0])
    if not 1 <= first <= last <= len(lines):
        raise ConvertError(f"{tag}: answer.lines {answer.get('lines')} outside {path}")
    needle = q.get("must_contain", "")
    if not needle or len(needle) > MUST_CONTAIN_MAX:
        raise ConvertError(f"{tag}: must_contain must be 1-{MUST_CONTAIN_MAX} characters")
    if needle not in "\n".join(lines[first - 1 : last]):
        raise ConvertError(f"{tag}: must_contain {needle!r} not in {path}:{first}-{last}")


def eval_json(name: str, questions: Path, files: dict[str, str]) -> str:
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
    """Committed files the converter owns (questions.json is written by hand)."""
    found: set[str] = set()
    for path in target.rglob("*"):
        rel = path.relative_to(target).as_posix()
        if (
            path.is_file()
            and not rel.startswith(f"{CORPUS_DIR}/cache/")
            and rel != "questions.json"
        ):
            found.add(rel)
    return found


def write(name: str, files: dict[str, str], only: set[str] | None = None) -> None:
    target = FIXTURES / name
    for rel in sorted(_existing(target) - set(files)) if only is None else []:
        (target / rel).unlink()
    for rel, text in sorted(files.items()):
        if only is not None and rel not in only:
            continue
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def differences(name: str, files: dict[str, str]) -> list[str]:
    target = FIXTURES / name
    problems = [f"{name}: unexpected file {rel}" for rel in sorted(_existing(target) - set(files))]
    for rel, text in sorted(files.items()):
        path = target / rel
        if not path.is_file():
            problems.append(f"{name}: missing {rel}")
        elif path.read_bytes() != text.encode("utf-8"):
            problems.append(f"{name}: {rel} differs from the converter's output")
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
