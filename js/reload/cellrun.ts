// The run of the asking cell, seen from a page that did not start it. A notebook shows a cell's
// output, and moves its prompt from [*] to its count, only in the page that sent the cell's
// execute request: a page reloaded while the cell waited (or a second browser tab) gets the
// kernel's messages for that run but routes them nowhere, so after the answer the cell seemed to
// do nothing. Such a page follows the run itself: the kernel names the run's execute request
// (`cell_run`), the widget manager gives the kernel connection, and once the request has ended
// the view says so and shows what the cell printed after it (text only) and when it finished.
// The page that ran the cell shows nothing more: the notebook shows the output where it belongs.
import type { BaseModel } from "../contract/contract";
import { el, isObject } from "../parts/dom";

export const RUN_TEXT = {
  /** The block's accessible name. */
  label: "The cell after the answer",
  running: "This page was reloaded while the cell ran, so the cell's own output and prompt are not updated here. What it prints next shows below.",
  done: "This page was reloaded while the cell ran, so the cell's own output and prompt were not updated here. The cell has finished; what it printed after the answer is below.",
  quiet: "This page was reloaded while the cell ran, so the cell's own output and prompt were not updated here. The cell has finished and printed nothing after the answer.",
} as const;

const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";

/** Longest text kept of the run's output: the start is dropped beyond it. */
const MAX_CHARS = 20_000;

interface IopubMessage {
  header: { msg_type: string };
  parent_header: { msg_id?: string } | Record<string, never>;
  content: Record<string, unknown>;
}

/** What of a kernel connection (@jupyterlab/services) is read here. */
interface KernelLike {
  clientId: string;
  iopubMessage: {
    connect: (slot: (sender: unknown, msg: IopubMessage) => void) => boolean;
    disconnect: (slot: (sender: unknown, msg: IopubMessage) => void) => boolean;
  };
}

interface RunModel {
  get: <K extends keyof BaseModel>(key: K) => BaseModel[K];
  on: (event: string, callback: () => void) => void;
  off: (event: string, callback: () => void) => void;
  widget_manager?: unknown;
}

function kernelOf(model: RunModel): KernelLike | null {
  const manager = model.widget_manager;
  const kernel = isObject(manager) ? manager.kernel : null;
  if (!isObject(kernel) || typeof kernel.clientId !== "string") return null;
  const signal = kernel.iopubMessage;
  if (!isObject(signal) || typeof signal.connect !== "function" || typeof signal.disconnect !== "function") return null;
  return kernel as unknown as KernelLike;
}

/** The text a kernel message adds to the run's output ("" for none). */
export function outputText(msg: IopubMessage): string {
  const content = msg.content;
  switch (msg.header.msg_type) {
    case "stream":
      return typeof content.text === "string" ? content.text : "";
    case "display_data":
    case "execute_result": {
      const data = content.data;
      // A widget shown by the cell (its next question) shows itself; its text is only a summary.
      if (!isObject(data) || WIDGET_VIEW in data) return "";
      const text = data["text/plain"];
      return typeof text === "string" ? `${text}\n` : "";
    }
    case "error":
      return `${String(content.ename)}: ${String(content.evalue)}\n`;
    default:
      return "";
  }
}

/** Follows the model's cell run from this page when this page did not start it: a block at the
 *  end of `root` once the request has ended. Returns the cleanup. */
export function followRun(model: RunModel, root: HTMLElement): () => void {
  const run = model.get("_cell_run");
  const kernel = kernelOf(model);
  if (!isObject(run) || typeof run.msg_id !== "string" || kernel === null || run.session === kernel.clientId) {
    return () => undefined;
  }
  const msgId = run.msg_id;
  let printed = "";
  let finished = false;
  let block: HTMLElement | null = null;

  const show = (): void => {
    if (model.get("_status") === "pending") return;
    if (block === null) {
      block = el("section", "nbask-run");
      block.setAttribute("aria-label", RUN_TEXT.label);
      block.append(el("p", "nbask-run-note"), el("pre", "nbask-run-output"));
      root.append(block);
    }
    const note = block.querySelector(".nbask-run-note");
    const text = !finished ? RUN_TEXT.running : printed === "" ? RUN_TEXT.quiet : RUN_TEXT.done;
    if (note !== null && note.textContent !== text) note.textContent = text;
    const output = block.querySelector<HTMLElement>(".nbask-run-output");
    if (output !== null) {
      output.hidden = printed === "";
      if (output.textContent !== printed) output.textContent = printed;
    }
  };
  const onMessage = (_sender: unknown, msg: IopubMessage): void => {
    if (msg.parent_header.msg_id !== msgId) return;
    if (msg.header.msg_type === "status") {
      finished = msg.content.execution_state === "idle";
    } else {
      printed = (printed + outputText(msg)).slice(-MAX_CHARS);
    }
    show();
  };
  kernel.iopubMessage.connect(onMessage);
  model.on("change:_status", show);
  show();
  return () => {
    kernel.iopubMessage.disconnect(onMessage);
    model.off("change:_status", show);
    block?.remove();
  };
}
