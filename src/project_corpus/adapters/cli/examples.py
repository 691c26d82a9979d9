"""What every `--help` ends with: examples, then a link to the command's docs page (SPEC §10:
"Every command's `--help` ends with examples"; what ruff and git users look for first).

`EXAMPLES` is the one table (command path -> docs page and examples); `epilog` renders a
command's entry for click, and a test holds every command and subcommand to have one.
"""

from __future__ import annotations

from project_corpus.core.about import DOCS_URL

Example = tuple[str, str]  # (the command line, what it does)


def _cli(command: str) -> str:
    """The docs/cli.md section of COMMAND (GitHub's heading anchor)."""
    return "cli.md#project-corpus-" + command.replace(" ", "-")


EXAMPLES: dict[str, tuple[str, tuple[Example, ...]]] = {
    "import": (
        "import.md",
        (
            (
                "project-corpus import --dry-run",
                "the plan: each file's documents, what is left out",
            ),
            ("project-corpus import", "write .project-corpus/ and the AGENTS.md pointer"),
            ("project-corpus import --include 'notes/**' --exclude template.md", "add, drop files"),
            ("project-corpus import --prune", "also delete documents whose source is gone"),
        ),
    ),
    "": (
        "cli.md",
        (
            ("project-corpus init", "start a corpus in this folder"),
            ("project-corpus import --dry-run", "see what the memory kept here would become"),
            ("project-corpus context doctor", "lint the corpus this folder belongs to"),
            ('project-corpus context query --fresh "next action"', "ask without an index"),
        ),
    ),
    "context": (
        "cli.md",
        (
            ("project-corpus context build", "index the corpus found upward from here"),
            ('project-corpus context query "what is blocked"', "ranked pointers from the index"),
            ("project-corpus context doctor services/api", "lint the corpus in services/api"),
        ),
    ),
    "context build": (
        _cli("context build"),
        (
            ("project-corpus context build", "index the corpus found upward from here"),
            ("project-corpus context build services/api", "index the corpus in services/api"),
        ),
    ),
    "context query": (
        _cli("context query"),
        (
            ('project-corpus context query "exact next action"', "from the current index"),
            ('project-corpus context query --fresh "open risks"', "from the sources, no index"),
            ('project-corpus context query mem "deploy" --limit 5 --format text', "top 5, text"),
        ),
    ),
    "context bundle": (
        "bundle.md",
        (
            ('project-corpus context bundle "next action" > bundle.json', "a bundle for an agent"),
            ('project-corpus context bundle --fresh "risks" --max-tokens 400', "small, no index"),
        ),
    ),
    "context receipt": (
        _cli("context receipt"),
        (
            (
                "project-corpus context receipt --bundle bundle.json --consumer agent-1",
                "record the delivery of every item",
            ),
        ),
    ),
    "context doctor": (
        "doctor.md",
        (
            ("project-corpus context doctor", "lint the corpus found upward from here"),
            (
                "project-corpus context doctor --format sarif --output lint.sarif",
                "for code scanning",
            ),
            ("project-corpus context doctor --select STATUS_AGE --max-status-age 14", "one check"),
        ),
    ),
    "context candidate-validate": (
        _cli("context candidate-validate"),
        (
            ("project-corpus context candidate-validate", "every candidates/*.json file"),
            (
                "project-corpus context candidate-validate .project-corpus/candidates/c1.json",
                "one file",
            ),
        ),
    ),
    "context review": (
        "review.md",
        (
            ("project-corpus context review --base main", "the working tree against main"),
            (
                "project-corpus context review --base origin/main --head HEAD --merge-base",
                "a pull request's change",
            ),
        ),
    ),
    "context eval": (
        "eval.md",
        (("project-corpus context eval --dataset eval.json --format markdown", "a CI summary"),),
    ),
    "init": (
        _cli("init"),
        (
            ("project-corpus init", "a corpus in this folder"),
            ("project-corpus init services/api --project-id api --lang ru", "Russian guidance"),
        ),
    ),
    "new": (
        _cli("new"),
        (
            ("project-corpus new task T-0042", "a new Task"),
            ("project-corpus new report R-0042 --task T-0042", "a Report of that task"),
        ),
    ),
    "explain": (
        _cli("explain"),
        (
            ("project-corpus explain STATUS_AGE", "one check's documentation"),
            ("project-corpus explain", "every check"),
        ),
    ),
    "schema": (
        _cli("schema"),
        (
            ("project-corpus schema", "list the shipped schemas"),
            ("project-corpus schema bundle", "print one"),
        ),
    ),
    "trust": (
        "mcp.md",
        (("project-corpus trust grant --capability mcp.stdio", "grant a capability"),),
    ),
    "trust grant": (
        _cli("trust grant"),
        (
            (
                "project-corpus trust grant --capability mcp.stdio --capability corpus.context",
                "what the MCP server needs",
            ),
        ),
    ),
    "trust show": (
        _cli("trust show"),
        (("project-corpus trust show --format text", "the grant and what it allows"),),
    ),
    "mcp": (
        "mcp.md",
        (
            (
                "project-corpus mcp --trust GRANT --allow mcp.stdio --allow corpus.context",
                "serve the corpus over stdio",
            ),
        ),
    ),
    "lsp": (
        "editors.md",
        (
            ("project-corpus lsp", "started by an editor: diagnostics, quick fixes, links"),
            ("project-corpus lsp --stdio", "the same (clients often pass --stdio)"),
        ),
    ),
}


def epilog(command: str) -> str:
    """The `--help` epilog of COMMAND (its path below `project-corpus`): examples, docs."""
    page, examples = EXAMPLES[command]
    rows = [f"  {line}\n      {what}" for line, what in examples]
    # "\b" keeps click from re-wrapping the paragraph (its documented marker).
    return "\b\nExamples:\n" + "\n".join(rows) + f"\n\n\b\nDocs: {DOCS_URL}/{page}"
