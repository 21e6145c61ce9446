// Notes and option previews: the "Add a note" disclosures (one per question, one for the set),
// the notes in the response, their cap; the preview region beside the options, shown for the
// focused or chosen option, as text only.
import { getByRole, queryByRole, within } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import axe from "axe-core";
import { afterEach, describe, expect, it } from "vitest";
import type { Question } from "../../contract/contract";
import { MAX_NOTE_CHARS } from "../../contract/contract";
import { DB, FakeModel, FEATURES, otherText, pendingModel, pendingView, responseWrites, sent, unmountAll, view } from "../../testing/harness";

afterEach(unmountAll);

function group(root: HTMLElement, question: string): HTMLElement {
  return getByRole(root, "group", { name: question });
}

function noteButton(root: HTMLElement, question: string): HTMLButtonElement {
  return within(group(root, question)).getByRole<HTMLButtonElement>("button", { name: "Add a note" });
}

async function seriousViolations(): Promise<string[]> {
  const results = await axe.run(document.body, { rules: { "color-contrast": { enabled: false } } });
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

describe("notes", () => {
  it("are collapsed until opened; the button says whether its box is expanded", async () => {
    const { user, root } = pendingView();
    const toggle = noteButton(root, DB.question);
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(queryByRole(root, "textbox", { name: "Note for DB" })).toBeNull();
    await user.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const box = getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Note for DB" });
    expect(document.getElementById(toggle.getAttribute("aria-controls") ?? "")?.contains(box)).toBe(true);
    expect(document.activeElement).toBe(box); // opening it means the person wants to write
    await user.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(queryByRole(root, "textbox", { name: "Note for DB" })).toBeNull();
  });

  it("are named after the header, else the question; the set's is named for all questions", async () => {
    const noHeader: Question = { ...FEATURES, header: "" };
    const { user, root } = pendingView([DB, noHeader]);
    await user.click(noteButton(root, DB.question));
    await user.click(noteButton(root, noHeader.question));
    await user.click(getByRole(root, "button", { name: "Add a note for all questions" }));
    getByRole(root, "textbox", { name: "Note for DB" });
    getByRole(root, "textbox", { name: `Note for ${noHeader.question}` });
    getByRole(root, "textbox", { name: "Note for all questions" });
  });

  it("a single question has its own note and no set note", () => {
    const { root } = pendingView([DB]);
    noteButton(root, DB.question);
    expect(queryByRole(root, "button", { name: "Add a note for all questions" })).toBeNull();
  });

  it("are sent trimmed with the answers: per question and for the set", async () => {
    const { user, model, root } = pendingView();
    await user.click(getByRole(root, "radio", { name: "SQLite" }));
    await user.click(noteButton(root, DB.question));
    await user.type(getByRole(root, "textbox", { name: "Note for DB" }), "  Only for the demo.{Enter}Then Postgres.  ");
    await user.click(getByRole(root, "button", { name: "Add a note for all questions" }));
    await user.type(getByRole(root, "textbox", { name: "Note for all questions" }), "Ship Friday");
    // Enter in a note is a new line, not a submit (a slow run may have saved the draft meanwhile).
    expect(responseWrites(model)).toEqual([]);
    await user.click(getByRole(root, "checkbox", { name: "Auth" }));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    const response = sent(model);
    expect(response.answers).toEqual([
      { selected: ["SQLite"], other: null, note: "Only for the demo.\nThen Postgres." },
      { selected: ["Auth"], other: null },
    ]);
    expect(response.note).toBe("Ship Friday");
  });

  it("a collapsed note keeps its text, is still sent, and the button marks it", async () => {
    const { user, model, root } = pendingView([DB]);
    const toggle = noteButton(root, DB.question);
    await user.click(toggle);
    await user.type(getByRole(root, "textbox", { name: "Note for DB" }), "keep me");
    await user.click(toggle);
    expect(toggle.dataset.hasNote).toBe("true");
    await user.click(toggle);
    expect(getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Note for DB" }).value).toBe("keep me");
    await user.click(toggle);
    await user.click(getByRole(root, "radio", { name: "SQLite" }));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(sent(model).answers).toEqual([{ selected: ["SQLite"], other: null, note: "keep me" }]);
  });

  it("digits typed in a note are text, not choices", async () => {
    const { user, root } = pendingView([DB]);
    await user.click(noteButton(root, DB.question));
    await user.type(getByRole(root, "textbox", { name: "Note for DB" }), "2 servers");
    expect(getByRole<HTMLInputElement>(root, "radio", { name: "SQLite" }).checked).toBe(false);
  });

  it("the textbox holds at most the cap, like the kernel", async () => {
    const { user, root } = pendingView([DB]);
    await user.click(noteButton(root, DB.question));
    const box = getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Note for DB" });
    expect(box.maxLength).toBe(MAX_NOTE_CHARS);
    box.focus();
    await user.paste("n".repeat(MAX_NOTE_CHARS + 50));
    expect(box.value.length).toBe(MAX_NOTE_CHARS);
  });

  it("a dismiss sends no notes", async () => {
    const { user, model, root } = pendingView();
    await user.click(getByRole(root, "button", { name: "Add a note for all questions" }));
    await user.type(getByRole(root, "textbox", { name: "Note for all questions" }), "unsent");
    await user.click(getByRole(root, "button", { name: "Dismiss" }));
    // The note would be lost: Dismiss asks first, naming it.
    expect(root.querySelector(".nbask-discard .nbask-confirm-text")?.textContent).toBe(
      "Discard your answer? Your note for all questions will be lost.",
    );
    await user.click(getByRole(root, "button", { name: "Discard" }));
    expect(sent(model).note).toBeUndefined();
  });

  it("survive a re-render caused by the kernel (a new deadline)", async () => {
    const { user, model, root } = pendingView([DB]);
    await user.click(noteButton(root, DB.question));
    await user.type(getByRole(root, "textbox", { name: "Note for DB" }), "still here");
    model.kernelUpdate({ _deadline_ms: Date.now() + 60_000 });
    expect(getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Note for DB" }).value).toBe("still here");
  });

  it("are shown, as text, in the resolved block", () => {
    const model = new FakeModel({
      _questions: [DB],
      _status: "answered",
      _result: { answers: { [DB.question]: "SQLite" }, notes: { [DB.question]: "<b>bold</b>" }, note: "Ship Friday" },
    });
    const { root } = view(model);
    expect(root.querySelector(".nbask-resolved-note")?.textContent).toBe("Note: <b>bold</b>");
    expect(root.querySelector("b")).toBeNull();
    expect(root.querySelector(".nbask-note")?.textContent).toBe("Note: Ship Friday");
  });

  it("axe finds nothing serious with every note open", async () => {
    const { user, root } = pendingView();
    for (const toggle of within(root).getAllByRole("button", { name: /^Add a note/ })) await user.click(toggle);
    expect(await seriousViolations()).toEqual([]);
  });
});

// -- previews ----------------------------------------------------------------------------------

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const CACHE: Question = {
  question: "Which cache should we use?",
  header: "Cache",
  options: [
    { label: "LRU (Recommended)", description: "Bounded memory.", preview: "cache = LRU(maxsize=128)\n\n  # evicts the oldest" },
    { label: "TTL", description: "Expires entries.", preview: HOSTILE },
    { label: "None", description: "Simplest." },
  ],
  multi_select: false,
};

function pane(root: HTMLElement): HTMLElement {
  return getByRole(root, "region", { name: /^Preview/ });
}

describe("previews", () => {
  it("show the focused option's preview as monospace text in a named region", async () => {
    const { user, root } = pendingView([CACHE]);
    const region = pane(root);
    expect(region.tagName).toBe("PRE");
    getByRole(root, "radio", { name: "TTL" }).focus();
    expect(getByRole(root, "region", { name: "Preview of TTL" })).toBe(region);
    // Literal text: the markup is neither parsed nor run.
    expect(region.textContent).toBe(HOSTILE);
    expect(region.querySelector("img")).toBeNull();
    expect((window as unknown as Record<string, unknown>).__pwned).toBeUndefined();
    await user.keyboard("{ArrowUp}");
    expect(region.textContent).toBe("cache = LRU(maxsize=128)\n\n  # evicts the oldest"); // kept as given
    expect(region.getAttribute("aria-label")).toBe("Preview of LRU (Recommended)");
  });

  it("show the chosen option's preview when no option has focus; a hint before anything", async () => {
    const { user, root } = pendingView([CACHE]);
    (document.activeElement as HTMLElement | null)?.blur();
    expect(pane(root).textContent).toBe("Focus or choose an option to see its preview.");
    expect(pane(root).getAttribute("aria-label")).toBe("Preview");
    await user.click(getByRole(root, "radio", { name: "TTL" }));
    // Typing Other unchooses TTL in a single-select question.
    await user.type(otherText(root, CACHE.question), "Redis");
    expect(pane(root).getAttribute("aria-label")).toBe("Preview");
    expect(pane(root).textContent).toBe("Focus or choose an option to see its preview.");
    await user.click(getByRole(root, "radio", { name: "TTL" }));
    await user.click(noteButton(root, CACHE.question));
    expect(pane(root).getAttribute("aria-label")).toBe("Preview of TTL");
    expect(pane(root).textContent).toBe(HOSTILE);
  });

  it("an option without a preview says so", () => {
    const { root } = pendingView([CACHE]);
    getByRole(root, "radio", { name: "None" }).focus();
    expect(pane(root).textContent).toBe("No preview for this option.");
    expect(pane(root).dataset.empty).toBe("true");
  });

  it("keeps a focused option's preview while focus moves into the region to scroll it", () => {
    const { root } = pendingView([CACHE]);
    getByRole(root, "radio", { name: "TTL" }).focus();
    pane(root).focus();
    expect(pane(root).getAttribute("aria-label")).toBe("Preview of TTL");
    getByRole(root, "button", { name: "Submit" }).focus();
    expect(pane(root).getAttribute("aria-label")).toBe("Preview");
  });

  it("follows the chosen option as focus moves on with the keyboard", async () => {
    const { user, root } = pendingView([CACHE]);
    getByRole(root, "radio", { name: "LRU (Recommended)" }).focus();
    await user.keyboard("{ArrowDown}"); // moves focus and the choice to TTL
    await user.tab(); // the region (Other's textbox is hidden while Other is not chosen)
    expect(document.activeElement).toBe(pane(root));
    expect(pane(root).getAttribute("aria-label")).toBe("Preview of TTL");
  });

  it("has a fixed height per question, so moving between options shifts nothing", () => {
    const { root } = pendingView([CACHE]);
    const region = pane(root);
    const lines = region.style.getPropertyValue("--nbask-preview-lines");
    getByRole(root, "radio", { name: "TTL" }).focus();
    expect(region.style.getPropertyValue("--nbask-preview-lines")).toBe(lines);
    expect(lines).toBe("3");
  });

  it("are absent from questions whose options have none", () => {
    const { root } = pendingView([DB]);
    expect(queryByRole(root, "region", { name: /^Preview/ })).toBeNull();
  });

  it("axe finds nothing serious with a preview shown", async () => {
    const { root } = view(pendingModel([CACHE, FEATURES]));
    getByRole(root, "radio", { name: "TTL" }).focus();
    expect(await seriousViolations()).toEqual([]);
  });

  it("are tolerated when the model sends something that is not text", () => {
    const model = pendingModel([{ ...DB, options: [{ label: "A", description: "", preview: { x: 1 } as never }, { label: "B", description: "" }] }]);
    const { root } = view(model);
    getByRole(root, "radio", { name: "A" }).focus();
    expect(pane(root).textContent).toBe('{"x":1}');
  });
});

describe("keyboard in a note", () => {
  it("Enter in a note does not submit", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const { root } = view(model);
    await user.click(getByRole(root, "radio", { name: "SQLite" }));
    await user.click(noteButton(root, DB.question));
    await user.type(getByRole(root, "textbox", { name: "Note for DB" }), "a{Enter}b");
    expect(responseWrites(model)).toEqual([]);
    expect(getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Note for DB" }).value).toBe("a\nb");
  });
});
