"""The adapters: the ways in, each one call into the Workspace and a renderer.

`cli` (the command line) stands above the others, which it starts: `mcp_server` (the optional
stdio MCP server), `lsp` (the language server) and `github` (the GitHub Action's steps).
"""
