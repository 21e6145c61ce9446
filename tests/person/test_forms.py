"""Typed forms, in every host (every field type filled by role: tests/person/test_basics.py): a
bad value shown next to its field and kept from sending, Dismiss and Escape declining, URL mode
showing the address as text and opening a page only from Open, hostile titles kept literal and
axe clean. In JupyterLab and Notebook 7: a real MCP server whose elicitation is answered through
the form. In VS Code: the refused value never goes over the wire, and in each of the four theme
kinds the form with a field's error is axe-clean and its controls' text stands out.
"""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, expect
from support.ask_widget import run_axe_serious
from support.forms import PRINT_FORM, SCHEMA
from support.hosts import Host
from support.notebook_page import RUN_TIMEOUT_MS
from support.vscode.host import THEMES, VSCodeHost

pytestmark = pytest.mark.colab

REPO = pathlib.Path(__file__).resolve().parents[2]
URL = "https://login.example.test/device?code=A1B2"


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

    def checkbox(self, name: str) -> Locator:
        return self.root.get_by_role("checkbox", name=re.compile(re.escape(name)))

    def labelled(self, name: str) -> Locator:
        # date and datetime-local inputs have no textbox role; their label names them.
        return self.root.get_by_label(re.compile(re.escape(name)))

    def group(self, name: str) -> Locator:
        return self.root.get_by_role("group", name=re.compile(re.escape(name)))

    def expect_status(self, status: str) -> None:
        expect(self.root).to_have_attribute("data-status", status, timeout=RUN_TIMEOUT_MS)


def ask_form(schema: dict[str, Any] = SCHEMA, message: str = "How should it be deployed?") -> str:
    return f"nbask.ask_form({message!r}, {schema!r}, timeout=600)"


URL_FORM = (
    "nbask.resolvers.run.run_request(nbask.kinds.form.request.url_request("
    f"'Sign in to the deploy service', {URL!r}, timeout=600))"
)


def open_forms(host: Host, *calls: str) -> None:
    """A notebook whose cell 0 imports nbask and cells 1, 2, ... each await one form and print it."""
    host.open(["import json, nbask, nbask.api", *(f"f = await {call}\n" + PRINT_FORM for call in calls)])
    host.run_cell(0)


def start_form(host: Host, index: int) -> FormView:
    """Start cell `index` and return its form once pending."""
    host.run_cell(index, wait=False)
    view = FormView(host.widget(index))
    view.expect_status("pending")
    return view


def test_a_bad_value_is_shown_next_to_its_field_and_nothing_is_sent(host: Host):
    open_forms(host, ask_form())
    view = start_form(host, 1)
    replicas = view.spinbutton("Replicas")
    replicas.fill("12")
    view.group("Region").get_by_role("radio", name="Europe").check()
    view.button("Submit").click()

    expect(replicas).to_have_attribute("aria-invalid", "true")
    expect(replicas).to_be_focused()
    described = (replicas.get_attribute("aria-describedby") or "").split()
    messages = [host.page.locator(f"#{part}").inner_text().strip() for part in described]
    assert "Enter 10 or less." in messages, messages
    error = host.page.locator(f"#{described[messages.index('Enter 10 or less.')]}")
    expect(error).to_be_visible()
    # The message sits in the field's own block, under its control.
    field = view.root.locator(".nbask-field", has=error)
    expect(field.get_by_role("spinbutton")).to_have_count(1)
    expect(field).to_contain_text("Replicas")
    # Only the bad field is marked.
    expect(view.root.locator("[aria-invalid='true']")).to_have_count(1)
    view.expect_status("pending")
    host.wait_running(1)
    assert "FORM" not in host.printed(1)

    replicas.fill("3")
    expect(replicas).not_to_have_attribute("aria-invalid", "true")
    view.button("Submit").click()
    form = host.read_line(1, "FORM")
    assert form["action"] == "accept"
    assert (form["values"]["replicas"], form["types"]["replicas"]) == (3, "int")
    assert form["values"]["region"] == "eu"


def test_dismiss_declines_and_escape_declines(host: Host):
    open_forms(host, ask_form(), ask_form(message="Second form?"))
    view = start_form(host, 1)
    view.button("Dismiss").click()
    form = host.read_line(1, "FORM")
    assert (form["action"], form["values"]) == ("decline", {})
    view.expect_status("dismissed")
    host.wait_done(1)
    assert not host.failed(1)

    view2 = start_form(host, 2)
    keys = host.page.keyboard
    before = host.keys_mark()
    view2.textbox("Service name").fill("billing")
    keys.press("Escape")  # an entry would be lost: it asks first (js/shell/discard.ts)
    expect(view2.button("Keep editing")).to_be_focused()
    expect(view2.root.locator(".nbask-discard")).to_contain_text("Your entry in “Service name” will be lost.")
    keys.press("Escape")  # a second Escape keeps editing
    expect(view2.textbox("Service name")).to_have_value("billing")
    view2.textbox("Service name").fill("web")  # its default again
    keys.press("Escape")  # nothing left to lose: it declines at once
    form2 = host.read_line(2, "FORM")
    assert (form2["action"], form2["values"]) == ("decline", {})
    view2.expect_status("dismissed")
    assert host.keys_leaked(before) == [], "Escape in the form is the form's"


def test_url_mode_shows_the_address_as_text_and_opens_it_only_from_open(host: Host):
    open_forms(host, URL_FORM, URL_FORM)
    context = host.page.context
    # The page Open opens is served here: this machine has no way to the example site.
    context.route("https://login.example.test/**", lambda route: route.fulfill(body="signed in"))
    view = start_form(host, 1)
    expect(view.root.get_by_text(URL, exact=True)).to_be_visible()  # whole, as text
    expect(view.root).to_contain_text("Site: login.example.test")  # the host, as the browser reads it
    expect(view.root.locator("a")).to_have_count(0)
    expect(view.root.get_by_role("link")).to_have_count(0)
    expect(view.button("Open")).to_be_enabled()
    with context.expect_page() as opened:
        view.button("Open").click()
    opened.value.wait_for_load_state()
    assert opened.value.url == URL
    expect(opened.value.locator("body")).to_have_text("signed in")
    form = host.read_line(1, "FORM")
    assert (form["action"], form["values"]) == ("accept", {})
    view.expect_status("answered")
    expect(view.root.locator("a")).to_have_count(0)
    host.wait_done(1)

    pages = len(context.pages)
    view2 = start_form(host, 2)
    view2.button("Decline").click()
    form2 = host.read_line(2, "FORM")
    assert (form2["action"], form2["values"]) == ("decline", {})
    view2.expect_status("dismissed")
    assert len(context.pages) == pages  # Decline opened nothing


def test_hostile_titles_stay_literal_and_the_form_is_axe_clean(host: Host, axe_source):
    schema = {
        "type": "object",
        "properties": {
            "x": {"type": "string", "title": "<img src=x onerror=window.__pwned=1>", "description": "**bold**"},
            "y": {"type": "string", "title": "Choice", "enum": ["<b>a</b>", "b"]},
            **{k: v for k, v in SCHEMA["properties"].items() if k in ("replicas", "canary", "checks", "day")},
        },
    }
    open_forms(host, ask_form(schema, message="<script>window.__pwned=2</script>"))
    view = start_form(host, 1)
    page = host.page
    expect(view.root).to_contain_text("<img src=x onerror=window.__pwned=1>")
    expect(view.root).to_contain_text("<script>window.__pwned=2</script>")
    assert view.root.locator("img, script, b").count() == 0
    assert page.evaluate("() => window.__pwned") is None
    page.add_script_tag(content=axe_source)
    assert run_axe_serious(page, view.root) == []
    view.button("Submit").click()
    view.expect_status("answered")
    assert run_axe_serious(page, view.root) == []
    host.read_line(1, "FORM")


# -- JupyterLab and Notebook 7 ----------------------------------------------------------------------


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


# -- VS Code ------------------------------------------------------------------------------------------


def _open_vscode(open_host, theme: str = "dark") -> VSCodeHost:
    host: VSCodeHost = open_host(theme)
    host.run_ok("import json, nbask, nbask.api")
    return host


def _start_vscode(host: VSCodeHost, call: str) -> tuple[int, FormView]:
    """Run `f = await <call>` then PRINT_FORM in a new cell; return it once its form is pending."""
    cell = host.run(f"f = await {call}\n" + PRINT_FORM)
    view = FormView(host.widget(cell))
    view.expect_status("pending")
    return cell, view


def _outgoing_comm_msgs(host: VSCodeHost) -> list[dict[str, Any]]:
    return [w for w in host.wire() if w["direction"] == "send" and w["type"] == "comm_msg"]


def test_a_refused_value_never_goes_over_the_wire(open_host):
    """The page's record of what it sent the kernel: one reply, the fixed one, not the refused 12."""
    host = _open_vscode(open_host)
    cell, view = _start_vscode(host, ask_form())
    sent_before = len(_outgoing_comm_msgs(host))
    view.spinbutton("Replicas").fill("12")
    view.group("Region").get_by_role("radio", name="Europe").check()
    view.button("Submit").click()
    expect(view.spinbutton("Replicas")).to_have_attribute("aria-invalid", "true")
    view.spinbutton("Replicas").fill("3")
    view.button("Submit").click()
    assert host.read_line(cell, "FORM")["values"]["replicas"] == 3
    assert len(_outgoing_comm_msgs(host)) - sent_before == 1, _outgoing_comm_msgs(host)[sent_before:]


# The text colours of a control and the background it is drawn on (its own, else the nearest
# ancestor's that is not transparent), and the contrast between them.
READ_CONTROL = """(el) => {
  const rgba = (s) => { const m = s.match(/[\\d.]+/g).map(Number); return m.length > 3 ? m : [...m, 1]; };
  let node = el, bg = null;
  while (node && node.nodeType === 1) {
    const c = rgba(getComputedStyle(node).backgroundColor);
    if (c[3] > 0) { bg = c; break; }
    node = node.parentElement;
  }
  bg = bg || [255, 255, 255, 1];
  const fg = rgba(getComputedStyle(el).color);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
  const css = getComputedStyle(el);
  return {fg: css.color, bg: `rgb(${bg[0]}, ${bg[1]}, ${bg[2]})`, ownBg: css.backgroundColor,
          scheme: css.colorScheme, contrast: (hi + 0.05) / (lo + 0.05)};
}"""
NORMALISE = """(values) => {
  const probe = document.createElement('div');
  document.body.appendChild(probe);
  const out = values.map(v => { probe.style.color = ''; probe.style.color = v; return getComputedStyle(probe).color; });
  probe.remove();
  return out;
}"""


def test_the_form_with_a_field_error_is_axe_clean_and_readable_in_each_vscode_theme(open_host, axe_source):
    host = _open_vscode(open_host, "light")
    cell, view = _start_vscode(host, ask_form())
    view.textbox("Docs page").fill("https://docs.example.test/deploy")
    view.labelled("Day").fill("2026-12-01")
    view.spinbutton("Replicas").fill("12")
    view.group("Region").get_by_role("radio", name="Europe").check()
    view.button("Submit").click()
    expect(view.spinbutton("Replicas")).to_have_attribute("aria-invalid", "true")
    expect(view.root).to_contain_text("Enter 10 or less.")
    host.page.add_script_tag(content=axe_source)

    controls = {
        "Service name textbox": view.textbox("Service name"),
        "Docs page textbox": view.textbox("Docs page"),
        "Day date input": view.labelled("Day"),
        "Replicas spinbutton (invalid)": view.spinbutton("Replicas"),
    }
    problems: dict[str, list[str]] = {}
    for name, theme in THEMES.items():
        host.set_theme(name)
        expect(host.page.locator("body")).to_have_attribute("data-vscode-theme-kind", theme["kind"])
        found = []
        violations = run_axe_serious(host.page, view.root)
        found.extend(f"axe {v['id']} ({v['impact']}): {v['nodes'][:2]}" for v in violations)
        colors = theme["colors"]
        want_fg, want_bg = host.page.evaluate(NORMALISE, [colors["input-foreground"], colors["input-background"]])
        dark = theme["kind"] in ("vscode-dark", "vscode-high-contrast")
        for what, control in controls.items():
            seen = control.evaluate(READ_CONTROL)
            if seen["fg"] == seen["bg"] or seen["contrast"] < 4.5:
                found.append(f"{what}: text {seen['fg']} on {seen['bg']}, contrast {seen['contrast']:.2f}")
            if (seen["fg"], seen["ownBg"]) != (want_fg, want_bg):
                found.append(f"{what}: {seen['fg']} on {seen['ownBg']}, theme's input is {want_fg} on {want_bg}")
            # Native parts (the date picker's icon, the spin arrows) follow the theme's lightness.
            if seen["scheme"] != ("dark" if dark else "light"):
                found.append(f"{what}: color-scheme {seen['scheme']} in a {theme['kind']} theme")
        for what, control in {
            "Canary first checkbox": view.checkbox("Canary first"),
            "Europe radio": view.group("Region").get_by_role("radio", name="Europe"),
        }.items():
            box = control.bounding_box()
            if box is None or box["width"] < 10 or box["height"] < 10:
                found.append(f"{what}: drawn at {box}")
        print(f"\n{name}: form axe serious/critical violations: {len(violations)}")  # noqa: T201
        if found:
            problems[name] = found
    assert not problems, json.dumps(problems, indent=1)

    host.set_theme("dark")
    view.spinbutton("Replicas").fill("5")
    view.button("Submit").click()
    assert host.read_line(cell, "FORM")["values"]["replicas"] == 5
