// Where focus goes once the person ends a request (Submit, Enter, Escape twice, Dismiss): never
// to the page's body. In a notebook (JupyterLab, Notebook 7) it goes back to the cell the person
// was in before the widget took focus, else to the widget's own cell, focusing the cell's node so
// the notebook is in command mode and Shift+Enter runs on from there. Elsewhere (VS Code's
// host, a plain page) it stays on the widget: its resolved block once shown.

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

export class FocusReturn {
  /** The cell the person was in before focus came into the widget. */
  private previous: HTMLElement | null = null;
  /** Focus is to land on the resolved block once it is shown (no cell to go back to). */
  private toBlock = false;

  constructor(private readonly root: HTMLElement) {}

  /** Notes where focus is now, just before the widget takes it. */
  remember(element: Element | null): void {
    if (element !== null && this.root.contains(element)) return;
    const cell = cellOf(element, this.root);
    if (cell !== null) this.previous = cell;
  }

  /** Focus came into the widget (a click, Tab): where it came from is the cell to go back to. */
  readonly onFocusIn = (event: FocusEvent): void => {
    const from = event.relatedTarget;
    if (from instanceof Element && !this.root.contains(from)) this.remember(from);
  };

  /** The cell focus goes back to, or null outside a notebook. */
  target(): HTMLElement | null {
    if (this.previous?.isConnected === true) return this.previous;
    return this.root.closest<HTMLElement>(CELL);
  }

  /** Whether focus is in the widget, or was dropped to the body by a control being disabled. */
  holdsFocus(hadFocus: boolean): boolean {
    const active = document.activeElement;
    if (active !== null && this.root.contains(active)) return true;
    return hadFocus && (active === null || active === document.body);
  }

  /** The person ended the request from inside the widget: focus leaves the locked form. */
  restore(): void {
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

  /** The resolved block is shown: it takes focus if the person's focus was waiting for it. */
  resolved(block: HTMLElement): void {
    if (!this.toBlock) return;
    this.toBlock = false;
    const active = document.activeElement;
    if (active !== null && active !== document.body && !this.root.contains(active)) return;
    block.tabIndex = -1;
    block.focus({ preventScroll: true });
  }
}
