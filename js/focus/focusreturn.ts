// Where focus goes once a request ends with focus in the widget: never to the page's body.
// However it ends: the person's Submit, Enter, Escape twice or Dismiss, or without them (the
// time limit, an interrupt, an answer from another view or the Waiting requests panel, a
// batch's Approve all), its controls are locked or replaced and would drop focus to the body.
// The rule the person relies on: while other requests wait, focus goes to the next waiting one
// (a batch's next card); when none waits, in a notebook (JupyterLab, Notebook 7) it goes back to
// the cell the person was in before the widget took focus, focusing the cell's node so the
// notebook is in command mode and Shift+Enter runs on from there. Never to the asking cell
// itself: Shift+Enter there would run the agent again, so the cell after it takes focus instead
// (the notebook makes the asking cell active on any press in its output, so "the cell the person
// was in" is often the asking one). Elsewhere (VS Code's host, a plain page) it stays on the
// widget: its resolved block once shown. Focus elsewhere (another cell's editor) is never moved.
import { moveToCard } from "./cardnav";

const CELL = ".jp-Cell";

/** The notebook cell an element that had focus belongs to: its own cell, or for the notebook
 *  itself (or the page's body) the notebook's active cell. */
export function cellOf(element: Element | null, root: HTMLElement): HTMLElement | null {
  const own = element?.closest<HTMLElement>(CELL) ?? null;
  if (own !== null) return own;
  const notebook = root.closest<HTMLElement>(".jp-Notebook");
  if (notebook === null) return null;
  const inNotebook = element !== null && notebook.contains(element);
  const onBody = element === null || element === document.body || element === document.documentElement;
  return inNotebook || onBody ? notebook.querySelector<HTMLElement>(`${CELL}.jp-mod-active`) : null;
}

/** The notebook's cell after `cell`, or null for the last. */
export function nextCell(cell: HTMLElement): HTMLElement | null {
  let next = cell.nextElementSibling;
  while (next !== null && !next.matches(CELL)) next = next.nextElementSibling;
  return next as HTMLElement | null;
}

// anywidget loads this module once per model, so a card reached from another card (a batch's
// next card) reads the cell that card remembered from its root element, under a page-wide key.
const REMEMBERED = Symbol.for("nbask.focus-return.v1");
type Remembering = HTMLElement & { [REMEMBERED]?: () => HTMLElement | null };

export class FocusReturn {
  /** The cell the person was in before focus came into the widget. */
  private previous: HTMLElement | null = null;
  /** Focus is to land on the resolved block once it is shown (no cell to go back to). */
  private toBlock = false;
  /** Focus came into the widget and has not left for another element since (a control locked
   *  or removed under it drops it to the body without naming where it went). */
  private inside = false;
  /** The form's controls are locked (an answer on its way, or past the time limit). */
  private locked = false;
  /** A press in the widget is under way: where focus was is already noted (see onPointerDown). */
  private pressing = false;

  constructor(private readonly root: HTMLElement) {
    (root as Remembering)[REMEMBERED] = () => this.previous;
  }

  /** Notes where focus is now, just before the widget takes it. */
  remember(element: Element | null): void {
    if (element !== null && this.root.contains(element)) return;
    // From another request's view (the card answered before this one): the cell it came from.
    const remembered = element?.closest<Remembering>(".nbask")?.[REMEMBERED];
    const other = remembered === undefined ? null : remembered();
    const cell = other?.isConnected === true ? other : cellOf(element, this.root);
    if (cell !== null) this.previous = cell;
  }

  /** A press in the widget, before anything moves focus: JupyterLab's mousedown handler makes
   *  the widget's own cell active and focuses it before the pressed control takes focus, so the
   *  focusin that follows would name that cell, not the one the person was in (a click on
   *  Approve would send the next Shift+Enter to the asking cell, running it again). */
  readonly onPointerDown = (): void => {
    this.remember(document.activeElement);
    this.pressing = true;
    // The press's focus change happens within the task that dispatched it.
    setTimeout(() => {
      this.pressing = false;
    }, 0);
  };

  /** Focus came into the widget (a click, Tab): where it came from is the cell to go back to. */
  readonly onFocusIn = (event: FocusEvent): void => {
    this.inside = true;
    const from = event.relatedTarget;
    if (!this.pressing && from instanceof Element && !this.root.contains(from)) this.remember(from);
  };

  /** Focus left the widget for another element. */
  readonly onFocusOut = (event: FocusEvent): void => {
    const to = event.relatedTarget;
    if (to instanceof Node && !this.root.contains(to)) this.inside = false;
  };

  /** The cell focus goes back to, or null outside a notebook. A cell below the asking one is where
   *  the person moved on to (Shift+Enter, Run All, a click into a later cell); the asking cell
   *  itself would run its agent again on the next Shift+Enter, and a cell above it (the
   *  notebook's first, active after a reload) would move the person back up: the cell after the
   *  asking one instead. */
  target(): HTMLElement | null {
    const previous = this.previous?.isConnected === true ? this.previous : null;
    const own = this.root.closest<HTMLElement>(CELL);
    if (own === null) return previous;
    if (previous !== null && (own.compareDocumentPosition(previous) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0) {
      return previous;
    }
    return nextCell(own) ?? own;
  }

  /** Whether focus is in the widget, or was dropped to the body by a control of it going away. */
  holdsFocus(): boolean {
    const active = document.activeElement;
    if (active !== null && this.root.contains(active)) return true;
    return this.inside && (active === null || active === document.body);
  }

  /** `apply` locks the form's controls or unlocks them. Locked with focus in the widget (the
   *  person sent an answer, another view did, the time limit passed), focus leaves the form. */
  lock(locked: boolean, apply: () => void): void {
    const ending = locked && !this.locked;
    this.locked = locked;
    apply();
    if (ending && this.holdsFocus()) this.restore();
  }

  /** Focus leaves the locked or ended form: to the next request still waiting, else back to the
   *  notebook's cell, else to the widget. */
  private restore(): void {
    if (moveToCard(this.root, 1) || moveToCard(this.root, -1)) {
      this.toBlock = false;
      return;
    }
    const cell = this.target();
    if (cell !== null) {
      this.toBlock = false;
      if (cell.tabIndex < 0 && !cell.hasAttribute("tabindex")) cell.tabIndex = -1;
      cell.focus({ preventScroll: true });
      return;
    }
    // No notebook: keep focus on the widget until its resolved block replaces the form.
    this.toBlock = true;
    if (!this.root.hasAttribute("tabindex")) this.root.tabIndex = -1;
    this.root.focus({ preventScroll: true });
  }

  /** The resolved block is shown, `ending` when it replaced the form or a block that had focus:
   *  focus still in the widget leaves it, and the block takes it if it was waiting for it. */
  resolved(block: HTMLElement, ending: boolean): void {
    this.locked = false;
    if (ending && this.holdsFocus()) this.restore();
    if (!this.toBlock) return;
    this.toBlock = false;
    const active = document.activeElement;
    if (active !== null && active !== document.body && !this.root.contains(active)) return;
    block.tabIndex = -1;
    block.focus({ preventScroll: true });
  }
}
