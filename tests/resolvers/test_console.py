"""The ``interactive`` policy in a terminal: a numbered prompt on a pseudo-terminal (pexpect
plays the person), whose answers count as the person's.
"""

from __future__ import annotations

import json
import pathlib
import signal
import sys
import textwrap
import time

import pexpect
import pytest
from support.headless import REPO, clean_env

pytestmark = pytest.mark.headless

PROMPT = "(d dismisses): "

ASK = """
import json, nbask
ans = nbask.ask_sync([
    {"question": "Which database should the app use?", "header": "DB",
     "options": [{"label": "PostgreSQL (Recommended)", "description": "Robust."}, {"label": "SQLite"}]},
    {"question": "Which features?", "multi_select": True,
     "options": [{"label": "Login"}, {"label": "Search"}, {"label": "Export"}]},
], timeout=TIMEOUT)
print("RESULT " + json.dumps(ans.model_dump()))
"""

APPROVE = """
import json, nbask
dec = nbask.approve_sync("Run shell command", "rm -rf build/\\nmake", timeout=TIMEOUT)
print("RESULT " + json.dumps(dec.model_dump()))
"""


def spawn(code: str, timeout: float | None = 60) -> pexpect.spawn:
    script = textwrap.dedent(code).replace("TIMEOUT", repr(timeout))
    return pexpect.spawn(
        sys.executable,
        ["-c", script],
        cwd=str(REPO),
        env=clean_env(),
        encoding="utf-8",
        timeout=20,
        echo=False,
        preexec_fn=terminal_signals,
    )


def terminal_signals() -> None:
    """In the child before it starts: Ctrl-C and Ctrl-Backslash as a terminal's shell leaves them for the
    program it runs. A test run started in the background of a non-interactive shell (as CI may
    be) ignores SIGINT and SIGQUIT, every process it starts inherits that, and Python leaves an
    ignored SIGINT ignored: such a child would never see its Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def result(child: pexpect.spawn) -> dict:
    child.expect(r"RESULT (\{.*\})\r?\n")
    outcome = json.loads(child.match.group(1))
    child.expect(pexpect.EOF)
    return outcome


def test_numbered_choices_other_text_and_multi_select_answer_as_the_person():
    child = spawn(ASK)
    child.expect(r"\(1/2\) \[DB\] Which database should the app use\?")
    child.expect(r"1\. PostgreSQL \(Recommended\) - Robust\.")
    child.expect(r"3\. Other \(type your own answer\)")
    child.expect(r"4\. Skip \(no preference\)")
    child.expect_exact("Choose 1-4 " + PROMPT)
    child.sendline("7")
    child.expect("Please type a number from 1 to 4")
    child.sendline("2")
    child.expect(r"\(2/2\) Which features\?")
    child.expect_exact("Choose one or more of 1-5, e.g. 1,4 " + PROMPT)
    child.sendline("1, 3 4")
    child.expect_exact("Your answer: ")
    child.sendline("Audit log")
    outcome = result(child)
    assert outcome["status"] == "answered"
    assert outcome["answered_by"] == "person"
    assert outcome["answers"] == {
        "Which database should the app use?": "SQLite",
        "Which features?": "Login, Export, Audit log",
    }


def test_skip_gives_no_preference_and_d_dismisses():
    child = spawn(ASK)
    child.expect_exact(PROMPT)
    child.sendline("4")
    child.expect_exact(PROMPT)
    child.sendline("5")
    outcome = result(child)
    assert outcome["answers"] == {
        "Which database should the app use?": "[No preference]",
        "Which features?": "[No preference]",
    }
    assert outcome["note"] == "2 question(s) left without an answer."

    child = spawn(ASK)
    child.expect_exact(PROMPT)
    child.sendline("d")
    outcome = result(child)
    assert (outcome["status"], outcome["answers"], outcome["answered_by"]) == ("dismissed", {}, "person")


def test_end_of_input_dismisses():
    child = spawn(ASK)
    child.expect_exact(PROMPT)
    child.sendeof()
    assert result(child)["status"] == "dismissed"


def test_the_timeout_applies_at_the_prompt():
    child = spawn(ASK, timeout=1.0)
    child.expect_exact(PROMPT)
    start = time.monotonic()
    outcome = result(child)
    assert outcome["status"] == "timeout"
    assert "no one answered" in outcome["note"]
    assert time.monotonic() - start < 5


def test_ctrl_c_cancels_with_keyboard_interrupt():
    child = spawn(ASK + "\n")
    child.expect_exact(PROMPT)
    child.sendintr()  # the Ctrl-C key: the terminal sends SIGINT to the program
    try:
        child.expect("KeyboardInterrupt")
    except pexpect.TIMEOUT:
        pytest.fail(f"no KeyboardInterrupt after SIGINT; the child: {process_state(child.pid)}")
    child.expect(pexpect.EOF)


def process_state(pid: int) -> str:
    """Where a process waits and which signals it has pending, blocked or caught (Linux)."""
    try:
        status = pathlib.Path(f"/proc/{pid}/status").read_text().splitlines()
        wchan = pathlib.Path(f"/proc/{pid}/wchan").read_text()
    except OSError as error:
        return f"unreadable ({error})"
    signals = [line for line in status if line.startswith(("State", "Sig", "Shd", "Threads"))]
    return f"wchan={wchan} " + " ".join(signals)


@pytest.mark.parametrize(
    ("keys", "decision", "edited", "reason"),
    [
        (["1"], "approve", None, ""),
        (["2", "rm -rf build/tmp", "make test", "."], "edit", "rm -rf build/tmp\nmake test", ""),
        (["3", "too risky"], "reject", None, "too risky"),
    ],
)
def test_approval_prompt_approve_edit_reject(keys, decision, edited, reason):
    child = spawn(APPROVE)
    child.expect("nbask: the agent asks for approval: Run shell command")
    child.expect(r"    rm -rf build/\r?\n    make")
    child.expect_exact("Choose 1-3: ")
    for key in keys:
        child.sendline(key)
    outcome = result(child)
    assert (outcome["decision"], outcome["edited"], outcome["reason"]) == (decision, edited, reason)
    assert outcome["answered_by"] == "person"


def test_model_text_cannot_drive_the_terminal():
    child = spawn(
        """
        import nbask
        nbask.ask_sync("Pick\\x1b[2J\\x1b]0;pwned\\x07 one?", ["A\\x1b[31m", "B"])
        """
    )
    child.expect_exact(PROMPT)
    shown = child.before
    assert "\x1b" not in shown
    assert "\\x1b[2J" in shown
    assert "\\x07" in shown
    child.sendline("2")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("policy", "status", "by", "answer"),
    [
        ("recommended", "answered", "policy", "PostgreSQL (Recommended)"),
        ("dismiss", "dismissed", "policy", None),
        ("replay", "answered", "replay", "SQLite"),
        ("error", None, None, None),
    ],
)
def test_a_policy_takes_over_the_terminal_too(tmp_path, policy, status, by, answer):
    recording = tmp_path / "recording.jsonl"
    recording.write_text(
        json.dumps(
            {
                "kind": "question",
                "asked": {"questions": [{"question": "Which database should the app use?", "options": []}]},
                "outcome": {
                    "status": "answered",
                    "request_id": "r1",
                    "asked_at": 0,
                    "resolved_at": 1,
                    "answers": {"Which database should the app use?": "SQLite"},
                },
                "status": "answered",
                "request_id": "r1",
                "tool_call_id": None,
                "asked_at": 0,
                "resolved_at": 1,
                "seconds_waited": 1,
                "answered_by": "person",
            }
        )
        + "\n"
    )
    one_question = """
    import json, nbask
    try:
        ans = nbask.ask_sync("Which database should the app use?", ["PostgreSQL (Recommended)", "SQLite"])
        print("RESULT " + json.dumps(ans.model_dump()))
    except nbask.NoOneCanAnswer as error:
        print("RESULT " + json.dumps({"error": str(error)}))
    """
    child = pexpect.spawn(
        sys.executable,
        ["-c", textwrap.dedent(one_question)],
        cwd=str(REPO),
        env=clean_env(NBASK_POLICY=policy, NBASK_REPLAY_FILE=str(recording)),
        encoding="utf-8",
        timeout=20,
    )
    outcome = result(child)
    assert PROMPT not in child.before, "a policy never prompts"
    if policy == "error":
        assert "policy is 'error'" in outcome["error"]
        return
    assert (outcome["status"], outcome["answered_by"]) == (status, by)
    assert outcome["answers"].get("Which database should the app use?") == answer


def test_requires_approval_under_recommended_never_runs_the_tool():
    child = pexpect.spawn(
        sys.executable,
        [
            "-c",
            textwrap.dedent(
                """
                import nbask
                @nbask.requires_approval
                def delete(table: str) -> str:
                    return "deleted " + table
                try:
                    print(delete("users"))
                except nbask.ApprovalRejected as error:
                    print("RESULT", error.decision.answered_by, error.decision.decision)
                """
            ),
        ],
        cwd=str(REPO),
        env=clean_env(NBASK_POLICY="recommended"),
        encoding="utf-8",
        timeout=20,
    )
    child.expect(r"RESULT (\w+) (\w+)")
    assert child.match.group(1, 2) == ("policy", "reject")
    child.expect(pexpect.EOF)
    assert "deleted" not in child.before
