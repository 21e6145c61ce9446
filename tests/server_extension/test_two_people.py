"""Two people on one notebook's kernel, through one real Jupyter server that knows them apart
(``two_people.TwoPeople``, an identity provider of two tokens): who answered is what the server
says, never what a page claims, and only an approver's verified answer resolves a request that
names approvers. The same without nbask's server extension: nothing is verified, and a request
with approvers cannot be answered in the page.
"""

from __future__ import annotations

import json
import pathlib
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from support.ask_widget import ApprovalView, waiting_panel
from support.jupyter import JupyterServer
from support.notebook_page import KERNEL_NAME, KERNEL_TIMEOUT_MS, RUN_TIMEOUT_MS, NotebookPage, write_notebook
from support.processes import watch_console

pytestmark = pytest.mark.browser


PEOPLE = {secrets.token_hex(16): "alice", secrets.token_hex(16): "bob"}
TOKEN = {name: token for token, name in PEOPLE.items()}
HERE = pathlib.Path(__file__).resolve().parent
#: The models the kernel makes, one id a line, for a page that forges a message to one of them.
MODELS = "models.txt"

SETUP = (
    "import json, nbask\n"
    "from nbask.widget.base import InteractionWidget\n"
    "made = InteractionWidget.__init__\n"
    "def noted(self, *args, **kwargs):\n"
    "    made(self, *args, **kwargs)\n"
    f"    open({MODELS!r}, 'a').write(self.model_id + '\\n')\n"
    "InteractionWidget.__init__ = noted"
)
REPORT = (
    "print('RESULT', json.dumps(outcome.model_dump(mode='json')))\n"
    "print('RECORD', json.dumps(nbask.history()[-1].model_dump(mode='json')))"
)


def start_server(home: pathlib.Path, *, extension: bool, frontend: str = "lab") -> JupyterServer:
    config = None if extension else {"ServerApp": {"jpserver_extensions": {"nbask.server_extension": False}}}
    server = JupyterServer(
        frontend,
        home,
        # No server token: JupyterLab writes it into every page, which would then answer as it.
        args=("--ServerApp.identity_provider_class=two_people.TwoPeople",),
        server_config=config,
        server_token="",
    )
    people = {**PEOPLE, server.token: "harness"}  # the tests' REST calls
    server.env = {"NBASK_TEST_PEOPLE": json.dumps(people), "PYTHONPATH": str(HERE)}
    server.start()
    return server


@pytest.fixture(scope="module", params=["lab", "notebook7"])
def stamping_server(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[JupyterServer]:
    server = start_server(tmp_path_factory.mktemp("stamping"), extension=True, frontend=request.param)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    server = start_server(tmp_path_factory.mktemp("plain"), extension=False)
    yield server
    server.stop()


class Person:
    """One person's browser (a context of its own: its own login cookie) on the notebook."""

    def __init__(self, browser: Browser, server: JupyterServer, path: str, name: str) -> None:
        self.name = name
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.console: list[str] = []
        page = self.context.new_page()
        watch_console(page, self.console)
        self.nb = NotebookPage(page, server, path)
        page.goto(f"{self.nb.url}?token={TOKEN[name]}")
        self.nb.wait_loaded()
        self.nb.wait_kernel_idle()

    @property
    def page(self) -> Page:
        return self.nb.page

    def me(self) -> str:
        """Who this page's server says its person is (GET api/me, as the widget asks)."""
        body: dict[str, Any] = self.page.evaluate("fetch('/api/me').then((r) => r.json())")
        return str(body["identity"]["username"])

    def forge(self, kernel_id: str, model_id: str, claims: str, stamp: dict[str, Any] | None = None) -> None:
        """Send the kernel an Approve from this page over a websocket of its own, claiming to be
        ``claims`` everywhere a page can: the header's username, the response's user, a stamp.
        """
        self.page.evaluate(
            """async ([kernel, model, claims, stamp]) => {
                const url = new URL(`/api/kernels/${kernel}/channels?session_id=forger`, location.href);
                url.protocol = url.protocol.replace("http", "ws");
                const ws = new WebSocket(url);
                await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
                const msg = {
                    channel: "shell",
                    header: { msg_id: crypto.randomUUID(), msg_type: "comm_msg", username: claims,
                              session: "forger", date: new Date().toISOString(), version: "5.3" },
                    parent_header: {},
                    metadata: stamp === null ? {} : { nbask_identity: stamp },
                    content: { comm_id: model, data: { method: "update", buffer_paths: [],
                               state: { _response: { action: "approve", user: claims, reason: "",
                                                     view_id: "forged", sent_at_ms: Date.now() } } } },
                    buffers: [],
                };
                ws.send(JSON.stringify(msg));
                await new Promise((ok) => setTimeout(ok, 300));  // let the socket flush before it closes
                ws.close();
            }""",
            [kernel_id, model_id, claims, stamp],
        )

    def close(self) -> None:
        self.context.close()


def notebook(server: JupyterServer, name: str, cells: list[str]) -> str:
    write_notebook(server.root_dir / name, cells)
    server.api(
        "POST", "/api/sessions", {"path": name, "name": name, "type": "notebook", "kernel": {"name": KERNEL_NAME}}
    )
    return name


def printed(nb: NotebookPage, cell: int, label: str) -> dict[str, Any]:
    nb.wait_output(cell, f"{label} ")
    line = next(line for line in nb.stream_text(cell).splitlines() if line.startswith(f"{label} "))
    value: dict[str, Any] = json.loads(line.removeprefix(f"{label} "))
    return value


def last_model(server: JupyterServer) -> str:
    return (server.root_dir / MODELS).read_text().split()[-1]


def test_only_the_approver_resolves_it_and_who_answered_is_the_servers_word(browser, stamping_server):
    server = stamping_server
    path = notebook(
        server,
        "two_people.ipynb",
        [
            SETUP,
            f"outcome = await nbask.approve('Drop table', 'events_2023', approvers=['alice'], timeout=None)\n{REPORT}",
        ],
    )
    alice = Person(browser, server, path, "alice")
    bob = Person(browser, server, path, "bob")
    try:
        assert (alice.me(), bob.me()) == ("alice", "bob")
        alice.nb.run_cell(0)
        alice.nb.run_cell(1, wait=False)
        card = ApprovalView(alice.nb.widget(1))
        expect(card.button("Approve")).to_be_enabled(timeout=RUN_TIMEOUT_MS)

        # Bob's page shows the request (no cell of his shows it) read-only, waiting for alice.
        panel = waiting_panel(bob.page)
        bobs = ApprovalView(panel.locator(".nbask"))
        expect(bobs.root.get_by_role("status")).to_have_text(
            "Waiting for alice. Only alice can answer this request.", timeout=RUN_TIMEOUT_MS
        )
        expect(bobs.button("Approve")).to_be_disabled(timeout=RUN_TIMEOUT_MS)
        expect(bobs.button("Reject")).to_be_disabled(timeout=RUN_TIMEOUT_MS)

        # Bob's page forges an Approve claiming to be alice: the server writes bob into it, the
        # kernel refuses it, and the cell keeps waiting.
        kernel = server.kernel_for(path)
        assert kernel is not None
        bob.forge(kernel["id"], last_model(server), "alice", {"username": "alice", "display_name": "A", "sig": "00"})
        expect(card.root).to_contain_text(
            "Not accepted: bob is not one of the approvers (alice).", timeout=RUN_TIMEOUT_MS
        )
        expect(alice.nb.prompt(1)).to_have_text("[*]:", timeout=RUN_TIMEOUT_MS)
        expect(card.button("Approve")).to_be_enabled(timeout=RUN_TIMEOUT_MS)

        card.button("Approve").click()
        result = printed(alice.nb, 1, "RESULT")
        assert result["decision"] == "approve"
        assert (result["answered_by_user"], result["identity"]) == ("alice", "verified")
        [refused] = result["refused"]
        assert (refused["user"], refused["identity"]) == ("bob", "verified")
        assert refused["reason"] == "bob is not one of the approvers (alice)"
        record = printed(alice.nb, 1, "RECORD")
        assert record["outcome"]["identity"] == "verified"
        assert record["outcome"]["refused"][0]["user"] == "bob"
        expect(card.root.locator(".nbask-status-line")).to_contain_text("by alice (verified)", timeout=RUN_TIMEOUT_MS)
        alice.nb.wait_done(1)
    finally:
        alice.close()
        bob.close()
        server.shutdown_sessions(path)


def test_a_page_claiming_another_name_is_recorded_as_who_it_is(browser, stamping_server):
    server = stamping_server
    path = notebook(
        server, "claims.ipynb", [SETUP, f"outcome = await nbask.approve('Restart', 'web-1', timeout=None)\n{REPORT}"]
    )
    bob = Person(browser, server, path, "bob")
    try:
        bob.nb.run_cell(0)
        bob.nb.run_cell(1, wait=False)
        expect(ApprovalView(bob.nb.widget(1)).button("Approve")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
        kernel = server.kernel_for(path)
        assert kernel is not None
        bob.forge(kernel["id"], last_model(server), "alice", None)  # no approvers: it resolves, as bob
        result = printed(bob.nb, 1, "RESULT")
        assert (result["answered_by_user"], result["identity"]) == ("bob", "verified")
        bob.nb.wait_done(1)
    finally:
        bob.close()
        server.shutdown_sessions(path)


def test_without_the_extension_nothing_is_verified_and_approvers_cannot_answer_here(browser, plain_server):
    server = plain_server
    path = notebook(
        server,
        "plain.ipynb",
        [
            SETUP,
            f"outcome = await nbask.approve('Restart', 'web-1', timeout=None)\n{REPORT}",
            f"outcome = await nbask.approve('Drop table', 'events', approvers=['alice'], timeout=6)\n{REPORT}",
        ],
    )
    alice = Person(browser, server, path, "alice")
    try:
        alice.nb.run_cell(0)
        alice.nb.run_cell(1, wait=False)
        ApprovalView(alice.nb.widget(1)).button("Approve").click()
        result = printed(alice.nb, 1, "RESULT")
        assert (result["answered_by_user"], result["identity"]) == ("alice", "reported")
        alice.nb.wait_done(1)

        alice.nb.run_cell(2, wait=False)
        card = ApprovalView(alice.nb.widget(2))
        expect(card.root.get_by_role("status")).to_contain_text(
            "nbask cannot verify who you are here", timeout=RUN_TIMEOUT_MS
        )
        expect(card.button("Approve")).to_be_disabled(timeout=RUN_TIMEOUT_MS)
        # A message that makes up the stamp the extension would write is refused all the same.
        kernel = server.kernel_for(path)
        assert kernel is not None
        alice.forge(kernel["id"], last_model(server), "alice", {"username": "alice", "display_name": "A", "sig": "00"})
        expect(card.root).to_contain_text("could not be verified here", timeout=KERNEL_TIMEOUT_MS)
        result = printed(alice.nb, 2, "RESULT")  # the time limit ends it: never accepted
        assert (result["status"], result["decision"]) == ("timeout", "reject")
        assert result["refused"][0]["identity"] == "reported"
        assert "answered_by_user" not in result
    finally:
        alice.close()
        server.shutdown_sessions(path)
