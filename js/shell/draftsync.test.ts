// Drafts kept in the model (draftsync.ts): what is written, when, and how a reloaded page or a
// second view of the same output shows it; restoring a question's Draft (draft.ts); Escape
// asking before it discards a draft (shell.ts).
import { getByRole, queryByRole, within } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import type { AnyModel } from "@anywidget/types";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BaseModel, SavedDraft } from "../contract/contract";
import { LATE_TEXT, MAX_DRAFT_CHARS, MAX_OTHER_CHARS } from "../contract/contract";
import { emptyDraft, hasContent, restoreDraft } from "../kinds/question/draft";
import { DraftSync, SAVE_DELAY_MS, fingerprint, parseSaved } from "./draftsync";
import { SHELL_TEXT } from "./shell";
import { DB, FEATURES, FakeModel, field, otherText, pendingModel, shownOtherText, responseWrites, sent, timedOut, unmountAll, view } from "../testing/harness";

afterEach(() => {
  unmountAll();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** What a reload does first: the page goes away, which writes what is pending. */
function leavePage(): void {
  window.dispatchEvent(new Event("pagehide"));
}

function savedDraft(model: FakeModel): SavedDraft | null {
  return parseSaved(model.get("_draft"));
}

function radio(root: HTMLElement, question: string, name: string): HTMLInputElement {
  return within(getByRole(root, "group", { name: question })).getByRole<HTMLInputElement>("radio", { name });
}

function checkbox(root: HTMLElement, question: string, name: string): HTMLInputElement {
  return within(getByRole(root, "group", { name: question })).getByRole<HTMLInputElement>("checkbox", { name });
}

describe("restoreDraft", () => {
  it("takes back every field of the empty draft whose type and length fit", () => {
    const saved = { multi: false, checked: [false, true], otherChecked: false, otherText: "later", note: "why", noteOpen: true };
    expect(restoreDraft(DB, JSON.parse(JSON.stringify(saved)))).toEqual(saved);
  });

  it("leaves out what does not fit: another question's options, wrong types, junk", () => {
    expect(restoreDraft(DB, { checked: [true, false, true], otherText: 5 })).toEqual(emptyDraft(DB));
    expect(restoreDraft(DB, "not a draft")).toEqual(emptyDraft(DB));
    expect(restoreDraft(DB, null)).toEqual(emptyDraft(DB));
    expect(restoreDraft(DB, { checked: ["yes", false] }).checked).toEqual([false, false]);
  });

  it("keeps the question's single or multi select, and at most one choice in a single select", () => {
    expect(restoreDraft(DB, { multi: true }).multi).toBe(false);
    const draft = restoreDraft(DB, { checked: [true, true], otherChecked: true, otherText: "x" });
    expect(draft.checked).toEqual([true, false]);
    expect(draft.otherChecked).toBe(false);
    expect(draft.otherText).toBe("x");
    expect(restoreDraft(FEATURES, { checked: [true, false, true], otherChecked: true }).checked).toEqual([true, false, true]);
  });

  it("cuts a saved Other text at the cap the textbox has", () => {
    expect(restoreDraft(DB, { otherText: "é".repeat(MAX_OTHER_CHARS + 10) }).otherText).toHaveLength(MAX_OTHER_CHARS);
  });

  it("counts any choice or non-blank text as content", () => {
    expect(hasContent(emptyDraft(DB))).toBe(false);
    expect(hasContent({ ...emptyDraft(DB), otherText: "   " })).toBe(false);
    expect(hasContent({ ...emptyDraft(DB), otherText: "kept but not chosen" })).toBe(true);
    expect(hasContent({ ...emptyDraft(DB), checked: [false, true] })).toBe(true);
  });
});

describe("DraftSync", () => {
  function sync(model: FakeModel, onRemote = vi.fn()): DraftSync {
    return new DraftSync(model as unknown as AnyModel<BaseModel>, "view-a", onRemote);
  }
  const target = { request_id: "req-1", key: "k1" };

  it("writes once typing pauses, the last state only, and nothing when it did not change", () => {
    vi.useFakeTimers();
    const model = pendingModel([DB]);
    const drafts = sync(model);
    drafts.save(target, { text: "a" });
    drafts.save(target, { text: "ab" });
    expect(model.set).not.toHaveBeenCalled();
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(model.set.mock.calls).toEqual([["_draft", { ...target, view_id: "view-a", data: { text: "ab" } }]]);
    expect(model.save_changes).toHaveBeenCalledTimes(1);
    drafts.save(target, { text: "ab" });
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(model.set).toHaveBeenCalledTimes(1);
    drafts.destroy();
  });

  it("writes at once when the page is left or hidden, so a reload keeps the last keystroke", () => {
    const model = pendingModel([DB]);
    const drafts = sync(model);
    drafts.save(target, { text: "last" });
    leavePage();
    expect(savedDraft(model)?.data).toEqual({ text: "last" });
    drafts.save(target, { text: "hidden" });
    vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    document.dispatchEvent(new Event("visibilitychange"));
    expect(savedDraft(model)?.data).toEqual({ text: "hidden" });
    drafts.destroy();
  });

  it("sends the last draft once more as a message of its own when the page is left", () => {
    // A save right after another may still be held by the widget library when the page unloads.
    const model = pendingModel([DB]);
    const drafts = sync(model);
    drafts.save(target, { editing: true });
    drafts.flush();
    drafts.save(target, { editing: true, details: "new" });
    leavePage();
    const draft = { ...target, view_id: "view-a", data: { editing: true, details: "new" } };
    expect(model.send).toHaveBeenLastCalledWith({ draft });
    drafts.destroy();
  });

  it("does not write a draft over the size the kernel keeps, and says so", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const model = pendingModel([DB]);
    const drafts = sync(model);
    drafts.save(target, { text: "x".repeat(MAX_DRAFT_CHARS) });
    drafts.flush();
    expect(model.set).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("is not kept in the notebook"));
    drafts.destroy();
  });

  it("hands another view's draft on, never its own, and not over a change of its own not yet written", () => {
    const model = pendingModel([DB]);
    const onRemote = vi.fn();
    const drafts = sync(model, onRemote);
    model.kernelUpdate({ _draft: { ...target, view_id: "view-a", data: {} } });
    expect(onRemote).not.toHaveBeenCalled();
    const other = { ...target, view_id: "view-b", data: { text: "theirs" } };
    model.kernelUpdate({ _draft: other });
    expect(onRemote).toHaveBeenCalledWith(other);
    drafts.save(target, { text: "mine" });
    model.kernelUpdate({ _draft: { ...other, data: { text: "older" } } });
    expect(onRemote).toHaveBeenCalledTimes(1);
    drafts.destroy();
  });

  it("reads only a draft of the same request and form", () => {
    const model = pendingModel([DB], { _draft: { ...target, view_id: "x", data: { a: 1 } } });
    const drafts = sync(model);
    expect(drafts.read(target)?.data).toEqual({ a: 1 });
    expect(drafts.read({ ...target, request_id: "req-2" })).toBeNull();
    expect(drafts.read({ ...target, key: "k2" })).toBeNull();
    drafts.destroy();
    expect(fingerprint("a")).not.toBe(fingerprint("b"));
  });
});

describe("a question's draft across a reload and a second view", () => {
  it("a reloaded page shows the same choices and Other text, and Submit sends them", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB, FEATURES]);
    const first = view(model);
    await user.click(radio(first.root, DB.question, "SQLite"));
    await user.click(checkbox(first.root, FEATURES.question, "Search"));
    await user.type(otherText(first.root, FEATURES.question), "Billing");
    leavePage();
    first.cleanup();
    first.host.remove();

    const reloaded = view(model).root;
    expect(radio(reloaded, DB.question, "SQLite").checked).toBe(true);
    expect(checkbox(reloaded, FEATURES.question, "Search").checked).toBe(true);
    expect(otherText(reloaded, FEATURES.question).value).toBe("Billing");
    model.set.mockClear();
    model.save_changes.mockClear();
    await user.click(getByRole(reloaded, "button", { name: "Submit" }));
    expect(sent(model).answers).toEqual([
      { selected: ["SQLite"], other: null },
      { selected: ["Search"], other: "Billing" },
    ]);
  });

  it("notes (a question's and the one for all questions) survive a reload", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB, FEATURES]);
    const first = view(model);
    const group = within(getByRole(first.root, "group", { name: DB.question }));
    await user.click(group.getByRole("button", { name: "Add a note" }));
    await user.type(getByRole(first.root, "textbox", { name: `Note for ${DB.header}` }), "needs JSON columns");
    await user.click(getByRole(first.root, "button", { name: "Add a note for all questions" }));
    await user.type(getByRole(first.root, "textbox", { name: "Note for all questions" }), "for the beta");
    leavePage();
    first.cleanup();
    first.host.remove();

    const reloaded = view(model).root;
    expect(getByRole<HTMLTextAreaElement>(reloaded, "textbox", { name: `Note for ${DB.header}` }).value).toBe("needs JSON columns");
    expect(getByRole<HTMLTextAreaElement>(reloaded, "textbox", { name: "Note for all questions" }).value).toBe("for the beta");
    model.set.mockClear();
    model.save_changes.mockClear();
    await user.click(getByRole(reloaded, "button", { name: "Submit" }));
    await user.click(getByRole(reloaded, "button", { name: "Send anyway" }));
    const response = sent(model) as unknown as { answers: { note?: string }[]; note?: string };
    expect(response.answers[0]?.note).toBe("needs JSON columns");
    expect(response.note).toBe("for the beta");
  });

  it("a draft of another request is not shown", () => {
    const model = pendingModel([DB], {
      _request_id: "req-2",
      _draft: { request_id: "req-1", key: "x", view_id: "old", data: { drafts: [{ checked: [false, true] }] } },
    });
    expect(radio(view(model).root, DB.question, "SQLite").checked).toBe(false);
  });

  it("a second view follows the first as it types, without taking focus or moving the caret", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const a = view(model).root;
    const b = view(model).root;
    await user.click(radio(a, DB.question, "SQLite"));
    const box = otherText(a, DB.question);
    await user.type(box, "abc");
    box.setSelectionRange(1, 1);
    // The second view shows the box once the draft holds Other (choosing it there would edit it).
    await vi.waitFor(() => expect(shownOtherText(b, DB.question)?.value).toBe("abc"), { timeout: 2000 });
    expect(document.activeElement).toBe(box);
    expect(box.selectionStart).toBe(1);
    // Typing Other chose it, in both views.
    expect(radio(b, DB.question, "SQLite").checked).toBe(false);
    expect(within(getByRole(b, "group", { name: DB.question })).getByRole<HTMLInputElement>("radio", { name: "Other" }).checked).toBe(true);

    // Typing in the second view while the first shows it keeps the first's caret.
    const boxB = otherText(b, DB.question);
    boxB.focus();
    boxB.value = "abcd";
    boxB.dispatchEvent(new Event("input", { bubbles: true }));
    leavePage();
    expect(box.value).toBe("abcd");
    expect(document.activeElement).toBe(boxB);
  });

  it("the draft is dropped once the request resolves, and nothing more is written", async () => {
    vi.useFakeTimers();
    const model = pendingModel([DB]);
    const { root } = view(model);
    radio(root, DB.question, "SQLite").click();
    model.kernelUpdate({ _status: "answered", _result: { answers: {} }, _draft: {} });
    vi.advanceTimersByTime(SAVE_DELAY_MS * 2);
    leavePage();
    expect(model.set.mock.calls.filter((c) => c[0] === "_draft")).toEqual([]);
    await Promise.resolve();
  });
});

describe("a timed-out question's draft (Answer anyway)", () => {
  it("what was typed before the time limit is there after a reload, and the late Submit sends it", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB, FEATURES]);
    const first = view(model);
    await user.click(radio(first.root, DB.question, "SQLite"));
    await user.type(otherText(first.root, FEATURES.question), "Billing");
    timedOut(model); // before the pause that would have written it: the timeout writes it
    expect(savedDraft(model)?.data).toMatchObject({ drafts: [{ checked: [false, true] }, { otherText: "Billing" }] });
    first.cleanup();
    first.host.remove();

    const reloaded = view(model).root;
    expect(queryByRole(reloaded, "button", { name: "Submit" })).toBeNull();
    await user.click(getByRole(reloaded, "button", { name: LATE_TEXT.answer_anyway }));
    expect(radio(reloaded, DB.question, "SQLite").checked).toBe(true);
    expect(otherText(reloaded, FEATURES.question).value).toBe("Billing");
    // Typing while answering late is kept too (a second reload would show it).
    await user.type(otherText(reloaded, FEATURES.question), " v2");
    leavePage();
    expect(savedDraft(model)?.data).toMatchObject({ drafts: [{}, { otherText: "Billing v2" }] });
    await user.click(getByRole(reloaded, "button", { name: "Submit" }));
    expect(sent(model).answers).toEqual([
      { selected: ["SQLite"], other: null },
      { selected: [], other: "Billing v2" },
    ]);
  });

  it("Dismiss on the late form discards the draft in every view; Answer anyway then starts empty", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const { root } = view(model);
    await user.click(radio(root, DB.question, "SQLite"));
    timedOut(model);
    await user.click(getByRole(root, "button", { name: LATE_TEXT.answer_anyway }));
    expect(radio(root, DB.question, "SQLite").checked).toBe(true);
    await user.click(getByRole(root, "button", { name: "Dismiss" }));
    await user.click(getByRole(root, "button", { name: SHELL_TEXT.discard }));
    expect(savedDraft(model)).toBeNull();
    expect(responseWrites(model)).toEqual([]);
    await user.click(getByRole(root, "button", { name: LATE_TEXT.answer_anyway }));
    expect(radio(root, DB.question, "SQLite").checked).toBe(false);
  });
});

describe("approval and form drafts", () => {
  it("an approval's edited details and reason survive a reload", async () => {
    const user = userEvent.setup();
    const model = new FakeModel({ _kind: "approval", _title: "Run shell command", _details: "rm -rf build" });
    const first = view(model);
    await user.click(getByRole(first.root, "button", { name: "Edit" }));
    const details = getByRole<HTMLTextAreaElement>(first.root, "textbox", { name: "Details" });
    await user.clear(details);
    await user.type(details, "rm -rf build/tmp");
    await user.type(getByRole(first.root, "textbox", { name: "Reason" }), "only the temp files");
    leavePage();
    first.cleanup();
    first.host.remove();

    const reloaded = view(model).root;
    expect(getByRole<HTMLTextAreaElement>(reloaded, "textbox", { name: "Details" }).value).toBe("rm -rf build/tmp");
    expect(getByRole<HTMLTextAreaElement>(reloaded, "textbox", { name: "Reason" }).value).toBe("only the temp files");
    expect(queryByRole(reloaded, "button", { name: "Edit" })).toBeNull();
  });

  it("a form's unsent values survive a reload; untouched fields keep their defaults", async () => {
    const user = userEvent.setup();
    const fields = [
      field({ name: "name", title: "Your name", type: "string", required: true }),
      field({ name: "team", title: "Team", type: "string", default: "core" }),
      field({ name: "agree", title: "Agree", type: "boolean" }),
    ];
    const model = new FakeModel({ _kind: "form", _message: "Who?", _fields: fields });
    const first = view(model);
    await user.type(getByRole(first.root, "textbox", { name: "Your name" }), "Ada");
    await user.click(getByRole(first.root, "checkbox", { name: "Agree" }));
    leavePage();
    first.cleanup();
    first.host.remove();

    const reloaded = view(model).root;
    expect(getByRole<HTMLInputElement>(reloaded, "textbox", { name: "Your name" }).value).toBe("Ada");
    expect(getByRole<HTMLInputElement>(reloaded, "textbox", { name: "Team" }).value).toBe("core");
    expect(getByRole<HTMLInputElement>(reloaded, "checkbox", { name: "Agree" }).checked).toBe(true);
  });
});

describe("Escape and Dismiss with a draft", () => {
  const keepEditing = (root: HTMLElement): HTMLElement => getByRole(root, "button", { name: SHELL_TEXT.keepEditing });
  const discardText = (root: HTMLElement): string => root.querySelector(".nbask-discard .nbask-confirm-text")?.textContent ?? "";

  it("without a draft, one Escape dismisses at once", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    view(model);
    await user.keyboard("{Escape}");
    expect(sent(model)).toMatchObject({ action: "dismiss", answers: [] });
  });

  it("with a choice, Escape asks once, naming what is lost, Keep editing focused; Escape again keeps it", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const { root } = view(model);
    await user.click(radio(root, DB.question, "SQLite"));
    await user.keyboard("{Escape}");
    expect(discardText(root)).toBe("Discard your answer? Your answer to “DB” will be lost.");
    expect(document.activeElement).toBe(keepEditing(root));
    expect(keepEditing(root).className).toBe("nbask-button nbask-primary");
    expect(responseWrites(model)).toEqual([]);
    // A second Escape is "Keep editing": the choice stays, focus goes back where it was.
    await user.keyboard("{Escape}");
    expect(root.querySelector<HTMLElement>(".nbask-discard")?.hidden).toBe(true);
    expect(document.activeElement).toBe(radio(root, DB.question, "SQLite"));
    expect(radio(root, DB.question, "SQLite").checked).toBe(true);
    expect(responseWrites(model)).toEqual([]);
    await user.keyboard("{Escape}");
    await user.click(getByRole(root, "button", { name: SHELL_TEXT.discard }));
    expect(sent(model)).toMatchObject({ action: "dismiss", answers: [] });
  });

  it("the Dismiss button asks the same; an edit closes the stale question", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const { root } = view(model);
    const box = otherText(root, DB.question);
    await user.type(box, "maybe");
    await user.click(getByRole(root, "button", { name: "Dismiss" }));
    expect(discardText(root)).toBe("Discard your answer? Your answer to “DB” will be lost.");
    expect(document.activeElement).toBe(keepEditing(root));
    await user.click(box);
    await user.keyboard("!");
    expect(root.querySelector<HTMLElement>(".nbask-discard")?.hidden).toBe(true);
    expect(box.value).toBe("maybe!");
    expect(responseWrites(model)).toEqual([]);
  });

  it("an approval with a reason asks before Escape dismisses it, and never sends Reject", async () => {
    const user = userEvent.setup();
    const model = new FakeModel({ _kind: "approval", _title: "Deploy", _details: "" });
    const { root } = view(model);
    await user.type(getByRole(root, "textbox", { name: "Reason" }), "not on a Friday");
    await user.keyboard("{Escape}");
    expect(discardText(root)).toBe(
      "Discard your changes? Your reason will be lost, and the request will not be approved.",
    );
    expect(responseWrites(model)).toEqual([]);
    await user.keyboard("{Escape}");
    expect(responseWrites(model)).toEqual([]);
    await user.keyboard("{Escape}");
    await user.click(getByRole(root, "button", { name: SHELL_TEXT.discard }));
    expect(sent(model).action).toBe("dismiss");
  });
});

