"""The Claude Agent SDK's names the README's one line uses, and what an SDK ``can_use_tool``
callback receives: a Bash call's tool name, its input and the SDK's ``ToolPermissionContext``.
"""

from claude_agent_sdk import ClaudeAgentOptions, ToolPermissionContext

__all__ = ["ClaudeAgentOptions", "context", "input", "tool_name"]

tool_name = "Bash"
input = {"command": "rm -rf build/", "description": "Remove the build folder"}  # noqa: A001 - the SDK's own name
context = ToolPermissionContext(tool_use_id="toolu_1", title="Claude wants to run rm -rf build/")
