"""nbask follows VS Code's colour theme, in each of the four theme kinds.

Its colours, font, buttons, badge and focus ring come from the webview's --vscode-* variables (not from the
JupyterLab light variables that VS Code's ipywidgets bundle puts on :root), and axe-core finds no
colour-contrast or other serious/critical violation. One page, one question; the theme is
switched live as VS Code does. Screenshots go to test-artifacts/vscode-<theme>.png, and to
docs/ with NBASK_UPDATE_DOCS_SCREENSHOTS=1. JupyterLab's light and dark themes are checked by
test_screenshots.py, through support/light_and_dark.py.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest
from playwright.sync_api import expect
from support.ask_widget import PRINT_DECISION, PRINT_RESULT, ApprovalView, AskWidget, run_axe_serious
from support.vscode.host import THEMES

pytestmark = pytest.mark.vscode

REPO = pathlib.Path(__file__).resolve().parents[2]
QUESTION = "Which database should the app use?"
SECOND = "Which checks should run before deploying?"
CALL = (
    "ans = await nbask.ask_questions([\n"
    f"  {{'question': {QUESTION!r}, 'header': 'Database', 'options': [\n"
    "     {'label': 'PostgreSQL (Recommended)', 'description': 'Relational, runs in the team cluster.'},\n"
    "     {'label': 'SQLite', 'description': 'One file, nothing to run.'}]},\n"
    f"  {{'question': {SECOND!r}, 'header': 'Checks', 'multi_select': True, 'options': [\n"
    "     {'label': 'Unit tests', 'description': 'About a minute.'},\n"
    "     {'label': 'Browser tests', 'description': 'About five minutes.'}]},\n"
    "], timeout=None)\n" + PRINT_RESULT
)

# Computed styles of the widget's parts, and the theme's values normalised by the browser.
READ_STYLES = """([root, vars]) => {
  const probe = document.createElement('div');
  document.body.appendChild(probe);
  const norm = (value) => { probe.style.color = ''; probe.style.color = value; return getComputedStyle(probe).color; };
  const css = (el) => getComputedStyle(el);
  const submit = [...root.querySelectorAll('button')].find(b => b.textContent.trim() === 'Submit');
  const chip = root.querySelector('.nbask-chip');
  const badge = root.querySelector('.nbask-badge');
  const theme = {};
  for (const [k, v] of Object.entries(vars)) theme[k] = norm(v);
  probe.remove();
  return {
    theme,
    fg: css(root).color, bg: css(root).backgroundColor, font: css(root).fontFamily, size: css(root).fontSize,
    border: css(root).borderTopColor,
    submitBg: css(submit).backgroundColor, submitFg: css(submit).color, submitBorder: css(submit).borderTopColor,
    chipBg: css(chip).backgroundColor, chipFg: css(chip).color,
    badgeBg: css(badge).backgroundColor, badgeFg: css(badge).color,
  };
}"""


STRIP_VSCODE_MARKS = """() => {
  const body = document.body;
  body.className = '';
  for (const key of ['vscodeThemeKind', 'vscodeThemeName', 'vscodeThemeId']) delete body.dataset[key];
}"""
JP_COLOURS = """(root) => {
  const probe = document.createElement('div');
  root.appendChild(probe);
  probe.style.color = 'var(--jp-ui-font-color1)';
  probe.style.backgroundColor = 'var(--jp-layout-color1)';
  const jp = getComputedStyle(probe);
  const result = {fg: getComputedStyle(root).color, bg: getComputedStyle(root).backgroundColor,
                  jpFg: jp.color, jpBg: jp.backgroundColor};
  probe.remove();
  return result;
}"""


def _write_screenshot(host, cell: int, theme: str) -> None:
    artifacts = REPO / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    names = [artifacts / f"vscode-{theme}.png"]
    if os.environ.get("NBASK_UPDATE_DOCS_SCREENSHOTS") == "1":
        names.append(REPO / "docs" / f"vscode-{theme}.png")
    # The card and a margin of the editor around it, as it sits in the notebook.
    box = host.widget(cell).bounding_box()
    assert box is not None
    margin = 16
    clip = {
        "x": max(box["x"] - margin, 0),
        "y": max(box["y"] - margin, 0),
        "width": box["width"] + 2 * margin,
        "height": box["height"] + 2 * margin,
    }
    host.page.mouse.move(0, 0)  # no hover effects in the picture
    source = host.cell(cell).locator(".cell-source")
    source.evaluate("e => { e.style.visibility = 'hidden'; }")  # the host's own cell source, not VS Code's
    shot = host.page.screenshot(clip=clip, animations="disabled")
    source.evaluate("e => { e.style.visibility = ''; }")
    for name in names:
        name.write_bytes(shot)


def _theme_problems(host, ask, name: str) -> list[str]:
    """What in the pending widget does not follow theme `name`, and axe's serious/critical findings."""
    colors = THEMES[name]["colors"]
    styles = host.page.evaluate(READ_STYLES, [ask.root.element_handle(), colors])
    want = styles["theme"]
    expected = {
        "text": ("fg", want["foreground"]),
        "background": ("bg", want["editor-background"]),
        "card border": ("border", want["widget-border"]),
        "header chip background": ("chipBg", want["badge-background"]),
        "header chip text": ("chipFg", want["badge-foreground"]),
        "Recommended badge background": ("badgeBg", want["badge-background"]),
        "Recommended badge text": ("badgeFg", want["badge-foreground"]),
        # High Contrast dark has no button background: VS Code draws its buttons on the editor
        # background with the contrast border.
        "Submit background": ("submitBg", want.get("button-background", want["editor-background"])),
        "Submit text": ("submitFg", want["button-foreground"]),
        "Submit border": ("submitBorder", want.get("button-border", want.get("button-background"))),
    }
    found = []
    for what, (key, value) in expected.items():
        if styles[key] != value:
            found.append(f"{what}: {styles[key]}, theme says {value}")
    if "system-ui" not in styles["font"] or "Helvetica" in styles["font"]:
        found.append(f"font: {styles['font']}, not the webview's")
    if styles["size"] != "13px":
        found.append(f"font size: {styles['size']}, not the webview's 13px")

    # The focus ring: keyboard focus on the first option shows the theme's focus colour.
    first = ask.option(QUESTION, "PostgreSQL")
    first.focus()
    ring = first.evaluate("el => getComputedStyle(el).outlineColor")
    if ring != want["focusBorder"]:
        found.append(f"focus ring: {ring}, theme says {want['focusBorder']}")

    violations = run_axe_serious(host.page, ask.root)
    found.extend(f"axe {v['id']} ({v['impact']}): {v['nodes'][:2]}" for v in violations)
    print(f"\n{name} ({THEMES[name]['label']}): axe serious/critical violations: {len(violations)}")  # noqa: T201
    return found


def test_follows_each_vscode_theme_kind(open_host, axe_source):
    host = open_host("light")
    host.run_ok("import json, nbask")
    cell = host.run(CALL)
    ask = AskWidget(host.widget(cell))
    ask.expect_pending()
    host.page.add_script_tag(content=axe_source)

    problems = {}
    for name, theme in THEMES.items():
        host.set_theme(name)
        expect(host.page.locator("body")).to_have_attribute("data-vscode-theme-kind", theme["kind"])
        found = _theme_problems(host, ask, name)
        _write_screenshot(host, cell, name)
        if found:
            problems[name] = found
    assert not problems, json.dumps(problems, indent=1)

    # The same page without VS Code's marks on <body> (a host that is not VS Code but loads the
    # same widget CSS): the JupyterLab variables apply again, as in JupyterLab.
    host.page.evaluate(STRIP_VSCODE_MARKS)
    outside = ask.root.evaluate(JP_COLOURS)
    assert outside["fg"] == outside["jpFg"], outside
    assert outside["bg"] == outside["jpBg"], outside
    host.set_theme("light")

    # The confirmation row (a question left empty) and the resolved block, in every theme.
    ask.choose(QUESTION, "SQLite")
    ask.submit()
    expect(ask.button("Send anyway")).to_be_visible()
    _expect_axe_clean_in_every_theme(host, ask, "confirming")
    ask.choose(SECOND, "Unit tests")
    ask.submit()
    assert host.read_result(cell)["answers"] == {QUESTION: "SQLite", SECOND: "Unit tests"}
    ask.expect_resolved("answered")
    _expect_axe_clean_in_every_theme(host, ask, "resolved")


def _expect_axe_clean_in_every_theme(host, ask, state: str) -> None:
    found = {}
    for name in THEMES:
        host.set_theme(name)
        violations = run_axe_serious(host.page, ask.root)
        if violations:
            found[name] = [f"{v['id']} ({v['impact']}): {v['nodes'][:2]}" for v in violations]
    assert not found, f"{state}: {json.dumps(found, indent=1)}"


def test_approval_follows_each_vscode_theme_kind(open_host, axe_source):
    host = open_host("light")
    host.run_ok("import json, nbask")
    cell = host.run("d = await nbask.approve('Run shell command', 'rm -rf build/', timeout=None)\n" + PRINT_DECISION)
    view = ApprovalView(host.widget(cell))
    view.expect_status("pending")
    host.page.add_script_tag(content=axe_source)
    _expect_axe_clean_in_every_theme(host, view, "approval pending")
    host.set_theme("hc-light")
    styles = view.button("Approve").evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]")
    assert styles == ["rgb(15, 74, 133)", "rgb(255, 255, 255)"], "Approve is VS Code's primary button (HC Light)"
    view.button("Edit").click()
    expect(view.textbox("Details")).to_be_visible()
    _expect_axe_clean_in_every_theme(host, view, "approval editing")
    view.button("Approve").click()
    host.read_decision(cell)
    view.expect_status("answered")
    _expect_axe_clean_in_every_theme(host, view, "approval resolved")
