"""The verbatim check refuses every rendered text that breaks a rule: a copied line changed, a
heading moved where the source has no heading, an added line that is not a Protocol line,
copied lines out of order, a line more or less than was rendered (IMPORT_VERBATIM)."""

from __future__ import annotations

import pytest

from project_corpus.core.errors import ContextError
from project_corpus.importer.records import Doc
from project_corpus.importer.records import add
from project_corpus.importer.records import copy
from project_corpus.importer.render import Rendered
from project_corpus.importer.render import check_verbatim
from project_corpus.importer.render import heading_levels
from project_corpus.importer.render import render

SOURCE = ("# Log", "", "## 2025-01-02 Day", "Fixed the relay.", "```", "## not a heading", "```")
SOURCES = {"LOG.md": SOURCE}
LEVELS = {"LOG.md": heading_levels(SOURCE)}
DOC = Doc(
    "history/log.md",
    "history",
    ("LOG.md",),
    (add("# Log"), add("Date: 2025-01-02"), add(""), copy("LOG.md", 2, 7, shift=-1)),
)


def _rendered() -> Rendered:
    return render(DOC, SOURCES, LEVELS)


def _check(rendered: Rendered) -> None:
    check_verbatim(DOC.target, rendered, SOURCES, LEVELS)


def test_a_faithful_rendering_passes_and_shifts_only_the_parsers_headings() -> None:
    rendered = _rendered()
    _check(rendered)
    assert rendered.text.splitlines()[3:] == [
        "# 2025-01-02 Day",
        "Fixed the relay.",
        "```",
        "## not a heading",
        "```",
    ]
    assert rendered.data == rendered.text.encode("utf-8")
    assert (rendered.copied, rendered.added) == (5, 2)
    assert rendered.origins[:4] == (None, None, None, ("LOG.md", 2, -1))


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("Fixed the relay.", "Fixed the relay!", "differs from LOG.md:4"),
        ("## not a heading", "# not a heading", "differs from LOG.md:6"),
        ("# 2025-01-02 Day", "## 2025-01-02 Day", "differs from LOG.md:3"),
        ("Date: 2025-01-02", "An owner's sentence.", "an added line is not a Protocol line"),
        ("Fixed the relay.\n", "Fixed the relay.\nextra\n", "a different number of lines"),
    ],
)
def test_a_changed_line_is_refused(old: str, new: str, why: str) -> None:
    rendered = _rendered()
    tampered = rendered._replace(text=rendered.text.replace(old, new, 1))
    with pytest.raises(ContextError) as caught:
        _check(tampered)
    assert caught.value.code == "IMPORT_VERBATIM"
    assert why in caught.value.detail
    assert "nothing was written" in caught.value.detail


def test_copied_lines_out_of_their_sources_order_are_refused() -> None:
    doc = Doc(
        "history/log.md", "history", ("LOG.md",), (copy("LOG.md", 3, 4), copy("LOG.md", 2, 3))
    )
    rendered = render(doc, SOURCES, LEVELS)
    with pytest.raises(ContextError) as caught:
        check_verbatim(doc.target, rendered, SOURCES, LEVELS)
    assert "out of order" in caught.value.detail
