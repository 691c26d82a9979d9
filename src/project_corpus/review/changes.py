"""What a change does to the memory an agent acts on (docs/review.md). Pure functions over
the base and head `Corpus`: STATUS fields and sections, Tasks and Reports, the policy."""

from __future__ import annotations

from collections.abc import Iterator

from project_corpus.core.records import Corpus
from project_corpus.core.records import Document
from project_corpus.core.records import Policy
from project_corpus.core.records import Source
from project_corpus.corpus.layout import STATUS_PATH
from project_corpus.corpus.policy import TABLE_KEYS
from project_corpus.corpus.policy import policy_line
from project_corpus.corpus.protocol import section_text
from project_corpus.corpus.vocabulary import ID_KEYS
from project_corpus.corpus.vocabulary import PROFILE_ORDER
from project_corpus.corpus.vocabulary import STATUS_KEYS
from project_corpus.corpus.vocabulary import STATUS_SECTIONS
from project_corpus.review.lines import modified_lines

Change = dict[str, object]
STATE_KEYS = {"task": "Task-Status", "report": "Result"}


def _kind(before: object, after: object) -> str:
    return "added" if before is None else "removed" if after is None else "changed"


def _document(corpus: Corpus, path: str) -> Document | None:
    source = corpus.source(path)
    return source.doc if source else None


def _meta(doc: Document | None) -> dict[str, tuple[str, int]]:
    """{key: (value, line)} of the first metadata line of each key."""
    found: dict[str, tuple[str, int]] = {}
    for entry in doc.meta if doc else ():
        found.setdefault(entry.key, (entry.value, entry.line))
    return found


def _section(doc: Document | None, title: str) -> tuple[str, int] | None:
    """(the section's non-blank lines, its heading line), None when it has no such heading."""
    if doc is None:
        return None
    heading = next((h for h in doc.headings if h.level == 2 and h.title == title), None)
    if heading is None:
        return None
    return "\n".join(text.strip() for _, text in section_text(doc, title)), heading.line


def status_changes(base: Corpus, head: Corpus) -> list[Change]:
    """Every STATUS metadata field and required section whose text differs: before, after
    and the head line (for a section, its first line this change modified)."""
    old, new = _document(base, STATUS_PATH), _document(head, STATUS_PATH)
    changes: list[Change] = []
    old_meta, new_meta = _meta(old), _meta(new)
    keys = [*STATUS_KEYS, *sorted((set(old_meta) | set(new_meta)) - set(STATUS_KEYS))]
    changes += [c for c in (_meta_change(k, old_meta.get(k), new_meta.get(k)) for k in keys) if c]
    touched = modified_lines(old.lines if old else (), new.lines if new else ())
    for title in STATUS_SECTIONS:
        was, now = _section(old, title), _section(new, title)
        before, after = (was[0] if was else None), (now[0] if now else None)
        if before != after:
            line = _first_touched(new, title, touched) if now else None
            changes.append(_field(title, "section", before, after, line))
    return changes


def _field(name: str, kind: str, before: str | None, after: str | None, line: int | None) -> Change:
    return {
        "field": name,
        "kind": kind,
        "change": _kind(before, after),
        "before": before,
        "after": after,
        "line": line,
    }


def _meta_change(key: str, before: tuple[str, int] | None, after: tuple[str, int] | None) -> Change:
    """The change of metadata KEY ((value, line) on each side), {} when its value is equal."""
    old = before[0] if before else None
    new, line = after if after else (None, None)
    return {} if old == new else _field(key, "metadata", old, new, line)


def _first_touched(doc: Document | None, title: str, touched: frozenset[int]) -> int | None:
    section = _section(doc, title)
    if doc is None or section is None:
        return None
    lines = [n for n, _ in section_text(doc, title)]
    return next((n for n in lines if n in touched), lines[0] if lines else section[1])


# --- Tasks and Reports ------------------------------------------------------------------


def _summary(source: Source, kind: str) -> Change:
    return {
        "path": source.path,
        "id": source.doc.meta_value(ID_KEYS[kind]),
        "state": source.doc.meta_value(STATE_KEYS[kind]),
        "authority_class": source.authority_class,
        "temporal_status": source.temporal_status,
    }


def _supersedes(corpus: Corpus, path: str) -> list[str]:
    return sorted(r.target for r in corpus.relations if r.source == path and r.validity == "valid")


def _superseded_by(corpus: Corpus, path: str) -> list[str]:
    return sorted(r.source for r in corpus.relations if r.target == path and r.validity == "valid")


def artifact_changes(base: Corpus, head: Corpus, kind: str) -> dict[str, list[Change]]:
    """Tasks (KIND "task") or Reports ("report"): added, removed, changed (metadata,
    classes, `Supersedes:` links, content) and newly superseded."""
    old = {s.path: s for s in base.sources if s.source_type == kind}
    new = {s.path: s for s in head.sources if s.source_type == kind}
    changed = []
    for path in sorted(old.keys() & new.keys()):
        fields = list(_field_changes(base, head, old[path], new[path]))
        if fields or old[path].sha256 != new[path].sha256:
            entry = _summary(new[path], kind)
            entry |= {"fields": fields, "content_changed": old[path].sha256 != new[path].sha256}
            changed.append(entry)
    newly = [
        {**_summary(source, kind), "superseded_by": _superseded_by(head, path)}
        for path, source in sorted(new.items())
        if source.temporal_status == "superseded"
        and (path not in old or old[path].temporal_status != "superseded")
    ]
    return {
        "added": [_summary(new[p], kind) for p in sorted(new.keys() - old.keys())],
        "removed": [_summary(old[p], kind) for p in sorted(old.keys() - new.keys())],
        "changed": changed,
        "newly_superseded": newly,
    }


def _field_changes(base: Corpus, head: Corpus, old: Source, new: Source) -> Iterator[Change]:
    old_meta, new_meta = _meta(old.doc), _meta(new.doc)
    for key in sorted(set(old_meta) | set(new_meta)):
        change = _meta_change(key, old_meta.get(key), new_meta.get(key))
        if change:
            yield change
    for name in ("authority_class", "temporal_status"):
        before_class, after_class = getattr(old, name), getattr(new, name)
        if before_class != after_class:
            yield _field(name, "class", before_class, after_class, None)
    was, now = _supersedes(base, old.path), _supersedes(head, new.path)
    if was != now:
        yield {
            "field": "supersedes",
            "kind": "relation",
            "change": "changed",
            "before": was,
            "after": now,
            "line": None,
        }


# --- the policy -------------------------------------------------------------------------


def policy_changes(base: Policy, head: Policy) -> list[Change]:
    """Scopes, capabilities, profile, requirements, version and project ID that differ; a
    widened scope, a new capability, a stronger profile, a dropped requirement or another
    project ID is flagged `needs_owner_review`."""
    changes = [
        _list_change("scopes.read", base.read, head.read, policy_line(head, "read")),
        _list_change("scopes.write", base.write, head.write, policy_line(head, "write")),
        _list_change("capabilities.allow", base.allow, head.allow, policy_line(head, "allow")),
    ]
    rank = {name: n for n, name in enumerate(PROFILE_ORDER)}
    stronger = rank.get(head.profile, len(rank)) > rank.get(base.profile, len(rank))
    changes.append(_value_change("profile", base.profile, head.profile, stronger, head))
    for key in TABLE_KEYS["requirements"]:
        before, after = base.requirements.get(key), head.requirements.get(key)
        dropped = before is True and after is not True
        changes.append(_value_change(f"requirements.{key}", before, after, dropped, head))
    changes.append(
        _value_change("policy_version", base.policy_version, head.policy_version, False, head)
    )
    moved = bool(base.project_id) and base.project_id != head.project_id
    changes.append(_value_change("project_id", base.project_id, head.project_id, moved, head))
    return [change for change in changes if change]


def _list_change(name: str, before: tuple[str, ...], after: tuple[str, ...], line: int) -> Change:
    added = [v for v in after if v not in before]
    removed = [v for v in before if v not in after]
    if not added and not removed:
        return {}
    return {
        "field": name,
        "before": list(before),
        "after": list(after),
        "added": added,
        "removed": removed,
        "needs_owner_review": bool(added),
        "line": line,
    }


def _value_change(name: str, before: object, after: object, flag: bool, head: Policy) -> Change:
    if before == after:
        return {}
    key = name if name in ("profile", "project_id") else name.partition(".")[0]
    return {
        "field": name,
        "before": before,
        "after": after,
        "added": [],
        "removed": [],
        "needs_owner_review": flag,
        "line": policy_line(head, key) if key in head.lines else None,
    }
