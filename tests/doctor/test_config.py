"""lint.yaml / --config and inline suppression directives."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from project_corpus.core.errors import ContextError
from project_corpus.doctor import CHECKS_BY_CODE
from project_corpus.doctor._config import DEFAULT
from project_corpus.doctor._config import parse_config
from tests.conftest import MakeCorpus
from tests.doctor.support import codes
from tests.doctor.support import doctor
from tests.doctor.support import issues

LINT = ".project-corpus/lint.yaml"
HISTORY = ".project-corpus/history/notes.md"
VOLATILE = "We currently deploy on Fridays."
INVALID_REL = "Supersedes: ../elsewhere.md"


def notes(*paragraphs: str, meta: str = "Owner: ops\n") -> str:
    return "# Notes\n" + meta + "\n## Notes\n" + "\n\n".join(paragraphs) + "\n"


def config_error(make_corpus: MakeCorpus, text: str | bytes) -> str:
    root = make_corpus({LINT: text})
    with pytest.raises(ContextError) as err:
        doctor(root)
    assert err.value.code == "CONFIG_INVALID"
    return err.value.detail


@pytest.mark.parametrize(
    "text",
    [
        "colour: red\n",
        "- a list\n",
        "rules: [DUPLICATE_MEMORY_ITEM]\n",
        "rules: {NOT_A_CODE: off}\n",
        "rules: {DUPLICATE_MEMORY_ITEM: ERROR}\n",
        "rules: {DUPLICATE_MEMORY_ITEM: on}\n",
        "rules: {MISSING_SECTION: off}\n",
        "rules: {SOURCE_LINK: WARN}\n",
        "ignore: {paths: ['*']}\n",
        "ignore: [{codes: [DUPLICATE_MEMORY_ITEM]}]\n",
        "ignore: [{paths: '*'}]\n",
        "ignore: [{paths: ['*'], codes: [MISSING_SECTION]}]\n",
        "ignore: [{paths: ['*'], reason: x}]\n",
        "volatile_terms: {de: [jetzt]}\n",
        "volatile_terms: {en: now}\n",
        "volatile_terms: {en: ['']}\n",
        "status_max_bytes: '12000'\n",
        "status_max_bytes: true\n",
        "status_max_bytes: 0\n",
        "task_states: REVIEW\n",
        "task_states: [REVIEW, 3]\n",
        "task_states: ['  ']\n",
        'task_states: ["a\\nb"]\n',
        "rules: {a: [unclosed\n",
        b"rules: \xff\n",
    ],
)
def test_invalid_configurations_are_refused(make_corpus: MakeCorpus, text: str | bytes) -> None:
    assert config_error(make_corpus, text).startswith(f"{LINT}: ")


def test_empty_config_is_the_default(make_corpus: MakeCorpus) -> None:
    assert doctor(make_corpus({LINT: ""}))["ok"] is True
    assert parse_config("x", None, CHECKS_BY_CODE) == DEFAULT._replace(path="x")


def test_config_file_must_be_inside_root_and_unlinked(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus()
    outside = tmp_path / "lint.yaml"
    outside.write_text("rules: {}\n", encoding="utf-8")
    (root / "linked.yaml").symlink_to(outside)
    for path in (outside, root / "linked.yaml", root / "missing.yaml"):
        with pytest.raises(ContextError) as err:
            doctor(root, config=str(path))
        assert err.value.code == "CONFIG_INVALID"


def test_rule_off_skips_the_check(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {HISTORY: notes(VOLATILE), LINT: "rules:\n  VOLATILE_WITHOUT_FRESHNESS: off\n"}
    )
    result = doctor(root)
    assert codes(result) == set()
    assert "VOLATILE_WITHOUT_FRESHNESS" in result["checks_skipped"]  # type: ignore[operator]


def test_rule_severity_override(make_corpus: MakeCorpus, tmp_path: Path) -> None:
    root = make_corpus({HISTORY: notes(VOLATILE)})
    (root / "strict.yaml").write_text(
        "rules: {VOLATILE_WITHOUT_FRESHNESS: FAIL}\n", encoding="utf-8"
    )
    result = doctor(root, config=str(root / "strict.yaml"))
    assert [i["severity"] for i in issues(result)] == ["FAIL"]
    assert result["ok"] is False


def test_rule_can_downgrade_a_non_gate_fail(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {HISTORY: notes(INVALID_REL), LINT: "rules: {INVALID_TEMPORAL_RELATION: WARN}\n"}
    )
    result = doctor(root)
    assert [i["severity"] for i in issues(result)] == ["WARN"]
    assert result["ok"] is True


def test_ignore_by_path_and_code(make_corpus: MakeCorpus) -> None:
    lint = (
        "ignore:\n  - paths: ['.project-corpus/history/*']\n"
        "    codes: [VOLATILE_WITHOUT_FRESHNESS]\n"
    )
    root = make_corpus({HISTORY: notes(VOLATILE, INVALID_REL), LINT: lint})
    result = doctor(root)
    assert codes(result) == {"INVALID_TEMPORAL_RELATION"}
    [hidden] = issues(result, suppressed=True)
    assert hidden["code"] == "VOLATILE_WITHOUT_FRESHNESS"
    assert hidden["suppression"] == "external"
    assert result["summary"] == {"FAIL": 1, "WARN": 0, "suppressed": 1}


def test_ignore_without_codes_ignores_every_non_gate_code(make_corpus: MakeCorpus) -> None:
    lint = "ignore:\n  - paths: ['.project-corpus/**']\n"
    status = ".project-corpus/state/STATUS.md"
    root = make_corpus({HISTORY: notes(VOLATILE, INVALID_REL), LINT: lint, status: "# Status\n"})
    result = doctor(root)
    assert "INVALID_TEMPORAL_RELATION" not in codes(result)
    assert "MISSING_METADATA" in codes(result)


def test_volatile_terms_replace_each_language(make_corpus: MakeCorpus) -> None:
    lint = "volatile_terms:\n  en: [nowadays, 'as things stand*']\n"
    root = make_corpus(
        {
            HISTORY: notes(VOLATILE, "Nowadays we ship daily.", "As things standardise, ok."),
            LINT: lint,
        }
    )
    lines = [i["line"] for i in issues(doctor(root))]
    assert lines == [7, 9]


def test_empty_term_list_disables_a_language(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {HISTORY: notes(VOLATILE, "Сейчас всё работает."), LINT: "volatile_terms: {en: []}\n"}
    )
    assert [i["line"] for i in issues(doctor(root))] == [7]


def test_yaml_off_without_quotes_means_off(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {HISTORY: notes(VOLATILE), LINT: "rules:\n  VOLATILE_WITHOUT_FRESHNESS: off\n"}
    )
    assert doctor(root)["ok"] is True


# --- inline directives ---------------------------------------------------------------------------


def test_disable_applies_to_the_next_item_only(make_corpus: MakeCorpus) -> None:
    body = notes(
        "<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->",
        VOLATILE,
        VOLATILE + " Again.",
    )
    result = doctor(make_corpus({HISTORY: body}))
    assert [(i["line"], i["suppressed"]) for i in result["issues"]] == [(7, True), (9, False)]  # type: ignore[attr-defined]
    assert result["issues"][0]["suppression"] == "inSource"  # type: ignore[index]
    assert result["summary"] == {"FAIL": 0, "WARN": 1, "suppressed": 1}


def test_stacked_directives_apply_to_the_same_item(make_corpus: MakeCorpus) -> None:
    body = notes(
        "<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\n"
        "<!--project-corpus: disable INVALID_TEMPORAL_RELATION, DUPLICATE_MEMORY_ITEM-->\n"
        f"{INVALID_REL} — {VOLATILE}"
    )
    root = make_corpus({HISTORY: body})
    result = doctor(root)
    assert codes(result) == {"UNUSED_SUPPRESSION"}  # nothing duplicated: that code hid nothing
    assert [i["detail"] for i in result["issues"] if not i["suppressed"]] == [  # type: ignore[attr-defined]
        "`DUPLICATE_MEMORY_ITEM` suppressed nothing"
    ]
    assert result["summary"]["suppressed"] == 2  # type: ignore[index]


def test_multiline_item_is_suppressed_on_every_line(make_corpus: MakeCorpus) -> None:
    body = notes(
        "<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\n- a list item\n  " + VOLATILE
    )
    result = doctor(make_corpus({HISTORY: body}))
    assert codes(result) == set()
    assert result["summary"]["suppressed"] == 1  # type: ignore[index]
    assert result["ok"] is True


def test_disable_file(make_corpus: MakeCorpus) -> None:
    body = notes(
        VOLATILE,
        "<!-- project-corpus: disable-file VOLATILE_WITHOUT_FRESHNESS -->",
        VOLATILE + " 2",
    )
    result = doctor(make_corpus({HISTORY: body}))
    assert codes(result) == set()
    assert result["summary"] == {"FAIL": 0, "WARN": 0, "suppressed": 2}


def test_gate_codes_are_never_suppressed(make_corpus: MakeCorpus) -> None:
    status = ".project-corpus/state/STATUS.md"
    root = make_corpus(
        {status: "<!-- project-corpus: disable-file MISSING_METADATA -->\n# Status\n"}
    )
    assert "MISSING_METADATA" in codes(doctor(root))


def test_directive_inside_code_or_malformed_does_nothing(make_corpus: MakeCorpus) -> None:
    body = notes(
        "```\n<!-- project-corpus: disable VOLATILE_WITHOUT_FRESHNESS -->\n```",
        VOLATILE,
        "<!-- project-corpus: disable volatile_without_freshness -->",
        VOLATILE + " 2",
    )
    result = doctor(make_corpus({HISTORY: body}))
    found = [(i["code"], i["line"]) for i in issues(result)]
    assert found == [
        ("VOLATILE_WITHOUT_FRESHNESS", 9),
        ("INVALID_SUPPRESSION", 11),  # wrong case: said, not silently ignored
        ("VOLATILE_WITHOUT_FRESHNESS", 13),
    ]


YAML_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=30)
    | st.sampled_from(
        ["off", "WARN", "FAIL", "DUPLICATE_MEMORY_ITEM", "MISSING_SECTION", "en", "ru"]
    ),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "rules",
                    "ignore",
                    "volatile_terms",
                    "status_max_bytes",
                    "paths",
                    "codes",
                    "en",
                    "ru",
                    "DUPLICATE_MEMORY_ITEM",
                    "task_states",
                    "x",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=15,
)


@given(YAML_VALUES)
def test_any_yaml_value_is_a_config_or_config_invalid(value: object) -> None:
    codes = []
    try:
        parse_config("lint.yaml", value, CHECKS_BY_CODE)
    except ContextError as exc:
        codes.append(exc.code)
    assert codes in ([], ["CONFIG_INVALID"])
