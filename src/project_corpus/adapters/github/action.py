"""The logic of the GitHub Action (`action/action.yml`):
`python -m project_corpus.adapters.github.action STEP`.

Steps, in the order action.yml runs them:

- `doctor` — runs `context doctor` once (JSON) and renders every view from that one report:
  the job summary, the exit code, the SARIF file and the `github` workflow commands;
- `review` — on a pull request, runs `context review` between the event's base and head
  commits (their merge base, as the pull request's diff) and writes the Markdown review to
  the job summary and annotations for the new findings only (docs/review.md);
- `candidates` — runs `context candidate-validate` on the files matching a glob;
- `eval` — builds the index and runs `context eval --format markdown` into the job summary;
- `finish` — combines the recorded exit codes and writes the `exit-code` output (once);
- `fail` — exits with the combined code, so the job fails only after every report was written.

A ROOT that is not a directory is an error of every step (`CONTEXT_ROOT`, exit code 2), never
an empty result.

Like `cli.main`, this is an entry point (it writes to the terminal). The tool runs as a
subprocess, so the action uses exactly the CLI contract a person uses. Inputs arrive as
`INPUT_*` variables set through `env:`; results go to `$GITHUB_OUTPUT`, `$GITHUB_STEP_SUMMARY`
and stdout. Report paths are relative to ROOT, so the action prefixes ROOT's path inside the
workspace to make annotations, SARIF locations and links point at repository files.
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path

from project_corpus.adapters.github.views import MAX_SECTION_BYTES
from project_corpus.adapters.github.views import RESULT_WORDS
from project_corpus.adapters.github.views import Completed
from project_corpus.adapters.github.views import Context
from project_corpus.adapters.github.views import annotation
from project_corpus.adapters.github.views import cut_bytes
from project_corpus.adapters.github.views import doctor_summary
from project_corpus.adapters.github.views import error_summary
from project_corpus.adapters.github.views import issue_table
from project_corpus.adapters.github.views import prefix_sarif
from project_corpus.adapters.github.views import visible_issues
from project_corpus.core.errors import EXIT_FINDINGS
from project_corpus.core.errors import EXIT_INTERNAL
from project_corpus.core.errors import EXIT_OK
from project_corpus.review.git import COMMIT_RE

SUMMARY_LIMIT_BYTES = 1024 * 1024


def run_cli(args: Sequence[str]) -> Completed:
    """Run the project-corpus CLI with this interpreter; never raises on a non-zero exit."""
    proc = subprocess.run(
        [sys.executable, "-m", "project_corpus", *args],
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        check=False,
    )
    return Completed(proc.returncode, proc.stdout, proc.stderr)


def root_prefix(root: str, workspace: str) -> str:
    """ROOT as a `/`-terminated portable path inside WORKSPACE ('' for the workspace itself)."""
    rel = os.path.relpath(os.path.realpath(root), os.path.realpath(workspace or os.curdir))
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return ""
    return rel.replace(os.sep, "/") + "/"


# --- output files ----------------------------------------------------------------------


def write_output(env: Mapping[str, str], name: str, value: str) -> None:
    """Append NAME=VALUE to $GITHUB_OUTPUT (heredoc syntax when VALUE has a newline)."""
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    if "\n" in value or "\r" in value:
        delimiter = f"ghadelimiter_{uuid.uuid4().hex}"
        record = f"{name}<<{delimiter}\n{value}\n{delimiter}\n"
    else:
        record = f"{name}={value}\n"
    with open(path, "a", encoding="utf-8", newline="\n") as handle:
        handle.write(record)


def append_summary(env: Mapping[str, str], markdown: str) -> None:
    """Append MARKDOWN to $GITHUB_STEP_SUMMARY, never letting the file pass 1 MiB."""
    path = env.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    used = os.path.getsize(path) if os.path.exists(path) else 0
    data = markdown.encode("utf-8")
    room = SUMMARY_LIMIT_BYTES - 1024 - used
    if len(data) > room:
        data = cut_bytes(markdown, max(room, 0)).encode("utf-8")
    with open(path, "ab") as handle:
        handle.write(data)


# --- steps -----------------------------------------------------------------------------


def common_args(ctx: Context) -> list[str]:
    args = ["--fail-on", ctx.input("fail-on", "FAIL").upper()]
    config = ctx.input("config")
    return [*args, "--config", config] if config else args


def write_sarif(ctx: Context, report: Mapping[str, object], target: str) -> bool:
    """The SARIF view of REPORT into TARGET (paths prefixed); False when it cannot be written."""
    from project_corpus.output import render_report

    log = json.loads(render_report(report, "sarif"))
    text = json.dumps(prefix_sarif(log, ctx.prefix), ensure_ascii=False, indent=2) + "\n"
    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        ctx.emit(annotation("warning", "project-corpus SARIF", f"{target}: {exc}"))
        return False
    return True


def workflow_commands(ctx: Context, report: Mapping[str, object]) -> str:
    """The `github` view of REPORT, its paths (annotations and, past GitHub's annotation
    limit, the full text report) prefixed with ROOT's path in the workspace."""
    from project_corpus.output import render_report
    from project_corpus.output.text import TextOptions

    return render_report(report, "github", TextOptions(prefix=ctx.prefix))


def reported_error(ctx: Context, title: str, result: Completed) -> bool:
    """True (after annotating and summarising it) when RESULT is a stable error, not a report."""
    if result.code in (EXIT_OK, EXIT_FINDINGS):
        return False
    markdown, note = error_summary(title, result)
    ctx.emit(note)
    append_summary(ctx.env, markdown)
    return True


def step_doctor(ctx: Context) -> int:
    args = ["context", "doctor", ctx.root, *common_args(ctx)]
    result = run_cli([*args, "--format", "json"])
    write_output(ctx.env, "doctor-exit-code", str(result.code))
    if reported_error(ctx, "project-corpus doctor", result):
        write_output(ctx.env, "sarif-file", "")
        write_output(ctx.env, "findings", "0")
        return 0
    report = json.loads(result.out)
    if not review_enabled(ctx):  # on a pull request the review annotates the new findings
        ctx.emit(workflow_commands(ctx, report))
    target = ctx.input("sarif-file") or os.path.join(
        ctx.env.get("RUNNER_TEMP", "."), "project-corpus.sarif"
    )
    write_output(ctx.env, "sarif-file", target if write_sarif(ctx, report, target) else "")
    write_output(ctx.env, "findings", str(len(visible_issues(report))))
    append_summary(ctx.env, doctor_summary(ctx, report, result.code))
    return 0


PULL_REQUEST_EVENTS = ("pull_request", "pull_request_target")


def review_enabled(ctx: Context) -> bool:
    """Input `review`: `auto` (default) reviews pull requests; `true` / `false` force it."""
    wanted = ctx.input("review", "auto").lower()
    if wanted in ("true", "false"):
        return wanted == "true"
    return ctx.env.get("GITHUB_EVENT_NAME", "") in PULL_REQUEST_EVENTS


def event_commits(env: Mapping[str, str]) -> tuple[str, str] | None:
    """(base, head) commits of the event payload: a pull request's `base.sha` and `head.sha`,
    or a push's `before` and `after`; None when the payload has no such pair."""
    try:
        with open(env.get("GITHUB_EVENT_PATH", ""), encoding="utf-8") as handle:
            payload = json.load(handle)
    except (OSError, ValueError):
        return None
    pull = payload.get("pull_request") if isinstance(payload, dict) else None
    if isinstance(pull, dict):
        base, head = (pull.get(side) for side in ("base", "head"))
        pair = [side.get("sha") if isinstance(side, dict) else None for side in (base, head)]
    else:
        pair = [
            payload.get(key) if isinstance(payload, dict) else None for key in ("before", "after")
        ]
    if all(isinstance(sha, str) and COMMIT_RE.match(sha) and sha.strip("0") for sha in pair):
        return str(pair[0]), str(pair[1])
    return None


def step_review(ctx: Context) -> int:
    if not review_enabled(ctx):
        write_output(ctx.env, "review-exit-code", "")
        return 0
    commits = event_commits(ctx.env)
    if commits is None:
        ctx.emit(annotation("notice", "project-corpus review", "no base and head in the event"))
        write_output(ctx.env, "review-exit-code", "")
        return 0
    args = ["context", "review", ctx.root, "--base", commits[0], "--head", commits[1]]
    result = run_cli([*args, "--merge-base", *common_args(ctx), "--format", "json"])
    if _commits_missing(result):
        note = "the pull request's commits are not in this clone; check out with fetch-depth: 0"
        ctx.emit(annotation("warning", "project-corpus review", note))
        append_summary(ctx.env, f"## project-corpus review: skipped\n\n{note}.\n\n")
        write_output(ctx.env, "review-exit-code", "")
        return 0
    write_output(ctx.env, "review-exit-code", str(result.code))
    if reported_error(ctx, "project-corpus review", result):
        return 0
    from project_corpus.output.review import render_review

    review = json.loads(result.out)
    ctx.emit(render_review(review, "github", prefix=ctx.prefix))
    summary = review.get("summary", {})
    write_output(ctx.env, "new-findings", str(summary.get("new_findings", 0)))
    markdown = render_review(review, "markdown", prefix=ctx.prefix)
    append_summary(ctx.env, cut_bytes(markdown + "\n", MAX_SECTION_BYTES))
    return 0


def _commits_missing(result: Completed) -> bool:
    """A review that stopped because a commit is not in the clone (a shallow checkout): the
    job is not failed for it, the doctor's result decides (docs/github-action.md)."""
    if result.code in (EXIT_OK, EXIT_FINDINGS):
        return False
    try:
        return bool(json.loads(result.err).get("error") == "REVIEW_REVISION")
    except (ValueError, AttributeError):
        return False


def candidate_files(root: str, pattern: str) -> list[str]:
    """Files under ROOT matching PATTERN (relative to ROOT), as paths relative to the cwd."""
    if not pattern:
        return []
    matches = glob.glob(pattern, root_dir=root, recursive=True, include_hidden=True)
    return [os.path.join(root, m) for m in sorted(matches) if os.path.isfile(os.path.join(root, m))]


def step_candidates(ctx: Context) -> int:
    files = candidate_files(ctx.root, ctx.input("candidates"))
    if not files and os.path.isdir(ctx.root):
        write_output(ctx.env, "candidates-exit-code", "0")
        append_summary(ctx.env, "## project-corpus candidates\n\nNo candidate files.\n\n")
        return 0
    args = ["context", "candidate-validate", ctx.root, *files]
    result = run_cli([*args, "--format", "json"])
    write_output(ctx.env, "candidates-exit-code", str(result.code))
    if reported_error(ctx, "project-corpus candidates", result):
        return 0
    report = json.loads(result.out)
    ctx.emit(workflow_commands(ctx, report))
    issues = visible_issues(report)
    head = (
        f"## project-corpus candidates: {RESULT_WORDS.get(result.code, 'failed')}\n\n"
        f"{len(files)} file(s), {len(issues)} problem(s).\n\n"
    )
    append_summary(ctx.env, head + (issue_table(ctx, issues) if issues else "") + "\n")
    return 0


def step_eval(ctx: Context) -> int:
    dataset = ctx.input("eval-dataset")
    if not dataset:
        write_output(ctx.env, "eval-exit-code", "0")
        return 0
    result = run_cli(["context", "build", ctx.root])
    if result.code == 0:
        result = run_cli(
            ["context", "eval", ctx.root, "--dataset", dataset, "--format", "markdown"]
        )
    write_output(ctx.env, "eval-exit-code", str(result.code))
    if not reported_error(ctx, "project-corpus eval", result):
        # The eval's Markdown report brings its own heading.
        append_summary(ctx.env, cut_bytes(result.out.rstrip("\n") + "\n\n", MAX_SECTION_BYTES))
    return 0


def combined_exit_code(env: Mapping[str, str]) -> int:
    """The worst of the recorded exit codes (3 internal > 2 error > 1 findings > 0). With
    `new-findings-only` and a review that ran, the doctor's findings (exit 1) do not count:
    only the review's new findings (and any error) fail the job."""
    names = ("DOCTOR_EXIT_CODE", "CANDIDATES_EXIT_CODE", "EVAL_EXIT_CODE", "REVIEW_EXIT_CODE")
    codes = {k: env.get(k, "").strip() for k in names}
    new_only = env.get("INPUT_NEW_FINDINGS_ONLY", "").strip().lower() == "true"
    if new_only and codes["REVIEW_EXIT_CODE"] and codes["DOCTOR_EXIT_CODE"] == str(EXIT_FINDINGS):
        codes["DOCTOR_EXIT_CODE"] = str(EXIT_OK)
    found = [int(c) if c.isdigit() else EXIT_INTERNAL for c in codes.values() if c]
    return max(found, default=EXIT_OK)


def step_finish(ctx: Context, fail: bool) -> int:
    code = combined_exit_code(ctx.env)
    if not fail:
        write_output(ctx.env, "exit-code", str(code))
    elif code:
        ctx.emit(annotation("error", "project-corpus", f"project-corpus {RESULT_WORDS[code]}"))
        return code
    return 0


STEPS: dict[str, Callable[[Context], int]] = {
    "doctor": step_doctor,
    "review": step_review,
    "candidates": step_candidates,
    "eval": step_eval,
    "finish": lambda ctx: step_finish(ctx, fail=False),
    "fail": lambda ctx: step_finish(ctx, fail=True),
}


def _emit_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def main(
    argv: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
    emit: Callable[[str], None] = _emit_stdout,
) -> int:
    """Run one step; returns its exit code (2 for an unknown step)."""
    args = list(sys.argv[1:] if argv is None else argv)
    environ = os.environ if env is None else env
    if len(args) != 1 or args[0] not in STEPS:
        sys.stderr.write(
            f"usage: python -m project_corpus.adapters.github.action {{{','.join(STEPS)}}}\n"
        )
        return 2
    root = environ.get("INPUT_ROOT", "").strip() or "."
    prefix = root_prefix(root, environ.get("GITHUB_WORKSPACE", ""))
    return STEPS[args[0]](Context(environ, root, prefix, emit))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
