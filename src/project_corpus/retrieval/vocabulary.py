"""Near-equivalent words and question intents (docs/retrieval.md, "The general glossary" and
"Question intent").

The near-equivalents are the curated general glossary's (`equivalents`, a data file shipped
in the package); the intents are the words that say what kind of answer a question wants.
None is taken from a dataset.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from project_corpus.retrieval import equivalents
from project_corpus.retrieval import text as textmod


def equivalent_forms(term: str) -> frozenset[str]:
    """The stems of the words that share a class of the general glossary with TERM (empty
    when it has none): `equivalents.word_forms`."""
    return equivalents.word_forms(term)


class Intent(NamedTuple):
    """A kind of question and where its answers are written."""

    asks: re.Pattern[str]  # in the folded question
    answers: re.Pattern[str]  # in the folded section path and text of an item


# Word starts only; every pattern is a plain alternation of literals (linear).
WHY_ASKS_RE = re.compile(
    r"\b(?:why|reasons?|rationale|motivation|justif|зачем|почему|причин|обоснов)"
)
WHY_ANSWERS_RE = re.compile(
    r"\b(?:because|since|due to|so that|in order to|reason|rationale|motivat|decision|"
    r"decided|consequence|trade-?off|benefit|advantage|drawback|alternative|"
    r"instead of|rather than|context|поскольку|потому|так как|из-за|чтобы|причин|"
    r"решени|обоснова|последстви|преимуществ|недостат|вместо)"
)
HOW_ASKS_RE = re.compile(
    r"\b(?:how do|how to|how can|how should|steps?|как сделать|как запуст|как настро)"
)
HOW_ANSWERS_RE = re.compile(
    r"\b(?:usage|how to|steps?|instructions?|setup|set up|install|getting started|"
    r"run |runs? `|command|workflow|procedure|guide|инструкц|шаг|установ|запуск|команд)"
)
CHANGE_ASKS_RE = re.compile(
    r"\b(?:what changed|what was added|what was fixed|what was removed|changes? in|"
    r"changelog|release notes|что изменил|что добавил|что исправ)"
)
CHANGE_ANSWERS_RE = re.compile(
    r"\b(?:added|changed|fixed|removed|deprecated|release|changelog|version|"
    r"добавлен|изменен|исправлен|удален|релиз|верси)"
)
# A question about now: answered by STATUS, the document that holds the current state
# (`item_answers`), not by words of the answer.
STATUS_ASKS_RE = re.compile(
    r"\b(?:right now|at the moment|at present|currently|these days|so far|still|yet\b|"
    r"where (?:do|does|are|is) .{0,40}stand|сейчас|на данный момент|в данный момент|"
    r"на текущий момент|пока что|до сих пор|уже)"
)
# The words of a question that only say "now": they ask for STATUS (the status intent) and are
# no terms of their own ("what is blocking us right now" is about blockers, not about "right").
NOW_WORDS_RE = re.compile(
    r"\b(?:right now|at the moment|at present|these days|so far|на данный момент|"
    r"в данный момент|на текущий момент|пока что|до сих пор)\b"
)
QUANTITY_ASKS_RE = re.compile(
    r"\b(?:how (?:many|much|long|big|fast|often|old|close|large|small|far|high|low)|"
    r"what (?:percentage|share|proportion|fraction)|сколько|как долго|как часто|"
    r"какой процент|какая доля|какую долю)"
)
QUANTITY_ANSWERS_RE = re.compile(r"[0-9]")
INTENTS: dict[str, Intent] = {
    "quantity": Intent(QUANTITY_ASKS_RE, QUANTITY_ANSWERS_RE),
    "why": Intent(WHY_ASKS_RE, WHY_ANSWERS_RE),
    "how": Intent(HOW_ASKS_RE, HOW_ANSWERS_RE),
    "change": Intent(CHANGE_ASKS_RE, CHANGE_ANSWERS_RE),
}


# Section names of the part of a decision record that says what was decided (Nygard's
# "Decision", MADR's "Decision Outcome", "Conclusion", "Решение", "Итог"...).
DECISION_SECTION_RE = re.compile(
    r"\b(?:decision|outcome|resolution|conclusion|verdict|recommendation|solution|chosen|"
    r"решени|итог|вывод|рекомендац)"
)


# The label a line starts with: "- **Decision**: …", "Outcome: …", "1. __Verdict__: …".
LABEL_RE = re.compile(
    r"(?:[-*+]\s+|[0-9]{1,9}[.)]\s+)?(?:\*\*|__)?([^:*_\n]{1,40})(?:\*\*|__)?\s*:"
)


@lru_cache(maxsize=4096)
def records_decision(section: str) -> bool:
    """Whether a section path names the part of a record that says what was decided."""
    return DECISION_SECTION_RE.search(textmod.fold(section)) is not None


def labels_decision(text: str) -> bool:
    """Whether a line starts with a label that names what was decided ("**Decision**: …")."""
    label = LABEL_RE.match(text)  # a label of a few words, not a sentence that ends in ":"
    return label is not None and len(label.group(1).split()) <= 3 and records_decision(label[1])


def without_now_words(query: str) -> str:
    """QUERY without the words that only say "now" (`NOW_WORDS_RE`), in its folded form."""
    return NOW_WORDS_RE.sub(" ", textmod.fold(query))


def query_intents(query: str) -> frozenset[str]:
    """The intents a question shows (docs/retrieval.md, "Question intent")."""
    folded = textmod.fold(query)
    asked = {name for name, intent in INTENTS.items() if intent.asks.search(folded)}
    return frozenset(asked | ({"status"} if STATUS_ASKS_RE.search(folded) else set()))


def item_answers(
    intents: frozenset[str], section: str, text: str, status: bool = False
) -> frozenset[str]:
    """Those of INTENTS that an item with this SECTION path and TEXT is written to answer;
    STATUS when the item is a line of STATUS."""
    worded = intents & INTENTS.keys()
    found = {"status"} if status and "status" in intents else set()
    if worded:
        folded = textmod.fold(f"{section}\n{text}")
        found.update(name for name in worded if INTENTS[name].answers.search(folded))
        if "quantity" in found and not QUANTITY_ANSWERS_RE.search(text):
            found.discard("quantity")  # a figure of the heading ("ADR-0018") answers no "how many"
    return frozenset(found)
