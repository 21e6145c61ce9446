"""nbask for agents: the "ask the user" tool in the shapes models and frameworks expect.

    tools = [nbask.tools.definition(format="openai-chat")]          # what the model sees
    result = await nbask.tools.call(arguments, tool_call_id=call_id)  # run the model's call
    messages.append(result.as_message("openai-chat", call_id))      # what the model reads back

    agent = pydantic_ai.Agent(model, tools=[nbask.tools.function()])  # for frameworks
    tool = StructuredTool.from_function(func=nbask.tools.function_sync())  # sync frameworks

Dialects, picked by ``tool_name``: ``AskUserQuestion`` (kimi-cli, Claude Code; the default),
``ask_user_question``, ``ask_user``, ``ask_followup_question`` (Kilo
Code) and ``request_user_input`` (OpenAI Codex); each reads its own arguments and answers in
its own format. ``gate`` puts a tool behind the person's approval, with rejections the model can
read. ``nbask.configure(tools_enabled=False)`` hides the tool (``definitions`` is empty) and makes a
call a tool error; ``nbask.no_questions()`` refuses questions from sub-agents.
"""

from __future__ import annotations

from .call import call, call_sync
from .definitions import definition, definitions, parameters_schema
from .dialects import DEFAULT_TOOL_NAME, TOOL_NAMES
from .function import function, function_sync, gate
from .result import FORMATS, Format, ToolResult

__all__ = [
    "DEFAULT_TOOL_NAME",
    "FORMATS",
    "TOOL_NAMES",
    "Format",
    "ToolResult",
    "call",
    "call_sync",
    "definition",
    "definitions",
    "function",
    "function_sync",
    "gate",
    "parameters_schema",
]
