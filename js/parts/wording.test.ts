// What the person reads: each ending in their words (the agent's wording stays in the result),
// the marks, names that mean someone, the countdown's warning, previews and labels in the
// resolved block, and key hints that match the form.
import { getByRole } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import contract from "../../src/nbask/contract.json";
import { confirmControls } from "./confirm";
import type { Question, Status } from "../contract/contract";
import { DB, FEATURES, FakeModel, pendingModel, unmountAll, view } from "../testing/harness";
import { personWording, showsName, splitNote, timeWarning } from "./wording";

afterEach(() => {
  unmountAll();
  vi.useRealTimers();
});

const AGENT: Record<string, string> = Object.fromEntries(
  Object.entries(contract.wording)
    .filter(([key]) => key !== "$comment")
    .map(([key, value]) => [key, (value as { agent: string }).agent]),
);

/** The agent's wording of `ending`, as the kernel writes it. */
function agent(ending: string): string {
  const text = AGENT[ending];
  if (text === undefined) throw new Error(`no wording ${ending}`);
  return text;
}

function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("missing");
  return value;
}

function texts(root: HTMLElement, selector: string): string[] {
  return [...root.querySelectorAll(selector)].map((node) => node.textContent);
}

function approval(status: Status, result: Record<string, unknown>): HTMLElement {
  const model = new FakeModel({ _kind: "approval", _title: "Drop table", _details: "DROP TABLE t", _status: status, _result: result });
  return view(model).root;
}

describe("the wording table", () => {
  it("gives every agent text a person's wording, filling the seconds and the count", () => {
    expect(personWording(agent("timeout").replace("{seconds}", "20"))).toBe("No answer in 20 s — the agent went on without one.");
    expect(personWording(agent("question_dismissed"), 1)).toBe("You dismissed this question without answering.");
    expect(personWording(agent("question_dismissed"), 3)).toBe("You dismissed these 3 questions without answering.");
    expect(personWording(agent("left_empty").replace("{count}", "2"))).toBe("You left 2 questions without an answer.");
    expect(personWording("keep it for the audit")).toBeNull();
    for (const agent of Object.values(AGENT)) {
      const person = personWording(agent.replace("{seconds}", "5").replace("{count}", "1"));
      expect(person).not.toBeNull();
      // Never the words written for the model; nbask's API is named only to say where a late
      // answer went (nbask.late_answers()), which the person may look up.
      expect(person?.replace("nbask.late_answers()", "")).not.toMatch(/nbask\.|do not assume|The person/);
    }
  });

  it("splits the person's note from nbask's remark after it", () => {
    const remark = agent("left_empty").replace("{count}", "1");
    expect(splitNote(`Ship Friday\n\n${remark}`)).toEqual({ own: "Ship Friday", nbask: "You left this question without an answer." });
    expect(splitNote("just mine")).toEqual({ own: "just mine", nbask: "" });
  });

  it("names a real identity, and a made-up one only when the kernel says several answered", () => {
    expect(showsName("alice", false)).toBe(true);
    expect(showsName("Anonymous Ananke", false)).toBe(false);
    expect(showsName("Anonymous Ananke", true)).toBe(true);
    expect(showsName("", true)).toBe(false);
    // the kernel's own account (a token login's stand-in): named once a second identity answers
    expect(showsName("dana", false, true)).toBe(false);
    expect(showsName("dana", true, true)).toBe(true);
  });
});

describe("resolved question blocks", () => {
  it("says a dismissed question in the person's words, one question in the singular", () => {
    const { root } = view(new FakeModel({ _questions: [DB], _status: "dismissed", _result: { note: agent("question_dismissed") } }));
    expect(texts(root, ".nbask-note")).toEqual(["You dismissed this question without answering."]);
    expect(root.querySelector(".nbask-status-line")?.getAttribute("data-mark")).toBe("⊘");
  });

  it("says a dismissed card of two questions in the plural, also where the form was never shown", async () => {
    // Shown already dismissed (a reload, a saved notebook, a second view).
    const shown = view(new FakeModel({ _questions: [DB, FEATURES], _status: "dismissed", _result: { note: agent("question_dismissed") } }));
    expect(texts(shown.root, ".nbask-note")).toEqual(["You dismissed these 2 questions without answering."]);
    // Dismissed here, from the pending form.
    const user = userEvent.setup();
    const model = pendingModel([DB, FEATURES]);
    const { root } = view(model);
    await user.click(getByRole(root, "button", { name: "Dismiss" }));
    model.kernelUpdate({ _status: "dismissed", _result: { note: agent("question_dismissed") }, _response: {} });
    expect(texts(root, ".nbask-note")).toEqual(["You dismissed these 2 questions without answering."]);
  });

  it("says a timeout with its seconds, and an interrupt, each with its own mark", () => {
    const timeout = agent("timeout").replace("{seconds}", "20");
    const timed = view(new FakeModel({ _questions: [DB], _status: "timeout", _result: { note: timeout } })).root;
    expect(texts(timed, ".nbask-note")).toEqual(["No answer in 20 s — the agent went on without one."]);
    expect(timed.querySelector(".nbask-status-line")?.getAttribute("data-mark")).toBe("⏱");
    const cancelled = view(new FakeModel({ _questions: [DB], _status: "cancelled", _result: { note: agent("cancelled") } })).root;
    expect(texts(cancelled, ".nbask-note")[0]).toMatch(/^The cell was interrupted before you answered/);
    expect(cancelled.querySelector(".nbask-status-line")?.getAttribute("data-mark")).toBe("■");
  });

  it("says a late answer in the person's words", () => {
    const result = { answers: { [DB.question]: "SQLite" }, late: true, note: agent("answered_late") };
    const { root } = view(new FakeModel({ _questions: [DB], _status: "timeout", _result: result }));
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Answered late");
    expect(texts(root, ".nbask-note")[0]).toMatch(/^You answered after the time limit/);
    // where the answer went, said plainly, and no tick: the cell did not use it
    expect(root.textContent).toContain("It is kept in nbask.late_answers()");
    expect(root.querySelector(".nbask-status-line")?.getAttribute("data-mark")).toBe("⏱");
  });

  it("shows the label without (Recommended), the chosen option's preview, and the set note as a note", () => {
    const withPreview: Question = {
      ...DB,
      options: [{ label: "PostgreSQL (Recommended)", description: "", preview: "CREATE DATABASE app;" }, must(DB.options[1])],
    };
    const result = { answers: { [DB.question]: "PostgreSQL (Recommended)" }, note: "Ship Friday" };
    const { root } = view(new FakeModel({ _questions: [withPreview], _status: "answered", _result: result }));
    expect(root.querySelector(".nbask-resolved-answer")?.textContent).toBe("PostgreSQL");
    expect(root.querySelector(".nbask-resolved-preview")?.textContent).toBe("CREATE DATABASE app;");
    expect(texts(root, ".nbask-note")).toEqual(["Note: Ship Friday"]);
  });

  it("names who answered only when that name means someone", () => {
    const result = { answers: { [DB.question]: "SQLite" }, answered_by_user: "Anonymous Ananke" };
    const model = new FakeModel({ _questions: [DB], _status: "answered", _result: result });
    const { root } = view(model);
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Answered");
    model.kernelUpdate({ _show_names: true });
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Answered by Anonymous Ananke");
    const real = view(new FakeModel({ _questions: [DB], _status: "answered", _result: { ...result, answered_by_user: "alice" } }));
    expect(real.root.querySelector(".nbask-status-line")?.textContent).toBe("Answered by alice");
  });
});

describe("resolved approvals", () => {
  it("says an approval and a rejection in the person's words, a typed reason as Reason", () => {
    expect(texts(approval("answered", { decision: "approve", reason: "" }), ".nbask-note")).toEqual(["You approved this."]);
    const rejected = approval("answered", { decision: "reject", reason: "" });
    expect(texts(rejected, ".nbask-note")).toEqual(["You rejected this."]);
    expect(rejected.querySelector(".nbask-status-line")?.getAttribute("data-mark")).toBe("✗");
    const typed = approval("answered", { decision: "reject", reason: "keep it" });
    expect(texts(typed, ".nbask-note")).toEqual(["You rejected this."]);
    expect(typed.querySelector(".nbask-reason-text")?.textContent).toBe("Reason: keep it");
  });

  it("never shows a reason nbask wrote as Reason", () => {
    const dismissed = approval("dismissed", { decision: "reject", reason: agent("approval_dismissed") });
    expect(dismissed.querySelector(".nbask-reason-text")).toBeNull();
    expect(texts(dismissed, ".nbask-note")).toEqual(["You dismissed this request: it was not approved."]);
    expect(dismissed.querySelector(".nbask-status-line")?.getAttribute("data-mark")).toBe("⊘");
    const timed = approval("timeout", { decision: "reject", reason: agent("timeout").replace("{seconds}", "3") });
    expect(timed.querySelector(".nbask-reason-text")).toBeNull();
    expect(texts(timed, ".nbask-note")).toEqual(["No answer in 3 s — the agent went on without one."]);
  });
});

describe("the countdown's warning", () => {
  it("turns to a warning in the last minute and says so once", () => {
    vi.useFakeTimers();
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    vi.setSystemTime(now);
    const { root } = view(pendingModel([DB], { _deadline_ms: now + 62_000 }));
    const timer = must(root.querySelector<HTMLElement>(".nbask-timer"));
    const notice = must(root.querySelector<HTMLElement>(".nbask-time-warning"));
    expect(notice.getAttribute("aria-live")).toBe("polite");
    expect(timer.hasAttribute("data-warning")).toBe(false);
    expect(notice.textContent).toBe("");
    vi.advanceTimersByTime(2_000);
    expect(timer.hasAttribute("data-warning")).toBe(true);
    expect(notice.textContent).toBe("1 minute left to answer");
    vi.advanceTimersByTime(30_000);
    expect(notice.textContent).toBe("1 minute left to answer");
    expect(timeWarning(3_000)).toBe("3 seconds left to answer");
  });
});

describe("key hints", () => {
  it("count the options and mention Space where several may be chosen", () => {
    const two = view(pendingModel([DB])).root;
    expect(two.querySelector(".nbask-keys")?.textContent).toBe("Keys: 1–3 choose · ↑↓ move · Enter send · Esc close");
    const multi = view(pendingModel([FEATURES])).root;
    expect(multi.querySelector(".nbask-keys")?.textContent).toBe(
      "Keys: 1–4 choose · ↑↓ move · Space check · Enter send · Esc close",
    );
  });

  it("say of an approval what Escape does: it closes it, as dismissed", async () => {
    const user = userEvent.setup();
    const model = new FakeModel({ _kind: "approval", _title: "Run shell command", _details: "make build" });
    const root = view(model).root;
    expect(root.querySelector(".nbask-keys")?.textContent).toBe("Keys: Esc close");
    await user.keyboard("{Escape}");
    expect(model.lastResponse()).toMatchObject({ action: "dismiss" });
  });
});

describe("the empty-questions confirmation", () => {
  it("gives Keep answering, where focus and the default action are, the primary look", async () => {
    const user = userEvent.setup();
    const root = view(pendingModel([DB])).root;
    await user.keyboard("{Enter}");
    const keep = getByRole(root, "button", { name: "Keep answering" });
    const send = getByRole(root, "button", { name: "Send anyway" });
    expect(document.activeElement).toBe(keep);
    expect(keep.className).toBe("nbask-button nbask-primary");
    expect(send.className).toBe("nbask-button");
  });

  it("leaves the batch heading's confirming button primary", () => {
    const { sendAnyway, keepAnswering } = confirmControls("c", () => undefined, () => undefined);
    expect(sendAnyway.className).toBe("nbask-button nbask-primary");
    expect(keepAnswering.className).toBe("nbask-button");
  });
});
