// Autofocus of a freshly shown widget: once per view, only within its first moments, never
// pulling keystrokes from someone typing elsewhere or from a field the person reached first,
// nor to a widget scrolled out of view.
import { isOutOfView, isTextEntry } from "../parts/dom";
import { nextCell } from "./focusreturn";

/** Whether the widget may take focus from what has it now: only from nothing (the body), from
 *  the widget's own cell (its node, not its editor), from the widget itself, or from something
 *  no one types in. Never from another cell's editor, a text box, a select, a frame (another
 *  widget's page), a shadow root's text field, or another nbask widget: several requests shown
 *  at once appear within moments of each other, and the person may already be in the first
 *  (a later card taking focus from its "Keep reviewing" would turn their Enter into nothing). */
export function mayTakeFocusFrom(active: Element | null, root: HTMLElement): boolean {
  let element = active;
  // Inside a shadow root (a web component), what has focus is deeper than the host.
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  if (element === null || element === document.body || element === document.documentElement) return true;
  if (root.contains(element)) return true;
  if (element.closest(".nbask") !== null) return false;
  if (isUntouchedCellBelow(element, root)) return true;
  if (element instanceof HTMLIFrameElement || element instanceof HTMLSelectElement) return false;
  if (isTextEntry(element) || element.closest('[role="textbox"], [role="combobox"], .cm-editor') !== null) return false;
  return true;
}

/** Shift+Enter on a notebook's last cell adds an empty code cell below, never run, and puts its
 *  editor in focus: until something is typed there, the question asked in the cell above may
 *  take focus (else its digits and Escape would go into that cell). */
function isUntouchedCellBelow(element: Element, root: HTMLElement): boolean {
  const own = root.closest<HTMLElement>(".jp-Cell");
  const cell = element.closest(".jp-CodeCell");
  if (own === null || cell === null || nextCell(own) !== cell) return false;
  const prompt = cell.querySelector(".jp-InputArea-prompt")?.textContent ?? "";
  const editor = cell.querySelector(".cm-content");
  return editor !== null && editor.contains(element) && editor.textContent === "" && !/\d/.test(prompt);
}

/** Autofocus only a widget that has just appeared, never one re-rendered later. */
const AUTOFOCUS_WINDOW_MS = 2000;
const AUTOFOCUS_RETRY_MS = 50;

export class Autofocus {
  private readonly createdAt = Date.now();
  private done = false;
  /** The person focused or pressed something in the widget before autofocus did. */
  private personArrived = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `ready` says whether a form is shown and unlocked; `target` where focus lands. */
  constructor(
    private readonly root: HTMLElement,
    private readonly ready: () => boolean,
    private readonly target: () => HTMLElement | null,
    /** Told where focus is just before autofocus takes it (for js/focus/focusreturn.ts). */
    private readonly taking: (active: Element | null) => void = () => undefined,
  ) {}

  /** Focus the form of a widget that just appeared, once per view. */
  maybe(): void {
    if (this.done) return;
    this.done = true;
    this.attempt();
  }

  readonly personArrives = (): void => {
    this.personArrived = true;
  };

  destroy(): void {
    clearTimeout(this.timer);
  }

  private attempt(): void {
    this.timer = undefined;
    if (!this.ready()) return;
    if (Date.now() - this.createdAt > AUTOFOCUS_WINDOW_MS) return;
    if (!this.root.isConnected) {
      // anywidget may render before the output is attached to the page.
      this.timer = setTimeout(() => this.attempt(), AUTOFOCUS_RETRY_MS);
      return;
    }
    // Never pull keystrokes away from someone typing elsewhere (e.g. in another cell: their
    // next digits or Enter would answer the question), nor to a widget scrolled out of view.
    if (!mayTakeFocusFrom(document.activeElement, this.root)) return;
    // Nor from the person who got to the widget first: a field they focused or clicked keeps
    // focus (a late retry would send their next keystrokes into another field).
    if (this.personArrived || this.root.contains(document.activeElement)) return;
    if (isOutOfView(this.root)) return;
    const target = this.target();
    if (target === null) return;
    this.taking(document.activeElement);
    target.focus({ preventScroll: true });
  }
}
