"""`run_import`: detect, read, plan, render, check, then write (or only plan with a dry run).

The result is plain data (the `import-result` schema): every source file with the documents
it became, every file left out with its reason, every document with what happened to it.
"""

from __future__ import annotations

import os
from pathlib import Path

from project_corpus.core.errors import ContextError
from project_corpus.corpus import fs
from project_corpus.corpus.layout import ARTIFACT_DIRS
from project_corpus.corpus.layout import CACHE_GITIGNORE
from project_corpus.corpus.layout import POLICY_PATH
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.policy import ID_RE
from project_corpus.importer import dates
from project_corpus.importer import discover
from project_corpus.importer import sections as md
from project_corpus.importer import write
from project_corpus.importer.budget import within_limits
from project_corpus.importer.plan import plan_documents
from project_corpus.importer.records import Doc
from project_corpus.importer.records import ImportOptions
from project_corpus.importer.records import Left
from project_corpus.importer.records import Source
from project_corpus.importer.render import Rendered
from project_corpus.importer.render import check_verbatim
from project_corpus.importer.render import heading_levels
from project_corpus.importer.render import render
from project_corpus.importer.report import result
from project_corpus.importer.selfcheck import conformance_problem
from project_corpus.scaffold import agents
from project_corpus.scaffold.create import agents_text
from project_corpus.scaffold.create import policy_text


def run_import(
    root: str | os.PathLike[str], options: ImportOptions | None = None
) -> dict[str, object]:
    """Import the memory kept under ROOT into a Protocol V2 corpus (docs/import.md)."""
    opts = options or ImportOptions()
    resolved = fs.resolve_root(root)
    found = discover.walk(resolved, list(opts.include), list(opts.exclude))
    record = write.read_record(resolved)
    sources, left = _read(resolved, found, set(record))
    if not sources:
        raise ContextError(
            "IMPORT_NO_MEMORY",
            f"{os.fspath(root)}: no memory in a known layout was found",
            hint="name the files with --include GLOB, or start an empty corpus with "
            "`project-corpus init`",
        )
    name = Path(resolved).name or "project"
    project_id = _project_id(resolved, name)
    file_dates = _dates(resolved, sources)
    docs = plan_documents(sources, project_id, name, file_dates)
    rendered, left = _render_all(docs, sources, left, project_id)
    kept, limited = within_limits(docs, rendered)
    left += limited
    files = {d.target: rendered[d.target].data for d in kept}
    files.update(_scaffold(project_id, name, files))
    if _owner_agents(resolved, record):
        del files["AGENTS.md"]
    actions = write.decide(resolved, files, record, opts.prune)
    pointer = _pointer_action(resolved, record)
    if not opts.dry_run:
        new_record = write.record_bytes(write.new_record(actions, record))
        write.apply(resolved, actions, new_record)
        if pointer == "append":
            agents.append_pointer(resolved)
    return result(
        os.fspath(root), opts, project_id, sources, kept, rendered, left, actions, pointer
    )


def _read(root: str, found: discover.Found, recorded: set[str]) -> tuple[list[Source], list[Left]]:
    sources: list[Source] = []
    left = list(found.left)
    wanted = [(path, role) for path, role in found.paths if path not in recorded]
    for got in discover.read_all(root, wanted):  # a recorded path: AGENTS.md as import wrote it
        if isinstance(got, Left):
            left.append(got)
        elif got.path == agents.AGENTS_PATH:
            lines = agents.without_pointer(got.lines)
            if any(line.strip() for line in lines):
                sources.append(got._replace(lines=lines))
        else:
            sources.append(got)
    return sources, sorted(left)


def _project_id(root: str, name: str) -> str:
    """The existing corpus's Project-ID (policy, else PROJECT.md), else the folder name."""
    import tomllib

    try:
        policy = tomllib.loads(
            fs.read_relative(root, POLICY_PATH, 1 << 20, code="SOURCE_LINK").decode()
        )
        if isinstance(policy.get("project_id"), str) and ID_RE.match(policy["project_id"]):
            return str(policy["project_id"])
    except (ContextError, ValueError, UnicodeDecodeError):
        pass
    try:
        text = fs.read_relative(root, PROJECT_PATH, 1 << 20, code="SOURCE_LINK").decode()
        for line in text.split("\n")[:40]:
            if line.startswith("Project-ID:") and ID_RE.match(line[11:].strip()):
                return line[11:].strip()
    except (ContextError, UnicodeDecodeError):
        pass
    slug = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "-" for c in name.lower())
    slug = slug.strip("-._")[:64]
    return slug if ID_RE.match(slug) else "imported-project"


def _dates(root: str, sources: list[Source]) -> dict[str, str]:
    found: dict[str, str] = {}
    undated: list[str] = []
    for source in sources:
        own = dates.text_date(source.lines, md.front_matter_end(source.lines))
        own = own or dates.name_date(source.path)
        if own:
            found[source.path] = own
        else:
            undated.append(source.path)
    if undated:
        first = dates.git_first_dates(root)
        found.update({p: first[p] for p in undated if p in first})
    return found


def _render_all(
    docs: list[Doc], sources: list[Source], left: list[Left], project_id: str
) -> tuple[dict[str, Rendered], list[Left]]:
    lines = {s.path: s.lines for s in sources}
    # Only the files some block moves headings in are parsed for their headings (saves a
    # parse of every source: a third of the import's CPU on 1,000 files).
    shifted = {b.path for d in docs for b in d.blocks if b.shift}
    levels = {s.path: heading_levels(s.lines) if s.path in shifted else {} for s in sources}
    out: dict[str, Rendered] = {}
    for doc in docs:
        rendered = render(doc, lines, levels)
        check_verbatim(doc.target, rendered, lines, levels)
        problem = conformance_problem(doc, rendered.text, project_id)
        if problem is None:
            out[doc.target] = rendered
        else:
            left += [
                Left(path, "nonconformant", f"{doc.target}: {problem}") for path in doc.sources
            ]
    return out, sorted(left)


def _scaffold(project_id: str, name: str, files: dict[str, bytes]) -> dict[str, bytes]:
    extra = {
        POLICY_PATH: policy_text(project_id).encode("utf-8"),
        CACHE_GITIGNORE: b"*\n",
        "AGENTS.md": agents_text(name).encode("utf-8"),
    }
    for folder in ARTIFACT_DIRS:
        if not any(path.startswith(folder + "/") for path in files):
            extra[f"{folder}/.gitkeep"] = b""
    return extra


def _owner_agents(root: str, record: dict[str, str]) -> bool:
    """Whether ROOT has an AGENTS.md the import did not write (the owner's)."""
    return agents.read_agents(root) is not None and agents.AGENTS_PATH not in record


def _pointer_action(root: str, record: dict[str, str]) -> str:
    existing = agents.read_agents(root)
    if existing is None or agents.AGENTS_PATH in record:
        return "none"
    return "append" if agents.addition(existing) else "present"
