"""``ToolResult``: what a tool call hands back to the agent loop, and the provider message that
carries it to the model.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models import Answer, Decision

#: How a tool call ended. The first four are the Answer's own statuses; the rest are tool errors
#: that never reached the person ("refused": inside ``nbask.no_questions()``).
ResultStatus = Literal[
    "answered",
    "dismissed",
    "timeout",
    "cancelled",
    "invalid",
    "unavailable",
    "refused",
    "disabled",
    "failed",
]

Format = Literal["openai-chat", "openai-responses", "anthropic", "mcp"]
FORMATS: tuple[Format, ...] = ("openai-chat", "openai-responses", "anthropic", "mcp")


class ToolResult(BaseModel):
    """The outcome of ``nbask.tools.call``, ready to send back to the model.

    ``output`` is the text the model reads as the tool result, in the dialect's own format
    (for ``AskUserQuestion``: ``{"answers": {...}}`` as JSON). ``is_error`` marks a call that
    did not get an answer because of a problem the model should act on (bad arguments, no one
    to ask, a refusal); ``output`` then says what went wrong and what to do. ``message`` is a
    one-line summary for logs and displays. A dismiss or a timeout is not an error: ``output``
    has no answers and a note saying not to assume one.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    is_error: bool
    output: str
    message: str
    status: ResultStatus = Field(description="How the call ended (see ResultStatus).")
    #: The Answer behind the result, when the person (or a policy) was asked; None otherwise.
    outcome: Answer | Decision | None = Field(default=None, repr=False)

    def as_message(self, format: Format, tool_call_id: str | None = None) -> dict[str, Any]:  # noqa: A002 - the format names of nbask.tools.definition
        """The result as the message (or content block) each API expects back.

        ``"openai-chat"``: a ``{"role": "tool", ...}`` message; ``"openai-responses"``: a
        ``function_call_output`` input item; ``"anthropic"``: a ``tool_result`` content block
        (put it in the next user message); ``"mcp"``: a ``tools/call`` result.
        ``tool_call_id`` is the id the model gave the call (not used for MCP).
        """
        if format == "mcp":
            return {"content": [{"type": "text", "text": self.output}], "isError": self.is_error}
        if tool_call_id is None:
            msg = f"as_message({format!r}) needs the tool_call_id the model gave the call"
            raise ValueError(msg)
        if format == "openai-chat":
            return {"role": "tool", "tool_call_id": tool_call_id, "content": self.output}
        if format == "openai-responses":
            return {"type": "function_call_output", "call_id": tool_call_id, "output": self.output}
        if format == "anthropic":
            return {
                "type": "tool_result",
                "tool_use_id": tool_call_id,
                "content": self.output,
                "is_error": self.is_error,
            }
        msg = f"unknown format {format!r}; use one of: {', '.join(FORMATS)}"
        raise ValueError(msg)
