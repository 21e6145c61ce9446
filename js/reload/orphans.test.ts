// Requests with no view on the page (a reload of a notebook that was not saved): after a short
// while, initialize() shows each in the page-level "Waiting requests" panel, answerable there.
import type { AnyModel } from "@anywidget/types";
import { getByRole, queryByRole, within } from "@testing-library/dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Model } from "../contract/contract";
import { PANEL_TEXT } from "./panel";
import { ORPHAN_DELAY_MS, isShown } from "./orphans";
import { DB, FakeModel, pendingModel, sent, unmountAll, view } from "../testing/harness";
import { waitingCount } from "../shell/attention";
import widget from "../kinds/all";

const cleanups: (() => void)[] = [];

/** What anywidget does once per model as it comes up (a reload restores every live model). */
function initialize(model: FakeModel): () => void {
  const cleanup = widget.initialize({
    model: model as unknown as AnyModel<Model>,
    signal: new AbortController().signal,
    experimental: {} as never,
  });
  cleanups.push(cleanup);
  return cleanup;
}

function panel(): HTMLElement | null {
  return queryByRole(document.body, "region", { name: PANEL_TEXT.region });
}

function shownPanel(): HTMLElement {
  return getByRole(document.body, "region", { name: PANEL_TEXT.region });
}

function closeButton(region: HTMLElement): HTMLButtonElement | null {
  return within(region).queryByRole<HTMLButtonElement>("button", { name: PANEL_TEXT.close });
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  unmountAll();
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe("a request with no view on the page", () => {
  it("is shown in the Waiting requests panel once the moment has passed, answerable there", () => {
    const model = pendingModel([DB]);
    initialize(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS - 1);
    expect(panel()).toBeNull();
    vi.advanceTimersByTime(1);

    const region = shownPanel();
    expect(getByRole(region, "heading", { name: "A request is still waiting" }).textContent).toBe("A request is still waiting");
    expect(region.textContent).toContain("Its cell's output was not saved, so it is shown here.");
    expect(closeButton(region)).toBeNull(); // a waiting request is not closed away
    within(region).getByRole("radio", { name: "SQLite" }).click();
    within(region).getByRole("button", { name: "Submit" }).click();
    expect(sent(model)).toMatchObject({ action: "submit", answers: [{ selected: ["SQLite"] }] });
  });

  it("says which cell asked by the first line of its code, as text", () => {
    const model = pendingModel([DB], { _cell: "result = <b>agent</b>.run(task)" });
    initialize(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    const card = shownPanel().querySelector<HTMLElement>(".nbask-orphan-card");
    const from = card?.querySelector(".nbask-orphan-card-from");
    expect(from?.textContent).toBe("From the cell result = <b>agent</b>.run(task)");
    expect(from?.querySelector("b")).toBeNull(); // the code is text, never markup
    expect(from?.querySelector("code")?.textContent).toBe("result = <b>agent</b>.run(task)");
    expect(card?.firstElementChild).toBe(from); // above the request's own view
    expect(card?.querySelector(".nbask")).not.toBeNull();
  });

  it("names no cell when the kernel did not say which", () => {
    initialize(pendingModel([DB]));
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    expect(shownPanel().querySelector(".nbask-orphan-card-from")).toBeNull();
  });

  it("never shows the panel for a widget whose cell renders it (the usual run of a cell)", () => {
    const model = pendingModel();
    initialize(model);
    view(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS * 3);
    expect(panel()).toBeNull();
  });

  it("nor for a request that no longer waits", () => {
    const model = pendingModel();
    model.kernelUpdate({ _status: "answered", _result: { answers: {} } });
    initialize(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    expect(panel()).toBeNull();
  });

  it("counts a view of another request as no view of this one", () => {
    const other = new FakeModel({ _questions: [DB], _request_id: "req-other" });
    view(other);
    const model = pendingModel([DB]);
    initialize(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    expect(shownPanel()).toBeTruthy();
  });

  it("keeps its resolved block once answered, and the panel closes with Close", () => {
    const model = pendingModel([DB]);
    initialize(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    const listening = model.listenerCount();
    model.kernelUpdate({ _status: "answered", _result: { answers: { [DB.question]: "SQLite" } } });

    const region = shownPanel();
    expect(region.querySelector(".nbask")?.getAttribute("data-status")).toBe("answered");
    expect(region.textContent).toContain("SQLite");
    getByRole(region, "heading", { name: "Nothing is waiting any more" });
    const close = closeButton(region);
    expect(close).not.toBeNull();
    close?.click();
    expect(panel()).toBeNull();
    expect(model.listenerCount()).toBeLessThan(listening);
  });

  it("leaves the panel when a view of it renders later (a saved output shows up late)", () => {
    const model = pendingModel([DB]);
    initialize(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    expect(shownPanel()).toBeTruthy();
    expect(isShown("req-1")).toBe(false); // the panel's card is not a view in a cell
    view(model);
    expect(panel()).toBeNull();
    expect(isShown("req-1")).toBe(true);
  });

  it("shares one panel with other such requests, each its own card, in order", () => {
    const first = new FakeModel({ _questions: [DB], _request_id: "req-a" });
    const second = new FakeModel({
      _kind: "approval",
      _title: "Run shell command",
      _details: "rm -rf build",
      _request_id: "req-b",
    });
    initialize(first);
    vi.advanceTimersByTime(500);
    initialize(second);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);

    const region = shownPanel();
    getByRole(region, "heading", { name: "2 requests are still waiting" });
    expect(region.textContent).toContain("Their cells' outputs were not saved");
    const cards = [...region.querySelectorAll<HTMLElement>(".nbask-orphan-card")];
    expect(cards.map((card) => card.dataset.request)).toEqual(["req-a", "req-b"]);
    expect(cards[1]?.querySelector(".nbask")?.getAttribute("data-kind")).toBe("approval");

    first.kernelUpdate({ _status: "dismissed", _result: {} });
    getByRole(region, "heading", { name: "A request is still waiting" });
    expect(closeButton(region)).toBeNull(); // the approval still waits
    expect(region.querySelectorAll(".nbask-orphan-card")).toHaveLength(2);
  });

  it("goes away with its model, and a model gone before the moment leaves nothing behind", () => {
    const early = pendingModel([DB]);
    const stopEarly = initialize(early);
    stopEarly();
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    expect(panel()).toBeNull();
    expect(early.listenerCount()).toBe(0);

    const model = pendingModel([DB]);
    const stop = initialize(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    expect(shownPanel()).toBeTruthy();
    stop();
    expect(panel()).toBeNull();
    expect(model.listenerCount()).toBe(0);
  });

  it("comes back in the panel when its last view goes while it still waits, answerable there", () => {
    // Shift+Enter inside the widget runs its cell again: the notebook clears the cell's output
    // (the view goes) while the kernel still waits for this request.
    const model = pendingModel([DB]);
    initialize(model);
    const shown = view(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS * 3);
    expect(panel()).toBeNull();
    shown.cleanup();
    vi.advanceTimersByTime(ORPHAN_DELAY_MS - 1);
    expect(panel()).toBeNull();
    vi.advanceTimersByTime(1);

    const region = shownPanel();
    getByRole(region, "heading", { name: "A request is still waiting" });
    expect(region.textContent).toContain("Its cell's output was cleared, so it is shown here. Answering it resumes the cell.");
    within(region).getByRole("radio", { name: "SQLite" }).click();
    within(region).getByRole("button", { name: "Submit" }).click();
    expect(sent(model)).toMatchObject({ action: "submit", answers: [{ selected: ["SQLite"] }] });
  });

  it("waits the whole moment after its view went, also when it went within its first moment", () => {
    const model = pendingModel([DB]);
    initialize(model);
    const shown = view(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS / 2);
    shown.cleanup();
    vi.advanceTimersByTime(ORPHAN_DELAY_MS - 1);
    expect(panel()).toBeNull();
    vi.advanceTimersByTime(1);
    expect(shownPanel().textContent).toContain("Its cell's output was cleared");
  });

  it("says which were cleared and which not saved when the panel holds both", () => {
    const unsaved = new FakeModel({ _questions: [DB], _request_id: "req-a" });
    const cleared = new FakeModel({ _questions: [DB], _request_id: "req-b" });
    initialize(unsaved);
    initialize(cleared);
    const shown = view(cleared);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    expect(shownPanel().textContent).toContain("Its cell's output was not saved");
    shown.cleanup();
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    expect(shownPanel().textContent).toContain("Their cells' outputs were cleared or not saved, so they are shown here.");
  });

  it("stays out of the panel while another view of it is shown, or one comes back within the moment", () => {
    const model = pendingModel([DB]);
    initialize(model);
    const first = view(model);
    const second = view(model);
    vi.advanceTimersByTime(ORPHAN_DELAY_MS);
    first.cleanup();
    vi.advanceTimersByTime(ORPHAN_DELAY_MS * 3);
    expect(panel()).toBeNull();
    second.cleanup();
    vi.advanceTimersByTime(ORPHAN_DELAY_MS / 2);
    view(model); // the output is drawn again (a re-render)
    vi.advanceTimersByTime(ORPHAN_DELAY_MS * 3);
    expect(panel()).toBeNull();
  });

  it("stays out of the panel when its view goes after it stopped waiting, or its model went", () => {
    const ended = pendingModel([DB]);
    initialize(ended);
    const shownEnded = view(ended);
    ended.kernelUpdate({ _status: "answered", _result: { answers: { [DB.question]: "SQLite" } } });
    shownEnded.cleanup();
    const gone = new FakeModel({ _questions: [DB], _request_id: "req-gone" });
    const stop = initialize(gone);
    const shownGone = view(gone);
    stop();
    shownGone.cleanup();
    vi.advanceTimersByTime(ORPHAN_DELAY_MS * 3);
    expect(panel()).toBeNull();
  });

  it("counts as a waiting view for the title and badge, and takes no focus from someone typing", () => {
    const editor = document.createElement("textarea");
    document.body.append(editor);
    editor.focus();
    const before = waitingCount();
    initialize(pendingModel([DB]));
    vi.advanceTimersByTime(ORPHAN_DELAY_MS + 500);
    expect(shownPanel()).toBeTruthy();
    expect(waitingCount()).toBe(before + 1);
    expect(document.activeElement).toBe(editor);
  });
});
