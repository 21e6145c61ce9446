// A keyboard user in JupyterLab / Notebook 7: the notebook's own keys pass through the widget
// (js/focus/hostkeys.ts), focus goes back to the cell once a request ends (js/focus/focusreturn.ts), one
// Escape never dismisses (js/shell/discard.ts), autofocus never takes focus from someone typing
// (js/focus/autofocus.ts), and focus on an option is not a choice (js/parts/confirm.ts, option.css).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { getByRole } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mayTakeFocusFrom } from "./autofocus";
import { confirmMessage, questionName } from "../parts/confirm";
import { cellOf } from "./focusreturn";
import { SUPPRESS_ATTRIBUTE, isHostKey } from "./hostkeys";
import {
  DB, FEATURES, keydown, mount, otherText, pendingModel, responseWrites, sent, timedOut, unmountAll, view,
  type FakeModel, type Mounted,
} from "../testing/harness";

const here = dirname(fileURLToPath(import.meta.url));
const extra: Mounted[] = [];

afterEach(() => {
  for (const m of extra.splice(0)) m.cleanup();
  unmountAll();
  document.body.replaceChildren();
});

function key(init: KeyboardEventInit & { key: string }, target?: Element): KeyboardEvent {
  const event = new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init });
  if (target) target.dispatchEvent(event);
  return event;
}

/** A notebook: the widget's output in cell 0, a cell 1 below; `before` has focus first. */
async function inNotebook(before: "cell1" | "editor1" | "body") {
  const notebook = document.createElement("div");
  notebook.className = "jp-Notebook jp-mod-commandMode";
  const cells = [0, 1].map((i) => {
    const cell = document.createElement("div");
    cell.className = "jp-Cell";
    cell.tabIndex = -1;
    cell.dataset.index = String(i);
    notebook.append(cell);
    return cell;
  });
  const editor = document.createElement("div");
  editor.setAttribute("contenteditable", "true");
  editor.className = "cm-content";
  editor.tabIndex = 0; // jsdom focuses no contenteditable without it
  cells[1]?.append(editor);
  document.body.append(notebook);
  cells[1]?.classList.add("jp-mod-active");
  if (before === "cell1") cells[1]?.focus();
  if (before === "editor1") editor.focus();
  const model = pendingModel([DB]);
  const mounted = mount(model, { attach: false });
  extra.push(mounted);
  cells[0]?.append(mounted.host);
  if (before !== "editor1") await vi.waitFor(() => expect(mounted.root.contains(document.activeElement)).toBe(true));
  return { model, root: mounted.root, cells, editor, user: userEvent.setup() };
}

describe("the notebook's keys pass through the widget", () => {
  it("are run, save, the palette and interrupt; never the widget's own keys", () => {
    const radio = document.createElement("input");
    radio.type = "radio";
    const text = document.createElement("input");
    document.body.append(radio, text);
    const host = (init: KeyboardEventInit & { key: string }, target: Element = radio): boolean =>
      isHostKey(key(init, target));
    expect(host({ key: "Enter", shiftKey: true })).toBe(true);
    expect(host({ key: "Enter", ctrlKey: true })).toBe(true);
    expect(host({ key: "Enter", metaKey: true })).toBe(true);
    expect(host({ key: "Enter", altKey: true })).toBe(true);
    expect(host({ key: "s", ctrlKey: true })).toBe(true);
    expect(host({ key: "s", metaKey: true })).toBe(true);
    expect(host({ key: "C", ctrlKey: true, shiftKey: true })).toBe(true);
    expect(host({ key: "i" })).toBe(true);
    expect(host({ key: "I" })).toBe(true);
    // Typing in a text box: "i" is a letter.
    expect(host({ key: "i" }, text)).toBe(false);
    expect(host({ key: "Enter", shiftKey: true }, text)).toBe(true);
    for (const k of ["1", "2", "3", "4", "ArrowDown", "ArrowUp", " ", "Enter", "Escape", "Tab", "j", "d", "a", "m"]) {
      expect(host({ key: k }), k).toBe(false);
    }
    expect(host({ key: "a", ctrlKey: true }, text)).toBe(false);
    expect(host({ key: "ArrowLeft", ctrlKey: true }, text)).toBe(false);
    expect(host({ key: "Enter", shiftKey: true, isComposing: true }, text)).toBe(false);
  });

  it("are seen by the notebook's capture-phase handler without the suppress attribute; the widget's keys with it", () => {
    const { root } = view(pendingModel([DB]));
    const seen: [string, boolean][] = [];
    const listener = (event: KeyboardEvent): void => {
      const target = event.target instanceof Element ? event.target : null;
      seen.push([event.key, target?.closest(`[${SUPPRESS_ATTRIBUTE}]`) != null]);
    };
    // Notebook 7 handles shortcuts on the document in the capture phase.
    document.addEventListener("keydown", listener, true);
    const radio = getByRole(root, "radio", { name: /PostgreSQL/ });
    key({ key: "ArrowDown" }, radio);
    key({ key: "Enter", shiftKey: true }, radio);
    key({ key: "1" }, radio);
    key({ key: "s", ctrlKey: true }, radio);
    key({ key: "i" }, otherText(root, DB.question));
    key({ key: "i" }, radio);
    document.removeEventListener("keydown", listener, true);
    expect(seen).toEqual([
      ["ArrowDown", true],
      ["Enter", false],
      ["1", true],
      ["s", false],
      ["i", true],
      ["i", false],
    ]);
  });

  it("are gated by one window listener for every copy of the module (one per model in anywidget)", async () => {
    view(pendingModel([DB]));
    const added = vi.spyOn(window, "addEventListener");
    vi.resetModules();
    const copy = await import("./hostkeys");
    copy.installShortcutGate();
    copy.installShortcutGate();
    expect(added.mock.calls.filter(([type]) => type === "keydown")).toHaveLength(0);
    added.mockRestore();
  });

  it("reach JupyterLab's bubbling handler: Shift+Enter and interrupt do, digits and arrows do not", () => {
    const { root } = view(pendingModel([DB]));
    const seen: string[] = [];
    const listener = (event: KeyboardEvent): void => void seen.push(`${event.shiftKey ? "Shift+" : ""}${event.key}`);
    document.addEventListener("keydown", listener);
    const radio = getByRole(root, "radio", { name: /PostgreSQL/ });
    for (const init of [{ key: "Enter", shiftKey: true }, { key: "i" }, { key: "1" }, { key: "ArrowDown" }, { key: "Escape" }]) {
      key(init, radio);
    }
    document.removeEventListener("keydown", listener);
    expect(seen).toEqual(["Shift+Enter", "i"]);
  });
});

describe("focus once a request ends", () => {
  it.each([
    ["Submit", async (u: ReturnType<typeof userEvent.setup>, root: HTMLElement) => {
      await u.keyboard("{ArrowDown}");
      await u.click(getByRole(root, "button", { name: "Submit" }));
    }],
    ["Enter", async (u: ReturnType<typeof userEvent.setup>) => u.keyboard("{ArrowDown}{Enter}")],
    ["Escape twice", async (u: ReturnType<typeof userEvent.setup>) => u.keyboard("{Escape}{Escape}")],
    ["Dismiss", async (u: ReturnType<typeof userEvent.setup>, root: HTMLElement) => {
      await u.click(getByRole(root, "button", { name: "Dismiss" }));
    }],
  ])("goes back to the cell the person was in (%s)", async (_, end) => {
    const { model, root, cells, user } = await inNotebook("cell1");
    await end(user, root);
    expect(responseWrites(model)).toHaveLength(1);
    expect(document.activeElement).toBe(cells[1]);
  });

  it.each([
    ["its time limit passes", (model: FakeModel) => {
      model.kernelUpdate({ _deadline_ms: Date.now() - 1 });
      timedOut(model);
    }],
    ["the kernel times it out", timedOut],
    ["the kernel is interrupted", (model: FakeModel) => model.kernelUpdate({ _status: "cancelled", _result: {} })],
    ["another view answers it", (model: FakeModel) => {
      const other = view(model);
      getByRole(other.root, "radio", { name: /SQLite/ }).click();
      getByRole(other.root, "button", { name: "Submit" }).click();
      expect(sent(model).action).toBe("submit");
      model.kernelUpdate({ _status: "answered", _result: { answers: { [DB.question]: "SQLite" } } });
    }],
  ])("goes back to the cell the person was in when it ends without them: %s", async (_, end) => {
    const { model, root, cells } = await inNotebook("cell1");
    end(model);
    expect(root.dataset.status).not.toBe("pending");
    expect(document.activeElement).toBe(cells[1]);
  });

  it("stays where it is when it is outside the widget as the request ends", async () => {
    const { model, root, editor } = await inNotebook("editor1");
    model.kernelUpdate({ _deadline_ms: Date.now() - 1 });
    timedOut(model);
    expect(root.dataset.status).toBe("timeout");
    expect(document.activeElement).toBe(editor);
  });

  it("goes back to the cell when the control that had it went away (focus dropped to the body)", async () => {
    const { model, root, cells } = await inNotebook("cell1");
    const focused = document.activeElement as HTMLElement;
    expect(root.contains(focused)).toBe(true);
    // What a browser does as a focused control is removed or disabled: focus falls to the body.
    focused.blur();
    expect(document.activeElement).toBe(document.body);
    model.kernelUpdate({ _status: "cancelled", _result: {} });
    expect(document.activeElement).toBe(cells[1]);
  });

  it("goes back to the cell the person was typing in after a click, though the notebook focused the widget's cell on the press", async () => {
    const { model, root, cells, editor, user } = await inNotebook("editor1");
    expect(document.activeElement).toBe(editor);
    // What JupyterLab's bubbling mousedown handler does for a press in a cell's output.
    cells[0]?.parentElement?.addEventListener("mousedown", () => cells[0]?.focus());
    await user.click(getByRole(root, "radio", { name: /SQLite/ }));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(responseWrites(model)).toHaveLength(1);
    expect(document.activeElement).toBe(cells[1]);
  });

  it("goes to the widget's own cell when the person was in none", async () => {
    const { root, cells, user } = await inNotebook("body");
    cells[1]?.classList.remove("jp-mod-active");
    cells[0]?.classList.add("jp-mod-active");
    // The person clicks into the widget from the page's body.
    await user.keyboard("{Escape}{Escape}");
    expect(root.isConnected).toBe(true);
    // The notebook's active cell when the widget took focus was cell 1.
    expect(document.activeElement).toBe(cells[1]);
  });

  it("outside a notebook, stays on the widget and lands on its resolved block", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const { root } = view(model);
    await user.keyboard("{Escape}{Escape}");
    expect(sent(model).action).toBe("dismiss");
    expect(root.contains(document.activeElement)).toBe(true);
    model.kernelUpdate({ _status: "dismissed" });
    expect(document.activeElement).toBe(root.querySelector(".nbask-resolved"));
  });

  it("outside a notebook, lands on the resolved block when the time limit ends it", () => {
    const model = pendingModel([DB]);
    const { root } = view(model);
    expect(root.contains(document.activeElement)).toBe(true);
    model.kernelUpdate({ _deadline_ms: Date.now() - 1 });
    expect(root.contains(document.activeElement)).toBe(true);
    timedOut(model);
    expect(document.activeElement).toBe(root.querySelector(".nbask-resolved"));
  });

  it("finds the cell of what had focus, or the notebook's active cell", () => {
    const notebook = document.createElement("div");
    notebook.className = "jp-Notebook";
    notebook.innerHTML = '<div class="jp-Cell"><span id="a"></span></div><div class="jp-Cell jp-mod-active"><div id="root"></div></div>';
    document.body.append(notebook);
    const root = notebook.querySelector<HTMLElement>("#root") as HTMLElement;
    expect(cellOf(notebook.querySelector("#a"), root)).toBe(notebook.firstElementChild);
    expect(cellOf(document.body, root)).toBe(notebook.lastElementChild);
    expect(cellOf(notebook, root)).toBe(notebook.lastElementChild);
    expect(cellOf(document.body, document.createElement("div"))).toBeNull();
  });
});

describe("Escape", () => {
  it("on an untouched question dismisses at once, as Dismiss does in one click", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    view(model);
    await user.keyboard("{Escape}");
    expect(sent(model).action).toBe("dismiss");
    const second = pendingModel([DB]);
    const other = view(second);
    await user.click(getByRole(other.root, "button", { name: "Dismiss" }));
    expect(sent(second).action).toBe("dismiss");
  });
});

describe("autofocus", () => {
  it("never takes focus from another cell's editor", async () => {
    const { root, editor } = await inNotebook("editor1");
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(document.activeElement).toBe(editor);
    expect(root.contains(document.activeElement)).toBe(false);
  });

  it("takes it only from the body, its own cell, or nothing editable", () => {
    const root = document.createElement("div");
    const mine = document.createElement("button");
    root.append(mine);
    const area = document.createElement("textarea");
    const select = document.createElement("select");
    const frame = document.createElement("iframe");
    const box = document.createElement("div");
    box.setAttribute("role", "textbox");
    const cell = document.createElement("div");
    cell.className = "jp-Cell";
    const other = document.createElement("div");
    other.className = "nbask";
    const otherButton = document.createElement("button");
    other.append(otherButton);
    document.body.append(root, area, select, frame, box, cell, other);
    expect(mayTakeFocusFrom(null, root)).toBe(true);
    expect(mayTakeFocusFrom(document.body, root)).toBe(true);
    expect(mayTakeFocusFrom(mine, root)).toBe(true);
    expect(mayTakeFocusFrom(cell, root)).toBe(true);
    for (const busy of [area, select, frame, box, otherButton]) expect(mayTakeFocusFrom(busy, root)).toBe(false);
  });
});

describe("no answer sent by accident", () => {
  it("Enter, Enter on an untouched question sends nothing: focus lands on Keep answering", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB, FEATURES]);
    const { root } = view(model);
    await user.keyboard("{Enter}");
    expect(document.activeElement).toBe(getByRole(root, "button", { name: "Keep answering" }));
    expect(root.querySelector(".nbask-confirm-text")?.textContent).toContain("“DB”, “Features”");
    await user.keyboard("{Enter}");
    expect(responseWrites(model)).toEqual([]);
    keydown(root, "Enter");
    expect(responseWrites(model)).toEqual([]);
  });

  it("names questions by header, else by their (shortened) text", () => {
    expect(questionName("DB", "Which database?")).toBe("DB");
    expect(questionName(" ", "Which database?")).toBe("Which database?");
    expect(questionName("", "x".repeat(100))).toBe(`${"x".repeat(59)}…`);
    expect(confirmMessage(1, ["DB"])).toBe("Not answered: “DB”. 1 question without an answer will be sent as [No preference].");
  });

  it("draws focus on an option apart from the checked look", () => {
    const css = readFileSync(join(here, "..", "styles", "option.css"), "utf8");
    expect(css).toMatch(/\.nbask-option:has\(> \.nbask-input:focus-visible\)\s*\{[^}]*outline: 2px dashed/);
    expect(css).toMatch(/\.nbask-option > \.nbask-input:focus-visible\s*\{[^}]*outline: none/);
    expect(css).toMatch(/\.nbask-option:has\(> \.nbask-input:checked\)\s*\{[^}]*border-color/);
  });
});
