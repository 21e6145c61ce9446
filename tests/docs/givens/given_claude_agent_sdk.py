"""The Claude Agent SDK's names the README's one line uses."""

from claude_agent_sdk import ClaudeAgentOptions

__all__ = ["ClaudeAgentOptions"]
