"""`Supersedes:` relations: validity, orphans and cycles by SCC (docs/protocol.md). Pure
functions."""

from __future__ import annotations

import re
from collections.abc import Iterable

from project_corpus.core.records import Document
from project_corpus.core.records import Relation
from project_corpus.core.records import Source
from project_corpus.corpus.layout import ARTIFACT_DIRS
from project_corpus.corpus.layout import inside
from project_corpus.corpus.markdown import fenced_line_numbers

SUPERSEDES_RE = re.compile(r"^Supersedes:[ \t]*(\S*)")
TARGET_ROOTS = tuple(inside(folder) for folder in ARTIFACT_DIRS)


def declared_edges(source: Source) -> list[tuple[int, str]]:
    """(line, target) for each `Supersedes:` line outside fenced code."""
    lines = source.doc.lines
    # Most documents have none: one search of the joined lines (no line holds a newline) is
    # cheaper than a call per line.
    joined = "\n".join(lines)
    if not (joined.startswith("Supersedes:") or "\nSupersedes:" in joined):
        return []
    candidates = [n for n, line in enumerate(lines, start=1) if line.startswith("Supersedes:")]
    code = fenced_line_numbers(source.doc)
    edges = []
    for number in candidates:
        if number not in code:
            match = SUPERSEDES_RE.match(source.doc.lines[number - 1])
            edges.append((number, match.group(1) if match else ""))
    return edges


def target_problem(source: Source, target: str, active_path: str | None) -> str | None:
    """Why an edge from SOURCE to TARGET is invalid, or None."""
    if source.source_type == "state":
        return "Supersedes: lines in state documents are never valid"
    if source.foreign:
        return "the declaring document belongs to another project"
    if not target:
        return "no target path"
    if (
        "\\" in target
        or ":" in target
        or target.startswith("/")
        or any(ord(ch) < 32 or ord(ch) == 127 for ch in target)
    ):
        return "not a portable relative path"
    if any(part in ("", ".", "..") for part in target.split("/")):
        return "empty, `.` or `..` path component"
    if not target.startswith(TARGET_ROOTS) or not target.endswith(".md"):
        return "target must be a .md file under tasks/, reports/ or history/"
    if target == active_path:
        return "the active task cannot be superseded"
    if target == source.path:
        return "a document cannot supersede itself"
    return None


# Each document's declared edges, by path, for the document object they were read from: a
# warm caller's unchanged documents are the same objects (`corpus.memo`), so after an edit only
# the changed ones are searched again (~7 ms of 2,048 sources). Pruned to the current sources.
_EDGES: dict[str, tuple[Document, list[tuple[int, str]]]] = {}


def _edges(src: Source) -> list[tuple[int, str]]:
    kept = _EDGES.get(src.path)
    if kept is None or kept[0] is not src.doc:
        kept = _EDGES[src.path] = (src.doc, declared_edges(src))
    return kept[1]


def relations(sources: Iterable[Source], active_path: str | None) -> list[Relation]:
    """All declared relations with validity: valid, invalid, orphan or cyclic."""
    sources = list(sources)
    known = {src.path for src in sources}
    for path in [path for path in _EDGES if path not in known]:
        del _EDGES[path]
    rels = []
    for src in sources:
        for line, target in _edges(src):
            problem = target_problem(src, target, active_path)
            if problem:
                rels.append(Relation(src.path, target, line, "invalid", problem))
            elif target not in known:
                rels.append(
                    Relation(src.path, target, line, "orphan", "target is missing or out of scope")
                )
            else:
                rels.append(Relation(src.path, target, line, "valid", ""))
    cyclic = _cyclic_nodes([(r.source, r.target) for r in rels if r.validity == "valid"])
    return [
        r._replace(validity="cyclic", detail="the edge lies on a supersession cycle")
        if r.validity == "valid"
        and cyclic.get(r.source) is not None
        and cyclic.get(r.source) == cyclic.get(r.target)
        else r
        for r in rels
    ]


def superseded_paths(rels: Iterable[Relation]) -> set[str]:
    return {r.target for r in rels if r.validity == "valid"}


class _Tarjan:
    """Iterative Tarjan SCC: linear in nodes + edges, no recursion limit."""

    def __init__(self, graph: dict[str, list[str]]) -> None:
        self.graph = graph
        self.index: dict[str, int] = {}
        self.low: dict[str, int] = {}
        self.stack: list[str] = []
        self.on_stack: set[str] = set()
        self.cyclic: dict[str, int] = {}

    def visit(self, root: str) -> None:
        work = [(root, 0)]
        while work:
            node, pos = work.pop()
            if pos == 0:
                self.index[node] = self.low[node] = len(self.index)
                self.stack.append(node)
                self.on_stack.add(node)
            children = self.graph[node]
            if pos < len(children):
                work.append((node, pos + 1))
                child = children[pos]
                if child not in self.index:
                    work.append((child, 0))
                elif child in self.on_stack:
                    self.low[node] = min(self.low[node], self.index[child])
                continue
            if self.low[node] == self.index[node]:
                self._pop_component(node)
            if work:
                parent = work[-1][0]
                self.low[parent] = min(self.low[parent], self.low[node])

    def _pop_component(self, node: str) -> None:
        component = []
        while True:
            member = self.stack.pop()
            self.on_stack.discard(member)
            component.append(member)
            if member == node:
                break
        if len(component) > 1:
            for member in component:
                self.cyclic[member] = self.index[node]


def _cyclic_nodes(edges: list[tuple[str, str]]) -> dict[str, int]:
    """Node -> component number, for nodes in a strongly connected component of size > 1."""
    graph: dict[str, list[str]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    tarjan = _Tarjan(graph)
    for root in sorted(graph):
        if root not in tarjan.index:
            tarjan.visit(root)
    return tarjan.cyclic
