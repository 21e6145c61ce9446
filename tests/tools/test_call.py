"""``nbask.tools.call``: every failure is a tool error the model can act on, never an exception
into the agent loop (but a replay miss, which raises); no one to ask is kept in the history as
the request's refusal; dismiss and timeout are results without answers; who answered is said.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import pathlib
import threading

import pytest
from support.person import Person, cancel, dismiss, pick, raises, time_out

import nbask
from nbask.errors import NoFrontEnd, NoOneCanAnswer, ReplayMissing
from nbask.tools import ToolResult, call, call_sync
from nbask.waiting import WaitingUnsupported

DB = {
    "questions": [
        {
            "question": "Which database should the app use?",
            "header": "DB",
            "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}],
        }
    ]
}


def run(arguments=DB, tool_name="AskUserQuestion", **kwargs) -> ToolResult:
    return asyncio.run(call(arguments, tool_name=tool_name, **kwargs))


# -- arguments --------------------------------------------------------------------------------


def test_json_text_and_dict_give_the_same_request(person: Person):
    run(json.dumps(DB))
    run(DB)
    run(json.dumps(DB).encode())
    assert person.questions[0] == person.questions[1] == person.questions[2]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"questions": []}, "questions: List should have at least 1 item after validation, not 0"),
        (
            {"questions": [{"question": "Q?", "options": [{"label": "A"}]}]},
            "questions[0].options: List should have at least 2 items after validation, not 1",
        ),
        (
            {
                "questions": [
                    {"question": "Q?", "header": "Much too long header", "options": [{"label": "A"}, {"label": "B"}]}
                ]
            },
            "questions[0].header: String should have at most 12 characters",
        ),
        (
            {"questions": [{"question": "Q?", "options": [{"label": "A"}, {"label": "Other"}]}]},
            "questions[0].options: option label 'Other' is not allowed: the UI adds its own free-text 'Other' choice",
        ),
        (
            {"questions": [{"question": "Q?", "options": [{"label": "A"}, {"label": "A"}]}]},
            "questions[0].options: option labels must be unique within a question; 'A' appears twice",
        ),
        (
            {"questions": [{"question": "Q?", "multiselect": True, "options": [{"label": "A"}, {"label": "B"}]}]},
            "questions[0].multiselect: not a field of this tool; remove it",
        ),
        ({**DB, "answers": {"x": "y"}}, "answers: not an input; the person's answers come back in the result"),
        ({"questions": "Which DB?"}, "questions: Input should be a valid list"),
        ({}, "questions: required, but missing"),
        ("", "questions: required, but missing"),
        (
            "{not json",
            "arguments: not valid JSON (Expecting property name enclosed in double quotes at line 1 column 2)",
        ),
        ("[1, 2]", "arguments: must be a JSON object {...} of named fields, got a list"),
        (42, "arguments: must be a JSON object (as text or a dict), got int"),
        ('{"questions": "\\ud800"}', "arguments: contain text that is not valid Unicode"),
        ("[" * 100_000 + "]" * 100_000, "arguments: 200000 characters; the limit is 100000"),
        ("[" * 50_000 + "]" * 50_000, "arguments: nested too deeply to read"),
    ],
)
def test_invalid_arguments_name_the_field_and_the_rule(arguments, expected: str):
    result = run(arguments)
    assert result.is_error
    assert result.status == "invalid"
    assert expected in result.output
    assert result.output.startswith("Error: Invalid arguments for AskUserQuestion: ")
    assert result.output.endswith("Fix the arguments and call AskUserQuestion again.")


def test_many_problems_are_listed_but_capped():
    questions = [{"question": "", "header": "x" * 5000, "options": [{"label": "A"}], "bad": i} for i in range(4)]
    result = run({"questions": questions})
    assert result.is_error
    assert "more problem(s)" in result.output
    assert len(result.output) < 4000


# -- outcomes ---------------------------------------------------------------------------------


def test_dismiss_is_not_an_error_and_says_not_to_assume(person: Person):
    person.answers(dismiss())
    result = run()
    assert (result.is_error, result.status) == (False, "dismissed")
    payload = json.loads(result.output)
    assert payload["answers"] == {}
    assert "not consent" in payload["note"]


def test_timeout_is_distinguishable_from_a_skip(person: Person):
    person.answers(time_out(), pick([]))
    timed_out = run(timeout=30)
    skipped = run()
    assert json.loads(timed_out.output) == {
        "answers": {},
        "status": "timeout",
        "note": "No answer within 30 seconds; no one answered, so do not assume an answer.",
    }
    assert json.loads(skipped.output)["answers"] == {"Which database should the app use?": "[No preference]"}
    assert person.asked[0].timeout == 30


def test_cancelled_outcome_is_a_tool_error(person: Person):
    person.answers(cancel())
    result = run()
    assert (result.is_error, result.status) == (True, "cancelled")
    assert "Do not assume an answer" in result.output


def test_recommended_policy_answer_says_no_person_was_asked():
    nbask.configure(policy="recommended")
    result = run()
    assert json.loads(result.output) == {
        "answers": {"Which database should the app use?": "PostgreSQL (Recommended)"},
        "answered_by": "policy",
        "note": "Answered by nbask's 'recommended' policy, not by a person: no one was asked.",
    }
    assert result.outcome is not None
    assert result.outcome.answered_by == "policy"
    assert nbask.history()[-1].tool_call_id is None


# -- no one to ask, refusals, failures --------------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [
        NoOneCanAnswer("no kernel, no terminal."),
        WaitingUnsupported("this front end cannot pause a cell."),
        NoFrontEnd("nbclient."),
    ],
)
def test_no_one_can_answer_tells_the_model_not_to_call_again(person: Person, error: Exception):
    person.unavailable = error
    result = run()
    assert (result.is_error, result.status) == (True, "unavailable")
    assert str(error) in result.output
    assert "Do not call AskUserQuestion again in this run" in result.output


def test_interactive_policy_in_a_plain_process_is_a_tool_error_not_an_exception():
    result = run()  # no kernel; pytest's stdin is not a TTY
    assert result.status == "unavailable"
    assert "NBASK_POLICY=recommended" in result.output


def test_error_policy():
    nbask.configure(policy="error")
    result = run()
    assert result.status == "unavailable"
    assert "policy is 'error'" in result.output


def test_no_one_to_ask_is_kept_in_the_history_as_the_refusal():
    nbask.configure(policy="error")
    result = run(tool_call_id="call_7")
    (entry,) = nbask.history()
    assert entry.kind == "question"
    assert entry.tool_call_id == "call_7"
    assert (entry.outcome.status, entry.outcome.answered_by) == ("dismissed", "policy")
    assert entry.outcome.note.startswith("No one could be asked: nbask's policy is 'error'")
    assert result.outcome == entry.outcome


def test_sync_no_one_to_ask_is_kept_in_the_history_too(person: Person):
    person.unavailable = NoFrontEnd("nbclient.")
    result = call_sync(DB)
    assert result.status == "unavailable"
    (entry,) = nbask.history()
    assert entry.outcome.note == "No one could be asked: nbclient."


def test_a_refusal_in_a_sub_agent_is_kept_in_the_history():
    with nbask.no_questions():
        result = run()
    assert result.status == "refused"
    (entry,) = nbask.history()
    assert entry.outcome.answered_by == "policy"


@pytest.mark.parametrize("blocking", [False, True], ids=["call", "call_sync"])
def test_a_replay_miss_raises_out_of_the_tool(tmp_path: pathlib.Path, blocking: bool):
    recording = tmp_path / "empty.jsonl"
    recording.write_text("", encoding="utf-8")
    nbask.configure(policy="replay", replay_file=recording)
    with pytest.raises(ReplayMissing) as missing:
        call_sync(DB) if blocking else run()
    assert missing.value.asked == "Which database should the app use?"
    assert nbask.history() == []


def test_unexpected_failure_is_a_tool_error_and_logs_only_ids(person: Person, caplog: pytest.LogCaptureFixture):
    person.answers(raises(RuntimeError("widget exploded")))
    with caplog.at_level("ERROR", logger="nbask"):
        result = run(tool_call_id="call_42")
    assert (result.is_error, result.status) == (True, "failed")
    assert "RuntimeError: widget exploded" in result.output
    assert "do not retry the same call" in result.output
    assert "call_42" in caplog.text
    assert "Which database" not in caplog.text  # the 000 privacy rule


def test_keyboard_interrupt_propagates(person: Person):
    person.answers(raises(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        run()


def test_a_second_question_while_one_waits_is_shown_beside_it(person: Person):
    """Parallel calls (several agents at once): the second is asked while the first waits, and
    each gets its own answer.
    """
    release = threading.Event()
    started = threading.Event()

    def slow(request):
        started.set()
        release.wait(10)
        return pick("SQLite")(request)

    person.answers(slow, pick("DuckDB"))
    results: list[ToolResult] = []
    worker = threading.Thread(target=lambda: results.append(call_sync(DB)))
    worker.start()
    assert started.wait(10)
    second = run()  # asked while the first still waits
    release.set()
    worker.join(10)
    assert (second.is_error, second.status) == (False, "answered")
    assert "DuckDB" in second.output
    assert results[0].status == "answered"
    assert "SQLite" in results[0].output


def test_unknown_tool_name_is_a_tool_error():
    result = run(tool_name="ask_everyone")
    assert result.is_error
    assert "no tool named 'ask_everyone'" in result.output


def test_invalid_timeout_from_the_caller_is_a_tool_error():
    assert run(timeout=-1).status == "failed"


# -- the switch and sub-agents ----------------------------------------------------------------


@pytest.mark.parametrize("tool_name", nbask.tools.TOOL_NAMES)
def test_switched_off_tool_refuses(person: Person, tool_name: str):
    nbask.configure(tools_enabled=False)
    result = run({}, tool_name=tool_name)
    assert (result.is_error, result.status) == (True, "disabled")
    assert "switched off" in result.output
    assert "Do not call it again" in result.output
    assert person.asked == []


@pytest.mark.parametrize("tool_name", nbask.tools.TOOL_NAMES)
def test_sub_agent_inside_no_questions_gets_a_clear_refusal(person: Person, tool_name: str):
    arguments = {
        "AskUserQuestion": DB,
        "ask_user_question": DB,
        "ask_user": {"question": "Q?", "choices": ["A", "B"]},
        "ask_followup_question": {"question": "Q?", "follow_up": ["A", "B"]},
        "request_user_input": {
            "questions": [
                {
                    "id": "q",
                    "header": "H",
                    "question": "Q?",
                    "options": [{"label": "A", "description": ""}] * 1 + [{"label": "B", "description": ""}],
                }
            ]
        },
    }[tool_name]

    async def sub_agent() -> ToolResult:
        with nbask.no_questions():
            return await call(arguments, tool_name=tool_name)

    result = asyncio.run(sub_agent())
    assert (result.is_error, result.status) == (True, "refused")
    assert "only the main agent may ask the person" in result.output
    assert "Do not ask again" in result.output
    assert person.asked == []
    assert run(arguments, tool_name=tool_name).status == "answered"  # outside the block: asked


def test_no_questions_follows_tasks_and_copied_contexts_only(person: Person):
    async def main() -> tuple[str, str]:
        with nbask.no_questions():
            inner = await asyncio.create_task(call(DB))
        outer = await call(DB)
        return inner.status, outer.status

    assert asyncio.run(main()) == ("refused", "answered")
    with nbask.no_questions():
        in_thread = contextvars.copy_context().run(call_sync, DB)
    assert in_thread.status == "refused"


# -- results as provider messages -------------------------------------------------------------


def test_as_message_shapes(person: Person):
    person.answers(pick("SQLite"))
    result = run()
    assert result.as_message("openai-chat", "c1") == {"role": "tool", "tool_call_id": "c1", "content": result.output}
    assert result.as_message("openai-responses", "c1") == {
        "type": "function_call_output",
        "call_id": "c1",
        "output": result.output,
    }
    assert result.as_message("anthropic", "toolu_1") == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": result.output,
        "is_error": False,
    }
    assert result.as_message("mcp") == {"content": [{"type": "text", "text": result.output}], "isError": False}
    with pytest.raises(ValueError, match="needs the tool_call_id"):
        result.as_message("openai-chat")


def test_call_sync(person: Person):
    person.answers(pick("SQLite"))
    result = call_sync(json.dumps(DB), tool_call_id="s1")
    assert result.output == '{"answers": {"Which database should the app use?": "SQLite"}}'
    assert person.asked[0].tool_call_id == "s1"
