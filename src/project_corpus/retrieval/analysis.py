"""The per-corpus half of retrieval: what every query on one corpus reads (docs/retrieval.md).

`Analysis` holds only what depends on the corpus alone (its items, the folded text scan,
recency ranks, memos of per-item stems and per-prefix scans); everything a query adds (its
terms, weights, hits and scores) lives in `rank.Candidates`, made anew for each query. So one
analysis serves any number of queries on the same immutable `Corpus`: `context eval` makes
one and hands it to each of its compiles, other callers get it from `analyse`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from project_corpus.core.records import Corpus
from project_corpus.corpus.items import LazyItems
from project_corpus.corpus.layout import PROJECT_PATH
from project_corpus.corpus.snapshot import paused_gc
from project_corpus.corpus.vocabulary import ID_KEYS
from project_corpus.retrieval import glossary
from project_corpus.retrieval import links
from project_corpus.retrieval import lists
from project_corpus.retrieval import markers
from project_corpus.retrieval import text as textmod
from project_corpus.retrieval.doctext import TextMemo
from project_corpus.retrieval.scan import TextScan
from project_corpus.retrieval.score import ROLE_WEIGHT
from project_corpus.retrieval.score import Query
from project_corpus.retrieval.score import role_share
from project_corpus.retrieval.score import share

# Metadata keys that name their own document: such a line answers a question naming it.
SELF_NAMING = {kind: (key,) for kind, key in ID_KEYS.items()}
PROJECT_NAMING = ("Project-ID", "Logical-Name")
PREFIX_CACHE = 256  # scanned stem prefixes kept per analysis


class Analysis:
    """Per-corpus token data, computed once and reused by every query on that corpus. Nothing
    in it depends on a query; its memo tables are its own (no other module writes into it).

    Stemming every token of a 50,000-line corpus costs more than reading it, so a query
    stems only the tokens that start with the *stem prefix* of one of its terms: a Snowball
    stem differs from its token at most in its last two characters (English; Russian stems
    are plain prefixes), so no token with a query stem is ever skipped. One regular
    expression finds those tokens in the folded text of all items at once. A property test
    in tests/test_retrieval.py guards the prefix rule.
    """

    def __init__(self, corpus: Corpus, memo: TextMemo | None = None) -> None:
        self.corpus = corpus  # what it was made for (`rank.analysis_of` checks it)
        own = [s for s in corpus.sources if s.project_id == corpus.project_id]
        self.items = LazyItems(own)
        self.sources = own
        self.scan = TextScan(self.items, memo)  # MEMO: a long-lived caller's (`Workspace`)
        self.n_items = sum(len(s.doc.spans) for s in corpus.sources)
        stamps = sorted({s.timestamp for s in corpus.sources if s.timestamp})
        self.recency = {stamp: (10 * (i + 1)) // len(stamps) for i, stamp in enumerate(stamps)}
        self._identities: dict[int, tuple[str, frozenset[str]]] = {}
        self._answerable: dict[int, bool | frozenset[str]] = {}
        self._section_roles: dict[str, frozenset[str]] = {}
        self._prefixes: dict[str, dict[str, list[int]]] = {}
        self._report_names: dict[str, str] | None = None

    def hits(self, terms: set[str]) -> dict[int, set[str]]:
        """{item index: the given stems among its own (text, section path, document title)}."""
        found: dict[int, set[str]] = {}
        for prefix in _minimal_prefixes({textmod.stem_prefix(t) for t in terms}):
            for stem, indexes in self._prefix_stems(prefix).items():
                if stem in terms:
                    for index in indexes:
                        found.setdefault(index, set()).add(stem)
        return found

    def _prefix_stems(self, prefix: str) -> dict[str, list[int]]:
        """{stem: the items holding it} for the words starting with PREFIX (one scan per
        prefix and analysis; queries on one corpus share their prefixes)."""
        cached = self._prefixes.get(prefix)
        if cached is not None:
            return cached
        by_stem = self.scan.stems(prefix)
        if len(self._prefixes) >= PREFIX_CACHE:
            self._prefixes.clear()
        self._prefixes[prefix] = by_stem
        return by_stem

    def report_names(self) -> dict[str, str]:
        """{Report-ID or file stem: path} of this project's reports (built on first use)."""
        if self._report_names is None:
            self._report_names = links.report_names(self.sources)
        return self._report_names

    def section_roles(self, section: str) -> frozenset[str]:
        """The glossary concepts a section heading path names (cached per path)."""
        cached = self._section_roles.get(section)
        if cached is None:
            cached = self._section_roles[section] = glossary.section_concepts(section)
        return cached

    def is_answer(self, index: int, hits: frozenset[str], forms: dict[str, frozenset[str]]) -> bool:
        """Whether an item holding the query terms HITS (glossary FORMS) can be a result
        (docs/retrieval.md rule 4): a heading only when its section holds nothing else; a metadata
        line only when the query hits its key ("what is the lifecycle status") or it names
        its own document (`Report-ID:` of a report...); a line without a word of its own
        (a table rule `|---|`) never. What does not depend on the query is kept per item."""
        fact = self._answerable.get(index)
        if fact is None:
            fact = self._answerable[index] = self._answer_fact(index)
        if isinstance(fact, bool):
            return fact
        # A metadata line answers a question that names its key: both words of a two-word
        # key ("Protocol-Version" for "which protocol version", not for "version 1.1.0").
        named = {stem for stem in fact if any(stem in forms[t] for t in hits)}
        return bool(named) and len(named) >= min(2, len(fact))

    def _answer_fact(self, index: int) -> bool | frozenset[str]:
        """Whether item INDEX can be a result, when no query changes it; else (a metadata line
        that does not name its own document) the stems of its key, which a query must hit."""
        item = self.items[index]  # made once: a result's `Item` too
        if item.kind == "heading":
            return not self.heading_has_content(index)
        if index in self.scan.table_heads:
            return False
        if item.kind == "meta":
            key = item.text.partition(":")[0]
            own = PROJECT_NAMING if item.source_path == PROJECT_PATH else ()
            if key in own or key in SELF_NAMING.get(item.source_type, ()):
                return True
            return frozenset(textmod.stems(key)) - textmod.STOPWORDS
        if self._introduces_next(index, item.kind, item.text):
            return False  # a label: the next item carries its content and reads it too
        return markers.has_content(item.text)

    def _introduces_next(self, index: int, kind: str, text: str) -> bool:
        """Whether item INDEX (of KIND, with TEXT) is a short label (or a parent bullet that
        is one, or the short line above a code block) which the next item reads as its
        context (`lists`): that item carries the answer."""
        context = self.scan.list_context.get(index + 1)
        if context is None or not text.startswith(context):
            return False
        if lists.is_short_label(text):
            return True
        following = self.items[index + 1].kind
        return following == "code" and lists.introduces(text, kind, following)

    def heading_has_content(self, index: int) -> bool:
        """Whether the heading item at INDEX opens a section that holds another item
        (docs/retrieval.md):
        a non-heading item follows before the next heading of the same or a higher level."""
        owner, at = self.items.locate(index)
        spans = owner.doc.spans
        depth = _depth(spans[at].section)
        for other in range(at + 1, len(spans)):
            if spans[other].kind != "heading":
                return True
            if _depth(spans[other].section) <= depth:
                return False
        return False

    def owners(self, indexes: Iterable[int]) -> dict[int, int]:
        """{index: the number of its item's source} for INDEXES, in their order."""
        bases = self.items.bases
        return {index: bisect_right(bases, index) - 1 for index in indexes}

    def role_bound(self, ctx: Query, number: int, line: int) -> int:
        """The role bonus of the items of source NUMBER in the section opened at LINE (no
        `Item` made), or the most any section can give when that section is not known."""
        section = self.scan.section_paths(number).get(line)
        if section is None:
            return share(ctx, frozenset().union(*ctx.roles.values()), ROLE_WEIGHT)
        return role_share(ctx, self.section_roles(section))

    def identity(self, index: int) -> tuple[str, frozenset[str]]:
        """An item's normalised text and the stems of its text (near-duplicate identity)."""
        cached = self._identities.get(index)
        if cached is None:
            text = self.items[index].text
            cached = (textmod.normalise(text), frozenset(textmod.stems(text)))
            self._identities[index] = cached
        return cached


def _depth(section: str) -> int:
    """0 for the part before the first H2 (an H1's), else the number of heading levels."""
    return section.count(" > ") + 1 if section else 0


def _minimal_prefixes(prefixes: set[str]) -> list[str]:
    """PREFIXES without those that extend another (its matches are found already)."""
    ordered = sorted(prefixes, key=lambda p: (len(p), p))
    kept: list[str] = []
    for prefix in ordered:
        if not any(prefix.startswith(shorter) for shorter in kept):
            kept.append(prefix)
    return kept


_LAST: list[Analysis] = []  # at most one: the last corpus's


def analyse(corpus: Corpus) -> Analysis:
    """The analysis of CORPUS, kept for the last corpus object seen (one entry, matched by the
    corpus's identity while holding it, so an object at a reused address is never mistaken):
    callers that search one corpus several times share it without passing it around. A new
    corpus object (each MCP call and each CLI command collects one) replaces it."""
    if _LAST and _LAST[0].corpus is corpus:
        return _LAST[0]
    with paused_gc():
        analysis = Analysis(corpus)
    _LAST[:] = [analysis]
    return analysis
