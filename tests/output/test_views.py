"""Text views of results for a person at a terminal (output/views.py)."""

from __future__ import annotations

from project_corpus.output.views import bundle_view

BUNDLE = {
    "project_id": "demo-project",
    "query": "next action",
    "items": [
        {
            "source_path": ".project-corpus/state/STATUS.md",
            "line_start": 1,
            "line_end": 20,
            "section": "",
            "retrieval_score": 10000,
            "authority_class": "CANONICAL",
            "temporal_status": "current",
            "selection_reasons": ["mandatory_status", "bounded_authority_summary"],
            "text": "Exact Next Action: ship it | Blockers: none",
        },
        {
            "source_path": ".project-corpus/reports/r.md",
            "line_start": 4,
            "line_end": 5,
            "section": "Evidence",
            "retrieval_score": 412,
            "authority_class": "CITED_REPORT",
            "temporal_status": "current",
            "selection_reasons": ["lexical:400"],
            "text": "| a | b |\n| c | d |",
        },
    ],
    "mandatory_reads": [
        {
            "source_path": ".project-corpus/state/STATUS.md",
            "source_sha256": "0" * 64,
            "reason": "full_primary_status_read_required",
            "required_sections": ["Blockers", "Exact Next Action"],
        }
    ],
    "budget": {"max_tokens": 300, "estimated_tokens": 20, "max_envelope_bytes": 65536},
    "serialized_bytes": 1000,
    "bundle_sha256": "f" * 64,
}


def test_bundle_view_shows_each_summary_part_on_its_own_line() -> None:
    lines = bundle_view(BUNDLE).splitlines()
    assert "     Exact Next Action: ship it" in lines
    assert "     Blockers: none" in lines


def test_bundle_view_keeps_a_ranked_table_row_whole() -> None:
    lines = bundle_view(BUNDLE).splitlines()
    assert "     | a | b |" in lines
    assert "     | c | d |" in lines


def test_bundle_view_lists_mandatory_reads_as_paths_with_sections() -> None:
    text = bundle_view(BUNDLE)
    assert "  - .project-corpus/state/STATUS.md (Blockers, Exact Next Action)" in text
    assert "source_sha256" not in text
    assert "{" not in text


def test_bundle_view_escapes_control_bytes_in_item_text() -> None:
    hostile = {**BUNDLE, "items": [{**BUNDLE["items"][1], "text": "x\x1b]0;PWNED\x07y"}]}
    assert "\x1b" not in bundle_view(hostile)
    assert "\x07" not in bundle_view(hostile)


def test_fields_are_written_as_json_writes_them() -> None:
    from project_corpus.output.views import fields_view

    text = fields_view({"ok": True, "gone": None, "grant": {"flag": False, "names": ["a", "b"]}})
    assert text == "gone: null\ngrant:\n  flag: false\n  names: a, b\nok: true\n"


def test_counts_are_singular_for_one() -> None:
    from project_corpus.output.views import query_view

    item = {**BUNDLE["items"][1], "text": "x"}  # type: ignore[index, dict-item]
    one = query_view({"project_id": "p", "query": "q", "results": [item]})
    assert one.startswith('1 result for "q" in p:')
    two = query_view({"project_id": "p", "query": "q", "results": [item, item]})
    assert two.startswith('2 results for "q" in p:')
