"""Tool definitions, checked against each SDK's own types: OpenAI Chat Completions and Responses,
Anthropic Messages, MCP ``tools/list``; the schema is valid JSON Schema and accepts the seeds'
own examples; the description teaches when to ask; the switch empties the list.
"""

from __future__ import annotations

import ast
import json
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter
from support.person import fixture_text

import nbask
from nbask.tools import FORMATS, TOOL_NAMES, definition, definitions, parameters_schema

openai_chat = pytest.importorskip("openai.types.chat")
openai_responses = pytest.importorskip("openai.types.responses")
anthropic_types = pytest.importorskip("anthropic.types")
mcp_types = pytest.importorskip("mcp.types")


def assert_typed_dict_keys(typed_dict: Any, value: dict[str, Any]) -> None:
    """Every required key present, no key the TypedDict does not declare."""
    allowed = typed_dict.__required_keys__ | typed_dict.__optional_keys__
    assert typed_dict.__required_keys__ <= value.keys(), typed_dict.__required_keys__ - value.keys()
    assert value.keys() <= allowed, value.keys() - allowed


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_openai_chat_completions_shape(tool_name: str):
    tool = definition(tool_name, "openai-chat")
    TypeAdapter(openai_chat.ChatCompletionFunctionToolParam).validate_python(tool)
    TypeAdapter(openai_chat.ChatCompletionToolUnionParam).validate_python(tool)
    assert_typed_dict_keys(openai_chat.ChatCompletionFunctionToolParam, tool)
    from openai.types.shared_params import FunctionDefinition  # noqa: PLC0415

    assert_typed_dict_keys(FunctionDefinition, tool["function"])
    assert tool["function"]["name"] == tool_name


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_openai_responses_shape(tool_name: str):
    tool = definition(tool_name, "openai-responses")
    TypeAdapter(openai_responses.FunctionToolParam).validate_python(tool)
    TypeAdapter(openai_responses.ToolParam).validate_python(tool)
    assert_typed_dict_keys(openai_responses.FunctionToolParam, tool)
    assert tool["name"] == tool_name


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_anthropic_messages_shape(tool_name: str):
    tool = definition(tool_name, "anthropic")
    TypeAdapter(anthropic_types.ToolParam).validate_python(tool)
    TypeAdapter(anthropic_types.ToolUnionParam).validate_python(tool)
    assert_typed_dict_keys(anthropic_types.ToolParam, tool)
    assert tool["input_schema"]["type"] == "object"


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_mcp_tools_list_shape(tool_name: str):
    tool = definition(tool_name, "mcp")
    parsed = mcp_types.Tool.model_validate(tool)
    # Nothing was dropped as unknown: the model dumps back to exactly what was given.
    assert parsed.model_dump(by_alias=True, exclude_none=True, mode="json") == tool
    listed = mcp_types.ListToolsResult.model_validate({"tools": [tool]})
    assert listed.tools[0].name == tool_name
    assert parsed.annotations is not None
    assert parsed.annotations.read_only_hint is True


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_schema_is_valid_json_schema_without_refs_or_titles(tool_name: str):
    schema = parameters_schema(tool_name)
    jsonschema.Draft202012Validator.check_schema(schema)
    text = json.dumps(schema)
    assert "$ref" not in text
    assert "$defs" not in text
    assert '"title"' not in text
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert "answers" not in schema["properties"]  # answers are never part of the input


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_every_format_carries_the_same_name_description_and_schema(tool_name: str):
    shapes = {fmt: definition(tool_name, fmt) for fmt in FORMATS}
    schema = parameters_schema(tool_name)
    assert shapes["openai-chat"]["function"]["parameters"] == schema
    assert shapes["openai-responses"]["parameters"] == schema
    assert shapes["anthropic"]["input_schema"] == schema
    assert shapes["mcp"]["inputSchema"] == schema
    descriptions = {
        shapes["openai-chat"]["function"]["description"],
        shapes["openai-responses"]["description"],
        shapes["anthropic"]["description"],
        shapes["mcp"]["description"],
    }
    assert len(descriptions) == 1


SEED_ARGUMENTS = {
    "AskUserQuestion": [
        json.loads(fixture_text("seed000_parameters.json")),
        ast.literal_eval(fixture_text("seed000_conceptual.py.txt").split("=", 1)[1].strip()),
    ],
    "ask_user_question": [json.loads(fixture_text("seed001_delta.json"))["action_requests"][0]["args"]],
    "ask_user": [{"question": "Docker 镜像拉取失败,如何继续?", "choices": ["使用国内镜像源", "重试拉取"]}],
    "ask_followup_question": [
        {"question": "Q?", "follow_up": "<suggest>a</suggest><suggest>b</suggest>"},
        {"question": "Q?", "follow_up": ["a", "b"]},
    ],
    "request_user_input": [json.loads(fixture_text("codex_request_user_input.json"))],
}


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_schema_accepts_the_seed_examples(tool_name: str):
    schema = parameters_schema(tool_name)
    for arguments in SEED_ARGUMENTS[tool_name]:
        jsonschema.validate(arguments, schema)


def test_claude_code_schema_limits():
    question = parameters_schema()["properties"]["questions"]
    assert (question["minItems"], question["maxItems"]) == (1, 4)
    options = question["items"]["properties"]["options"]
    assert (options["minItems"], options["maxItems"]) == (2, 4)
    assert question["items"]["properties"]["header"]["maxLength"] == 12
    assert question["items"]["required"] == ["question", "options"]


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_description_teaches_when_to_ask_and_when_not(tool_name: str):
    description = definition(tool_name, "anthropic")["description"]
    for phrase in (
        "only when the answer changes what you do next",
        "Do not ask for what you can infer",
        "find out yourself",
        "Do not add an 'Other' option" if tool_name != "ask_user_question" else "need not add it",
        "end its label with '(Recommended)'",
        "that is not consent",
        "do not assume one",
        "do not call this tool again in this run",
    ):
        assert phrase in description or phrase in json.dumps(parameters_schema(tool_name)), (tool_name, phrase)
    if tool_name in ("AskUserQuestion", "ask_user_question", "request_user_input"):
        assert "Ask related questions together in one call" in description


def test_definitions_lists_the_enabled_tool_and_the_switch_empties_it():
    assert definitions() == [definition()]
    assert definitions("anthropic", tool_names=["ask_user", "request_user_input"]) == [
        definition("ask_user", "anthropic"),
        definition("request_user_input", "anthropic"),
    ]
    nbask.configure(tools_enabled=False)
    for fmt in FORMATS:
        assert definitions(fmt) == []
    assert definition()["function"]["name"] == "AskUserQuestion"  # asked for by name, still given
    nbask.configure(tools_enabled=True)
    assert len(definitions("mcp")) == 1


def test_unknown_names_and_formats_are_refused_at_once():
    with pytest.raises(ValueError, match="no tool named 'ask'"):
        definition("ask")
    with pytest.raises(ValueError, match="unknown format 'gemini'"):
        definition(format="gemini")  # type: ignore[arg-type]
    nbask.configure(tools_enabled=False)
    with pytest.raises(ValueError, match="no tool named"):
        definitions(tool_names=["nope"])
    with pytest.raises(ValueError, match="unknown format"):
        definitions("gemini")  # type: ignore[arg-type]


def test_definitions_accept_a_single_name():
    assert definitions("openai-responses", tool_names="ask_user") == [definition("ask_user", "openai-responses")]


@pytest.mark.parametrize("is_error", [False, True])
def test_results_fit_each_sdk_message_type(is_error: bool):
    """What ToolResult.as_message builds is each SDK's own tool-result type."""
    result = nbask.tools.ToolResult(
        is_error=is_error, output='{"answers": {"Q?": "Ja, gern ✓"}}', message="m", status="answered"
    )
    chat = result.as_message("openai-chat", "call_1")
    TypeAdapter(openai_chat.ChatCompletionToolMessageParam).validate_python(chat)
    TypeAdapter(openai_chat.ChatCompletionMessageParam).validate_python(chat)
    assert_typed_dict_keys(openai_chat.ChatCompletionToolMessageParam, chat)
    responses = result.as_message("openai-responses", "call_1")
    TypeAdapter(openai_responses.ResponseInputItemParam).validate_python(responses)
    anthropic_block = result.as_message("anthropic", "toolu_1")
    TypeAdapter(anthropic_types.ToolResultBlockParam).validate_python(anthropic_block)
    assert_typed_dict_keys(anthropic_types.ToolResultBlockParam, anthropic_block)
    parsed = mcp_types.CallToolResult.model_validate(result.as_message("mcp"))
    assert parsed.is_error is is_error
    assert parsed.content[0].text == result.output
