"""PyStemmer's compiled Snowball stemmers (the `fast` extra) stem exactly like the pure-Python
`snowballstemmer` ones; the tool uses them when they import, falls back otherwise, and its
output bytes are the same either way (docs/decisions.md, "PyStemmer as an optional
accelerator")."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from snowballstemmer.english_stemmer import EnglishStemmer
from snowballstemmer.russian_stemmer import RussianStemmer

from project_corpus.retrieval import text
from project_corpus.retrieval.text import CYRILLIC_RE
from project_corpus.retrieval.text import LATIN_RE
from project_corpus.retrieval.text import fold
from project_corpus.retrieval.text import raw_tokens
from tests.conftest import FIXTURES
from tests.conftest import copy_fixture

CREATED_AT = re.compile(rb'"created_at": "[^"]*"')  # a bundle's clock time, as compare_outputs.py
HAS_PYSTEMMER = find_spec("Stemmer") is not None
needs_pystemmer = pytest.mark.skipif(
    not HAS_PYSTEMMER,
    reason="PyStemmer is not installed (it comes with the `test` and `fast` extras): "
    "no compiled stemmer to compare with the pure-Python one",
)
PURE = (EnglishStemmer(), RussianStemmer())
LATIN = "abcdefghijklmnopqrstuvwxyz"
CYRILLIC = "абвгдежзийклмнопрстуфхцчшщъыьэюяё"

# Runs the CLI with PyStemmer blocked ("pure") or not ("auto"), then says on stderr which
# stemmer module the process loaded.
RUN = """
import sys
if sys.argv[1] == "pure":
    sys.modules["Stemmer"] = None
from project_corpus.__main__ import main
code = main(sys.argv[2:])
loaded = sorted(n for n in ("Stemmer", "snowballstemmer.english_stemmer") if sys.modules.get(n))
print("LOADED", *loaded, file=sys.stderr)
sys.exit(code)
"""


@lru_cache(maxsize=1)
def compiled() -> tuple[object, object]:
    import Stemmer

    return Stemmer.Stemmer("english"), Stemmer.Stemmer("russian")


def stem_both(token: str) -> tuple[str, str]:
    """TOKEN's stem by the pure-Python and by the compiled stemmer the tool would pick for it."""
    if CYRILLIC_RE.search(token):
        language = 1
    elif LATIN_RE.search(token):
        language = 0
    else:
        return token, token
    fast = compiled()[language]
    return PURE[language].stemWord(token), fast.stemWord(token)


def fixture_tokens() -> list[str]:
    """Every distinct token of every file under fixtures/ (undecodable bytes replaced)."""
    tokens: set[str] = set()
    for path in FIXTURES.rglob("*"):
        if path.is_file() and not path.is_symlink():
            tokens.update(raw_tokens(path.read_bytes().decode("utf-8", errors="replace")))
    return sorted(tokens)


@needs_pystemmer
@settings(max_examples=400)
@given(
    st.one_of(
        st.text(alphabet=st.sampled_from(LATIN), min_size=1, max_size=20),
        st.text(alphabet=st.sampled_from(CYRILLIC), min_size=1, max_size=20).map(fold),
        st.text(alphabet=st.sampled_from(LATIN + CYRILLIC + "0123456789"), min_size=1, max_size=20),
    )
)
def test_compiled_and_pure_python_stemmers_agree_on_any_token(token: str) -> None:
    pure, fast = stem_both(token)
    assert pure == fast, token


@needs_pystemmer
def test_compiled_and_pure_python_stemmers_agree_on_every_fixture_token() -> None:
    tokens = fixture_tokens()
    assert len(tokens) > 2000
    assert any(CYRILLIC_RE.search(t) for t in tokens)
    stemmed = {token: stem_both(token) for token in tokens}
    assert {token: pair for token, pair in stemmed.items() if pair[0] != pair[1]} == {}


def stemmer_in_use(mode: str) -> str:
    probe = (
        "import sys\nif sys.argv[1] == 'pure':\n    sys.modules['Stemmer'] = None\n"
        "from project_corpus.retrieval import text\n"
        "english, russian = text._stemmers()\n"
        "print(type(english).__module__, type(russian).__module__, text.stem('caresses'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, mode], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_without_pystemmer_the_pure_python_stemmers_are_used() -> None:
    assert stemmer_in_use("pure") == (
        "snowballstemmer.english_stemmer snowballstemmer.russian_stemmer caress"
    )


def test_a_failing_import_falls_back_in_process_to_the_stemmers_loaded_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As in a fresh process: no `snowballstemmer` module loaded yet (the originals come back
    afterwards), PyStemmer blocked, the stemmers' cache cleared."""
    monkeypatch.setitem(sys.modules, "Stemmer", None)
    for name in [n for n in sys.modules if n.split(".")[0] == "snowballstemmer"]:
        monkeypatch.delitem(sys.modules, name)
    text._stemmers.cache_clear()
    try:
        english, russian = text._stemmers()
    finally:
        text._stemmers.cache_clear()
    assert sorted(n for n in sys.modules if n.startswith("snowballstemmer")) == [
        "snowballstemmer.among",
        "snowballstemmer.basestemmer",
        "snowballstemmer.english_stemmer",
        "snowballstemmer.russian_stemmer",
    ]
    assert (type(english).__name__, type(russian).__name__) == ("EnglishStemmer", "RussianStemmer")
    assert (english.stemWord("ponies"), russian.stemWord("состояние")) == ("poni", "состоян")


@needs_pystemmer
def test_with_pystemmer_its_compiled_stemmers_are_used() -> None:
    assert stemmer_in_use("auto") == "Stemmer Stemmer caress"


def run_cli(mode: str, args: list[str], env: dict[str, str]) -> tuple[int, bytes, str]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, mode, *args], capture_output=True, env=env, check=False
    )
    loaded = done.stderr.decode().splitlines()[-1]
    return done.returncode, CREATED_AT.sub(b'"created_at": "-"', done.stdout), loaded


def outputs(mode: str, root: Path, env: dict[str, str]) -> dict[str, tuple[int, bytes]]:
    """Build a fresh index of ROOT in MODE, then query, bundle and eval it in the same MODE
    (the index holds no stems: build stems nothing)."""
    copy_fixture(FIXTURES / "retrieval" / "bilingual", root)
    dataset = str(root / "eval.json")
    commands = {
        "build": ["context", "build", str(root)],
        "query en": [
            "context",
            "query",
            str(root),
            "which gateways are polled",
            "--format",
            "json",
        ],
        "query ru": ["context", "query", str(root), "какие шлюзы опрашиваются", "--format", "json"],
        "bundle": ["context", "bundle", str(root), "почему отказались от LTE", "--format", "json"],
        "eval": ["context", "eval", str(root), "--dataset", dataset, "--format", "json"],
    }
    found: dict[str, tuple[int, bytes]] = {}
    for name, args in commands.items():
        code, out, loaded = run_cli(mode, args, env)
        expected = "Stemmer" if mode == "auto" else "snowballstemmer.english_stemmer"
        assert name == "build" or loaded == f"LOADED {expected}", (name, loaded)
        found[name] = code, out
    return found


@needs_pystemmer
def test_query_bundle_and_eval_bytes_do_not_depend_on_the_stemmer(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    root = tmp_path / "bilingual"
    pure = outputs("pure", root, env)
    assert (root / ".project-corpus" / "cache" / "context.sqlite3").is_file()
    assert "lexical_terms:опрашива,шлюз".encode() in pure["query ru"][1]  # stems matched
    shutil.rmtree(root)
    fast = outputs("auto", root, env)
    assert fast == pure
