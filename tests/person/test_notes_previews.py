"""Notes and option previews in JupyterLab and Notebook 7.

Notes: "Add a note" opens a textbox per question ("Note for <header>") and one for the set
("Note for all questions"); the kernel's ``Answer.notes`` and ``Answer.note`` carry them.
Previews: an option's ``preview`` is shown in a region named "Preview of <label>" beside the
options while the option is focused or chosen, as literal text (hostile markup stays text, no
script runs), without moving the options. axe finds nothing serious in either.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from support.ask_widget import HOSTILE_MARKUP, PRINT_NOTES, AskWidget, read_result, run_axe_serious

pytestmark = pytest.mark.browser

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


def open_question(open_notebook, call: str):
    nb = open_notebook(["import json, nbask", f"ans = await {call}\n" + PRINT_NOTES])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    return nb, ask


def test_notes_for_a_question_and_the_set_reach_the_kernel(open_notebook, page, axe_source):
    nb, ask = open_question(open_notebook, f"nbask.ask_questions({QUESTIONS!r}, timeout=600)")
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
    result = read_result(nb, 1)
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


def test_previews_show_beside_the_options_as_literal_text(open_notebook, page, axe_source):
    nb, ask = open_question(open_notebook, CACHE_CALL)
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
    assert read_result(nb, 1)["answers"] == {CACHE: "TTL"}
    assert page.evaluate("window.__nbaskPwned") is None


def test_a_narrow_output_stacks_the_preview_below_the_options(open_notebook, page):
    _nb, ask = open_question(open_notebook, CACHE_CALL)
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
