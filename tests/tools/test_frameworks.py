"""nbask's tool inside the agent frameworks' own code, offline: a pydantic-ai ``Agent`` driven by
``FunctionModel``, the OpenAI Agents SDK's ``Runner`` with a scripted ``Model``, and LangChain's
``StructuredTool`` in a LangGraph ``ToolNode``. Each test checks what the model saw as the tool
result in its next turn: the answer under the recommended policy, approve / edit / reject of a
gated tool, a validation error, and a sub-agent's refusal.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from support.person import Person, approve, edit, reject

import nbask
from nbask.tools import function, gate

DB_ARGS = {
    "questions": [
        {
            "question": "Which database should the app use?",
            "header": "DB",
            "multi_select": False,
            "options": [
                {"label": "PostgreSQL (Recommended)", "description": "Relational, robust."},
                {"label": "SQLite", "description": "A file, no server."},
            ],
        }
    ]
}
POLICY_ANSWER = (
    '{"answers": {"Which database should the app use?": "PostgreSQL (Recommended)"}, "answered_by": "policy", '
    '"note": "Answered by nbask\'s \'recommended\' policy, not by a person: no one was asked."}'
)
APPROVED = "dropped events_2023"
EDITED = "dropped events_2022"
REJECTED = (
    "Not approved: Call drop_table did not run. The person rejected it. Reason: keep it for the audit. "
    "Do not retry the same call; choose another way, or ask the person what they want instead."
)
DECISIONS = [
    (approve(), APPROVED),
    (edit({"name": "events_2022"}), EDITED),
    (reject("keep it for the audit"), REJECTED),
]


def drop_table(name: str) -> str:
    """Drop a table from the warehouse (irreversible).

    Args:
        name: The table to drop.

    """
    return f"dropped {name}"


# -- pydantic-ai ------------------------------------------------------------------------------

pydantic_ai = pytest.importorskip("pydantic_ai")
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402


def scripted(tool_name: str, args: dict[str, Any], seen: list[Any]) -> FunctionModel:
    """A model that calls ``tool_name`` once, then answers with what it read back."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        del info
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        results = [p for p in last.parts if isinstance(p, ToolReturnPart | RetryPromptPart)]
        if not results:
            return ModelResponse(parts=[ToolCallPart(tool_name, args, tool_call_id="call_1")])
        seen.extend(results)
        content = results[0].content if isinstance(results[0], ToolReturnPart) else results[0].model_response()
        return ModelResponse(parts=[TextPart(f"I read: {content}")])

    return FunctionModel(respond)


def test_pydantic_ai_agent_asks_mid_run_under_the_recommended_policy():
    nbask.configure(policy="recommended")
    seen: list[Any] = []
    agent = pydantic_ai.Agent(scripted("AskUserQuestion", DB_ARGS, seen), tools=[function()])
    result = agent.run_sync("Set up the app's storage.")
    assert [type(p) for p in seen] == [ToolReturnPart]
    assert seen[0].content == POLICY_ANSWER
    assert seen[0].tool_call_id == "call_1"
    assert result.output == f"I read: {POLICY_ANSWER}"
    assert nbask.history()[-1].answered_by == "policy"


def test_pydantic_ai_sees_the_tool_definition_nbask_describes():
    captured: list[AgentInfo] = []

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        del messages
        captured.append(info)
        return ModelResponse(parts=[TextPart("no question needed")])

    pydantic_ai.Agent(FunctionModel(respond), tools=[function("request_user_input")]).run_sync("hi")
    (tool,) = captured[0].function_tools
    assert tool.name == "request_user_input"
    assert "only when the answer changes what you do next" in (tool.description or "")
    questions = tool.parameters_json_schema["properties"]["questions"]
    assert (questions["minItems"], questions["maxItems"]) == (1, 4)


def test_pydantic_ai_invalid_arguments_come_back_as_a_retry_prompt():
    nbask.configure(policy="recommended")
    seen: list[Any] = []
    bad = {"questions": [{"question": "Which DB?", "options": [{"label": "PostgreSQL"}]}]}
    agent = pydantic_ai.Agent(scripted("AskUserQuestion", bad, seen), tools=[function()], retries=2)
    agent.run_sync("go")
    # pydantic-ai validates against the function's signature (nbask's limits) before calling it
    # and sends the errors back for a retry.
    (part,) = seen
    text = part.model_response() if isinstance(part, RetryPromptPart) else json.dumps(part.content)
    assert "List should have at least 2 items after validation, not 1" in text
    assert getattr(part, "outcome", "retried") == "retried"


@pytest.mark.parametrize(("decide", "expected"), DECISIONS, ids=["approve", "edit", "reject"])
def test_pydantic_ai_gated_tool(person: Person, decide, expected: str):
    person.answers(decide)
    seen: list[Any] = []
    agent = pydantic_ai.Agent(scripted("drop_table", {"name": "events_2023"}, seen), tools=[gate(drop_table)])
    result = agent.run_sync("Clean up the warehouse.")
    assert [p.content for p in seen] == [expected]
    assert result.output == f"I read: {expected}"
    assert person.approvals[0].approval.details == '{\n  "name": "events_2023"\n}'


def test_pydantic_ai_gated_tool_under_the_recommended_policy_is_not_run():
    nbask.configure(policy="recommended")
    seen: list[Any] = []
    agent = pydantic_ai.Agent(scripted("drop_table", {"name": "events_2023"}, seen), tools=[gate(drop_table)])
    agent.run_sync("Clean up the warehouse.")
    assert seen[0].content.startswith("Not approved: Call drop_table did not run. It was rejected by policy")


def test_pydantic_ai_sub_agent_is_refused(person: Person):
    """The main agent delegates to a sub-agent run inside nbask.no_questions(); the sub-agent's
    question is refused, and the main agent reads the sub-agent's report of it.
    """
    inner_seen: list[Any] = []
    sub_agent = pydantic_ai.Agent(scripted("AskUserQuestion", DB_ARGS, inner_seen), tools=[function()])

    async def research(topic: str) -> str:
        """Research a topic with a sub-agent.

        Args:
            topic: What to research.

        """
        with nbask.no_questions():
            return (await sub_agent.run(topic)).output

    outer_seen: list[Any] = []
    main = pydantic_ai.Agent(scripted("research", {"topic": "storage"}, outer_seen), tools=[research])
    main.run_sync("Plan the storage.")
    refusal = inner_seen[0].content
    assert refusal.startswith("Error: AskUserQuestion is not available here. No question may be asked here:")
    assert "only the main agent may ask the person" in refusal
    assert outer_seen[0].content == f"I read: {refusal}"
    assert person.asked == []


# -- OpenAI Agents SDK ------------------------------------------------------------------------

agents = pytest.importorskip("agents")
from agents.items import ModelResponse as AgentsModelResponse  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.usage import Usage  # noqa: E402
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText  # noqa: E402

agents.set_tracing_disabled(disabled=True)


class ScriptedModel(Model):
    """Calls one tool, then replies with the function_call_output it was given."""

    def __init__(self, tool_name: str, arguments: dict[str, Any]) -> None:
        self.tool_name = tool_name
        self.arguments = arguments
        self.outputs: list[dict[str, Any]] = []

    async def get_response(self, system_instructions, input, *args: Any, **kwargs: Any) -> AgentsModelResponse:  # noqa: A002
        del system_instructions, args, kwargs
        outputs = [item for item in input if isinstance(item, dict) and item.get("type") == "function_call_output"]
        if not outputs:
            call = ResponseFunctionToolCall(
                id="fc_1",
                call_id="call_1",
                name=self.tool_name,
                arguments=json.dumps(self.arguments),
                type="function_call",
                status="completed",
            )
            return AgentsModelResponse(output=[call], usage=Usage(), response_id=None)
        self.outputs.extend(outputs)
        text = ResponseOutputText(text=f"I read: {outputs[-1]['output']}", type="output_text", annotations=[])
        message = ResponseOutputMessage(id="m_1", content=[text], role="assistant", status="completed", type="message")
        return AgentsModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


def test_agents_sdk_agent_asks_mid_run_under_the_recommended_policy():
    nbask.configure(policy="recommended")
    model = ScriptedModel("AskUserQuestion", DB_ARGS)
    agent = agents.Agent(name="builder", model=model, tools=[agents.function_tool(function())])
    result = agents.Runner.run_sync(agent, "Set up the app's storage.")
    assert model.outputs == [{"call_id": "call_1", "output": POLICY_ANSWER, "type": "function_call_output"}]
    assert result.final_output == f"I read: {POLICY_ANSWER}"


@pytest.mark.parametrize("tool_name", nbask.tools.TOOL_NAMES)
def test_agents_sdk_builds_a_strict_schema_for_every_dialect(tool_name: str):
    tool = agents.function_tool(function(tool_name))
    assert tool.name == tool_name
    assert tool.strict_json_schema
    assert "only when the answer changes what you do next" in tool.description


@pytest.mark.parametrize(("decide", "expected"), DECISIONS, ids=["approve", "edit", "reject"])
def test_agents_sdk_gated_tool(person: Person, decide, expected: str):
    person.answers(decide)
    model = ScriptedModel("drop_table", {"name": "events_2023"})
    agent = agents.Agent(name="janitor", model=model, tools=[agents.function_tool(gate(drop_table))])
    result = agents.Runner.run_sync(agent, "Clean up the warehouse.")
    assert [o["output"] for o in model.outputs] == [expected]
    assert result.final_output == f"I read: {expected}"


def test_agents_sdk_plain_requires_approval_hides_the_reason_and_asks_to_retry(person: Person):
    """Why gate exists: without it, the SDK's own failure handler turns ApprovalRejected into a
    generic "Please try again", and the model never learns that (or why) the person said no.
    """
    person.answers(reject("keep it"))
    model = ScriptedModel("drop_table", {"name": "events_2023"})
    tool = agents.function_tool(nbask.requires_approval(drop_table))
    agents.Runner.run_sync(agents.Agent(name="janitor", model=model, tools=[tool]), "Clean up.")
    assert model.outputs[0]["output"] == "An error occurred while running the tool. Please try again."


# -- LangChain / LangGraph --------------------------------------------------------------------

langchain_tools = pytest.importorskip("langchain_core.tools")
langgraph_graph = pytest.importorskip("langgraph.graph")
from langchain_core.messages import AIMessage, ToolMessage  # noqa: E402
from langgraph.prebuilt import ToolNode, tools_condition  # noqa: E402


def run_graph(tool: Any, tool_name: str, args: dict[str, Any]) -> tuple[list[ToolMessage], str]:
    """A LangGraph agent: a scripted model node and a ToolNode; returns the tool messages the
    model saw and its final text.
    """

    def model(state: dict[str, Any]) -> dict[str, Any]:
        results = [m for m in state["messages"] if isinstance(m, ToolMessage)]
        if not results:
            return {"messages": [AIMessage(content="", tool_calls=[{"name": tool_name, "args": args, "id": "call_1"}])]}
        return {"messages": [AIMessage(content=f"I read: {results[-1].content}")]}

    graph = langgraph_graph.StateGraph(langgraph_graph.MessagesState)
    graph.add_node("model", model)
    graph.add_node("tools", ToolNode([tool]))
    graph.add_edge(langgraph_graph.START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    out = asyncio.run(graph.compile().ainvoke({"messages": [("user", "go")]}))
    messages = out["messages"]
    return [m for m in messages if isinstance(m, ToolMessage)], messages[-1].content


def test_langgraph_tool_node_asks_mid_run_under_the_recommended_policy():
    nbask.configure(policy="recommended")
    tool = langchain_tools.StructuredTool.from_function(coroutine=function())
    assert tool.name == "AskUserQuestion"
    assert "only when the answer changes what you do next" in tool.description
    tool_messages, final = run_graph(tool, "AskUserQuestion", DB_ARGS)
    assert [(m.content, m.tool_call_id, m.status) for m in tool_messages] == [(POLICY_ANSWER, "call_1", "success")]
    assert final == f"I read: {POLICY_ANSWER}"


def test_langchain_structured_tool_direct_and_other_dialects():
    nbask.configure(policy="recommended")
    tool = langchain_tools.StructuredTool.from_function(coroutine=function("ask_followup_question"))
    output = asyncio.run(tool.ainvoke({"question": "Which DB?", "follow_up": ["SQLite (Recommended)", "DuckDB"]}))
    assert output.startswith("<answer>\nSQLite (Recommended)\n</answer>\n(Answered by nbask's 'recommended' policy")


@pytest.mark.parametrize(("decide", "expected"), DECISIONS, ids=["approve", "edit", "reject"])
def test_langgraph_gated_tool(person: Person, decide, expected: str):
    person.answers(decide)
    tool = langchain_tools.StructuredTool.from_function(func=gate(drop_table))
    tool_messages, final = run_graph(tool, "drop_table", {"name": "events_2023"})
    assert [m.content for m in tool_messages] == [expected]
    assert final == f"I read: {expected}"


# -- MCP ----------------------------------------------------------------------------------------

mcp = pytest.importorskip("mcp")
import mcp.types as mcp_types  # noqa: E402
from mcp.server import Server  # noqa: E402


def mcp_server() -> Server:
    """An MCP server exposing nbask's tool: tools/list from definitions("mcp"), tools/call through
    nbask.tools.call (what a notebook-side MCP bridge would do).
    """

    async def list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        del ctx, params
        return mcp_types.ListToolsResult(
            tools=[mcp_types.Tool.model_validate(d) for d in nbask.tools.definitions("mcp")]
        )

    async def call_tool(ctx: Any, params: mcp_types.CallToolRequestParams) -> mcp_types.CallToolResult:
        del ctx
        result = await nbask.tools.call(params.arguments or {}, tool_name=params.name)
        return mcp_types.CallToolResult.model_validate(result.as_message("mcp"))

    return Server("nbask", on_list_tools=list_tools, on_call_tool=call_tool)


def test_mcp_client_lists_and_calls_the_tool_in_process():
    nbask.configure(policy="recommended")

    async def session() -> tuple[list[str], Any, Any]:
        async with mcp.Client(mcp_server()) as client:
            listed = await client.list_tools()
            answered = await client.call_tool("AskUserQuestion", DB_ARGS)
            refused = await client.call_tool("AskUserQuestion", {"questions": []})
            return [tool.name for tool in listed.tools], answered, refused

    names, answered, refused = asyncio.run(session())
    assert names == ["AskUserQuestion"]
    assert (answered.is_error, answered.content[0].text) == (False, POLICY_ANSWER)
    assert refused.is_error
    assert refused.content[0].text.startswith("Error: Invalid arguments for AskUserQuestion: questions: List should")
