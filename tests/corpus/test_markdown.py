"""Markdown parsing: metadata blocks, ATX headings outside fences, blocks and items."""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.records import Source
from project_corpus.corpus.items import MAX_ITEM_CHARS
from project_corpus.corpus.items import source_items
from project_corpus.corpus.markdown import MAX_PATH_TITLE
from project_corpus.corpus.markdown import parse_document
from project_corpus.corpus.markdown import split_lines

DOC = """# Title
Protocol-Version: 2.0
Project-ID: demo-project

## Objective
First line
second line
- item a
  continued
- item b
| a | b |
|---|---|
<!-- project-corpus: disable X -->
```python
code

# not a heading
```
### Deeper
text
"""


def _source(text: str, path: str = ".project-corpus/reports/r.md") -> Source:
    doc = parse_document(text)
    return Source(
        path, "0" * 64, len(text), "report", "SCOPED_REPORT", "scoped", None, "p", False, doc
    )


def test_lines_split_on_newline_only_and_drop_one_carriage_return() -> None:
    assert split_lines("a\r\nb\rc\n") == ("a", "b\rc")
    assert split_lines("\ufeffx") == ("x",)


def test_metadata_block_follows_the_h1_up_to_the_first_heading() -> None:
    doc = parse_document(DOC)
    assert [(m.key, m.value, m.line) for m in doc.meta] == [
        ("Protocol-Version", "2.0", 2),
        ("Project-ID", "demo-project", 3),
    ]


def test_prose_between_the_h1_and_the_keys_is_an_item_not_the_end_of_metadata() -> None:
    doc = parse_document("# T\nA note on this file.\nKey: v\nplain prose\nOther: w\n\n## S\nX: y\n")
    assert [(m.key, m.line) for m in doc.meta] == [("Key", 3), ("Other", 5)]
    assert [(s.kind, s.line_start, s.line_end) for s in doc.spans if s.kind != "heading"][:2] == [
        ("paragraph", 2, 2),
        ("meta", 3, 3),
    ]


def test_a_code_fence_ends_the_metadata_region() -> None:
    doc = parse_document("# T\nKey: v\n```\nInside: fence\n```\nAfter: fence\n")
    assert [m.key for m in doc.meta] == ["Key"]


def test_a_fence_line_that_opens_no_code_still_ends_the_metadata_region() -> None:
    doc = parse_document("# T\nKey: v\n``` `inline`\nAfter: x\n")
    assert [m.key for m in doc.meta] == ["Key"]
    assert doc.fences == ()


def test_metadata_starts_after_an_h1_preceded_only_by_blank_lines() -> None:
    assert [m.line for m in parse_document("\n \t\n# T\nKey: v\n").meta] == [4]
    # Text before the H1: the region runs from the top to the H1, so `Key: v` is an item.
    assert [m.line for m in parse_document("Top: t\n# T\nKey: v\n").meta] == [1]


def test_heading_titles_drop_only_a_closing_sequence_after_spaces() -> None:
    text = "## a ## ##\n## a  ###   \n## #\n## a#\n### b ###\n# c #\n## \t x #\n##\n"
    titles = [(h.level, h.title) for h in parse_document(text).headings]
    assert titles == [
        (2, "a ##"),
        (2, "a"),
        (2, "#"),
        (2, "a#"),
        (3, "b"),
        (1, "c"),
        (2, "x"),
        (2, ""),
    ]


def test_headings_inside_fenced_code_are_not_headings() -> None:
    doc = parse_document(DOC)
    assert [(h.level, h.title, h.line) for h in doc.headings] == [
        (1, "Title", 1),
        (2, "Objective", 5),
        (3, "Deeper", 19),
    ]


def test_heading_needs_a_space_after_the_hashes() -> None:
    doc = parse_document("#NotHeading\n## Real ##\n")
    assert [(h.title, h.line) for h in doc.headings] == [("Real", 2)]


def test_items_split_lists_tables_comments_and_code() -> None:
    kinds = [(b.kind, b.line_start, b.line_end) for b in parse_document(DOC).spans]
    assert kinds == [
        ("heading", 1, 1),
        ("meta", 2, 2),
        ("meta", 3, 3),
        ("heading", 5, 5),
        ("paragraph", 6, 7),
        ("list", 8, 9),
        ("list", 10, 10),
        ("table", 11, 11),
        ("table", 12, 12),
        ("comment", 13, 13),
        ("code", 14, 18),
        ("heading", 19, 19),
        ("paragraph", 20, 20),
    ]


def test_section_path_excludes_the_title_and_nests_deeper_headings() -> None:
    blocks = parse_document(DOC).spans
    assert blocks[-1].section == "Objective > Deeper"
    assert blocks[-1].section_line == 19
    assert blocks[1].section == ""
    assert blocks[1].section_line == 0


def test_a_section_path_holds_at_most_five_titles_of_240_characters() -> None:
    """R3-2 (#26): a long heading above thousands of subheadings of rising levels is not
    copied whole into each of their paths (quadratic time and memory): each title in a path
    is cut to 240 characters, and a path has one title per level from 2 to 6."""
    long = "w" * 100_000
    rising = "".join(f"{'#' * (2 + n % 5)} {long[: 300 + n]}\n" for n in range(2000))
    doc = parse_document(f"# Title\n## {long}\n{rising}")
    paths = {span.section for span in doc.spans} - {""}
    assert max(map(len, paths)) == 5 * MAX_PATH_TITLE + 4 * len(" > ")
    assert all(title == "w" * MAX_PATH_TITLE for path in paths for title in path.split(" > "))
    assert doc.spans[1].text == f"## {long}"[:MAX_ITEM_CHARS]  # the heading item keeps its text


def test_long_code_blocks_split_every_40_lines() -> None:
    text = "# T\n\n```\n" + "\n".join(f"line {i}" for i in range(100)) + "\n```\n"
    code = [b for b in parse_document(text).spans if b.kind == "code"]
    assert [(b.line_start, b.line_end) for b in code] == [(3, 42), (43, 82), (83, 104)]


def test_a_code_block_is_split_from_its_41st_line_on() -> None:
    def chunks(count: int) -> list[tuple[int, int]]:
        text = "```\n" + "x\n" * (count - 2) + "```\n"
        return [(b.line_start, b.line_end) for b in parse_document(text).spans]

    assert chunks(40) == [(1, 40)]
    assert chunks(41) == [(1, 40), (41, 41)]


def test_an_h1_inside_a_section_has_no_section_and_the_section_goes_on_after_it() -> None:
    doc = parse_document("## A\n### B\n# Title\ntext\n## C\n")
    assert [(s.kind, s.section, s.section_line) for s in doc.spans] == [
        ("heading", "A", 1),
        ("heading", "A > B", 2),
        ("heading", "", 0),
        ("paragraph", "A > B", 2),
        ("heading", "C", 5),
    ]


def test_long_paragraphs_split_at_line_boundaries_and_long_lines_are_cut() -> None:
    para = "\n".join("word " * 50 for _ in range(10))
    text = f"# T\n\n## S\n{para}\n\n{'x' * 5000}\n"
    items = source_items(_source(text))
    assert all(len(i.text) <= MAX_ITEM_CHARS for i in items)
    long_line = [i for i in items if i.text.startswith("xxx")]
    assert len(long_line) == 1
    assert len(long_line[0].text) == MAX_ITEM_CHARS
    covered = {n for i in items for n in range(i.line_start, i.line_end + 1)}
    assert set(range(4, 14)) <= covered


def test_item_ids_are_stable_and_depend_on_path_lines_and_text() -> None:
    first = source_items(_source(DOC))
    again = source_items(_source(DOC))
    other = source_items(_source(DOC, ".project-corpus/reports/other.md"))
    assert [i.item_id for i in first] == [i.item_id for i in again]
    assert {i.item_id for i in first}.isdisjoint({i.item_id for i in other})


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("#-*|`~ \n\r\tabcя:1.<>!")), max_size=400))
def test_parsing_never_crashes_and_items_stay_inside_the_document(text: str) -> None:
    source = _source(text)
    for item in source_items(source):
        assert 1 <= item.line_start <= item.line_end <= source.line_count
        assert item.text.strip() == item.text
        assert item.text
        assert len(item.text) <= MAX_ITEM_CHARS
