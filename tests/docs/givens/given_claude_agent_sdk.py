"""The Claude Agent SDK's names the README's one line uses, and what an SDK ``can_use_tool``
callback receives: a Bash call's tool name, its input and the SDK's ``ToolPermissionContext``.

``task`` is the prompt of a page's example. Claude Code is a CLI that needs an account, so
giving ``task`` also makes the SDK reach, in place of the CLI, the tests' offline Claude Code
(tests/support/fixtures/claude_code_cli.py: the SDK's own ``Transport``, playing Claude Code's side
of the control protocol), which asks permission for that Bash call once and ends the turn.
"""

import sys
from pathlib import Path
from typing import Any

import claude_agent_sdk._internal.client as _sdk_client
from claude_agent_sdk import ClaudeAgentOptions, ToolPermissionContext

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "support" / "fixtures"))
from claude_code_cli import ClaudeCodeCLI, ToolCall

__all__ = ["ClaudeAgentOptions", "context", "input", "task", "tool_name"]

tool_name = "Bash"
input = {"command": "rm -rf build/", "description": "Remove the build folder"}  # noqa: A001 - the SDK's own name
context = ToolPermissionContext(tool_use_id="toolu_1", title="Claude wants to run rm -rf build/")
task = "Remove the build folder."


def _offline_claude_code(**_: Any) -> ClaudeCodeCLI:
    """What the SDK starts in place of the CLI (it passes the prompt and the options)."""
    return ClaudeCodeCLI([ToolCall(tool_name, input)])


_sdk_client.SubprocessCLITransport = _offline_claude_code  # type: ignore[assignment,misc]
