"""Each dialect with its seed's own examples: what the person is shown, and the reply verbatim.

A seed's example is never rejected. The scripted person (tool_helpers.Person) stands in for the
widget; everything from ``nbask.tools.call`` down to the Resolution is the real code.
"""

from __future__ import annotations

import ast
import asyncio
import json

import pytest
from support.person import Person, dismiss, first_options, fixture_text, pick, time_out

import nbask
from nbask.tools import call
from nbask.tools.dialects.followup import RETRY


def run(arguments, tool_name="AskUserQuestion", **kwargs):
    return asyncio.run(call(arguments, tool_name=tool_name, **kwargs))


# -- AskUserQuestion (seeds 000, 003) ---------------------------------------------------------


def test_seed000_parameters_example_is_asked_and_answered_as_json(person: Person):
    text = fixture_text("seed000_parameters.json")
    person.answers(pick("JWT (Recommended)"))
    result = run(text, tool_call_id="call_1")
    assert person.questions == [json.loads(text)]
    assert person.asked[0].tool_call_id == "call_1"  # the 000 rule: tool_call_id on every request
    assert not result.is_error
    assert result.output == '{"answers": {"How should we handle authentication for this API?": "JWT (Recommended)"}}'
    assert result.message == "User has answered."
    assert result.status == "answered"


def test_seed000_conceptual_example_python_dict(person: Person):
    source = fixture_text("seed000_conceptual.py.txt")
    params = ast.literal_eval(source.split("=", 1)[1].strip())
    person.answers(pick("Direct Cutover"))
    result = run(params)
    assert result.output == '{"answers": {"Which migration strategy should we apply first?": "Direct Cutover"}}'


def test_seed000_dismiss_is_not_an_error():
    """Seed 000 §6.3: answers {} with a note, is_error false."""
    nbask.configure(policy="dismiss")
    result = run(fixture_text("seed000_parameters.json"))
    assert not result.is_error
    payload = json.loads(result.output)
    assert payload["answers"] == {}
    assert "dismiss" in payload["note"]
    assert "do not assume an answer" in payload["note"]
    assert result.message == "User dismissed the question without answering."


def test_claude_code_camel_case_and_multi_select_join(person: Person):
    args = {
        "questions": [
            {
                "question": "Which features should ship?",
                "header": "Scope",
                "multiSelect": True,
                "options": [{"label": "Login"}, {"label": "Search"}, {"label": "Export"}],
            },
            {"question": "Deadline?", "header": "When", "options": [{"label": "This week"}, {"label": "Next week"}]},
        ]
    }
    person.answers(pick(["Login", "Export"], [], other={0: "Audit log"}))
    result = run(args)
    assert person.questions[0]["questions"][0]["multi_select"] is True
    assert json.loads(result.output) == {
        "answers": {"Which features should ship?": "Login, Export, Audit log", "Deadline?": "[No preference]"},
        "note": "1 question(s) left without an answer.",
    }


def test_non_ascii_is_kept_in_the_json_output(person: Person):
    person.answers(pick("Cổ tức bền vững (Recommended)"))
    result = run(
        {
            "questions": [
                {
                    "question": "Thảo muốn tập trung vào mục tiêu nào? 你好",
                    "options": [{"label": "Cổ tức bền vững (Recommended)"}, {"label": "Tăng trưởng"}],
                }
            ]
        }
    )
    assert "Thảo muốn tập trung vào mục tiêu nào? 你好" in result.output
    assert "\\u" not in result.output


# -- ask_user_question (seed 001) -------------------------------------------------------------


def test_seed001_delta_is_accepted_with_headers_shortened_and_the_input_option_as_other(person: Person):
    delta = json.loads(fixture_text("seed001_delta.json"))
    person.answers(pick("Cổ tức bền vững (Recommended)", "Trên 3 năm"))
    result = run(fixture_text("seed001_delta.json"), tool_name="ask_user_question")
    shown = person.questions[0]["questions"]
    assert [q["header"] for q in shown] == ["Mục tiêu…", "Kỳ hạn đầu…"]
    assert [q["header_tooltip"] for q in shown] == ["Mục tiêu chính", "Kỳ hạn đầu tư"], "the chip's tooltip"
    assert [[o["label"] for o in q["options"]] for q in shown] == [
        ["Cổ tức bền vững (Recommended)", "Tăng trưởng dài hạn"],
        ["Trên 3 năm", "1-3 năm"],
    ]  # "Khác" (input: true) is the widget's own free-text field
    assert person.asked[0].timeout == delta["timeout_seconds"] == 600
    expected = json.loads(fixture_text("seed001_approval_message.json"))
    assert json.loads(result.output) == {"type": "approval", "answers": expected["answers"]}
    assert result.output == (
        '{"type": "approval", "answers": {"Thảo muốn tập trung vào mục tiêu nào?": "Cổ tức bền vững (Recommended)", '
        '"Thời gian nắm giữ dự kiến?": "Trên 3 năm"}}'
    )


def test_seed001_args_alone_and_typed_other_text(person: Person):
    args = json.loads(fixture_text("seed001_delta.json"))["action_requests"][0]["args"]
    person.answers(pick([], "1-3 năm", other={0: "Cổ phiếu ngân hàng"}))
    result = run(args, tool_name="ask_user_question")
    assert json.loads(result.output)["answers"] == {
        "Thảo muốn tập trung vào mục tiêu nào?": "Cổ phiếu ngân hàng",
        "Thời gian nắm giữ dự kiến?": "1-3 năm",
    }
    assert person.asked[0].timeout == 600  # nbask's default, the seed's 600 s too


def test_seed001_question_template(person: Person):
    question = json.loads(fixture_text("seed001_question_template.json"))
    person.answers(pick([]))
    result = run({"questions": [question]}, tool_name="ask_user_question")
    assert (
        person.questions[0]["questions"][0]["header"] == "Tiêu đề…"
    )  # "Tiêu đề nhóm (optional)": cut at a word, room for "…"
    assert json.loads(result.output) == {
        "type": "approval",
        "answers": {"Câu hỏi hiển thị cho user": "[No preference]"},
        "note": "1 question(s) left without an answer.",
    }


def test_seed001_timeout_is_an_approval_timeout_block(person: Person):
    person.answers(time_out())
    result = run(fixture_text("seed001_delta.json"), tool_name="ask_user_question")
    payload = json.loads(result.output)
    assert payload["type"] == "approval_timeout"
    assert payload["answers"] == {}
    assert "No answer within 600 seconds" in payload["note"]
    assert "do not assume an answer" in payload["note"]
    assert not result.is_error
    assert result.status == "timeout"


def test_seed001_multi_select_snake_case_accepted(person: Person):
    person.answers(pick(["A", "B"]))
    result = run(
        {"questions": [{"question": "Pick?", "multi_select": True, "options": [{"label": "A"}, {"label": "B"}]}]},
        tool_name="ask_user_question",
    )
    assert json.loads(result.output)["answers"] == {"Pick?": "A, B"}


# -- ask_user (seed 002) ----------------------------------------------------------------------


def test_seed002_question_choices_allow_freeform(person: Person):
    person.answers(pick("使用国内镜像源"))
    args = {
        "question": "Docker 镜像拉取失败,如何继续?",
        "choices": ["使用国内镜像源", "重试拉取", "跳过该步骤"],
        "allow_freeform": True,
    }
    result = run(json.dumps(args, ensure_ascii=False), tool_name="ask_user", tool_call_id="tc-9")
    assert person.questions == [
        {
            "questions": [
                {
                    "question": "Docker 镜像拉取失败,如何继续?",
                    "header": "",
                    "options": [
                        {"label": "使用国内镜像源", "description": ""},
                        {"label": "重试拉取", "description": ""},
                        {"label": "跳过该步骤", "description": ""},
                    ],
                    "multi_select": False,
                }
            ]
        }
    ]
    assert result.output == "使用国内镜像源"
    assert person.asked[0].tool_call_id == "tc-9"


def test_seed002_free_text_answer_and_allow_freeform_false(person: Person):
    person.answers(pick([], other="用代理"))
    result = run({"question": "怎么办?", "choices": ["A", "B"], "allow_freeform": False}, tool_name="ask_user")
    assert result.output == "用代理"


def test_seed002_without_choices_says_what_to_send():
    result = run({"question": "What now?"}, tool_name="ask_user")
    assert result.is_error
    assert result.output == (
        "Error: Invalid arguments for ask_user: choices: required, but missing (give 2-4 likely answers; the user "
        'can still type their own). The arguments are {"question": "...", "choices": ["...", "..."], '
        '"allow_freeform": true} with 2-4 choices. Fix the arguments and call ask_user again.'
    )


def test_seed002_dismiss_says_there_is_no_answer(person: Person):
    person.answers(dismiss())
    result = run({"question": "Q?", "choices": ["A", "B"]}, tool_name="ask_user")
    assert not result.is_error
    assert result.status == "dismissed"
    assert "not consent" in result.output


# -- ask_followup_question (seed 004) ---------------------------------------------------------


@pytest.mark.parametrize("example", ["seed004_example1.xml", "seed004_example2.xml", "seed004_example3.xml"])
def test_seed004_xml_examples(person: Person, example: str):
    xml = fixture_text(example)
    person.answers(first_options())
    result = run(xml, tool_name="ask_followup_question")
    shown = person.questions[0]["questions"][0]
    suggestions = [line[9:-10] for line in xml.splitlines() if line.startswith("<suggest>")]
    assert [o["label"] for o in shown["options"]] == suggestions
    assert shown["question"] in xml
    assert result.output == f"<answer>\n{suggestions[0]}\n</answer>"


def test_seed004_answer_format_verbatim(person: Person):
    person.answers(pick("使用 Tailwind CSS 进行实用优先的样式设计,具有最大的灵活性"))
    result = run(fixture_text("seed004_example1.xml"), tool_name="ask_followup_question")
    assert result.output + "\n" == fixture_text("seed004_answer.txt")


def test_seed004_json_form_and_list(person: Person):
    person.answers(pick("建议 2"))
    result = run(fixture_text("seed004_json_form.json"), tool_name="ask_followup_question")
    assert result.output == "<answer>\n建议 2\n</answer>"
    result = run({"question": "Q?", "follow_up": ["x", "y"]}, tool_name="ask_followup_question")
    assert person.questions[1]["questions"][0]["options"][1]["label"] == "y"


def test_seed004_follow_up_xml_string_with_attributes_and_entities(person: Person):
    person.answers(first_options())
    follow_up = '<suggest mode="code">Use A &amp; B</suggest>\n<suggest>Use &lt;C&gt;</suggest>'
    run({"question": "Which?", "follow_up": follow_up}, tool_name="ask_followup_question")
    assert [o["label"] for o in person.questions[0]["questions"][0]["options"]] == ["Use A & B", "Use <C>"]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"follow_up": "<suggest>a</suggest><suggest>b</suggest>"}, "Error: Missing required parameter 'question'."),
        ("<follow_up><suggest>a</suggest></follow_up>", "Error: Missing required parameter 'question'."),
        ({"question": "Q?", "follow_up": "<suggest>a"}, "Error: Failed to parse follow_up: a <suggest> has no closing"),
        ({"question": "Q?", "follow_up": "just text"}, "Error: Invalid follow_up format: expected <suggest>"),
        ({"question": "Q?", "follow_up": 3}, "Error: Invalid follow_up format: must be <suggest> XML"),
        ({"question": "Q?"}, "Error: Missing required parameter 'follow_up'"),
    ],
)
def test_seed004_errors_in_its_own_style(arguments, expected: str):
    result = run(arguments, tool_name="ask_followup_question")
    assert result.is_error
    assert result.output.startswith(expected)
    assert "retry with a complete call" in result.output


def test_seed004_dismiss_and_timeout_have_no_answer_tag(person: Person):
    person.answers(dismiss(), time_out())
    dismissed = run(fixture_text("seed004_example2.xml"), tool_name="ask_followup_question")
    timed_out = run(fixture_text("seed004_example2.xml"), tool_name="ask_followup_question")
    assert dismissed.output.startswith("No <answer>: The person dismissed")
    assert timed_out.output.startswith("No <answer>: No answer within 600 seconds")
    assert "<answer>\n" not in dismissed.output + timed_out.output


# -- request_user_input (OpenAI Codex) --------------------------------------------------------


def test_codex_answers_keyed_by_id_with_user_note(person: Person):
    person.answers(pick("Staging (Recommended)", [], other={1: "Every two weeks"}))
    result = run(fixture_text("codex_request_user_input.json"), tool_name="request_user_input", tool_call_id="c-7")
    shown = person.questions[0]["questions"]
    assert [q["header"] for q in shown] == ["Deploy…", "Schedule"]
    assert "header_tooltip" not in shown[1], "a header that fits needs no tooltip"
    assert result.output == (
        '{"answers": {"deploy_target": {"answers": ["Staging (Recommended)"]}, '
        '"retrain_schedule": {"answers": ["user_note: Every two weeks"]}}}'
    )


def test_codex_empty_question_has_an_empty_list(person: Person):
    person.answers(pick("Production"))
    result = run(fixture_text("codex_request_user_input.json"), tool_name="request_user_input")
    assert json.loads(result.output)["answers"]["retrain_schedule"] == {"answers": []}


def test_codex_secret_and_repeated_ids_are_refused():
    args = json.loads(fixture_text("codex_request_user_input.json"))
    args["questions"][0]["isSecret"] = True
    result = run(args, tool_name="request_user_input")
    assert result.is_error
    assert "questions[0].isSecret: secret input is not supported here" in result.output
    args["questions"][0]["isSecret"] = False
    args["questions"][1]["id"] = "deploy_target"
    result = run(args, tool_name="request_user_input")
    assert "ids must be unique" in result.output


def test_codex_missing_id_names_the_field():
    args = json.loads(fixture_text("codex_request_user_input.json"))
    del args["questions"][1]["id"]
    result = run(args, tool_name="request_user_input")
    assert "questions[1].id: required, but missing" in result.output


# -- pieces -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "chip"),
    [
        ("Auth", "Auth"),
        ("Exactly12chr", "Exactly12chr"),
        ("Mục tiêu chính", "Mục tiêu…"),
        ("Kỳ hạn đầu tư", "Kỳ hạn đầu…"),
        ("Supercalifragilistic", "Supercalifr…"),
        ("e\u0301" * 13, "é" * 11 + "…"),  # decomposed accents are composed, never split from their letter
        ("  spaced   out   header  ", "spaced out…"),
        ("", ""),
    ],
)
def test_short_header(header: str, chip: str):
    from nbask.tools.dialects._arguments import short_header  # noqa: PLC0415

    assert short_header(header) == chip
    assert len(short_header(header)) <= 12


@pytest.mark.parametrize(
    ("follow_up", "labels"),
    [
        ("<suggest>a</suggest><suggestion>x</suggestion><suggest>b</suggest>", ["a", "b"]),
        ("<suggest >a</suggest>\n<suggest\nmode='code'>b &amp; c</suggest>", ["a", "b & c"]),
        ("<suggest><![CDATA[a]]></suggest><suggest>b</suggest>", ["<![CDATA[a]]>", "b"]),
    ],
)
def test_followup_suggest_scanner(person: Person, follow_up: str, labels: list[str]):
    person.answers(first_options())
    result = run({"question": "Q?", "follow_up": follow_up}, tool_name="ask_followup_question")
    assert not result.is_error, result.output
    assert [o["label"] for o in person.questions[0]["questions"][0]["options"]] == labels


@pytest.mark.parametrize(
    ("follow_up", "error"),
    [
        ("<suggest>a<suggest>b</suggest>", "a <suggest> starts before the previous one is closed"),
        ("<suggest/><suggest>b</suggest>", "an empty <suggest/> element"),
        ("<suggest", "a <suggest> tag is not closed with '>'"),
    ],
)
def test_followup_suggest_scanner_errors(follow_up: str, error: str):
    result = run({"question": "Q?", "follow_up": follow_up}, tool_name="ask_followup_question")
    assert result.output == f"Error: Failed to parse follow_up: {error}. {RETRY}"


def test_001_free_text_only_options_are_not_enough():
    result = run(
        {"questions": [{"question": "Q?", "options": [{"label": "A"}, {"label": "Khác", "input": True}]}]},
        tool_name="ask_user_question",
    )
    assert "questions[0].options: give 2-4 choices besides the free-text one (input: true); got 1" in result.output


def test_001_duplicate_labels_are_refused_in_the_dialects_terms():
    options = [{"label": "Khác", "input": True}, {"label": "A"}, {"label": "A"}]
    result = run({"questions": [{"question": "Q?", "options": options}]}, tool_name="ask_user_question")
    assert "questions[0].options: option labels must be unique" in result.output
    assert result.output.endswith("Fix the arguments and call ask_user_question again.")
