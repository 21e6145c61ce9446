"""AutoGen's own agents offline: a scripted ``ChatCompletionClient`` (autogen_core's abstract
client, subclassed as AutoGen's own ReplayChatCompletionClient does; autogen_ext is not
installed) and a ``CodeExecutor`` that runs Python blocks in a folder and records each run.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from autogen_core import CancellationToken, FunctionCall
from autogen_core.code_executor import CodeBlock, CodeExecutor, CodeResult
from autogen_core.models import (
    ChatCompletionClient,
    CreateResult,
    LLMMessage,
    ModelCapabilities,
    ModelInfo,
    RequestUsage,
)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

__all__ = ["RecordingExecutor", "ScriptedClient", "handoff"]

_NO_USAGE = RequestUsage(prompt_tokens=0, completion_tokens=0)


def handoff(said: str, target: str = "user") -> CreateResult:
    """The model's handoff to ``target`` (AssistantAgent's ``transfer_to_<target>`` tool), saying ``said``."""
    call = FunctionCall(id="call_1", name=f"transfer_to_{target}", arguments="{}")
    return CreateResult(finish_reason="function_calls", content=[call], usage=_NO_USAGE, cached=False, thought=said)


class ScriptedClient(ChatCompletionClient):
    """Answers each ``create`` with the next reply (the last repeats), and keeps what it was sent."""

    def __init__(self, *replies: str | CreateResult) -> None:
        self.replies = list(replies)
        self.seen: list[list[LLMMessage]] = []

    async def create(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = (),
        tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> CreateResult:
        del tools, tool_choice, json_output, extra_create_args, cancellation_token
        self.seen.append(list(messages))
        reply = self.replies[min(len(self.seen), len(self.replies)) - 1]
        if isinstance(reply, CreateResult):
            return reply
        return CreateResult(finish_reason="stop", content=reply, usage=_NO_USAGE, cached=False)

    async def create_stream(  # type: ignore[override]
        self, messages: Sequence[LLMMessage], **kwargs: Any
    ) -> AsyncGenerator[str | CreateResult, None]:
        yield await self.create(messages, **kwargs)

    def texts(self, call: int = -1) -> list[str]:
        """The text of each message the ``call``-th request was sent."""
        return [str(message.content) for message in self.seen[call]]

    async def close(self) -> None:
        pass

    def actual_usage(self) -> RequestUsage:
        return _NO_USAGE

    def total_usage(self) -> RequestUsage:
        return _NO_USAGE

    def count_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = ()) -> int:
        del messages, tools
        return 0

    def remaining_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = ()) -> int:
        del messages, tools
        return 100_000

    @property
    def capabilities(self) -> ModelCapabilities:  # type: ignore[override]
        return {"vision": False, "function_calling": True, "json_output": False}  # type: ignore[typeddict-item]

    @property
    def model_info(self) -> ModelInfo:
        return {
            "vision": False,
            "function_calling": True,
            "json_output": False,
            "family": "unknown",
            "structured_output": False,
        }


@dataclass
class RecordingExecutor(CodeExecutor):
    """Runs each Python block with this Python in ``folder`` (sh blocks with sh), recording what ran."""

    folder: Path
    ran: list[tuple[str, str]] = field(default_factory=list)

    async def execute_code_blocks(
        self, code_blocks: list[CodeBlock], cancellation_token: CancellationToken
    ) -> CodeResult:
        del cancellation_token
        outputs = []
        for block in code_blocks:
            self.ran.append((block.language, block.code))
            command = [sys.executable, "-c", block.code] if block.language == "python" else ["sh", "-c", block.code]
            done = await asyncio.create_subprocess_exec(
                *command, cwd=self.folder, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
            )
            output, _ = await done.communicate()
            outputs.append(output.decode())
            if done.returncode != 0:
                return CodeResult(exit_code=done.returncode or 1, output="".join(outputs))
        return CodeResult(exit_code=0, output="".join(outputs))

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def restart(self) -> None:
        pass
