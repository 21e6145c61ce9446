"""Each policy in a plain Python process: no kernel, no terminal, nothing hangs."""

from __future__ import annotations

import asyncio
import json
import logging
import pathlib

import pytest
from support.headless import run_python
from typing_extensions import Self

import nbask
from nbask import HistoryEntry

pytestmark = pytest.mark.headless

DB = "Which database should the app use?"


# -- in a plain subprocess with no stdin -------------------------------------------------------


def test_interactive_without_kernel_or_terminal_fails_at_once_and_names_the_policy():
    # "At once": the call has no timeout, so it fails before waiting for anything; a call that
    # waited would never end and the subprocess would be killed (run_python's timeout).
    proc = run_python(
        """
        import nbask
        try:
            nbask.ask_sync("Proceed?", ["Yes", "No"], timeout=None)
        except nbask.NoOneCanAnswer as error:
            print(type(error).__name__)
            print(error)
        """
    )
    assert proc.returncode == 0, proc.stderr
    kind, message = proc.stdout.split("\n", 1)
    assert kind == "NoFrontEnd"
    assert "plain Python process" in message
    assert "no one can answer" in message
    assert "NBASK_POLICY=recommended" in message
    assert "do not ask again" in message


@pytest.mark.parametrize("call", ["ask_sync", "ask", "approve_sync", "approve"])
def test_interactive_failure_is_also_a_waiting_unsupported(call):
    proc = run_python(
        f"""
        import asyncio, nbask
        calls = {{
            "ask_sync": lambda: nbask.ask_sync("Proceed?", ["Yes", "No"]),
            "ask": lambda: asyncio.run(nbask.ask("Proceed?", ["Yes", "No"])),
            "approve_sync": lambda: nbask.approve_sync("Deploy", "make deploy"),
            "approve": lambda: asyncio.run(nbask.approve("Deploy", "make deploy")),
        }}
        try:
            calls[{call!r}]()
        except nbask.WaitingUnsupported as error:
            print("raised", isinstance(error, nbask.NoOneCanAnswer))
        """
    )
    assert proc.stdout.strip() == "raised True", proc.stderr


def test_recommended_policy_from_the_environment_in_a_script():
    proc = run_python(
        """
        import asyncio, json, nbask
        a = nbask.ask_sync("Which database should the app use?", ["PostgreSQL (Recommended)", "SQLite"])
        b = asyncio.run(nbask.ask_questions([
            {"question": "Auth?", "options": [{"label": "JWT"}, {"label": "Cookie"}]},
            {"question": "Scope?", "multi_select": True,
             "options": [{"label": "Login"}, {"label": "Search (Recommended)"}]},
        ]))
        c = nbask.approve_sync("Run shell command", "rm -rf build/")
        d = asyncio.run(nbask.approve("Deploy", ""))
        print(json.dumps([a.model_dump(), b.model_dump(), c.model_dump(), d.model_dump()]))
        """,
        NBASK_POLICY="recommended",
    )
    assert proc.returncode == 0, proc.stderr
    a, b, c, d = json.loads(proc.stdout)
    assert a["answers"] == {DB: "PostgreSQL (Recommended)"}
    assert a["status"] == "answered"
    assert a["answered_by"] == "policy"
    assert b["answers"] == {"Auth?": "JWT", "Scope?": "Search (Recommended)"}, "the recommended option, else the first"
    for decision in (c, d):
        assert decision["decision"] == "reject", "an unattended run never approves"
        assert decision["answered_by"] == "policy"
        assert "unattended" in decision["reason"]
        assert "does not approve" in decision["reason"]


def test_dismiss_policy_dismisses_questions_and_rejects_approvals():
    proc = run_python(
        """
        import json, nbask
        a = nbask.ask_sync("Proceed?", ["Yes (Recommended)", "No"])
        d = nbask.approve_sync("Deploy", "make deploy")
        print(json.dumps([a.model_dump(), d.model_dump()]))
        """,
        NBASK_POLICY="dismiss",
    )
    assert proc.returncode == 0, proc.stderr
    a, d = json.loads(proc.stdout)
    assert (a["status"], a["answers"], a["answered_by"]) == ("dismissed", {}, "policy")
    assert "do not assume" in a["note"]
    assert (d["status"], d["decision"], d["answered_by"]) == ("dismissed", "reject", "policy")


def test_error_policy_raises_at_once():
    proc = run_python(
        """
        import nbask
        for call in (lambda: nbask.ask_sync("Proceed?", ["Yes", "No"]), lambda: nbask.approve_sync("Deploy")):
            try:
                call()
            except nbask.NoOneCanAnswer as error:
                print(type(error).__name__, "|", error)
        print(len(nbask.history()))
        """,
        NBASK_POLICY="error",
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("NoOneCanAnswer | nbask's policy is 'error' (set by NBASK_POLICY)")
    assert "no question is shown" in lines[0]
    assert "no approval is shown" in lines[1]
    assert lines[2] == "0", "nothing was asked, so nothing is in the history"


def test_replay_policy_in_a_script_from_a_recorded_jsonl(tmp_path: pathlib.Path):
    recording = tmp_path / "answers.jsonl"
    record = run_python(
        f"""
        import nbask
        nbask.configure(policy="recommended")
        nbask.ask_sync("Which database should the app use?", ["PostgreSQL (Recommended)", "SQLite"])
        nbask.approve_sync("Deploy", "make deploy")
        nbask.save_history({str(recording)!r})
        """
    )
    assert record.returncode == 0, record.stderr
    replay = run_python(
        """
        import json, nbask
        a = nbask.ask_sync("Which database should the app use?", ["PostgreSQL (Recommended)", "SQLite"])
        d = nbask.approve_sync("Deploy", "make deploy")
        try:
            nbask.ask_sync("Never recorded?", ["Yes", "No"])
        except nbask.ReplayMissing as error:
            missing = str(error)
        print(json.dumps([a.model_dump(), d.model_dump(), missing]))
        """,
        NBASK_POLICY="replay",
        NBASK_REPLAY_FILE=str(recording),
    )
    assert replay.returncode == 0, replay.stderr
    a, d, missing = json.loads(replay.stdout)
    assert a["answers"] == {DB: "PostgreSQL (Recommended)"}
    assert a["answered_by"] == "replay"
    assert (d["decision"], d["answered_by"]) == ("reject", "replay")
    assert "'Never recorded?'" in missing
    assert str(recording) in missing


def test_invalid_policy_name_in_the_environment_is_a_clear_error():
    proc = run_python(
        """
        import nbask
        try:
            nbask.ask_sync("Proceed?", ["Yes", "No"])
        except ValueError as error:
            print(error)
        """,
        NBASK_POLICY="recomended",
    )
    assert "NBASK_POLICY='recomended' is not an nbask policy" in proc.stdout
    assert "recommended" in proc.stdout


# -- configure -----------------------------------------------------------------------------------


def test_configure_wins_over_the_environment_and_none_goes_back(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("NBASK_POLICY", "dismiss")
    assert nbask.configure().policy == "dismiss"
    assert nbask.configure(policy="Recommended").policy == "recommended"
    assert nbask.ask_sync("Proceed?", ["Yes", "No"]).answered_by == "policy"
    assert nbask.configure(policy=None).policy == "dismiss"
    assert nbask.ask_sync("Proceed?", ["Yes", "No"]).status == "dismissed"


def test_configure_rejects_unknown_policies_and_replay_without_a_file():
    with pytest.raises(ValueError, match="not an nbask policy; use one of: interactive, recommended"):
        nbask.configure(policy="auto")
    with pytest.raises(ValueError, match="needs a recording"):
        nbask.configure(policy="replay")
    assert nbask.configure().policy == "interactive", "a refused configure changes nothing"


def test_the_tool_switch_is_a_setting():
    assert nbask.configure().tools_enabled is True
    assert nbask.configure(tools_enabled=False).tools_enabled is False
    assert nbask.configure(policy="dismiss").tools_enabled is False, "other settings stay as they were"


# -- history and replay in process ---------------------------------------------------------------


def test_history_keeps_what_was_asked_beside_who_answered(tmp_path: pathlib.Path):
    nbask.configure(policy="recommended")
    nbask.ask_sync(DB, ["PostgreSQL (Recommended)", "SQLite"], tool_call_id="call_1")
    nbask.approve_sync("Deploy", "make deploy")
    history = nbask.history()
    assert [entry.kind for entry in history] == ["question", "approval"]
    assert history[0].asked["questions"][0]["question"] == DB
    assert history[0].tool_call_id == "call_1"
    assert all(entry.answered_by == "policy" for entry in history)
    path = nbask.save_history(tmp_path / "h.jsonl")
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    assert [HistoryEntry.model_validate_json(line) for line in lines] == history


def test_replay_finds_answers_by_question_not_by_position(tmp_path: pathlib.Path):
    asked = [
        {"question": "Auth?", "options": [{"label": "JWT"}, {"label": "Cookie"}]},
        {"question": "Scope?", "multi_select": True, "options": [{"label": "Login"}, {"label": "Search"}]},
    ]
    recording = record(
        tmp_path,
        asked,
        {"action": "submit", "answers": [{"selected": ["Cookie"]}, {"selected": ["Login", "Search"], "other": "API"}]},
    )
    nbask.configure(policy="replay", replay_file=recording)
    # Reordered, and each question asked on its own: still found, by its text and options.
    scope = nbask.ask_sync([asked[1]])
    auth = nbask.ask_sync("Auth?", ["Cookie", "JWT"])
    assert scope.answers == {"Scope?": "Login, Search, API"}
    assert scope.selections == {"Scope?": ["Login", "Search", "API"]}
    assert auth.answers == {"Auth?": "Cookie"}
    assert {scope.answered_by, auth.answered_by} == {"replay"}


def test_notes_are_recorded_and_a_replay_gives_each_question_its_note_back(tmp_path: pathlib.Path):
    asked = [
        {"question": "Auth?", "options": [{"label": "JWT"}, {"label": "Cookie"}]},
        {"question": "Scope?", "options": [{"label": "Login"}, {"label": "Search"}]},
    ]
    response = {
        "action": "submit",
        "answers": [{"selected": ["Cookie"], "note": "Same-site only."}, {"selected": ["Login"]}],
        "note": "Decided with the team.",
    }
    recording = record(tmp_path, asked, response)
    (line,) = recording.read_text().splitlines()
    outcome = json.loads(line)["outcome"]
    assert outcome["notes"] == {"Auth?": "Same-site only."}
    assert outcome["note"] == "Decided with the team."
    nbask.configure(policy="replay", replay_file=recording)
    auth = nbask.ask_sync("Auth?", ["JWT", "Cookie"])
    assert auth.answers == {"Auth?": "Cookie"}
    assert auth.notes == {"Auth?": "Same-site only."}


def test_replay_hands_out_repeated_questions_once_each_in_order_then_misses(tmp_path: pathlib.Path):
    path = tmp_path / "loop.jsonl"
    answers = iter(["Yes", "No"])
    with ScriptedPerson(lambda: {"action": "submit", "answers": [{"selected": [next(answers)]}]}):
        for _ in range(2):
            nbask.ask_sync("Continue?", ["Yes", "No"])
    nbask.save_history(path)
    nbask.configure(policy="replay", replay_file=path)
    got = [nbask.ask_sync("Continue?", ["Yes", "No"]).answers["Continue?"] for _ in range(2)]
    assert got == ["Yes", "No"]
    with pytest.raises(nbask.ReplayMissing, match=r"'Continue\?' was asked again.*only 2 times") as caught:
        nbask.ask_sync("Continue?", ["Yes", "No"])
    assert caught.value.asked == "Continue?"


def test_replay_with_changed_options_uses_the_recorded_choice_only_if_it_still_exists(tmp_path: pathlib.Path):
    recording = record(
        tmp_path, [{"question": "DB?", "options": [{"label": "Postgres"}, {"label": "SQLite"}]}], pick("SQLite")
    )
    nbask.configure(policy="replay", replay_file=recording)
    assert nbask.ask_sync("DB?", ["SQLite", "DuckDB"]).answers == {"DB?": "SQLite"}
    with pytest.raises(nbask.ReplayMissing, match=r"'DB\?'.*has a record of it with other options") as caught:
        nbask.ask_sync("DB?", ["Postgres", "DuckDB"])
    assert caught.value.asked == "DB?"


def test_replay_of_an_approval_needs_the_exact_details(tmp_path: pathlib.Path):
    path = tmp_path / "approvals.jsonl"
    with ScriptedPerson(
        lambda: {"action": "approve", "edited_details": "make deploy --dry-run", "reason": "safer"},
    ):
        nbask.approve_sync("Deploy", "make deploy")
    nbask.save_history(path)
    nbask.configure(policy="replay", replay_file=path)
    decision = nbask.approve_sync("Deploy", "make deploy")
    assert (decision.decision, decision.edited, decision.reason) == ("edit", "make deploy --dry-run", "safer")
    assert decision.answered_by == "replay"
    with pytest.raises(nbask.ReplayMissing, match="'Deploy' with these details"):
        nbask.approve_sync("Deploy", "make deploy --force")


def test_replay_reproduces_dismissals_and_timeouts_but_not_interrupts(tmp_path: pathlib.Path):
    nbask.configure(policy="dismiss")
    nbask.ask_sync("Dismissed?", ["Yes", "No"])
    path = nbask.save_history(tmp_path / "h.jsonl")
    nbask.configure(policy="replay", replay_file=path)
    answer = nbask.ask_sync("Dismissed?", ["Yes", "No"])
    assert (answer.status, answer.answered_by, answer.answers) == ("dismissed", "replay", {})


def test_replay_file_missing_or_not_a_history_is_a_clear_error(tmp_path: pathlib.Path):
    nbask.configure(policy="replay", replay_file=tmp_path / "absent.jsonl")
    with pytest.raises(nbask.NoOneCanAnswer, match=r"cannot read the replay file .*absent\.jsonl"):
        nbask.ask_sync("Proceed?", ["Yes", "No"])
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"not": "an entry"}\n')
    nbask.configure(replay_file=bad)
    with pytest.raises(ValueError, match=r"bad\.jsonl, line 1, is not an nbask history entry"):
        nbask.ask_sync("Proceed?", ["Yes", "No"])


def test_async_ask_and_approve_honour_the_policy_like_the_sync_twins():
    nbask.configure(policy="recommended")

    async def main() -> tuple[nbask.Answer, nbask.Decision]:
        return await nbask.ask(DB, ["SQLite", "PostgreSQL (Recommended)"]), await nbask.approve("Deploy")

    answer, decision = asyncio.run(main())
    assert answer.answers == {DB: "PostgreSQL (Recommended)"}
    assert decision.decision == "reject"


# -- privacy ---------------------------------------------------------------------------------------


def test_logs_name_request_ids_never_question_or_answer_text(tmp_path: pathlib.Path, caplog: pytest.LogCaptureFixture):
    private_question = "Which patient record should be deleted, Alice-7731?"
    private_answer = "Record of Bob-4402 (Recommended)"
    private_action = "Email the payroll file to mallory@example.com"
    caplog.set_level(logging.DEBUG, logger="nbask")
    nbask.configure(policy="recommended")
    first = nbask.ask_sync(private_question, [private_answer, "None of them"])
    nbask.approve_sync(private_action, "salary-2024.csv")
    path = nbask.save_history(tmp_path / "h.jsonl")
    nbask.configure(policy="replay", replay_file=path)
    nbask.ask_sync(private_question, [private_answer, "None of them"])
    with pytest.raises(nbask.ReplayMissing):
        nbask.ask_sync("Unrecorded private question Carol-9?", ["A", "B"])
    nbask.configure(policy="dismiss")
    nbask.ask_sync(private_question, [private_answer, "None of them"])
    records = [record for record in caplog.records if record.name.startswith("nbask")]
    assert records, "the policy runs were logged"
    text = "\n".join(record.getMessage() for record in records)
    assert first.request_id in text
    for private in ("Alice-7731", "Bob-4402", "mallory", "salary", "Carol-9", "patient", "payroll"):
        assert private not in text


# -- helpers ----------------------------------------------------------------------------------------


class ScriptedPerson:
    """Stands in for the person: a resolver that answers every request with ``respond()``."""

    def __init__(self, respond) -> None:
        self.respond = respond

    def check_available(self, request) -> None:
        pass

    async def resolve(self, resolution):
        return self.resolve_sync(resolution)

    def resolve_sync(self, resolution):
        resolution.settle(resolution.request.parse_and_decide(self.respond()))
        return resolution.outcome

    def __enter__(self) -> Self:
        self._patch = pytest.MonkeyPatch()
        self._patch.setattr("nbask.resolvers.run.choose_resolver", lambda request: self)
        return self

    def __exit__(self, *exc: object) -> None:
        self._patch.undo()


def pick(*labels: str) -> dict:
    return {"action": "submit", "answers": [{"selected": list(labels)}]}


def record(tmp_path: pathlib.Path, questions: list[dict], response: dict) -> pathlib.Path:
    """A JSONL recording of one person's answer to ``questions``."""
    with ScriptedPerson(lambda: response):
        nbask.ask_sync(questions)
    return nbask.save_history(tmp_path / "recording.jsonl")


def test_replay_from_a_hand_written_question_to_answer_file(tmp_path: pathlib.Path):
    path = tmp_path / "answers.json"
    path.write_text(json.dumps({DB: "SQLite", "Scope?": ["Login", "Audit log"], "Why?": "Because it is small"}))
    nbask.configure(policy="replay", replay_file=path)
    assert nbask.ask_sync(DB, ["PostgreSQL (Recommended)", "SQLite"]).selections == {DB: ["SQLite"]}
    scope = nbask.ask_sync(
        [{"question": "Scope?", "multi_select": True, "options": [{"label": "Login"}, {"label": "Search"}]}]
    )
    assert scope.selections == {"Scope?": ["Login", "Audit log"]}, "an option is chosen, the rest is Other text"
    assert nbask.ask_sync("Why?", ["Cost", "Speed"]).answers == {"Why?": "Because it is small"}
    with pytest.raises(nbask.ReplayMissing, match="'Not in the file\\?'"):
        nbask.ask_sync("Not in the file?", ["Yes", "No"])
    path.write_text('["not", "a mapping"]')
    with pytest.raises(ValueError, match="must be a JSON object of question text -> answer"):
        nbask.ask_sync(DB, ["PostgreSQL (Recommended)", "SQLite"])


@pytest.mark.parametrize("policy", ["recommended", "dismiss"])
def test_a_policy_never_answers_for_the_approvers(policy):
    proc = run_python(
        """
        import json, nbask
        d = nbask.approve_sync("Deploy", "make deploy", approvers=["alice"])
        a = nbask.ask_sync("Proceed?", ["Yes (Recommended)", "No"], approvers=["alice", "bob"])
        nbask.configure(approvers={"Deploy*": ["carol"]})
        default = nbask.approve_sync("Deploy now", "make deploy")
        print(json.dumps([e.model_dump(mode="json") for e in nbask.history()]))
        """,
        NBASK_POLICY=policy,
    )
    assert proc.returncode == 0, proc.stderr
    approval, question, by_default = json.loads(proc.stdout)
    assert (approval["outcome"]["decision"], approval["answered_by"]) == ("reject", "policy")
    assert approval["outcome"]["reason"].startswith(f"Only alice may answer this approval, and the '{policy}' policy")
    assert (question["status"], question["outcome"]["answers"]) == ("dismissed", {})
    assert question["outcome"]["note"].startswith("Only alice or bob may answer this question")
    assert by_default["outcome"]["reason"].startswith("Only carol may answer")


def test_replay_never_answers_for_the_approvers(tmp_path: pathlib.Path):
    recording = tmp_path / "answers.jsonl"
    proc = run_python(
        f"""
        import nbask
        nbask.configure(policy="recommended")
        nbask.save_history({str(recording)!r})
        nbask.configure(policy="replay", replay_file={str(recording)!r})
        d = nbask.approve_sync("Deploy", "make deploy", approvers=["alice"])
        print(d.decision, "|", d.reason)
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("reject | Only alice may answer this approval, and the 'replay' policy")
