"""The inbox page of nbask's server extension, through a real Jupyter server that knows alice,
bob and carol apart by their tokens (``two_people.TwoPeople``) and whose authorizer lets carol
do nothing (``refuses_carol.RefusesCarol``), over a real SQLite inbox (``NBASK_INBOX``): who sees
what, who may answer, exactly once, as the server says who answered.
"""

from __future__ import annotations

import json
import pathlib
import re
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from inbox_store.requests import approval, form, question
from playwright.sync_api import Browser, Page, expect
from support.ask_widget import run_axe_serious
from support.jupyter import JupyterServer
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage, write_notebook

import nbask
from nbask.inbox_store import InboxStore, open_inbox
from nbask.kinds import ApprovalRequest

HERE = pathlib.Path(__file__).resolve().parent
LAB_EXTENSIONS = HERE.parents[1] / "src" / "nbask" / "labextension"
#: What the page says when nothing waits for its person (js/inbox/page.ts INBOX_TEXT.empty).
INBOX_EMPTY = (
    "Nothing waits for your answer in the inbox. A request you may answer appears here when an agent "
    "asks it; refresh to look again."
)
PEOPLE = {secrets.token_hex(16): name for name in ("alice", "bob", "carol")}
TOKEN = {name: token for token, name in PEOPLE.items()}
API = "/nbask/inbox/api"


def start_inbox_server(home: pathlib.Path, inbox: pathlib.Path, frontend: str = "lab") -> JupyterServer:
    """A Jupyter server with nbask's extension, three people and the inbox at ``inbox``."""
    server = JupyterServer(
        frontend,
        home,
        args=(
            "--ServerApp.identity_provider_class=two_people.TwoPeople",
            "--ServerApp.authorizer_class=refuses_carol.RefusesCarol",
            # The launcher item from this checkout, whether or not it was installed into the prefix.
            f"--LabServerApp.extra_labextensions_path={LAB_EXTENSIONS}",
        ),
        # No server token: a page the server serves would carry it, and answer as whoever it names.
        server_token="",
    )
    server.env = {
        "NBASK_TEST_PEOPLE": json.dumps({**PEOPLE, server.token: "harness"}),
        "PYTHONPATH": str(HERE),
        "NBASK_INBOX": str(inbox),
    }
    server.start()
    return server


@pytest.fixture(scope="module")
def inbox_path(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    return tmp_path_factory.mktemp("inbox") / "inbox.sqlite3"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, inbox_path: pathlib.Path) -> Iterator[JupyterServer]:
    started = start_inbox_server(tmp_path_factory.mktemp("server"), inbox_path)
    yield started
    started.stop()


@pytest.fixture
def store(inbox_path: pathlib.Path) -> Iterator[InboxStore]:
    opened = open_inbox(inbox_path)
    yield opened
    for item in opened.pending():  # each test starts from an empty list
        opened.cancel(item.id, by="test")
    opened.close()


def call(server: JupyterServer, method: str, path: str, body: Any = None, *, who: str | None) -> tuple[int, Any]:
    """(HTTP status, JSON body) of a request as ``who`` (None: no token at all)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.base_url + path, data=data, method=method)  # noqa: S310 - our own server
    if who is not None:
        request.add_header("Authorization", f"token {TOKEN[who]}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw or b"null")
    except ValueError:  # a page or a script
        return status, raw.decode(errors="replace")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_: Any) -> None:
        return None  # a redirect (to the login page) is the answer itself


def ids(server: JupyterServer, who: str) -> list[str]:
    status, body = call(server, "GET", f"{API}/items", who=who)
    assert status == 200, body
    return [item["id"] for item in body["items"]]


APPROVE = {"action": "approve", "edited_details": None, "reason": "", "view_id": "t", "sent_at_ms": 0}


def for_alice() -> ApprovalRequest:
    """An approval only alice may answer."""
    return replace(approval("Drop table", "events_2023"), approvers=("alice",))


def pick(label: str) -> dict[str, Any]:
    return {"action": "submit", "answers": [{"selected": [label], "other": None}], "view_id": "t", "sent_at_ms": 0}


def test_each_person_sees_what_they_may_answer_as_the_widget_draws_it(server, store):
    only_alice = store.add(for_alice())
    anyone = store.add(question())
    status, body = call(server, "GET", f"{API}/items", who="alice")
    assert status == 200
    assert body["user"]["username"] == "alice"
    cards = {item["id"]: item for item in body["items"]}
    assert set(cards) == {only_alice.id, anyone.id}
    state = cards[only_alice.id]["state"]
    assert (state["_kind"], state["_title"], state["_status"]) == ("approval", "Drop table", "pending")
    assert (state["_approvers"], state["_verifies"]) == (["alice"], True)
    assert "_esm" not in state
    assert cards[anyone.id]["state"]["_questions"][0]["question"] == question().question_set.questions[0].question
    assert ids(server, "bob") == [anyone.id]


def test_nobody_unauthenticated_and_nobody_the_authorizer_refuses_reads_or_answers(server, store):
    item = store.add(question())
    assert call(server, "GET", f"{API}/items", who=None)[0] == 403
    assert call(server, "POST", f"{API}/items/{item.id}/answer", pick("SQLite"), who=None)[0] == 403
    page, _ = call(server, "GET", "/nbask/inbox", who=None)
    assert page in (302, 403)  # sent to the login page
    assert call(server, "GET", f"{API}/items", who="carol")[0] == 403
    assert call(server, "POST", f"{API}/items/{item.id}/answer", pick("SQLite"), who="carol")[0] == 403
    assert call(server, "GET", "/nbask/inbox", who="carol")[0] == 403
    assert store.get(item.id).pending


def test_an_approver_answers_as_the_server_knows_them_and_another_is_refused(server, store):
    item = store.add(for_alice())
    status, body = call(server, "POST", f"{API}/items/{item.id}/answer", APPROVE, who="bob")
    assert status == 403
    assert "only by its approvers" in body["message"]
    assert store.get(item.id).pending

    claiming = {**APPROVE, "user": "mallory"}  # a name the page sends is not who answered
    status, body = call(server, "POST", f"{API}/items/{item.id}/answer", claiming, who="alice")
    assert status == 200, body
    assert body["item"]["state"]["_status"] == "answered"
    assert body["item"]["state"]["_result"]["answered_by_user"] == "alice"
    kept = store.get(item.id)
    assert (kept.status, kept.answered_by) == ("answered", "alice")
    assert kept.outcome is not None
    assert (kept.outcome.answered_by_user, kept.outcome.identity) == ("alice", "verified")
    assert item.id not in ids(server, "alice")


def test_an_item_is_answered_once_and_the_second_is_told_who_answered_first(server, store):
    item = store.add(question())
    assert call(server, "POST", f"{API}/items/{item.id}/answer", pick("Postgres"), who="bob")[0] == 200
    status, body = call(server, "POST", f"{API}/items/{item.id}/answer", pick("SQLite"), who="alice")
    assert status == 409
    assert body["message"].startswith("Already answered by bob at ")
    assert body["item"]["state"]["_result"]["answers"] == {question().question_set.questions[0].question: "Postgres"}
    kept = store.get(item.id)
    assert kept.outcome is not None
    assert kept.outcome.answered_by_user == "bob"


def test_bad_answers_are_refused_naming_the_field_and_the_rule_and_a_dismissal_leaves_it_waiting(server, store):
    item = store.add(question())
    status, body = call(server, "POST", f"{API}/items/{item.id}/answer", {"answers": []}, who="alice")
    assert (status, body["field"]) == (400, "action")
    assert "'action' must be non-empty text" in body["message"]
    status, body = call(server, "POST", f"{API}/items/{item.id}/answer", pick("MySQL"), who="alice")
    assert status == 400
    assert "MySQL" in body["message"]
    shaped = form()
    typed = store.add(shaped)
    values = {"action": "submit", "values": {"region": 7}, "view_id": "t", "sent_at_ms": 0}
    status, body = call(server, "POST", f"{API}/items/{typed.id}/answer", values, who="alice")
    assert status == 400
    assert "region" in body["message"]
    dismiss = {"action": "dismiss", "answers": [], "view_id": "t", "sent_at_ms": 0}
    status, body = call(server, "POST", f"{API}/items/{item.id}/answer", dismiss, who="alice")
    assert (status, body["left_waiting"]) == (200, True)
    assert store.get(item.id).pending
    assert call(server, "POST", f"{API}/items/{'0' * 32}/answer", pick("SQLite"), who="alice")[0] == 404


def test_a_run_stopped_by_the_later_policy_goes_on_with_the_answer_given_in_the_page(server, store, inbox_path):
    nbask.configure(policy="later", inbox=inbox_path)
    with pytest.raises(nbask.AnswerLater) as stopped:
        nbask.approve_sync("Rotate keys", "prod", approvers=["alice"])
    [waiting] = stopped.value.ids
    assert call(server, "POST", f"{API}/items/{waiting}/answer", APPROVE, who="alice")[0] == 200
    decision = nbask.approve_sync("Rotate keys", "prod", approvers=["alice"])  # the same run, again
    assert (decision.decision, decision.answered_by) == ("approve", "inbox")
    assert (decision.answered_by_user, decision.identity) == ("alice", "verified")
    assert store.get(waiting).status == "answered"


def test_the_page_is_served_with_its_script_and_no_token_in_it(server, store):
    del store
    status, _ = call(server, "GET", "/nbask/inbox/static/inbox.js", who="alice")
    assert status == 200
    assert call(server, "GET", "/nbask/inbox/static/widget-question.js", who="alice")[0] == 404
    request = urllib.request.Request(server.base_url + "/nbask/inbox")  # noqa: S310 - our own server
    request.add_header("Authorization", f"token {TOKEN['alice']}")
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - our own server
        page = response.read().decode()
    assert '<main class="nbask-inbox"' in page
    assert TOKEN["alice"] not in page


ASKS = (
    "import json, nbask\n"
    "outcome = await nbask.approve('Drop table', 'events_2023', approvers=['alice'], timeout=None)\n"
    "print('RESULT', json.dumps(outcome.model_dump(mode='json')))"
)


def person(browser: Browser, server: JupyterServer, name: str, path: str) -> Page:
    """``name``'s own browser (their login cookie), at ``path`` of the server."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server.base_url}{path}?token={TOKEN[name]}")
    return page


@pytest.mark.browser
def test_alice_answers_a_waiting_cell_in_the_page_and_bob_never_sees_it(browser, server, store, axe_source):
    """No ``inbox=True`` in the cell: a kernel of this server keeps what it asks in the inbox."""
    del store
    write_notebook(server.root_dir / "asks.ipynb", [ASKS])
    server.api("POST", "/api/sessions", {"path": "asks.ipynb", "name": "asks.ipynb", "type": "notebook"})
    nb = NotebookPage(person(browser, server, "alice", "/lab"), server, "asks.ipynb")
    try:
        nb.page.goto(nb.url)
        nb.wait_loaded()
        nb.wait_kernel_idle()
        nb.run_cell(0, wait=False)
        expect(nb.widget(0).get_by_role("button", name="Approve")).to_be_visible(timeout=RUN_TIMEOUT_MS)

        bob = person(browser, server, "bob", "/nbask/inbox")
        expect(bob.get_by_role("status").first).to_have_text(INBOX_EMPTY, timeout=RUN_TIMEOUT_MS)
        expect(bob.get_by_role("region")).to_have_count(0)
        bob.add_script_tag(content=axe_source)
        assert run_axe_serious(bob, bob.locator("main")) == []

        inbox = nb.page.context.new_page()  # alice's second tab: her login cookie
        inbox.goto(f"{server.base_url}/nbask/inbox")
        expect(inbox.get_by_role("heading", name="Inbox")).to_be_visible()
        card = inbox.get_by_role("region", name=re.compile("Drop table"))
        expect(card).to_contain_text("events_2023", timeout=RUN_TIMEOUT_MS)
        expect(card).to_contain_text(re.compile(r"From \S*asks\.ipynb, asked "))
        inbox.add_script_tag(content=axe_source)
        assert run_axe_serious(inbox, inbox.locator("main")) == []
        approve = card.get_by_role("button", name="Approve")
        approve.focus()
        inbox.keyboard.press("Enter")
        expect(card).to_contain_text("by alice (verified)", timeout=RUN_TIMEOUT_MS)

        nb.wait_output(0, "RESULT", timeout=RUN_TIMEOUT_MS)
        line = next(line for line in nb.stream_text(0).splitlines() if line.startswith("RESULT "))
        result = json.loads(line.removeprefix("RESULT "))
        assert (result["decision"], result["answered_by"]) == ("approve", "inbox")
        assert (result["answered_by_user"], result["identity"]) == ("alice", "verified")
        nb.wait_done(0)
    finally:
        server.shutdown_sessions("asks.ipynb")
        for context in browser.contexts:
            context.close()


@pytest.mark.browser
def test_jupyterlabs_launcher_opens_the_inbox_page(browser, server, store):
    del store
    lab = person(browser, server, "alice", "/lab")
    try:
        item = lab.locator(".jp-LauncherCard", has_text="nbask inbox")
        expect(item).to_be_visible(timeout=RUN_TIMEOUT_MS)
        with lab.context.expect_page() as opened:
            item.click()
        inbox = opened.value
        expect(inbox.get_by_role("heading", name="Inbox")).to_be_visible(timeout=RUN_TIMEOUT_MS)
        assert inbox.url == f"{server.base_url}/nbask/inbox"
        expect(inbox.get_by_text("Answering as Alice (test) (alice).")).to_be_visible()
        expect(inbox.get_by_role("status").first).to_have_text(INBOX_EMPTY)
    finally:
        lab.context.close()


@pytest.mark.browser
def test_notebook_7s_command_palette_opens_the_inbox_page(browser, tmp_path, inbox_path):
    server = start_inbox_server(tmp_path, inbox_path, frontend="notebook7")
    tree = person(browser, server, "bob", "/tree")
    try:
        files = tree.get_by_role("tab", name="Files")
        files.click()  # the page has the keyboard
        tree.keyboard.press("Control+Shift+C")
        palette = tree.get_by_role("region", name="Command Palette Section")
        palette.get_by_role("textbox", name="SEARCH").fill("nbask inbox")
        expect(palette.get_by_role("menuitem", name="nbask inbox")).to_be_visible()
        with tree.context.expect_page() as opened:
            tree.keyboard.press("Enter")
        inbox = opened.value
        expect(inbox.get_by_role("heading", name="Inbox")).to_be_visible(timeout=RUN_TIMEOUT_MS)
        expect(inbox.get_by_text("Answering as Bob (test) (bob).")).to_be_visible()
    finally:
        tree.context.close()
        server.stop()
