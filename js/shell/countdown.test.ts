// The countdown: its text, its one interval, and what happens when time is up.
import { getByRole, queryByRole } from "@testing-library/dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SAVE_DELAY_MS } from "./draftsync";
import { DB, mount, pendingModel, responseWrites, unmountAll, view } from "../testing/harness";

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  unmountAll();
  vi.useRealTimers();
});

/** Timers still scheduled, after letting jsdom run its own zero-delay ones (focus() queues one,
 *  which a timer's callback gets 1 ms later). */
function activeTimers(): number {
  vi.advanceTimersByTime(1);
  return vi.getTimerCount();
}

function timer(root: HTMLElement): HTMLElement {
  return getByRole(root, "timer", { hidden: true });
}

describe("countdown", () => {
  it("counts down every second in m:ss", () => {
    const { root } = view(pendingModel([DB], { _deadline_ms: NOW + 600_000 }));
    expect(timer(root).hidden).toBe(false);
    expect(timer(root).textContent).toBe("Time left 10:00");
    vi.advanceTimersByTime(2000);
    expect(timer(root).textContent).toBe("Time left 9:58");
    vi.advanceTimersByTime(58_000);
    expect(timer(root).textContent).toBe("Time left 9:00");
  });

  it("uses h:mm:ss above an hour", () => {
    const { root } = view(pendingModel([DB], { _deadline_ms: NOW + 2 * 3600_000 + 5_000 }));
    expect(timer(root).textContent).toBe("Time left 2:00:05");
  });

  it("runs exactly one interval, also across re-renders", () => {
    const model = pendingModel([DB], { _deadline_ms: NOW + 60_000 });
    view(model);
    expect(activeTimers()).toBe(1);
    model.kernelUpdate({ _deadline_ms: NOW + 120_000 });
    model.kernelUpdate({ _result: {} });
    expect(activeTimers()).toBe(1);
  });

  it("shows Time is up at the deadline, disables the controls and stops ticking", () => {
    const model = pendingModel([DB], { _deadline_ms: NOW + 3_000 });
    const { root } = view(model);
    vi.advanceTimersByTime(2_000);
    expect(timer(root).textContent).toBe("Time left 0:01");
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Submit" }).disabled).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(timer(root).textContent).toBe("Time is up");
    expect(root.getAttribute("data-expired")).toBe("true");
    for (const control of root.querySelectorAll<HTMLInputElement | HTMLButtonElement>("input, button")) {
      expect(control.disabled).toBe(true);
    }
    expect(activeTimers()).toBe(0);
    // Keys do nothing now; the kernel will answer with status "timeout".
    root.querySelector("input")?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(responseWrites(model)).toEqual([]);
    model.kernelUpdate({ _status: "timeout", _deadline_ms: 0, _result: { answers: {}, note: "No answer within 3 seconds." } });
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Timed out");
    expect(queryByRole(root, "timer", { hidden: true })).toBeNull();
  });

  it("appears when the kernel sets a deadline on a displayed widget, keeping the draft", () => {
    const model = pendingModel([DB]);
    const { root } = view(model);
    expect(timer(root).hidden).toBe(true);
    expect(activeTimers()).toBe(0);
    getByRole<HTMLInputElement>(root, "radio", { name: "SQLite" }).click();
    vi.advanceTimersByTime(SAVE_DELAY_MS); // the draft is saved once the person pauses
    model.kernelUpdate({ _deadline_ms: NOW + 90_000 });
    expect(timer(root).hidden).toBe(false);
    expect(timer(root).textContent).toBe("Time left 1:30");
    expect(getByRole<HTMLInputElement>(root, "radio", { name: "SQLite" }).checked).toBe(true);
    expect(activeTimers()).toBe(1);
  });

  it("shows a limit nobody set only in its last minutes, then counts down", () => {
    const model = pendingModel([DB], { _deadline_ms: NOW + 600_000, _countdown_from_ms: NOW + 480_000 });
    const { root } = view(model);
    expect(timer(root).hidden).toBe(true);
    expect(timer(root).textContent).toBe("");
    vi.advanceTimersByTime(480_000);
    expect(timer(root).hidden).toBe(false);
    expect(timer(root).textContent).toBe("Time left 2:00");
  });

  it("is absent without a deadline", () => {
    const { root } = view(pendingModel([DB]));
    expect(timer(root).hidden).toBe(true);
    expect(timer(root).textContent).toBe("");
    expect(activeTimers()).toBe(0);
  });

  it("stops when the widget is resolved", () => {
    const model = pendingModel([DB], { _deadline_ms: NOW + 60_000 });
    view(model);
    expect(activeTimers()).toBe(1);
    model.kernelUpdate({ _status: "answered", _deadline_ms: 0 });
    expect(activeTimers()).toBe(0);
  });

  it("is cleared by the cleanup function", () => {
    const model = pendingModel([DB], { _deadline_ms: NOW + 60_000 });
    const m = mount(model);
    expect(activeTimers()).toBe(1);
    m.cleanup();
    expect(activeTimers()).toBe(0);
    m.host.remove();
  });

  it("keeps counting while a response is on its way", () => {
    const model = pendingModel([DB], { _deadline_ms: NOW + 60_000 });
    const { root } = view(model);
    getByRole<HTMLInputElement>(root, "radio", { name: "SQLite" }).click();
    getByRole<HTMLButtonElement>(root, "button", { name: "Submit" }).click();
    expect(root.getAttribute("data-sending")).toBe("true");
    vi.advanceTimersByTime(1_000);
    expect(timer(root).textContent).toBe("Time left 0:59");
  });
});
