"""Notes and option previews in the VS Code host: "Add a note" for a question and for the set,
the kernel's ``Answer.notes`` / ``Answer.note`` printed back; an option's preview shown in the
region "Preview of <label>" beside the options while it is focused or chosen, hostile markup
kept as text. axe (colour contrast included) finds nothing serious in any of the four theme
kinds with the notes open and a preview shown.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from playwright.sync_api import expect
from support.ask_widget import HOSTILE_MARKUP, PRINT_NOTES, AskWidget, run_axe_serious

from person.test_theme_vscode import THEMES

pytestmark = pytest.mark.vscode

ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"

DB = "Which database should the app use?"
CACHE = "Which cache should we use?"
SNIPPET = "cache = LRU(maxsize=128)\n    # oldest entries go first\n- ttl=60\n+ ttl=300"
QUESTIONS = [
    {"question": DB, "header": "DB", "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}]},
    {
        "question": CACHE,
        "header": "Cache",
        "options": [
            {"label": "LRU (Recommended)", "description": "Bounded memory.", "preview": SNIPPET},
            {"label": "TTL", "preview": HOSTILE_MARKUP},
            {"label": "None"},
        ],
    },
]


def _axe_in_every_theme(host, ask: AskWidget, shots: str = "") -> dict[str, list[str]]:
    """The serious axe findings per theme; with ``shots``, a picture of each in test-artifacts/."""
    found = {}
    for name in THEMES:
        host.set_theme(name)
        if shots:
            ARTIFACTS.mkdir(exist_ok=True)
            ask.root.screenshot(path=ARTIFACTS / f"vscode-{shots}-{name}.png", animations="disabled")
        violations = run_axe_serious(host.page, ask.root)
        if violations:
            found[name] = [f"{v['id']} ({v['impact']}): {v['nodes'][:2]}" for v in violations]
    return found


def test_notes_and_previews_round_trip_in_every_theme(open_host, axe_source):
    host = open_host("light")
    host.run_ok("import json, nbask")
    cell = host.run(f"ans = await nbask.ask_questions({QUESTIONS!r}, timeout=600)\n" + PRINT_NOTES)
    ask = AskWidget(host.widget(cell))
    ask.expect_pending()

    # The preview: focused option first, as literal text, beside the options.
    ask.option(CACHE, "TTL").focus()
    region = ask.root.get_by_role("region", name="Preview of TTL", exact=True)
    expect(region).to_have_text(HOSTILE_MARKUP)
    expect(region.locator("img")).to_have_count(0)
    options = ask.question(CACHE).locator(".nbask-options").bounding_box()
    box = region.bounding_box()
    assert options is not None
    assert box is not None
    assert box["x"] >= options["x"] + options["width"] - 1, (box, options)
    ask.option(CACHE, "LRU (Recommended)").check()
    ask.option(DB, "SQLite").check()  # focus leaves the question: the chosen option's preview stays
    shown = ask.root.get_by_role("region", name="Preview of LRU (Recommended)", exact=True)
    assert shown.evaluate("el => el.textContent") == SNIPPET

    # Notes: collapsed until opened, one per question and one for the set.
    toggle = ask.question(DB).get_by_role("button", name="Add a note", exact=True)
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    ask.root.get_by_role("textbox", name="Note for DB", exact=True).fill("Only for the demo.")
    ask.button("Add a note for all questions").click()
    ask.root.get_by_role("textbox", name="Note for all questions", exact=True).fill("Ship on Friday.")

    host.page.add_script_tag(content=axe_source)
    found = _axe_in_every_theme(host, ask, shots="notes-previews")
    assert not found, "notes open, preview shown:\n" + json.dumps(found, indent=1)
    host.set_theme("light")

    ask.submit()
    result = host.read_result(cell)
    assert result == {
        "status": "answered",
        "answers": {DB: "SQLite", CACHE: "LRU (Recommended)"},
        "notes": {DB: "Only for the demo."},
        "note": "Ship on Friday.",
    }
    ask.expect_resolved("answered", {DB: "SQLite"})
    expect(ask.root).to_contain_text("Note: Only for the demo.")
    assert host.page.evaluate("window.__nbaskPwned") is None
    found = _axe_in_every_theme(host, ask)
    assert not found, "resolved with notes:\n" + json.dumps(found, indent=1)
