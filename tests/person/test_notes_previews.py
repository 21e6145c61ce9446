"""Notes and option previews, in every host.

Notes: "Add a note" opens a textbox per question ("Note for <header>") and one for the set
("Note for all questions"); the kernel's ``Answer.notes`` and ``Answer.note`` carry them.
Previews: an option's ``preview`` is shown in a region named "Preview of <label>" beside the
options while the option is focused or chosen, as literal text (hostile markup stays text, no
script runs), without moving the options. axe finds nothing serious in either. In VS Code,
not in any of its four theme kinds either, with the notes open and a preview shown.
"""

from __future__ import annotations

import json
import pathlib

from playwright.sync_api import expect
from support.ask_widget import HOSTILE_MARKUP, PRINT_NOTES, AskWidget, run_axe_serious
from support.hosts import Host
from support.vscode.host import THEMES, VSCodeHost

ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"

DB = "Which database should the app use?"
CHECKS = "Which checks should run before merging?"
QUESTIONS = [
    {"question": DB, "header": "DB", "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}]},
    {
        "question": CHECKS,
        "header": "CI",
        "options": [{"label": "Unit tests"}, {"label": "Type check"}, {"label": "Lint"}],
        "multi_select": True,
    },
]


def open_question(host: Host, call: str) -> AskWidget:
    host.open(["import json, nbask", f"ans = await {call}\n" + PRINT_NOTES])
    host.run_cell(0)
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    return ask


def test_notes_for_a_question_and_the_set_reach_the_kernel(host: Host, axe_source):
    ask = open_question(host, f"nbask.ask_questions({QUESTIONS!r}, timeout=600)")
    page = host.page
    toggle = ask.question(DB).get_by_role("button", name="Add a note", exact=True)
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(ask.root.get_by_role("textbox", name="Note for DB")).to_have_count(0)  # collapsed
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    note = ask.root.get_by_role("textbox", name="Note for DB", exact=True)
    expect(note).to_be_focused()
    # Typed keys stay in the note: digits choose nothing, Enter is a new line, not a submit.
    note.press_sequentially("Only 2 users <b>for now</b>.")
    note.press("Enter")
    note.press_sequentially("Revisit in May.")
    expect(ask.option(DB, "SQLite")).not_to_be_checked()  # the "2" typed stayed text
    ask.button("Add a note for all questions").click()
    ask.root.get_by_role("textbox", name="Note for all questions", exact=True).fill("Ship on Friday.")

    page.add_script_tag(content=axe_source)
    violations = run_axe_serious(page, ask.root)
    assert violations == [], "notes open:\n" + json.dumps(violations, indent=1)

    ask.choose(DB, "SQLite")
    ask.choose(CHECKS, "Lint")
    ask.submit()
    result = host.read_line(1, "RESULT")
    assert result == {
        "status": "answered",
        "answers": {DB: "SQLite", CHECKS: "Lint"},
        "notes": {DB: "Only 2 users <b>for now</b>.\nRevisit in May."},
        "note": "Ship on Friday.",
    }
    ask.expect_resolved("answered", {DB: "SQLite"})
    expect(ask.root).to_contain_text("Note: Only 2 users <b>for now</b>.")
    expect(ask.root).to_contain_text("Ship on Friday.")
    expect(ask.root.locator("b")).to_have_count(0)


SNIPPET = "cache = LRU(maxsize=128)\n\n    # oldest entries go first\n| size | hits |\n|  128 |  97% |"
CACHE = "Which cache should we use?"
CACHE_CALL = (
    f"nbask.ask({CACHE!r}, [nbask.Option(label='LRU (Recommended)', preview={SNIPPET!r}), "
    f"{{'label': 'TTL', 'preview': {HOSTILE_MARKUP!r}}}, 'None'], header='Cache', timeout=600)"
)


def test_previews_show_beside_the_options_as_literal_text(host: Host, axe_source):
    ask = open_question(host, CACHE_CALL)
    page = host.page
    region = ask.root.get_by_role("region", name="Preview", exact=False)
    expect(region).to_have_count(1)
    options = ask.question(CACHE).locator(".nbask-options")
    before = options.bounding_box()

    ask.option(CACHE, "TTL").focus()
    expect(ask.root.get_by_role("region", name="Preview of TTL", exact=True)).to_have_text(HOSTILE_MARKUP)
    expect(region.locator("img")).to_have_count(0)
    assert page.evaluate("window.__nbaskPwned") is None

    ask.option(CACHE, "LRU (Recommended)").focus()
    shown = ask.root.get_by_role("region", name="Preview of LRU (Recommended)", exact=True)
    assert shown.evaluate("el => el.textContent") == SNIPPET  # kept as given, indentation and all
    assert shown.evaluate("el => getComputedStyle(el).fontFamily") != page.evaluate(
        "getComputedStyle(document.body).fontFamily"
    )  # monospace, not the UI font

    # Beside the options where there is room; switching previews moves nothing.
    after = options.bounding_box()
    box = region.bounding_box()
    assert before is not None
    assert after is not None
    assert box is not None
    assert after == before, (before, after)
    assert box["x"] >= after["x"] + after["width"] - 1, (box, after)

    # Chosen, then focus elsewhere: the chosen option's preview stays.
    ask.option(CACHE, "TTL").check()
    ask.root.get_by_role("button", name="Add a note", exact=True).focus()
    expect(ask.root.get_by_role("region", name="Preview of TTL", exact=True)).to_have_text(HOSTILE_MARKUP)

    page.add_script_tag(content=axe_source)
    violations = run_axe_serious(page, ask.root)
    assert violations == [], "preview shown:\n" + json.dumps(violations, indent=1)

    ask.submit()
    assert host.read_line(1, "RESULT")["answers"] == {CACHE: "TTL"}
    assert page.evaluate("window.__nbaskPwned") is None


def test_a_narrow_output_stacks_the_preview_below_the_options(host: Host):
    ask = open_question(host, CACHE_CALL)
    page = host.page
    # A narrow page: the output is narrower than the options and the preview side by side.
    page.set_viewport_size({"width": 480, "height": 900})
    page.wait_for_function("el => el.getBoundingClientRect().width < 540", arg=ask.root.element_handle())
    ask.option(CACHE, "LRU (Recommended)").focus()
    region = ask.root.get_by_role("region", name="Preview of LRU (Recommended)", exact=True)
    options = ask.question(CACHE).locator(".nbask-options").bounding_box()
    box = region.bounding_box()
    assert options is not None
    assert box is not None
    assert box["y"] >= options["y"] + options["height"] - 1, (box, options)
    root = ask.root.bounding_box()
    assert root is not None
    assert box["x"] + box["width"] <= root["x"] + root["width"] + 1  # fits, no overflow


# -- VS Code: every theme kind ---------------------------------------------------------------------

THEMED_CACHE = "Which cache should we use first?"
DIFF = "cache = LRU(maxsize=128)\n    # oldest entries go first\n- ttl=60\n+ ttl=300"
THEMED = [
    QUESTIONS[0],
    {
        "question": THEMED_CACHE,
        "header": "Cache",
        "options": [
            {"label": "LRU (Recommended)", "description": "Bounded memory.", "preview": DIFF},
            {"label": "TTL", "preview": HOSTILE_MARKUP},
            {"label": "None"},
        ],
    },
]


def _axe_in_every_theme(host: VSCodeHost, ask: AskWidget, shots: str = "") -> dict[str, list[str]]:
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


def test_notes_and_previews_in_every_vscode_theme(open_host, axe_source):
    host = open_host("light")
    host.run_ok("import json, nbask")
    cell = host.run(f"ans = await nbask.ask_questions({THEMED!r}, timeout=600)\n" + PRINT_NOTES)
    ask = AskWidget(host.widget(cell))
    ask.expect_pending()

    ask.option(THEMED_CACHE, "TTL").focus()
    expect(ask.root.get_by_role("region", name="Preview of TTL", exact=True)).to_have_text(HOSTILE_MARKUP)
    ask.option(THEMED_CACHE, "LRU (Recommended)").check()
    ask.option(DB, "SQLite").check()  # focus leaves the question: the chosen option's preview stays
    shown = ask.root.get_by_role("region", name="Preview of LRU (Recommended)", exact=True)
    assert shown.evaluate("el => el.textContent") == DIFF
    ask.question(DB).get_by_role("button", name="Add a note", exact=True).click()
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
        "answers": {DB: "SQLite", THEMED_CACHE: "LRU (Recommended)"},
        "notes": {DB: "Only for the demo."},
        "note": "Ship on Friday.",
    }
    ask.expect_resolved("answered", {DB: "SQLite"})
    found = _axe_in_every_theme(host, ask)
    assert not found, "resolved with notes:\n" + json.dumps(found, indent=1)
