"""The language server: the Memory Doctor in the editor (`project-corpus lsp`, docs/editors.md).

A language server over stdio (optional extra `project-corpus[lsp]`, pygls) with one warm
`Workspace` per project root. Modules: `documents` (which root and which portable path a
document has), `diagnostics` (report entries as LSP diagnostics), `fixes` (quick fixes),
`navigation` (links, definitions and hovers of references) and `server` (the pygls wiring).
"""
