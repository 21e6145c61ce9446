"""A real stdio MCP server (the MCP SDK's own ``MCPServer``) whose tools declare MCP behaviour
hints: ``drop_table`` says it may destroy (``destructiveHint``), ``count_rows`` that it only
reads (``readOnlyHint``), ``tag_table`` says neither. Each tool returns what it did, so a test
sees which calls ran.

Run: ``python hinted_tools_server.py`` (stdio).
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

server = MCPServer("nbask-hinted-tools-test")


@server.tool(annotations=ToolAnnotations(destructiveHint=True, readOnlyHint=False))
def drop_table(name: str) -> str:
    """Drop a table."""
    return f"dropped {name}"


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def count_rows(name: str) -> str:
    """Count a table's rows."""
    return f"{name} has 3 rows"


@server.tool()
def tag_table(name: str, tag: str) -> str:
    """Tag a table."""
    return f"tagged {name} {tag}"


if __name__ == "__main__":
    server.run("stdio")
