"""Reading the corpus: confined files, policy, Markdown, conformance, the scoped snapshot
and its items."""
