"""Typed forms in a real browser (every field type filled by role is a shared scenario, test_scenarios.py):
a bad value shown next to its field and kept from sending, Dismiss and Escape, URL
mode opening a page only on a click, hostile titles kept literal, axe clean; and a real MCP
server whose elicitation is answered through the form. Runs in JupyterLab and in Notebook 7.
"""

from __future__ import annotations

import json
import pathlib
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect
from support.ask_widget import run_axe_serious
from support.forms import PRINT_FORM, SCHEMA
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

pytestmark = [pytest.mark.browser, pytest.mark.colab]

REPO = pathlib.Path(__file__).resolve().parents[2]


class FormView:
    """One form view, found by its accessibility contract."""

    def __init__(self, root: Locator) -> None:
        self.root = root

    def button(self, name: str) -> Locator:
        return self.root.get_by_role("button", name=name, exact=True)

    def textbox(self, name: str) -> Locator:
        return self.root.get_by_role("textbox", name=re.compile(re.escape(name)))

    def spinbutton(self, name: str) -> Locator:
        return self.root.get_by_role("spinbutton", name=re.compile(re.escape(name)))

    def labelled(self, name: str) -> Locator:
        # date and datetime-local inputs have no textbox role; their label names them.
        return self.root.get_by_label(re.compile(re.escape(name)))

    def group(self, name: str) -> Locator:
        return self.root.get_by_role("group", name=re.compile(re.escape(name)))

    def expect_status(self, status: str) -> None:
        expect(self.root).to_have_attribute("data-status", status, timeout=RUN_TIMEOUT_MS)


def open_form(open_notebook: Callable[..., NotebookPage], call: str) -> tuple[NotebookPage, FormView]:
    nb = open_notebook(["import json, nbask", f"f = await {call}\n" + PRINT_FORM, "print('after')"])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    view = FormView(nb.widget(1))
    expect(view.root).to_be_visible(timeout=RUN_TIMEOUT_MS)
    view.expect_status("pending")
    return nb, view


def read_form(nb: NotebookPage, cell: int = 1) -> dict:
    nb.wait_output(cell, re.compile(r"FORM \{"), timeout=RUN_TIMEOUT_MS)
    lines = [line for line in nb.stream_text(cell).splitlines() if line.startswith("FORM ")]
    assert len(lines) == 1, lines
    return json.loads(lines[0][len("FORM ") :])


def ask_form(schema: dict = SCHEMA, message: str = "How should it be deployed?") -> str:
    return f"nbask.ask_form({message!r}, {schema!r}, timeout=600)"


def test_a_bad_value_is_shown_next_to_its_field_and_nothing_is_sent(open_notebook, page: Page):
    nb, view = open_form(open_notebook, ask_form())
    replicas = view.spinbutton("Replicas")
    replicas.fill("12")
    view.group("Region").get_by_role("radio", name="Europe").check()
    view.button("Submit").click()
    expect(replicas).to_have_attribute("aria-invalid", "true")
    expect(view.root).to_contain_text(re.compile(r"10"))
    error_id = replicas.get_attribute("aria-describedby") or ""
    assert any(page.locator(f"#{part}").inner_text().strip() for part in error_id.split() if part)
    view.expect_status("pending")
    assert "FORM" not in nb.stream_text(1)
    replicas.fill("3")
    view.button("Submit").click()
    form = read_form(nb)
    assert form["values"]["replicas"] == 3
    assert form["values"]["region"] == "eu"


def test_dismiss_declines_and_escape_declines(open_notebook):
    nb, view = open_form(open_notebook, ask_form())
    view.button("Dismiss").click()
    assert read_form(nb)["action"] == "decline"
    view.expect_status("dismissed")

    nb2, view2 = open_form(open_notebook, ask_form(message="Second form?"))
    view2.textbox("Service name").fill("billing")
    nb2.page.keyboard.press("Escape")  # an entry would be lost: it asks first (js/shell/discard.ts)
    expect(view2.button("Keep editing")).to_be_focused()
    expect(view2.root.locator(".nbask-discard")).to_contain_text("Your entry in “Service name” will be lost.")
    nb2.page.keyboard.press("Escape")  # a second Escape keeps editing
    expect(view2.textbox("Service name")).to_have_value("billing")
    view2.textbox("Service name").fill("web")  # its default again
    nb2.page.keyboard.press("Escape")  # nothing left to lose: it declines at once
    assert read_form(nb2)["action"] == "decline"


def test_url_mode_opens_the_page_only_on_a_click(open_notebook, page: Page):
    url = "https://login.example.test/device?code=A1B2"
    call = (
        "nbask.resolvers.run.run_request(nbask.kinds.form.request.url_request("
        f"'Sign in to the deploy service', {url!r}, timeout=600))"
    )
    nb = open_notebook(["import json, nbask, nbask.api", f"f = await {call}\n" + PRINT_FORM])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    view = FormView(nb.widget(1))
    view.expect_status("pending")
    # The page that Open opens is served here: this machine has no way to the example site.
    page.context.route("https://login.example.test/**", lambda route: route.fulfill(body="signed in"))
    expect(view.root).to_contain_text(url)  # shown whole, as text
    assert view.root.locator("a").count() == 0
    with page.context.expect_page() as opened:
        view.button("Open").click()
    assert opened.value.url.startswith("https://login.example.test/device")
    form = read_form(nb)
    assert (form["action"], form["values"]) == ("accept", {})

    nb2 = open_notebook(["import json, nbask, nbask.api", f"f = await {call}\n" + PRINT_FORM])
    nb2.run_cell(0)
    nb2.run_cell(1, wait=False)
    view2 = FormView(nb2.widget(1))
    view2.expect_status("pending")
    assert len(page.context.pages) == 3  # the two notebooks and the page the first click opened
    view2.button("Decline").click()
    assert read_form(nb2)["action"] == "decline"
    assert len(page.context.pages) == 3  # Decline opened nothing


def test_hostile_titles_stay_literal_and_the_form_is_axe_clean(open_notebook, page: Page, axe_source):
    schema = {
        "type": "object",
        "properties": {
            "x": {"type": "string", "title": "<img src=x onerror=window.__pwned=1>", "description": "**bold**"},
            "y": {"type": "string", "title": "Choice", "enum": ["<b>a</b>", "b"]},
            **{k: v for k, v in SCHEMA["properties"].items() if k in ("replicas", "canary", "checks", "day")},
        },
    }
    nb, view = open_form(open_notebook, ask_form(schema, message="<script>window.__pwned=2</script>"))
    expect(view.root).to_contain_text("<img src=x onerror=window.__pwned=1>")
    expect(view.root).to_contain_text("<script>window.__pwned=2</script>")
    assert view.root.locator("img, script, b").count() == 0
    assert page.evaluate("() => window.__pwned") is None
    page.add_script_tag(content=axe_source)
    assert run_axe_serious(page, view.root) == []
    view.button("Submit").click()
    view.expect_status("answered")
    assert run_axe_serious(page, view.root) == []
    read_form(nb)


def test_a_real_mcp_server_elicits_through_the_form(open_notebook):
    server = REPO / "notebooks" / "deploy_server.py"
    setup = (
        "import sys, nbask\nfrom mcp import Client, StdioServerParameters\n"
        f"server = StdioServerParameters(command=sys.executable, args=[{str(server)!r}])"
    )
    call = (
        "async with Client(server, elicitation_callback=nbask.mcp.elicitation_callback) as client:\n"
        "    result = await client.call_tool('deploy', {'service': 'checkout-api'})\n"
        "print('SERVER ' + result.content[0].text, flush=True)"
    )
    nb = open_notebook([setup, call])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    view = FormView(nb.widget(1))
    view.expect_status("pending")
    expect(view.root).to_contain_text("How should checkout-api be deployed?")
    view.spinbutton("Replicas").fill("5")
    view.group("Region").get_by_role("radio", name="us-east").check()
    view.root.get_by_role("checkbox", name=re.compile("Canary first")).uncheck()
    view.textbox("Notify").fill("sre@example.test")
    view.button("Submit").click()
    nb.wait_output(1, "SERVER ", timeout=RUN_TIMEOUT_MS)
    assert "Deploying checkout-api: 5 replicas in us-east; sre@example.test will be told." in nb.stream_text(1)
    view.expect_status("answered")
