"""What the project is called and where it lives: one home for its names and URLs.

The distribution is `project-corpus-context` because the public package index already holds
`project-corpus` (the upstream 2.2.0 runtime, another program with the same import and command
names). The command stays `project-corpus` and the import `project_corpus`. Every install
hint, the SARIF `informationUri`, the schema `$id`s, `pyproject.toml`'s `[project.urls]`
and the docs use these values; `tests/test_packaging.py` keeps them in agreement.
"""

from __future__ import annotations

__version__ = "0.2.0"
DISTRIBUTION = "project-corpus-context"
COMMAND = "project-corpus"
REPOSITORY = "corpus-tools/project-corpus-context"
HOMEPAGE = f"https://github.com/{REPOSITORY}"
ISSUES_URL = f"{HOMEPAGE}/issues"
DOCS_URL = f"{HOMEPAGE}/blob/main/docs"
CHANGELOG_URL = f"{HOMEPAGE}/blob/main/CHANGELOG.md"
SCHEMA_BASE_URL = (
    f"https://raw.githubusercontent.com/{REPOSITORY}/main/src/project_corpus/core/schemas"
)
PROJECT_URLS = {
    "Homepage": HOMEPAGE,
    "Documentation": DOCS_URL,
    "Issues": ISSUES_URL,
    "Changelog": CHANGELOG_URL,
}
# The package is not on the public index yet: install commands that work today name the
# repository (README "Install"); `PYPI_INSTALL` is the future one, documented as such.
GIT_URL = f"git+{HOMEPAGE}"
GIT_INSTALL = f"pip install '{GIT_URL}'"
PYPI_INSTALL = f"pip install {DISTRIBUTION}"
MCP_INSTALL_HINT = f"install the [mcp] extra: pip install '{DISTRIBUTION}[mcp] @ {GIT_URL}'"
LSP_INSTALL_HINT = f"install the [lsp] extra: pip install '{DISTRIBUTION}[lsp] @ {GIT_URL}'"
