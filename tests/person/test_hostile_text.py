"""LLM-written text is shown as text: markup and scripts literally, never run; long words,
right-to-left text, emoji and a 10 kB description stay inside the output area; in every host.
Each test takes `host` (a hosts.Host) from its suite.
"""

from __future__ import annotations

from playwright.sync_api import expect
from support.ask_widget import AskWidget
from support.hosts import Host, open_asking

IMG = "<img src=x onerror=window.__pwned=1>"
SCRIPT = "<script>window.__pwned=1</script>"
LINK = "<a href=javascript:window.__pwned=1>click me</a>"
STYLE = "<style>.nbask{display:none}</style>"
IFRAME = "<iframe src=javascript:window.__pwned=1></iframe>"
LONG_WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 12  # 540 characters, no break
RTL_QUESTION = "איזה מסד נתונים נבחר? أي قاعدة بيانات نستخدم؟"
EMOJI = "PostgreSQL 🐘🚀👍🏽 (Recommended)"
DESCRIPTION = ("A very long description with words and a " + "longlonglongword" * 4 + " ") * 160 + "END-OF-DESCRIPTION"

Q_MARKUP = f"{IMG} Which <b>format</b> should we export?"
Q_LONG = LONG_WORD + "?"

QUESTIONS = [
    {
        "question": Q_MARKUP,
        "header": "<i>x</i>",
        "options": [
            {"label": SCRIPT, "description": STYLE},
            {"label": LINK, "description": "[markdown link](javascript:window.__pwned=1) **bold**"},
            {"label": LONG_WORD, "description": LONG_WORD},
        ],
    },
    {
        "question": RTL_QUESTION,
        "header": "מסד 🗄️",
        "options": [
            {"label": EMOJI, "description": "😀 " * 50},
            {"label": "שלום עולם", "description": "مرحبا بالعالم"},
        ],
    },
    {
        "question": Q_LONG,
        "header": "Long",
        "options": [
            {"label": IFRAME, "description": DESCRIPTION},
            {"label": "{{7*7}} ${7*7}", "description": "&lt;b&gt;entities stay entities&lt;/b&gt;"},
        ],
    },
]

FORBIDDEN = "img, script, iframe, object, embed, a, b, i, style, link"


def _assert_no_markup_ran(host: Host, cell: int) -> None:
    assert host.page.evaluate("typeof window.__pwned") == "undefined"
    expect(host.output(cell).locator(FORBIDDEN)).to_have_count(0)


def _assert_fits(widget: AskWidget) -> None:
    """The widget and everything in it stay within the cell's output area."""
    overflow = widget.root.evaluate(
        """(root) => {
          const area = root.closest('.jp-OutputArea-output, .cell-outputs') || root.parentElement;
          const limit = area.getBoundingClientRect();
          const box = root.getBoundingClientRect();
          const sticking = [...root.querySelectorAll('*')]
            .filter(e => e.getClientRects().length && !e.closest('.nbask-sr-only'))
            .map(e => [e, e.getBoundingClientRect()])
            .filter(([e, r]) => r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1))
            .map(([e, r]) => `${e.tagName}.${e.className} ${Math.round(r.left)}-${Math.round(r.right)}`);
          return {
            root: [Math.round(box.left), Math.round(box.right)],
            area: [Math.round(limit.left), Math.round(limit.right)],
            scroll: [root.scrollWidth, root.clientWidth],
            sticking: sticking.slice(0, 5),
          };
        }"""
    )
    root_left, root_right = overflow["root"]
    area_left, area_right = overflow["area"]
    assert area_left - 1 <= root_left, overflow
    assert root_right <= area_right + 1, overflow
    assert overflow["scroll"][0] <= overflow["scroll"][1] + 1, overflow
    assert overflow["sticking"] == [], overflow


def test_hostile_text_is_rendered_literally_and_fits(host: Host):
    ask = open_asking(host, f"nbask.ask_questions({QUESTIONS!r}, timeout=None)")

    # Each question is a group named by its text, markup and all.
    for question in (Q_MARKUP, RTL_QUESTION, Q_LONG):
        expect(ask.question(question)).to_be_visible()
    for text in (
        IMG,
        SCRIPT,
        LINK,
        STYLE,
        IFRAME,
        "<b>format</b>",
        "<i>x</i>",
        "{{7*7}} ${7*7}",
        "&lt;b&gt;entities stay entities&lt;/b&gt;",
        "[markdown link](javascript:window.__pwned=1)",
    ):
        expect(ask.root).to_contain_text(text)
    expect(ask.option(Q_MARKUP, SCRIPT)).to_be_visible()
    expect(ask.option(Q_MARKUP, LONG_WORD)).to_be_visible()
    expect(ask.root).to_contain_text("END-OF-DESCRIPTION")
    expect(ask.root).to_contain_text("🐘🚀👍🏽")
    expect(ask.root).to_be_visible()  # the <style> text hid nothing
    rtl = ask.question(RTL_QUESTION).get_by_text(RTL_QUESTION, exact=True)
    expect(rtl).to_be_visible()
    assert rtl.evaluate("e => e.matches(':dir(rtl)')"), "right-to-left question text is not laid out RTL"
    _assert_no_markup_ran(host, 1)
    _assert_fits(ask)

    ask.choose(Q_MARKUP, SCRIPT)
    ask.choose(RTL_QUESTION, "PostgreSQL")
    ask.option(Q_LONG, "Other", exact=True).check()  # its textbox appears once chosen
    ask.other(Q_LONG).fill(IMG)
    ask.submit()
    result = host.read_line(1, "RESULT")
    assert result["answers"] == {Q_MARKUP: SCRIPT, RTL_QUESTION: EMOJI, Q_LONG: IMG}
    ask.expect_resolved("answered")
    for text in (Q_MARKUP, SCRIPT, IMG, RTL_QUESTION, "🐘🚀👍🏽"):
        expect(ask.root).to_contain_text(text)
    _assert_no_markup_ran(host, 1)
    _assert_fits(ask)


def test_other_text_is_capped_with_a_visible_limit(host: Host):
    """A 5,000-character paste into Other keeps the first 4,000 (the contract's limit), the
    limit is shown, and exactly that text reaches the kernel.
    """
    limit = 4000
    question = "Anything else the agent should know?"
    ask = open_asking(host, f"nbask.ask({question!r}, ['Nothing', 'Ask me later'])")
    ask.option(question, "Other", exact=True).check()  # its textbox appears once chosen
    other = ask.other(question)
    other.focus()
    host.page.keyboard.insert_text("x" * (limit + 1000))  # like a paste: one input event
    assert len(other.input_value()) == limit
    expect(ask.root).to_contain_text(f"{limit}")
    ask.submit()
    result = host.read_line(1, "RESULT")
    assert result["answers"] == {question: "x" * limit}
