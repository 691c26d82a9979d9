"""The optional stdio MCP server (docs/mcp.md): the server, its tools and the trust grants
it needs. Only `server` imports the `mcp` SDK."""
