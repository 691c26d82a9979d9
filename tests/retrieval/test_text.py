"""Stemmers are loaded alone (not the package's 36) and stem exactly like the package.

PyStemmer is blocked in these probes (`sys.modules["Stemmer"] = None`): with it, neither the
tool nor the package loads a pure-Python stemmer (tests/retrieval/test_stemmers.py)."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from project_corpus.retrieval.text import fold
from project_corpus.retrieval.text import fold_joined

PROBE = """
import sys
sys.modules["Stemmer"] = None
from project_corpus.retrieval import text
words = sys.argv[1].split()
ours = [text.stem(w) for w in words]
loaded = sorted(m for m in sys.modules if m.startswith('snowballstemmer'))
import snowballstemmer
en, ru = snowballstemmer.stemmer('english'), snowballstemmer.stemmer('russian')
theirs = [(ru if text.CYRILLIC_RE.search(w) else en).stemWord(w) for w in words]
print(ours == theirs, ' '.join(loaded))
"""


def test_stemmers_loaded_alone_stem_like_the_package() -> None:
    words = "running generalization caresses ponies состояние текущего кэширования блокеры"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, words], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [
        "True",
        "snowballstemmer.among",
        "snowballstemmer.basestemmer",
        "snowballstemmer.english_stemmer",
        "snowballstemmer.russian_stemmer",
    ]


def test_stemmers_come_from_an_imported_package_when_there_is_one() -> None:
    code = (
        "import sys\nsys.modules['Stemmer'] = None\n"
        "import snowballstemmer\nfrom project_corpus.retrieval import text\n"
        "print(text.stem('running'), text.stem('состояние'))\n"
        "print(type(text._stemmers()[0]) is snowballstemmer.EnglishStemmer)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["run", "состоян", "True"]


@given(st.lists(st.text(alphabet=st.sampled_from(list("aBßẞİﬁΣςЁёя \n\t0")), max_size=12)))
def test_folding_parts_joined_is_folding_each_part(parts: list[str]) -> None:
    blob, starts = fold_joined(parts)
    folded = [fold(part) for part in parts]
    assert blob == "\0".join(folded)
    assert starts == [sum(len(p) + 1 for p in folded[:n]) for n in range(len(parts))]
