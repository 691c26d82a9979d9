"""`init` and `new`: a conformant corpus from nothing, one Task or Report at a time.

These are the only writers besides `build`, and they only create: every target is opened
with exclusive creation (`O_CREAT | O_EXCL`: never through a link) through directory
descriptors that never follow a link, and every target is checked before the first byte is
written, so an existing file or a link in the way is `INIT_EXISTS` and nothing is written.
Templates ship in `project_corpus/scaffold/templates/{en,ru}` (docs/getting-started.md).
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import stat
from importlib import resources
from pathlib import Path
from string import Template

from project_corpus.core.errors import ContextError
from project_corpus.core.records import Corpus
from project_corpus.corpus.layout import CACHE_GITIGNORE
from project_corpus.corpus.layout import HISTORY_DIR
from project_corpus.corpus.layout import POLICY_PATH
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.layout import REPORTS_DIR
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.layout import TASKS_DIR
from project_corpus.corpus.policy import ID_RE
from project_corpus.corpus.roots import resolve_new_root
from project_corpus.corpus.vocabulary import TASK_ID
from project_corpus.retrieval.text import CYRILLIC_RE
from project_corpus.retrieval.text import LATIN_RE
from project_corpus.scaffold.agents import AGENTS_PATH
from project_corpus.scaffold.agents import append_pointer
from project_corpus.scaffold.agents import read_agents

LANGUAGES = ("en", "ru")
KINDS = {"task": TASKS_DIR, "report": REPORTS_DIR}
KEEP = ".gitkeep"
INIT_FILES = (
    ("AGENTS.md", "AGENTS.md"),
    (POLICY_PATH, "policy.toml"),
    (PROJECT_PATH, "PROJECT.md"),
    (STATUS_PATH, "STATUS.md"),
    (f"{KINDS['task']}/{KEEP}", None),
    (f"{KINDS['report']}/{KEEP}", None),
    (f"{HISTORY_DIR}/{KEEP}", None),
    (CACHE_GITIGNORE, None),
)
# O_CREAT | O_EXCL refuses any existing name, a link included (POSIX: EEXIST, the link is not
# followed): O_NOFOLLOW would be a second guard no test could tell (as `fs.write_exclusive`).
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
# A folder swapped for a link after the checks is never entered (test_write_guards.py).
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def init_corpus(
    root: str | os.PathLike[str],
    *,
    project_id: str | None = None,
    name: str | None = None,
    lang: str = "en",
) -> list[str]:
    """Write a new conformant corpus under ROOT (0 FAIL; its placeholders are WARNs until
    replaced); returns the portable paths written."""
    named = Path(os.fspath(root)).absolute()  # the folder as the user named it (a link)
    root_path = Path(resolve_new_root(root))
    pid = project_id if project_id is not None else default_project_id(named)
    _check_id("--project-id", pid)
    values = {"project_id": pid, "name": (name or named.name or pid).strip(), **_times()}
    files = {rel: _render(lang, tpl, values) if tpl else _plain(rel) for rel, tpl in INIT_FILES}
    if os.path.isdir(root_path) and read_agents(str(root_path)) is not None:
        del files[AGENTS_PATH]  # the owner's: kept byte for byte, one pointer section appended
        written = write_new(root_path, files)
        return sorted([*written, AGENTS_PATH]) if append_pointer(str(root_path), lang) else written
    return write_new(root_path, files)


def policy_text(project_id: str, lang: str = "en") -> str:
    """The policy.toml `init` writes (`import` writes the same)."""
    return _render(lang, "policy.toml", {"project_id": project_id})


def agents_text(name: str, lang: str = "en") -> str:
    """The AGENTS.md `init` writes where none exists (`import` writes the same)."""
    return _render(lang, "AGENTS.md", {"name": name})


def new_artifact(
    root: str | os.PathLike[str],
    kind: str,
    artifact_id: str,
    *,
    task_id: str | None = None,
    lang: str | None = None,
) -> str:
    """Write `tasks/ID.md` or `reports/ID.md` with every required key and section, its
    guidance in LANG (default: the corpus's own language, `corpus_language`). A report's
    TASK_ID must name a task of the corpus."""
    from project_corpus.corpus import fs
    from project_corpus.corpus.required import require_corpus
    from project_corpus.corpus.snapshot import collect

    if kind not in KINDS:
        raise ContextError("USAGE_ERROR", f"KIND must be task or report, not {kind!r}")
    _check_id(f"{kind} ID", artifact_id)
    if task_id is not None:
        _check_id("--task", task_id)
    require_corpus(fs.resolve_root(root), root)
    corpus = collect(root, strict=False)
    if not corpus.project_id:
        raise ContextError(
            "CONTEXT_PROJECT_ID",
            f"{PROJECT_PATH} has no valid Project-ID to write into the new {kind}",
            hint="run `project-corpus context doctor {root}` and fix PROJECT.md first",
        )
    if task_id is not None:
        _check_task(corpus, task_id)
    values = {
        "project_id": corpus.project_id,
        f"{kind}_id": artifact_id,
        "task_line": f"Task-ID: {task_id}\n" if task_id else "",
        **_times(),
    }
    rel = f"{KINDS[kind]}/{artifact_id}.md"
    text = _render(lang or corpus_language(corpus), f"{kind}.md", values)
    write_new(Path(corpus.root), {rel: text})
    return rel


def corpus_language(corpus: Corpus) -> str:
    """ "ru" when the prose of PROJECT and STATUS (not their English keys and headings) holds
    more Cyrillic than Latin letters, as `init --lang ru` writes it; else "en"."""
    counts = {"cyrillic": 0, "latin": 0}
    for path in (PROJECT_PATH, STATUS_PATH):
        source = corpus.by_path.get(path)
        for span in source.doc.spans if source is not None else ():
            if span.kind not in ("meta", "heading"):
                folded = span.text.casefold()
                counts["cyrillic"] += len(CYRILLIC_RE.findall(folded))
                counts["latin"] += len(LATIN_RE.findall(folded))
    return "ru" if counts["cyrillic"] > counts["latin"] else "en"


def _check_task(corpus: Corpus, task_id: str) -> None:
    """USAGE_ERROR unless a task of CORPUS has TASK_ID as its Task-ID or file stem."""
    for source in corpus.sources:
        stem = source.path.rsplit("/", 1)[-1].removesuffix(".md")
        if source.source_type == "task" and task_id in (stem, source.doc.meta_value(TASK_ID)):
            return
    raise ContextError(
        "USAGE_ERROR",
        f"--task {task_id}: no such task in {KINDS['task']}/",
        hint=f"create it first with `project-corpus new task {task_id} {{root}}`, or check the ID",
    )


def default_project_id(root: Path) -> str:
    """The folder name as an ID (lower case, other characters as `-`), else a usage error."""
    candidate = re.sub(r"[^a-z0-9._-]+", "-", root.name.lower()).strip("-._")
    if not ID_RE.match(candidate):
        raise ContextError(
            "USAGE_ERROR",
            f"the folder name {root.name!r} is not a usable project ID",
            hint="pass --project-id ID (3-64 characters: a-z, 0-9, '.', '_', '-')",
        )
    return candidate


def _check_id(label: str, value: str) -> None:
    if not ID_RE.match(value):
        raise ContextError(
            "USAGE_ERROR",
            f"{label} {value!r} is not a valid ID",
            hint="an ID has 3-64 characters a-z 0-9 . _ - and starts with a letter or digit",
        )


def _times() -> dict[str, str]:
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    return {"now": now.strftime("%Y-%m-%dT%H:%M:%SZ"), "today": now.date().isoformat()}


def _render(lang: str, template: str, values: dict[str, str]) -> str:
    if lang not in LANGUAGES:
        raise ContextError("USAGE_ERROR", f"--lang must be one of {', '.join(LANGUAGES)}")
    folder = resources.files("project_corpus.scaffold.templates").joinpath(lang)
    return Template(folder.joinpath(template).read_text(encoding="utf-8")).substitute(values)


def _plain(rel: str) -> str:
    return "*\n" if rel.endswith("/.gitignore") else ""


def write_new(root: Path, files: dict[str, str]) -> list[str]:
    """Create every file of FILES under ROOT, or none: refuses when any path is taken."""
    taken = sorted(rel for rel in files if _taken(root, rel))
    if taken:
        raise ContextError(
            "INIT_EXISTS",
            f"{', '.join(taken)}: already exists; nothing was written",
            hint="init and new only create files: move those away, or pick another ROOT or ID",
        )
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file on the way, no permission: nothing was written
        raise ContextError("CONTEXT_ROOT", f"{root}: {exc.strerror}; nothing was written") from None
    for rel, text in files.items():
        _create(root, rel, text.encode("utf-8"))
    return sorted(files)


def _taken(root: Path, rel: str) -> bool:
    """True when REL, or a folder on the way to it, exists as anything but a real folder."""
    path = root
    parts = rel.split("/")
    for index, part in enumerate(parts):
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return False
        if index == len(parts) - 1 or not stat.S_ISDIR(mode):
            return True
    return False


def _create(root: Path, rel: str, data: bytes) -> None:
    *folders, name = rel.split("/")
    try:
        fd = os.open(root, _DIR_FLAGS)
    except OSError as exc:  # the root swapped for a link or a file since it was checked
        raise ContextError("CONTEXT_ROOT", f"{root}: {exc.strerror}; stopped writing") from None
    try:
        for folder in folders:
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder, 0o777, dir_fd=fd)
            child = os.open(folder, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = child
        out = os.open(name, _FLAGS, 0o666, dir_fd=fd)
        with os.fdopen(out, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise ContextError("INIT_EXISTS", f"{rel}: {exc.strerror}; stopped writing") from None
    finally:
        os.close(fd)
