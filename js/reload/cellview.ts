// A request answered in the Waiting requests panel (js/reload/orphans.ts) after a reload of a notebook
// that was not saved: its cell still shows what the file had, nothing or an earlier run's output
// ("⊘ Dismissed"), which contradicts what the kernel received. Once the request ends, its cell
// (found by the first line of its code, when one cell alone begins with it) shows a view of the
// request after its outputs, under a note that says why; it goes once the cell's outputs change
// (the cell runs again, its output is cleared). The notebook's own outputs are not touched: the
// page holds no handle on them, and the next save keeps what the file had.
import { el } from "../parts/dom";

export const CELL_MARK_TEXT = {
  /** The mark's accessible name. */
  label: "How this cell's request ended",
  note: "After the page was reloaded, this cell's request was shown in the Waiting requests panel; this is how it ended. Any output above is from an earlier run.",
} as const;

const MARK = "nbask-cell-mark";

/** The first line of a cell's code as the kernel gives it (js/contract/contract.ts `cell`): trimmed, and
 *  cut with "…" past 80 characters. */
function firstLine(cell: Element): string {
  for (const line of cell.querySelectorAll(".jp-InputArea-editor .cm-line")) {
    const text = line.textContent.trim();
    if (text !== "") return text;
  }
  return "";
}

/** The one notebook code cell whose code begins with `line`, or null (none, or several). */
export function findCell(line: string): HTMLElement | null {
  if (line === "") return null;
  const cut = line.endsWith("\u2026");
  const wanted = cut ? line.slice(0, -1) : line;
  const cells = [...document.querySelectorAll<HTMLElement>(".jp-Notebook .jp-CodeCell")].filter((cell) => {
    const text = firstLine(cell);
    return cut ? text.startsWith(wanted) : text === wanted;
  });
  return cells.length === 1 ? (cells[0] ?? null) : null;
}

/** Shows how the request ended in the cell whose code begins with `line`, `mount` rendering its
 *  view there. Returns the cleanup (nothing is shown when no single cell matches). */
export function markCell(line: string, mount: (host: HTMLElement) => () => void): () => void {
  const outputs = findCell(line)?.querySelector<HTMLElement>(".jp-Cell-outputArea");
  if (outputs == null) return () => undefined;
  const mark = el("section", MARK);
  mark.setAttribute("aria-label", CELL_MARK_TEXT.label);
  mark.append(el("p", `${MARK}-note`, CELL_MARK_TEXT.note));
  const host = el("div", `${MARK}-view`);
  mark.append(host);
  outputs.append(mark);
  const unmount = mount(host);
  const remove = (): void => {
    observer.disconnect();
    unmount();
    mark.remove();
  };
  // The cell's own outputs changing (run again, cleared) make the mark stale; the marks of the
  // other requests of a batch come and go beside it.
  const observer = new MutationObserver((records) => {
    const isMark = (node: Node): boolean => node instanceof Element && node.classList.contains(MARK);
    if (records.some((record) => [...record.addedNodes, ...record.removedNodes].some((node) => !isMark(node)))) remove();
  });
  observer.observe(outputs, { childList: true });
  return remove;
}
