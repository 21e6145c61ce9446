// The keyboard: first focus, arrows, Space, digits, Enter, Escape, Tab, IME, and keeping keys
// away from JupyterLab's shortcuts.
import { getByRole, within } from "@testing-library/dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DB, FakeModel, FEATURES, keydown, otherText, pendingModel, pendingView, responseWrites, sent, unmountAll, view } from "../testing/harness";
import type { Question } from "../contract/contract";

afterEach(() => {
  unmountAll();
  vi.useRealTimers();
  document.body.replaceChildren();
});

const PLAIN: Question = {
  question: "Proceed?",
  header: "",
  options: [
    { label: "Yes", description: "" },
    { label: "No", description: "" },
    { label: "Later", description: "" },
  ],
  multi_select: false,
};

function input(root: HTMLElement, role: "radio" | "checkbox", name: string): HTMLInputElement {
  return getByRole<HTMLInputElement>(root, role, { name });
}
function checkedLabels(root: HTMLElement): string[] {
  return [...root.querySelectorAll<HTMLInputElement>("input:checked")].map((i) => i.closest(".nbask-option")?.textContent ?? "");
}

describe("first focus", () => {
  it("goes to the recommended option of the first question, which stays unchosen", () => {
    const { root } = view(pendingModel([FEATURES, DB]));
    expect(document.activeElement).toBe(input(root, "checkbox", "Auth"));
    // Focus on nothing: a widget never takes it from another nbask widget (js/focus/autofocus.ts).
    (document.activeElement as HTMLElement).blur();
    const other = view(pendingModel([DB, FEATURES]));
    const recommended = input(other.root, "radio", "PostgreSQL (Recommended)");
    expect(document.activeElement).toBe(recommended);
    expect(recommended.checked).toBe(false);
  });

  it("is not taken from another nbask widget: a card shown beside the one the person is in", () => {
    const { root } = view(pendingModel([FEATURES]));
    const auth = input(root, "checkbox", "Auth");
    expect(document.activeElement).toBe(auth);
    view(pendingModel([DB]));
    expect(document.activeElement).toBe(auth);
  });

  it("is not taken again when the view re-renders", () => {
    const model = pendingModel([DB]);
    const { root } = view(model);
    const elsewhere = document.createElement("button");
    document.body.append(elsewhere);
    elsewhere.focus();
    model.kernelUpdate({ _deadline_ms: Date.now() + 60_000 });
    model.kernelUpdate({ _response: {} });
    expect(document.activeElement).toBe(elsewhere);
    expect(root.contains(document.activeElement)).toBe(false);
  });

  it("waits for the view to be attached, within the first two seconds", () => {
    vi.useFakeTimers();
    const m = view(pendingModel([DB]), { attach: false });
    vi.advanceTimersByTime(500);
    document.body.append(m.host);
    vi.advanceTimersByTime(100);
    expect(document.activeElement).toBe(input(m.root, "radio", "PostgreSQL (Recommended)"));
  });

  it("is not taken from a control the person reached while the view waited to be attached", () => {
    vi.useFakeTimers();
    const m = view(pendingModel([DB]), { attach: false });
    document.body.append(m.host);
    const sqlite = input(m.root, "radio", "SQLite");
    sqlite.focus();
    vi.advanceTimersByTime(200);
    expect(document.activeElement).toBe(sqlite);
  });

  it("is not taken by a view attached more than two seconds after it was created", () => {
    vi.useFakeTimers();
    const m = view(pendingModel([DB]), { attach: false });
    vi.advanceTimersByTime(2500);
    document.body.append(m.host);
    vi.advanceTimersByTime(1000);
    expect(m.root.contains(document.activeElement)).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("is not taken from someone typing elsewhere on the page", () => {
    const editor = document.createElement("textarea");
    document.body.append(editor);
    editor.focus();
    view(pendingModel([DB]));
    expect(document.activeElement).toBe(editor);

    const cell = document.createElement("div");
    cell.setAttribute("contenteditable", "true");
    cell.tabIndex = 0;
    document.body.append(cell);
    cell.focus();
    view(pendingModel([DB]));
    expect(document.activeElement).toBe(cell);
  });

  it("is not taken by a widget that is already resolved or sending", () => {
    view(new FakeModel({ _questions: [DB], _status: "answered" }));
    expect(document.activeElement).toBe(document.body);
    view(new FakeModel({ _questions: [DB], _response: { action: "dismiss", answers: [], view_id: "v", sent_at_ms: 1 } }));
    expect(document.activeElement).toBe(document.body);
  });
});

describe("arrow keys", () => {
  it("in a single-select question move focus and the selection together, wrapping through Other", async () => {
    const { user, root } = pendingView([PLAIN, DB]);
    const yes = input(root, "radio", "Yes");
    const no = input(root, "radio", "No");
    const later = input(root, "radio", "Later");
    const group = getByRole(root, "group", { name: "Proceed?" });
    const other = within(group).getByRole("radio", { name: "Other" });
    expect(document.activeElement).toBe(yes);
    expect(checkedLabels(root)).toEqual([]);
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(no);
    expect(checkedLabels(root)).toEqual(["No"]);
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(later);
    expect(checkedLabels(root)).toEqual(["Later"]);
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(other);
    expect((other as HTMLInputElement).checked).toBe(true);
    expect(later.checked).toBe(false);
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(yes);
    expect(checkedLabels(root)).toEqual(["Yes"]);
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(other);
    await user.keyboard("{ArrowLeft}");
    expect(document.activeElement).toBe(later);
    expect(checkedLabels(root)).toEqual(["Later"]);
  });

  it("send what the arrow reached: arrow, then Enter", async () => {
    const { user, root, model } = pendingView([PLAIN]);
    expect(document.activeElement).toBe(input(root, "radio", "Yes"));
    await user.keyboard("{ArrowDown}{ArrowDown}{Enter}");
    expect(sent(model).answers).toEqual([{ selected: ["Later"], other: null }]);
  });

  it("in a multi-select question move focus only; Space toggles", async () => {
    const { user, root } = pendingView([FEATURES]);
    const first = getByRole(root, "group", { name: FEATURES.question }).querySelector("input") as HTMLInputElement;
    first.focus();
    await user.keyboard("{ArrowDown}");
    expect(checkedLabels(root)).toEqual([]);
    await user.keyboard(" ");
    expect(checkedLabels(root)).toHaveLength(1);
  });

  it("stay inside the focused question", async () => {
    const { user, root } = pendingView([PLAIN, FEATURES]);
    input(root, "checkbox", "Export").focus();
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(within(getByRole(root, "group", { name: FEATURES.question })).getByRole("checkbox", { name: "Other" }));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(input(root, "checkbox", "Auth"));
    expect(checkedLabels(root)).toEqual([]);
  });

  it("in the Other textbox: Left/Right move the caret, Up/Down leave to the options", async () => {
    const { user, root } = pendingView([PLAIN]);
    const text = otherText(root, "Proceed?");
    await user.click(text);
    await user.keyboard("ac{ArrowLeft}b");
    expect(text.value).toBe("abc");
    expect(document.activeElement).toBe(text);
    const right = keydown(text, "ArrowRight");
    expect(right.defaultPrevented).toBe(false);
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(input(root, "radio", "Later"));
    text.focus();
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(input(root, "radio", "Yes"));
    expect(text.value).toBe("abc");
  });
});

describe("Space", () => {
  it("chooses the focused radio and toggles the focused checkbox", async () => {
    const { user, model, root } = pendingView([PLAIN, FEATURES]);
    await user.keyboard("{ArrowDown}");
    await user.keyboard(" ");
    expect(input(root, "radio", "No").checked).toBe(true);
    input(root, "checkbox", "Search").focus();
    await user.keyboard(" ");
    await user.keyboard("{ArrowDown}");
    await user.keyboard(" ");
    await user.keyboard(" ");
    await user.keyboard(" ");
    expect(input(root, "checkbox", "Search").checked).toBe(true);
    expect(input(root, "checkbox", "Export").checked).toBe(true);
    await user.keyboard("{Enter}");
    expect(sent(model).answers).toEqual([
      { selected: ["No"], other: null },
      { selected: ["Search", "Export"], other: null },
    ]);
  });

  it("is left to the browser (not prevented) on options", () => {
    const { root } = view(pendingModel([PLAIN]));
    expect(keydown(input(root, "radio", "Yes"), " ").defaultPrevented).toBe(false);
  });
});

describe("digits", () => {
  it("choose option N of the focused single-select question and move focus to it", async () => {
    const { user, root } = pendingView([PLAIN]);
    await user.keyboard("3");
    expect(input(root, "radio", "Later").checked).toBe(true);
    expect(document.activeElement).toBe(input(root, "radio", "Later"));
    await user.keyboard("1");
    expect(input(root, "radio", "Yes").checked).toBe(true);
    expect(input(root, "radio", "Later").checked).toBe(false);
  });

  it("toggle option N of a multi-select question", async () => {
    const { user, root } = pendingView([FEATURES]);
    await user.keyboard("2");
    await user.keyboard("3");
    expect(checkedLabels(root)).toEqual(["Search", "ExportCSV and Parquet."]);
    await user.keyboard("2");
    expect(input(root, "checkbox", "Search").checked).toBe(false);
  });

  it("act on the question that has focus only, and ignore numbers past the last option", async () => {
    const { user, root } = pendingView([PLAIN, DB]);
    input(root, "radio", "SQLite").focus();
    await user.keyboard("1");
    expect(input(root, "radio", "PostgreSQL (Recommended)").checked).toBe(true);
    expect(input(root, "radio", "Yes").checked).toBe(false);
    await user.keyboard("4");
    expect(input(root, "radio", "PostgreSQL (Recommended)").checked).toBe(true);
  });

  it("replace a typed Other answer in single select", async () => {
    const { user, root } = pendingView([PLAIN]);
    await user.type(otherText(root, "Proceed?"), "Maybe");
    input(root, "radio", "Yes").focus();
    await user.keyboard("2");
    expect(input(root, "radio", "No").checked).toBe(true);
    expect(within(getByRole(root, "group", { name: "Proceed?" })).getByRole<HTMLInputElement>("radio", { name: "Other" }).checked).toBe(false);
  });

  it("are plain typing in the Other textbox", async () => {
    const { user, root } = pendingView([PLAIN]);
    const text = otherText(root, "Proceed?");
    await user.click(text);
    await user.keyboard("12");
    expect(text.value).toBe("12");
    expect(input(root, "radio", "Yes").checked).toBe(false);
    expect(document.activeElement).toBe(text);
  });

  it("do nothing when focus is on a button", async () => {
    const { user, root } = pendingView([PLAIN]);
    getByRole(root, "button", { name: "Dismiss" }).focus();
    await user.keyboard("1");
    expect(checkedLabels(root)).toEqual([]);
  });
});

describe("Enter", () => {
  it("submits from an option when every question is answered", async () => {
    const { user, model } = pendingView([PLAIN]);
    await user.keyboard("2{Enter}");
    expect(sent(model)).toMatchObject({ action: "submit", answers: [{ selected: ["No"], other: null }] });
  });

  it("submits from the Other textbox", async () => {
    const { user, model, root } = pendingView([PLAIN]);
    await user.click(otherText(root, "Proceed?"));
    await user.keyboard("Tomorrow{Enter}");
    expect(sent(model).answers).toEqual([{ selected: [], other: "Tomorrow" }]);
  });

  it("with unanswered questions opens the confirm row on Keep answering: Enter, Enter sends nothing", async () => {
    const { user, model, root } = pendingView([PLAIN, DB]);
    await user.keyboard("{Enter}");
    expect(responseWrites(model)).toEqual([]);
    expect(document.activeElement).toBe(getByRole(root, "button", { name: "Keep answering" }));
    await user.keyboard("{Enter}");
    expect(responseWrites(model)).toEqual([]);
    expect(root.querySelector<HTMLElement>(".nbask-confirm")?.hidden).toBe(true);
    await user.keyboard("{Enter}");
    getByRole(root, "button", { name: "Send anyway" }).focus();
    await user.keyboard("{Enter}");
    expect(sent(model).answers).toEqual([
      { selected: [], other: null },
      { selected: [], other: null },
    ]);
  });

  it("on a focused button does what the button says", async () => {
    const { user, model, root } = pendingView([PLAIN]);
    await user.keyboard("1");
    getByRole(root, "button", { name: "Dismiss" }).focus();
    await user.keyboard("{Enter}");
    // An answer would be lost: Dismiss asks, with Keep editing focused; Enter keeps editing.
    expect(document.activeElement).toBe(getByRole(root, "button", { name: "Keep editing" }));
    await user.keyboard("{Enter}");
    expect(responseWrites(model)).toEqual([]);
    expect(document.activeElement).toBe(getByRole(root, "button", { name: "Dismiss" }));
    await user.keyboard("{Enter}{Tab}{Enter}");
    expect(sent(model).action).toBe("dismiss");
  });

  it("on Keep answering keeps answering", async () => {
    const { user, model, root } = pendingView([PLAIN]);
    await user.keyboard("{Enter}");
    getByRole(root, "button", { name: "Keep answering" }).focus();
    await user.keyboard("{Enter}");
    expect(responseWrites(model)).toEqual([]);
    expect(root.querySelector<HTMLElement>(".nbask-confirm")?.hidden).toBe(true);
    expect(document.activeElement).toBe(input(root, "radio", "Yes"));
  });

  it("that finishes an IME composition does not submit", () => {
    const model = pendingModel([PLAIN]);
    const { root } = view(model);
    const text = otherText(root, "Proceed?");
    keydown(text, "Enter", { isComposing: true });
    keydown(text, "Enter", { keyCode: 229 });
    expect(responseWrites(model)).toEqual([]);
    expect(root.querySelector<HTMLElement>(".nbask-confirm")?.hidden).toBe(true);
  });

  it("with a modifier is not ours", () => {
    const model = pendingModel([PLAIN]);
    const { root } = view(model);
    keydown(input(root, "radio", "Yes"), "Enter", { ctrlKey: true });
    keydown(input(root, "radio", "Yes"), "Enter", { shiftKey: true });
    expect(responseWrites(model)).toEqual([]);
    expect(root.querySelector<HTMLElement>(".nbask-confirm")?.hidden).toBe(true);
  });
});

describe("Escape", () => {
  it("dismisses at once when nothing was chosen or typed", async () => {
    const { user, model } = pendingView([PLAIN]);
    await user.keyboard("{Escape}");
    expect(sent(model)).toMatchObject({ action: "dismiss", answers: [] });
  });

  it("from the Other textbox with text typed asks first; Discard dismisses", async () => {
    const { user, model, root } = pendingView([PLAIN]);
    await user.click(otherText(root, "Proceed?"));
    // Something typed: Escape only asks (see draftsync.test.ts for the whole flow).
    await user.keyboard("abc{Escape}");
    expect(document.activeElement).toBe(getByRole(root, "button", { name: "Keep editing" }));
    expect(responseWrites(model)).toEqual([]);
    await user.click(getByRole(root, "button", { name: "Discard" }));
    expect(sent(model).action).toBe("dismiss");
  });

  it("closes the confirm row instead of dismissing", async () => {
    const { user, model, root } = pendingView([PLAIN]);
    await user.keyboard("{Enter}");
    expect(root.querySelector<HTMLElement>(".nbask-confirm")?.hidden).toBe(false);
    await user.keyboard("{Escape}");
    expect(root.querySelector<HTMLElement>(".nbask-confirm")?.hidden).toBe(true);
    expect(responseWrites(model)).toEqual([]);
    expect(document.activeElement).toBe(getByRole(root, "button", { name: "Submit" }));
    await user.keyboard("{Escape}{Escape}");
    expect(sent(model).action).toBe("dismiss");
  });

  it("does nothing once a response is on its way", async () => {
    const { user, model, root } = pendingView([PLAIN]);
    await user.keyboard("1{Enter}");
    keydown(root, "Escape");
    keydown(root, "Escape");
    keydown(root, "Enter");
    expect(responseWrites(model)).toHaveLength(1);
  });
});

describe("Tab", () => {
  it("walks the controls in document order, one stop per radio group", async () => {
    const { user } = pendingView([PLAIN, FEATURES]);
    const order: string[] = [];
    for (let i = 0; i < 9; i++) {
      order.push(describeControl(document.activeElement));
      await user.tab();
    }
    expect(order).toEqual([
      "radio Yes", // first focus; the rest of the radio group is skipped, as browsers do
      // Other's textbox is hidden until Other is chosen; in a set, each question's "Add a
      // note" ends its heading, so it comes before the question's options.
      "button Add a note",
      "checkbox Auth",
      "checkbox Search",
      "checkbox Export",
      "checkbox Other",
      "button Add a note for all questions",
      "button Submit",
      "button Dismiss",
    ]);
  });
});

/** Role and name of a control, enough to tell the widget's controls apart. */
function describeControl(element: Element | null): string {
  if (element instanceof HTMLButtonElement) return `button ${element.textContent}`;
  if (element instanceof HTMLTextAreaElement) return `text ${element.getAttribute("aria-label")}`;
  if (!(element instanceof HTMLInputElement)) return String(element?.tagName);
  if (element.type === "text") return `text ${element.getAttribute("aria-label")}`;
  const labelledBy = element.getAttribute("aria-labelledby");
  const name = labelledBy ? document.getElementById(labelledBy)?.textContent : element.labels?.[0]?.textContent;
  return `${element.type} ${name}`;
}

describe("shortcut isolation", () => {
  it("stops every keydown at the root so JupyterLab never sees it", () => {
    const { root, host } = view(pendingModel([PLAIN]));
    const seen = vi.fn();
    host.addEventListener("keydown", seen);
    document.addEventListener("keydown", seen);
    const text = otherText(root, "Proceed?");
    for (const key of ["a", "j", "ArrowDown", "Enter", "Escape", "1", " "]) {
      keydown(input(root, "radio", "No"), key);
      keydown(text, key);
    }
    keydown(getByRole(root, "button", { name: "Submit" }), "x");
    expect(seen).not.toHaveBeenCalled();
    document.removeEventListener("keydown", seen);
  });

  it("lets the host's keys (save, command palette, run the cell) through, but not editing keys", () => {
    const { root } = view(pendingModel([PLAIN]));
    const seen: string[] = [];
    const listener = (event: KeyboardEvent): void => {
      seen.push(`${event.ctrlKey ? "Ctrl+" : ""}${event.metaKey ? "Cmd+" : ""}${event.shiftKey ? "Shift+" : ""}${event.key}`);
    };
    document.addEventListener("keydown", listener);
    const box = otherText(root, "Proceed?");
    for (const [key, init] of [
      ["s", { ctrlKey: true }],
      ["P", { ctrlKey: true, shiftKey: true }],
      ["s", { metaKey: true }],
      ["a", { ctrlKey: true }],
      ["v", { metaKey: true }],
      ["Enter", { ctrlKey: true }],
      ["Enter", { shiftKey: true }],
      ["ArrowLeft", { ctrlKey: true }],
      ["j", {}],
      ["i", {}],
    ] as const) {
      box.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, ...init }));
    }
    document.removeEventListener("keydown", listener);
    // "i" is typing in the Other box, not interrupt.
    expect(seen).toEqual(["Ctrl+s", "Ctrl+Shift+P", "Cmd+s", "Ctrl+Enter", "Shift+Enter"]);
  });

  it("still stops keys after the widget is resolved", () => {
    const model = pendingModel([PLAIN]);
    const { root, host } = view(model);
    model.kernelUpdate({ _status: "dismissed" });
    const seen = vi.fn();
    host.addEventListener("keydown", seen);
    keydown(root, "j");
    expect(seen).not.toHaveBeenCalled();
  });
});
