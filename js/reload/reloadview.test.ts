// After a reload that lost the running cell's output routing: the view follows the run itself
// (js/reload/cellrun.ts), a request answered in the Waiting requests panel shows how it ended in its
// cell (js/reload/cellview.ts), and the panel's words match its state (js/reload/panel.ts).
import { afterEach, describe, expect, it } from "vitest";
import { RUN_TEXT, followRun } from "./cellrun";
import { CELL_MARK_TEXT, findCell, markCell } from "./cellview";
import { PANEL_TEXT } from "./panel";

afterEach(() => {
  document.body.replaceChildren();
});

type Slot = (sender: unknown, msg: unknown) => void;

function fakeRun(session: string) {
  const slots = new Set<Slot>();
  const listeners = new Set<() => void>();
  const state: Record<string, unknown> = { _status: "pending", _cell_run: { msg_id: "exec-1", session: "page-a" } };
  const model = {
    get: (key: string) => state[key],
    on: (_event: string, callback: () => void) => void listeners.add(callback),
    off: (_event: string, callback: () => void) => void listeners.delete(callback),
    widget_manager: {
      kernel: {
        clientId: session,
        iopubMessage: {
          connect: (slot: Slot) => Boolean(slots.add(slot)),
          disconnect: (slot: Slot) => slots.delete(slot),
        },
      },
    },
  };
  const publish = (type: string, content: Record<string, unknown>, parent = "exec-1"): void => {
    for (const slot of slots) slot(null, { header: { msg_type: type }, parent_header: { msg_id: parent }, content });
  };
  const setStatus = (status: string): void => {
    state._status = status;
    for (const listener of listeners) listener();
  };
  return { model: model as unknown as Parameters<typeof followRun>[0], publish, setStatus, slots };
}

describe("a page that did not start the cell's run", () => {
  it("shows, once the request ended, what the cell printed after it and that it finished", () => {
    const root = document.createElement("div");
    const run = fakeRun("page-b");
    const stop = followRun(run.model, root);
    run.publish("stream", { text: "early\n" });
    expect(root.querySelector(".nbask-run")).toBeNull(); // nothing while the request waits
    run.setStatus("answered");
    expect(root.querySelector(".nbask-run-note")?.textContent).toBe(RUN_TEXT.running);
    run.publish("stream", { text: "AFTER SGD\n" });
    run.publish("stream", { text: "not this run\n" }, "exec-2");
    run.publish("display_data", { data: { "application/vnd.jupyter.widget-view+json": {}, "text/plain": "a widget" } });
    run.publish("error", { ename: "ValueError", evalue: "bad" });
    run.publish("status", { execution_state: "idle" });
    expect(root.querySelector(".nbask-run-note")?.textContent).toBe(RUN_TEXT.done);
    expect(root.querySelector(".nbask-run-output")?.textContent).toBe("early\nAFTER SGD\nValueError: bad\n");
    stop();
    expect(run.slots.size).toBe(0);
    expect(root.querySelector(".nbask-run")).toBeNull();
  });

  it("says so when the cell printed nothing after the answer", () => {
    const root = document.createElement("div");
    const run = fakeRun("page-b");
    followRun(run.model, root);
    run.setStatus("dismissed");
    run.publish("status", { execution_state: "idle" });
    expect(root.querySelector(".nbask-run-note")?.textContent).toBe(RUN_TEXT.quiet);
  });

  it("adds nothing in the page that ran the cell: the notebook shows its output", () => {
    const root = document.createElement("div");
    const run = fakeRun("page-a");
    followRun(run.model, root);
    run.setStatus("answered");
    expect(root.querySelector(".nbask-run")).toBeNull();
    expect(run.slots.size).toBe(0);
  });
});

function codeCell(code: string): HTMLElement {
  const cell = document.createElement("div");
  cell.className = "jp-Cell jp-CodeCell";
  cell.innerHTML = '<div class="jp-InputArea-editor"></div><div class="jp-Cell-outputArea"></div>';
  for (const text of code.split("\n")) {
    const line = document.createElement("div");
    line.className = "cm-line";
    line.textContent = text;
    cell.querySelector(".jp-InputArea-editor")?.append(line);
  }
  return cell;
}

describe("the cell of a request answered in the panel", () => {
  it("is the one cell whose code begins with the request's line", () => {
    const notebook = document.createElement("div");
    notebook.className = "jp-Notebook";
    const long = `x = ${"1".repeat(90)}`;
    const cells = ["import nbask", "\nans = await nbask.ask('Q?')", "print(1)", "print(1)", long].map(codeCell);
    notebook.append(...cells);
    document.body.append(notebook);
    expect(findCell("ans = await nbask.ask('Q?')")).toBe(cells[1]);
    expect(findCell(`${long.slice(0, 79)}\u2026`)).toBe(cells[4]);
    expect(findCell("print(1)")).toBeNull(); // two cells begin so: neither is marked
    expect(findCell("")).toBeNull();
  });

  it("shows how it ended after the cell's outputs, until they change", async () => {
    const notebook = document.createElement("div");
    notebook.className = "jp-Notebook";
    const cell = codeCell("ans = await nbask.ask('Q?')");
    notebook.append(cell);
    document.body.append(notebook);
    let unmounted = false;
    markCell("ans = await nbask.ask('Q?')", (host) => {
      host.textContent = "Answered · No";
      return () => void (unmounted = true);
    });
    const mark = cell.querySelector<HTMLElement>(".nbask-cell-mark");
    expect(mark?.getAttribute("aria-label")).toBe(CELL_MARK_TEXT.label);
    expect(mark?.textContent).toContain("Answered · No");
    // A batch: the next request's mark comes beside it, and both stay.
    markCell("ans = await nbask.ask('Q?')", (host) => {
      host.textContent = "Answered · Yes";
      return () => undefined;
    });
    await Promise.resolve();
    expect(cell.querySelectorAll(".nbask-cell-mark")).toHaveLength(2);
    // The cell runs again: the notebook clears its outputs.
    cell.querySelector(".jp-Cell-outputArea")?.append(document.createElement("div"));
    await Promise.resolve();
    expect(cell.querySelector(".nbask-cell-mark")).toBeNull();
    expect(unmounted).toBe(true);
  });
});

describe("the panel's words", () => {
  it("never offer to resume a cell once nothing waits, and always do while something does", () => {
    for (const cards of [1, 2, 3]) {
      for (let cleared = 0; cleared <= cards; cleared++) {
        expect(PANEL_TEXT.note(cards, cleared, 0)).not.toMatch(/Answering|is shown|are shown/);
        for (let waiting = 1; waiting <= cards; waiting++) {
          expect(PANEL_TEXT.note(cards, cleared, waiting)).toMatch(/Answering .*resumes/);
        }
      }
    }
    expect(PANEL_TEXT.note(1, 0, 0)).toBe(
      "Its cell's output was not saved, so it was shown here. It has ended, as shown below: its cell no longer waits for it.",
    );
  });
});
