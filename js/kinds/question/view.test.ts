// Answering with the mouse: the draft, the Other field, the exact response payload,
// the confirm row, several views of one model, and re-renders that must keep the draft.
import { getByRole, within } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { DB, FakeModel, FEATURES, mount, otherText, pendingModel, pendingView, responseWrites, sent, unmountAll, view } from "../../testing/harness";
import type { Response } from "../../contract/contract";

afterEach(unmountAll);

function radio(root: HTMLElement, name: string): HTMLInputElement {
  return getByRole<HTMLInputElement>(root, "radio", { name });
}
function checkbox(root: HTMLElement, name: string): HTMLInputElement {
  return getByRole<HTMLInputElement>(root, "checkbox", { name });
}
function otherChoice(root: HTMLElement, question: string, role: "radio" | "checkbox"): HTMLInputElement {
  return within(getByRole(root, "group", { name: question })).getByRole<HTMLInputElement>(role, { name: "Other" });
}

describe("submit", () => {
  it("sends the exact response when every question is answered", async () => {
    const { user, model, root } = pendingView();
    await user.click(radio(root, "SQLite"));
    // Clicked out of order: the payload lists labels in option order.
    await user.click(checkbox(root, "Export"));
    await user.click(checkbox(root, "Auth"));
    const before = Date.now();
    await user.click(getByRole(root, "button", { name: "Submit" }));
    const response = sent(model);
    // vitest types its asymmetric matchers as `any`; each stands for a field of that type.
    expect(response).toEqual({
      action: "submit",
      answers: [
        { selected: ["SQLite"], other: null },
        { selected: ["Auth", "Export"], other: null },
      ],
      view_id: expect.stringMatching(/^[0-9a-f]{12}$/) as string,
      sent_at_ms: expect.any(Number) as number,
    });
    expect(response.sent_at_ms).toBeGreaterThanOrEqual(before);
    expect(response.sent_at_ms).toBeLessThanOrEqual(Date.now());
  });

  it("sends the trimmed Other text, alongside options for multi select", async () => {
    const { user, model, root } = pendingView();
    await user.type(otherText(root, DB.question), "  DuckDB  ");
    await user.click(checkbox(root, "Search"));
    await user.type(otherText(root, FEATURES.question), "Audit log");
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(sent(model).answers).toEqual([
      { selected: [], other: "DuckDB" },
      { selected: ["Search"], other: "Audit log" },
    ]);
  });

  it("puts the view's id in every response it sends, distinct from other views", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const a = view(model);
    view(model);
    await user.click(radio(a.root, "SQLite"));
    await user.click(getByRole(a.root, "button", { name: "Submit" }));
    const first = sent(model).view_id;
    const other = new FakeModel({ _questions: [DB] });
    const c = view(other);
    await user.click(getByRole(c.root, "button", { name: "Dismiss" }));
    expect(sent(other).view_id).not.toBe(first);
  });
});

describe("Other", () => {
  it("its textbox is hidden until Other is chosen; choosing it unchecks the chosen radio", async () => {
    const { user, root } = pendingView();
    await user.click(radio(root, "SQLite"));
    const group = getByRole(root, "group", { name: DB.question });
    expect(within(group).queryByRole("textbox", { name: "Other" })).toBeNull();
    const choice = otherChoice(root, DB.question, "radio");
    await user.click(choice);
    const text = within(group).getByRole<HTMLTextAreaElement>("textbox", { name: "Other" });
    expect(document.activeElement).toBe(text);
    expect(radio(root, "SQLite").checked).toBe(false);
    await user.type(text, "MySQL");
    expect(choice.checked).toBe(true);
    // Cleared, Other stays chosen and its box stays.
    await user.clear(text);
    expect(choice.checked).toBe(true);
    expect(within(group).getByRole("textbox", { name: "Other" })).toBe(text);
  });

  it("whitespace alone does not count as an answer", async () => {
    const { user, model, root } = pendingView([DB]);
    await user.type(otherText(root, DB.question), "   ");
    // Submit asks first, as for any unanswered question.
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(responseWrites(model)).toEqual([]);
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Send anyway" }).disabled).toBe(false);
  });

  it("a pasted line break becomes a space: the answer is one line", async () => {
    const { user, model, root } = pendingView([DB]);
    const text = otherText(root, DB.question);
    text.focus();
    await user.paste("Maria\nDB");
    expect(text.value).toBe("Maria DB");
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(sent(model).answers).toEqual([{ selected: [], other: "Maria DB" }]);
  });

  it("choosing a normal radio unchecks Other, keeps its text, and does not send it", async () => {
    const { user, model, root } = pendingView([DB]);
    const text = otherText(root, DB.question);
    await user.type(text, "MySQL");
    await user.click(radio(root, "SQLite"));
    expect(otherChoice(root, DB.question, "radio").checked).toBe(false);
    expect(text.value).toBe("MySQL");
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(sent(model).answers).toEqual([{ selected: ["SQLite"], other: null }]);
  });

  it("typing again after choosing a radio brings Other back", async () => {
    const { user, model, root } = pendingView([DB]);
    const text = otherText(root, DB.question);
    await user.type(text, "MySQL");
    await user.click(radio(root, "SQLite"));
    await user.type(text, " 8");
    expect(radio(root, "SQLite").checked).toBe(false);
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(sent(model).answers).toEqual([{ selected: [], other: "MySQL 8" }]);
  });

  it("multi select: typing checks the Other checkbox and keeps the chosen options", async () => {
    const { user, root } = pendingView([FEATURES]);
    await user.click(checkbox(root, "Auth"));
    await user.type(otherText(root, FEATURES.question), "Audit");
    expect(otherChoice(root, FEATURES.question, "checkbox").checked).toBe(true);
    expect(checkbox(root, "Auth").checked).toBe(true);
  });

  it("clicking the Other choice moves focus to its textbox", async () => {
    const { user, root } = pendingView([DB]);
    await user.click(otherChoice(root, DB.question, "radio"));
    expect(document.activeElement).toBe(otherText(root, DB.question));
  });

  it("Other checked with empty text leaves the question unanswered", async () => {
    const { user, model, root } = pendingView([FEATURES]);
    await user.click(otherChoice(root, FEATURES.question, "checkbox"));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(responseWrites(model)).toEqual([]);
    expect(root.querySelector(".nbask-confirm-text")?.textContent).toBe(
      "Not answered: “Features”. 1 question without an answer will be sent as [No preference].",
    );
  });
});

describe("unanswered questions", () => {
  it("Submit shows the confirm row naming the empty questions, with focus on Keep answering", async () => {
    const { user, model, root } = pendingView();
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(responseWrites(model)).toEqual([]);
    expect(model.save_changes).not.toHaveBeenCalled();
    const row = root.querySelector<HTMLElement>(".nbask-confirm");
    expect(row?.hidden).toBe(false);
    expect(row?.textContent).toContain(
      "Not answered: “DB”, “Features”. 2 questions without an answer will be sent as [No preference].",
    );
    const sendAnyway = getByRole(root, "button", { name: "Send anyway" });
    const keep = getByRole(root, "button", { name: "Keep answering" });
    expect(document.activeElement).toBe(keep);
    expect(sendAnyway.getAttribute("aria-describedby")).toBe(root.querySelector(".nbask-confirm-text")?.id);
    expect(keep.getAttribute("aria-describedby")).toBe(root.querySelector(".nbask-confirm-text")?.id);
  });

  it("Send anyway sends, with empty entries for the unanswered questions", async () => {
    const { user, model, root } = pendingView();
    await user.click(radio(root, "SQLite"));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(root.querySelector(".nbask-confirm-text")?.textContent).toBe(
      "Not answered: “Features”. 1 question without an answer will be sent as [No preference].",
    );
    await user.click(getByRole(root, "button", { name: "Send anyway" }));
    expect(sent(model)).toMatchObject({
      action: "submit",
      answers: [
        { selected: ["SQLite"], other: null },
        { selected: [], other: null },
      ],
    });
  });

  it("Keep answering closes the row, sends nothing, and focuses the first unanswered question", async () => {
    const { user, model, root } = pendingView();
    await user.click(radio(root, "SQLite"));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    await user.click(getByRole(root, "button", { name: "Keep answering" }));
    expect(root.querySelector<HTMLElement>(".nbask-confirm")?.hidden).toBe(true);
    expect(responseWrites(model)).toEqual([]);
    expect(document.activeElement).toBe(checkbox(root, "Auth"));
  });

  it("answering more closes the stale confirm row", async () => {
    const { user, root } = pendingView();
    await user.click(getByRole(root, "button", { name: "Submit" }));
    await user.click(radio(root, "SQLite"));
    expect(root.querySelector<HTMLElement>(".nbask-confirm")?.hidden).toBe(true);
  });
});

describe("dismiss", () => {
  it("sends a dismiss with no answers, even with a draft (once Discard confirms it)", async () => {
    const { user, model, root } = pendingView();
    await user.click(radio(root, "SQLite"));
    await user.click(getByRole(root, "button", { name: "Dismiss" }));
    expect(responseWrites(model)).toEqual([]);
    await user.click(getByRole(root, "button", { name: "Discard" }));
    expect(sent(model)).toEqual({
      action: "dismiss",
      answers: [],
      view_id: expect.any(String) as string,
      sent_at_ms: expect.any(Number) as number,
    });
  });
});

describe("after sending", () => {
  it("shows Sending, disables every control and ignores a second click", async () => {
    const { user, model, root } = pendingView([DB]);
    await user.click(radio(root, "SQLite"));
    const submit = getByRole(root, "button", { name: "Submit" });
    await user.click(submit);
    expect(root.dataset.status).toBe("pending");
    expect(root.getAttribute("data-sending")).toBe("true");
    const note = root.querySelector<HTMLElement>(".nbask-sending");
    expect(note?.hidden).toBe(false);
    expect(note?.textContent).toMatch(/Sending…/);
    for (const control of root.querySelectorAll<HTMLInputElement | HTMLButtonElement>("input, button")) {
      expect(control.disabled).toBe(true);
    }
    submit.click();
    submit.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(responseWrites(model)).toHaveLength(1);
  });

  it("shows Sending in a view rendered after the response was written (page reload)", () => {
    const response = { action: "submit", answers: [{ selected: ["SQLite"], other: null }], view_id: "x", sent_at_ms: 1 } as const;
    const { root } = view(new FakeModel({ _questions: [DB], _response: response as unknown as Response }));
    expect(root.getAttribute("data-sending")).toBe("true");
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Submit" }).disabled).toBe(true);
  });
});

describe("several views of one model", () => {
  it("keep their own drafts without sharing radio groups", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const a = view(model);
    const b = view(model);
    await user.click(radio(a.root, "SQLite"));
    await user.click(radio(b.root, "PostgreSQL (Recommended)"));
    expect(radio(a.root, "SQLite").checked).toBe(true);
    expect(radio(b.root, "SQLite").checked).toBe(false);
  });

  it("all show Sending after one submits, then all show the resolved block", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const a = view(model);
    const b = view(model);
    await user.click(radio(b.root, "SQLite"));
    await user.click(getByRole(b.root, "button", { name: "Submit" }));
    expect(sent(model).answers).toEqual([{ selected: ["SQLite"], other: null }]);
    for (const { root } of [a, b]) {
      expect(root.getAttribute("data-sending")).toBe("true");
      expect(getByRole<HTMLButtonElement>(root, "button", { name: "Dismiss" }).disabled).toBe(true);
    }
    model.kernelUpdate({ _status: "answered", _result: { answers: { [DB.question]: "SQLite" }, note: "" } });
    for (const { root } of [a, b]) {
      expect(root.dataset.status).toBe("answered");
      expect(root.hasAttribute("data-sending")).toBe(false);
      expect(root.querySelector("dd")?.textContent).toBe("SQLite");
    }
  });
});

describe("re-rendering while pending", () => {
  it("keeps selections, Other text and focus when the deadline or result changes", async () => {
    const { user, model, root } = pendingView();
    await user.click(radio(root, "SQLite"));
    await user.click(checkbox(root, "Export"));
    const text = otherText(root, FEATURES.question);
    await user.type(text, "Audit");
    model.kernelUpdate({ _deadline_ms: Date.now() + 600_000 });
    model.kernelUpdate({ _result: {} });
    model.kernelUpdate({ _questions: structuredClone([DB, FEATURES]) }); // same questions again
    expect(radio(root, "SQLite").checked).toBe(true);
    expect(checkbox(root, "Export").checked).toBe(true);
    expect(otherText(root, FEATURES.question).value).toBe("Audit");
    expect(document.activeElement).toBe(otherText(root, FEATURES.question));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(sent(model).answers).toEqual([
      { selected: ["SQLite"], other: null },
      { selected: ["Export"], other: "Audit" },
    ]);
  });

  it("keeps the draft across a response cleared by the kernel", async () => {
    const { user, model, root } = pendingView([DB]);
    await user.click(radio(root, "SQLite"));
    model.kernelUpdate({ _response: { action: "dismiss", answers: [], view_id: "elsewhere", sent_at_ms: 1 } });
    expect(root.getAttribute("data-sending")).toBe("true");
    model.kernelUpdate({ _response: {} });
    expect(root.hasAttribute("data-sending")).toBe(false);
    expect(radio(root, "SQLite").checked).toBe(true);
    expect(radio(root, "SQLite").disabled).toBe(false);
  });

  it("starts a fresh draft for a new question set", async () => {
    const { user, model, root } = pendingView([DB]);
    await user.click(radio(root, "SQLite"));
    model.kernelUpdate({ _request_id: "req-2", _questions: [{ ...DB, question: "Which database now?" }] });
    getByRole(root, "group", { name: "Which database now?" });
    expect(radio(root, "SQLite").checked).toBe(false);
  });
});

describe("cleanup", () => {
  it("removes model listeners and the widget from the page", () => {
    const model = pendingModel();
    const m = mount(model);
    expect(model.listenerCount()).toBeGreaterThan(0);
    m.cleanup();
    expect(model.listenerCount()).toBe(0);
    expect(m.host.querySelector(".nbask")).toBeNull();
    // A change after cleanup must not throw or render anything.
    model.kernelUpdate({ _status: "answered" });
    expect(m.host.childElementCount).toBe(0);
    m.host.remove();
  });
});

describe("Other text limit", () => {
  it("caps a paste at the contract's limit, shows the count, and sends the capped text", async () => {
    const { user, root, model } = pendingView([DB]);
    const box = otherText(root, DB.question);
    expect(box.maxLength).toBe(4000);
    box.focus();
    await user.paste("y".repeat(5000));
    expect(box.value).toHaveLength(4000);
    expect(root.textContent).toContain("4000 / 4000");
    await user.keyboard("{Enter}");
    expect(sent(model).answers).toEqual([{ selected: [], other: "y".repeat(4000) }]);
  });

  it("keeps the count hidden for ordinary answers", async () => {
    const { user, root } = pendingView([DB]);
    await user.type(otherText(root, DB.question), "DuckDB");
    const counter = root.querySelector<HTMLElement>(".nbask-counter");
    expect(counter?.hidden).toBe(true);
  });
});
