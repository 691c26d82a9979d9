"""Every output format of every command, one registry (SPEC §10 "People and machines").

Plain data without imports: the CLI reads it for each `--format` choice at start-up, and the
renderers in `output/` are keyed by it (a test holds each renderer table equal to its row).
`auto` is not listed: it is every command's default and resolves to `text` or `json`.
"""

from __future__ import annotations

# doctor and candidate-validate: format -> the module of `output/` whose `render` writes it.
REPORT_RENDERERS = {"json": "json_", "text": "text", "sarif": "sarif", "github": "github"}
REPORT_FORMATS = tuple(REPORT_RENDERERS)
# context review (`output.review.REVIEW_RENDERERS`).
REVIEW_FORMATS = ("json", "markdown", "text", "github")
# context eval (`evaluate.render_eval`, the text view `output.views`).
EVAL_FORMATS = ("json", "text", "markdown")
# build, query, bundle, receipt, trust, init and new: JSON or their text view.
RESULT_FORMATS = ("json", "text")
# explain: its documentation as text, or JSON.
EXPLAIN_FORMATS = ("text", "json")
