// A VS Code-like notebook host for widget tests: what VS Code's notebook output webview and the
// Jupyter extension do for ipywidgets, reproduced in a plain page with a real kernel.
//
// - VS Code's own ipywidgets 8 bundle (@vscode/jupyter-ipywidgets8, loaded as a separate file
//   like the extension's preload): activate(), then vscIPyWidgets8.load() once the kernel is
//   known to use ipywidgets 8, then its WidgetManager on a kernel connection.
// - The kernel connection is @jupyterlab/services with commsOverSubshells disabled: VS Code's
//   proxy kernel reports no subshell support, so every comm message goes on the main shell.
// - Outputs reach a cell as in VS Code: only iopub messages whose parent is the cell's execute
//   request; a cell ends on its execute_reply plus an idle status with that parent. Anything
//   else is kept in `stray` (VS Code does not show it in a cell).
// - A widget-view output is rendered as the extension's renderer does: the output element and a
//   new `.cell-output-ipywidget-background` region around the view, get_model -> create_view ->
//   display_view, and only for a model the widget manager has (seen opened in this session, or
//   recovered from the kernel after a reload); otherwise the output falls back to its text/plain.
// - Cells and their outputs survive a page reload (VS Code keeps them in the notebook document),
//   and a restored cell keeps receiving its execute request's output (VS Code resumes a running
//   cell on a remote kernel after a window reload). After a reload the host waits for the
//   kernel_info reply, then recovers the kernel's live widgets as ipywidgets 8 does
//   (comm_info_request / the jupyter.widget.control comm's request_states) and shows the
//   restored cells' widgets again: a question still waiting comes back, answerable.
// - Nothing runs before the kernel connection is ready: the page reports ready only once the
//   kernel answered kernel_info (asked again if a reply does not come), as VS Code waits for
//   the kernel before it executes a cell.
//
// Everything the Python tests need is on `window.vscodeHost`.
import {
  CommsOverSubshells,
  KernelConnection,
  ServerConnection,
  type Kernel,
  type KernelMessage,
} from "@jupyterlab/services";

const WIDGET_MIME = "application/vnd.jupyter.widget-view+json";

interface WireEntry {
  t: number;
  direction: "send" | "recv";
  channel: string;
  type: string;
  msgId: string;
  parentId: string | null;
  parentType: string | null;
  subshellId: string | null;
  commId: string | null;
}

interface OutputRecord {
  kind: "stream" | "display" | "error";
  t: number;
  name?: string;
  text?: string;
  data?: Record<string, unknown>;
  parentId: string;
  parentType: string;
}

interface CellRecord {
  index: number;
  code: string;
  msgId: string;
  state: "running" | "done";
  restored: boolean;
  status: string | null;
  executionCount: number | null;
  replied: boolean;
  idle: boolean;
  outputs: OutputRecord[];
}

interface StrayOutput {
  t: number;
  type: string;
  parentId: string | null;
  parentType: string | null;
  text: string;
}

interface WidgetManagerLike {
  get_model(id: string): Promise<unknown> | undefined;
  has_model(id: string): boolean;
  /** ipywidgets 8's recovery of the kernel's live widgets (ManagerBase._loadFromKernel). */
  _loadFromKernel(): Promise<void>;
  create_view(model: unknown, options: { el: HTMLElement }): Promise<unknown>;
  display_view(data: unknown, view: unknown, options: { node: HTMLElement }): Promise<unknown>;
}

type WidgetManagerCtor = new (
  kernel: Kernel.IKernelConnection,
  el: HTMLElement,
  scriptLoader: unknown,
  logger: (message: string) => void,
) => WidgetManagerLike;

interface HostWindow {
  requirejs: { config(config: unknown): void };
  vscIPyWidgets8: { load(): void; unload(): void };
  vscIPyWidgets: { WidgetManager: WidgetManagerCtor };
  vscodeHost: unknown;
}

const win = window as unknown as HostWindow;
const T0 = performance.now();
const now = (): number => performance.now();

const params = new URLSearchParams(location.search);
const token = params.get("token") ?? "";
const kernelId = params.get("kernel") ?? "";
const kernelName = params.get("kernelName") ?? "";
const scriptBase = new URL(params.get("nbextensions") ?? "nbextensions/", location.href);
const storageKey = `vscode-host-cells:${kernelId}`;

const log: string[] = [];
const wire: WireEntry[] = [];
const stray: StrayOutput[] = [];
const clicks: { t: number; name: string }[] = [];
const forwardedKeys: { t: number; key: string; target: string }[] = [];
const seenModels = new Set<string>();
const cells: CellRecord[] = [];
const byMsgId = new Map<string, CellRecord>();
const waiters = new Map<string, Array<(cell: CellRecord) => void>>();

function note(message: string): void {
  log.push(`${((now() - T0) / 1000).toFixed(3)} ${message}`);
}

// -- what the person does ------------------------------------------------------------------

// Click times for round-trip measurements (capture phase: before the widget reacts).
document.addEventListener(
  "click",
  (event) => {
    const target = event.target as HTMLElement | null;
    const button = target?.closest("button");
    clicks.push({ t: now(), name: (button?.textContent ?? target?.tagName ?? "").trim() });
  },
  true,
);

// VS Code's webview forwards every keydown that bubbles up to the window to the workbench,
// where it may run a keybinding (pre/index.html, handleInnerKeydown).
window.addEventListener("keydown", (event) => {
  const target = event.target as HTMLElement | null;
  forwardedKeys.push({ t: now(), key: event.key, target: target?.tagName.toLowerCase() ?? "" });
});

// -- cells and outputs ----------------------------------------------------------------------

const container = document.getElementById("container") as HTMLElement;

function persist(): void {
  const saved = cells.map((c) => ({ ...c }));
  sessionStorage.setItem(storageKey, JSON.stringify(saved));
}

function cellElement(cell: CellRecord): HTMLElement {
  let el = container.querySelector<HTMLElement>(`section.cell[data-cell="${cell.index}"]`);
  if (!el) {
    el = document.createElement("section");
    el.className = "cell";
    el.dataset.cell = String(cell.index);
    const source = document.createElement("pre");
    source.className = "cell-source";
    source.textContent = cell.code;
    const outputs = document.createElement("div");
    outputs.className = "cell-outputs output_container";
    el.append(source, outputs);
    container.appendChild(el);
  }
  el.dataset.state = cell.state;
  el.dataset.status = cell.status ?? "";
  el.dataset.executionCount = cell.executionCount === null ? "" : String(cell.executionCount);
  el.dataset.restored = String(cell.restored);
  return el;
}

function outputsElement(cell: CellRecord): HTMLElement {
  return cellElement(cell).querySelector(".cell-outputs") as HTMLElement;
}

function textOf(data: Record<string, unknown>): string {
  const plain = data["text/plain"];
  if (Array.isArray(plain)) return plain.join("");
  return typeof plain === "string" ? plain : "";
}

function renderOutput(cell: CellRecord, output: OutputRecord): void {
  const parent = outputsElement(cell);
  if (output.kind === "stream") {
    // VS Code appends consecutive stream text of one name to one output.
    const last = parent.lastElementChild as HTMLElement | null;
    if (last && last.dataset.kind === "stream" && last.dataset.name === output.name) {
      const pre = last.querySelector("pre") as HTMLElement;
      pre.textContent = (pre.textContent ?? "") + (output.text ?? "");
      return;
    }
    const el = document.createElement("div");
    el.className = "output";
    el.dataset.kind = "stream";
    el.dataset.name = output.name ?? "stdout";
    const pre = document.createElement("pre");
    pre.textContent = output.text ?? "";
    el.appendChild(pre);
    parent.appendChild(el);
    return;
  }
  const el = document.createElement("div");
  el.className = "output";
  el.dataset.kind = output.kind;
  parent.appendChild(el);
  if (output.kind === "error") {
    const pre = document.createElement("pre");
    pre.textContent = output.text ?? "";
    el.appendChild(pre);
    return;
  }
  const data = output.data ?? {};
  const widget = data[WIDGET_MIME] as { model_id: string; version_major: number } | undefined;
  // The renderer asks the extension whether the kernel has this model's state; the extension
  // knows only the models it saw opened in this session. Otherwise: the next renderer.
  if (widget && seenModels.has(widget.model_id)) {
    el.dataset.kind = "widget";
    void renderWidget(widget, el);
    return;
  }
  el.dataset.kind = "text";
  const pre = document.createElement("pre");
  pre.textContent = textOf(data);
  el.appendChild(pre);
}

let manager: WidgetManagerLike | null = null;

async function renderWidget(data: { model_id: string; version_major: number }, element: HTMLElement): Promise<void> {
  // vscode-jupyter renderer/index.ts, then kernel/index.ts renderIPyWidget and manager.ts renderWidget.
  element.className = `${element.className || ""} cell-output-ipywidget-background`;
  const ele = document.createElement("div");
  ele.className = "cell-output-ipywidget-background";
  ele.setAttribute("tabindex", "0");
  ele.setAttribute("role", "region");
  ele.setAttribute("aria-label", "Interactive widget output");
  element.appendChild(ele);
  const inner = document.createElement("div");
  inner.className = "cell-output cell-output";
  ele.appendChild(inner);
  try {
    if (!manager) throw new Error("no widget manager");
    const model = await manager.get_model(data.model_id);
    const view = await manager.create_view(model, { el: ele });
    await manager.display_view(data, view, { node: ele });
    note(`rendered widget ${data.model_id}`);
    ensureWidgetKeyboardAccessibility(ele);
  } catch (error) {
    note(`render FAILED ${data.model_id}: ${String(error)}`);
    element.dataset.renderError = String(error);
  }
}

// The extension's ensureWidgetKeyboardAccessibility (kernel/index.ts): 500 ms after a widget
// renders, buttons and button-like elements without a tabindex get tabindex 0 (and a role), and
// Enter or Space on them is turned into a click.
function ensureWidgetKeyboardAccessibility(container: HTMLElement): void {
  setTimeout(() => {
    const selectors = [
      "button:not([tabindex])",
      "a[href]:not([tabindex])",
      '[role="button"]:not([tabindex])',
      "[onclick]:not([tabindex])",
      ".jupyter-button:not([tabindex])",
      ".widget-button:not([tabindex])",
      ".toolbar button",
      ".toolbar-button",
    ];
    for (const selector of selectors) {
      for (const element of container.querySelectorAll<HTMLElement>(selector)) {
        if (!element.hasAttribute("tabindex") || element.getAttribute("tabindex") === "-1") {
          element.setAttribute("tabindex", "0");
        }
        if (!element.hasAttribute("role") && element.tagName !== "BUTTON" && element.tagName !== "A") {
          element.setAttribute("role", "button");
        }
        if (!element.hasAttribute("data-keyboard-listener")) {
          element.setAttribute("data-keyboard-listener", "true");
          element.addEventListener("keydown", (event: KeyboardEvent) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              element.click();
            }
          });
        }
      }
    }
  }, 500);
}

function addOutput(cell: CellRecord, output: OutputRecord): void {
  cell.outputs.push(output);
  renderOutput(cell, output);
  persist();
}

function finishIfDone(cell: CellRecord): void {
  if (cell.state === "done" || !cell.idle || (!cell.replied && !cell.restored)) return;
  cell.state = "done";
  cellElement(cell);
  persist();
  for (const resolve of waiters.get(cell.msgId) ?? []) resolve(cell);
  waiters.delete(cell.msgId);
}

function onIOPub(msg: KernelMessage.IIOPubMessage): void {
  const type = msg.header.msg_type;
  const parent = msg.parent_header as Partial<KernelMessage.IHeader>;
  const parentId = parent.msg_id ?? null;
  const cell = parentId ? byMsgId.get(parentId) : undefined;
  const content = msg.content as Record<string, unknown>;
  if (type === "comm_open") seenModels.add(String(content.comm_id));
  if (type === "status") {
    if (cell && content.execution_state === "idle") {
      cell.idle = true;
      finishIfDone(cell);
    }
    return;
  }
  if (!["stream", "display_data", "execute_result", "error"].includes(type)) return;
  if (!cell) {
    const data = (content.data ?? {}) as Record<string, unknown>;
    stray.push({
      t: now(),
      type,
      parentId,
      parentType: parent.msg_type ?? null,
      text: type === "stream" ? String(content.text) : textOf(data),
    });
    return;
  }
  const base = { t: now(), parentId: parentId as string, parentType: String(parent.msg_type) };
  if (type === "stream") {
    addOutput(cell, { ...base, kind: "stream", name: String(content.name), text: String(content.text) });
  } else if (type === "error") {
    addOutput(cell, { ...base, kind: "error", text: `${String(content.ename)}: ${String(content.evalue)}` });
  } else {
    addOutput(cell, { ...base, kind: "display", data: (content.data ?? {}) as Record<string, unknown> });
  }
}

// -- the kernel -------------------------------------------------------------------------------

let kernel: KernelConnection;
let kernelInfoAt: number | null = null;
function run(code: string): number {
  const future = kernel.requestExecute({ code, stop_on_error: true }, true);
  const cell: CellRecord = {
    index: cells.length,
    code,
    msgId: future.msg.header.msg_id,
    state: "running",
    restored: false,
    status: null,
    executionCount: null,
    replied: false,
    idle: false,
    outputs: [],
  };
  cells.push(cell);
  byMsgId.set(cell.msgId, cell);
  cellElement(cell);
  persist();
  future.onReply = (reply) => {
    cell.replied = true;
    cell.status = reply.content.status;
    const count = (reply.content as { execution_count?: number }).execution_count;
    cell.executionCount = typeof count === "number" ? count : null;
    finishIfDone(cell);
  };
  return cell.index;
}

function done(index: number): Promise<{ state: string; status: string | null; executionCount: number | null }> {
  const cell = cells[index];
  if (!cell) return Promise.reject(new Error(`no cell ${index}`));
  const summary = (c: CellRecord) => ({ state: c.state, status: c.status, executionCount: c.executionCount });
  if (cell.state === "done") return Promise.resolve(summary(cell));
  return new Promise((resolve) => {
    const list = waiters.get(cell.msgId) ?? [];
    list.push((c) => resolve(summary(c)));
    waiters.set(cell.msgId, list);
  });
}

function restoreCells(): void {
  const saved = sessionStorage.getItem(storageKey);
  if (!saved) return;
  for (const record of JSON.parse(saved) as CellRecord[]) {
    const cell: CellRecord = { ...record, restored: record.restored || record.state === "running", outputs: [] };
    cells.push(cell);
    byMsgId.set(cell.msgId, cell);
    cellElement(cell);
    for (const output of record.outputs) {
      cell.outputs.push(output);
      renderOutput(cell, output);
    }
  }
  note(`restored ${cells.length} cells`);
}

/** How long the host waits for a kernel_info reply before it opens a new websocket. */
const KERNEL_INFO_RETRY_MS = 5000;
const KERNEL_INFO_ATTEMPTS = 6;

/** Resolves once the kernel answered a kernel_info_request. The first request goes out when the
 *  websocket opens (@jupyterlab/services). ipykernel 7.0-7.3 can leave that request unread: the
 *  shell reply to jupyter_server's nudge is sent raw on the shell ROUTER, which swallows the
 *  socket's read wake-up, so a request that lands in that instant waits until another peer
 *  connects (ipykernel issue 1554; 7.4 sends replies through the stream). Asking again on the same
 *  socket cannot wake it; a new websocket gives the server new zmq sockets and does. Each step,
 *  with what went over the wire, is in the host log. */
async function kernelReady(): Promise<void> {
  let answered = false;
  const info = kernel.info.then(() => {
    answered = true;
  });
  for (let attempt = 1; attempt <= KERNEL_INFO_ATTEMPTS; attempt++) {
    const timer = new Promise<void>((resolve) => setTimeout(resolve, KERNEL_INFO_RETRY_MS));
    await Promise.race([info, timer]);
    if (answered) return;
    const seen = wire.map((m) => `${m.direction} ${m.channel} ${m.type}`).join(", ") || "nothing";
    note(
      `no kernel_info reply after ${(attempt * KERNEL_INFO_RETRY_MS) / 1000}s (connection ${kernel.connectionStatus}, ` +
        `status ${kernel.status}; wire: ${seen}); opening a new websocket`,
    );
    void kernel.reconnect().catch(() => undefined);
  }
  throw new Error(`the kernel never answered kernel_info (connection ${kernel.connectionStatus})`);
}

/** After a reload: the kernel's live widgets, so restored cells can show theirs again. */
async function recoverWidgets(): Promise<void> {
  const saved = sessionStorage.getItem(storageKey);
  if (!saved || !manager) return;
  const records = JSON.parse(saved) as CellRecord[];
  const ids = records.flatMap((c) =>
    c.outputs.flatMap((o) => {
      const widget = o.data?.[WIDGET_MIME] as { model_id?: string } | undefined;
      return widget?.model_id ? [widget.model_id] : [];
    }),
  );
  if (ids.length === 0) return;
  const started = now();
  await manager._loadFromKernel();
  for (const id of ids) if (manager.has_model(id)) seenModels.add(id);
  note(`recovered widgets from the kernel in ${Math.round(now() - started)} ms: ${ids.filter((id) => seenModels.has(id)).length} of ${ids.length} outputs`);
}

async function main(): Promise<void> {
  win.vscodeHost = { log };
  const serverSettings = ServerConnection.makeSettings({
    baseUrl: new URL("/", location.href).href,
    wsUrl: new URL("/", location.href).href.replace(/^http/, "ws"),
    token,
    appendToken: true,
  });

  // The preload: activate(); load() when the extension reports ipywidgets 8.
  const bundle = (await import(new URL("ipywidgets8.js", location.href).href)) as { activate(): void };
  bundle.activate();
  win.vscIPyWidgets8.load();

  kernel = new KernelConnection({
    model: { id: kernelId, name: kernelName },
    serverSettings,
    handleComms: true,
    commsOverSubshells: CommsOverSubshells.Disabled,
  });
  kernel.anyMessage.connect((_sender, args) => {
    const msg = args.msg;
    const parent = msg.parent_header as Partial<KernelMessage.IHeader>;
    const content = msg.content as { comm_id?: string };
    wire.push({
      t: now(),
      direction: args.direction,
      channel: msg.channel,
      type: msg.header.msg_type,
      msgId: msg.header.msg_id,
      parentId: parent.msg_id ?? null,
      parentType: parent.msg_type ?? null,
      subshellId: (msg.header as { subshell_id?: string | null }).subshell_id ?? null,
      commId: content.comm_id ?? null,
    });
  });
  kernel.iopubMessage.connect((_sender, msg) => onIOPub(msg));
  kernel.connectionStatusChanged.connect((_sender, status) => note(`connection ${status}`));
  void kernel.info.then(() => {
    kernelInfoAt = now();
    note(`kernel_info reply from ${kernelId} (${kernel.name})`);
  });

  const scriptLoader = {
    widgetsRegisteredInRequireJs: new Set<string>(),
    // The extension's LocalWidgetScriptSourceProvider: <kernel's sys.prefix>/share/jupyter/nbextensions/<module>/index.js
    async loadWidgetScript(moduleName: string, _version: string): Promise<void> {
      win.requirejs.config({ paths: { [moduleName]: new URL(`${moduleName}/index`, scriptBase).href } });
      this.widgetsRegisteredInRequireJs.add(moduleName);
    },
    successHandler(className: string, moduleName: string, version: string): void {
      note(`loaded ${moduleName}@${version}:${className}`);
    },
    errorHandler(className: string, moduleName: string, version: string, error: unknown): void {
      note(`load FAILED ${moduleName}@${version}:${className} ${String(error)}`);
    },
  };
  manager = new win.vscIPyWidgets.WidgetManager(kernel, container, scriptLoader, (m: string) => note(`wm: ${m}`));

  // A cell run before the kernel answered kernel_info would sit in the connection's queue.
  await kernelReady();
  await recoverWidgets();
  restoreCells();

  win.vscodeHost = {
    kernelId,
    run,
    done,
    interrupt: () => kernel.interrupt(),
    cells,
    wire,
    stray,
    clicks,
    forwardedKeys,
    log,
    now,
    kernelInfoAt: () => kernelInfoAt,
  };
  document.body.dataset.hostReady = "true";
}

main().catch((error: unknown) => {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  note(`host FAILED ${text}`);
  document.body.dataset.hostError = text;
  win.vscodeHost = { log };
});
