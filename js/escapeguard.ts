// One Escape never throws a request away, whether or not anything was typed: the first Escape
// arms the guard and shows "Press Escape again…" (a status, so it is announced); the next one
// goes through. Any other key, a click or an edit disarms it.
import { el } from "./dom";

export const ESCAPE_TEXT = {
  escapeAgain: "Press Escape again to discard your answer",
} as const;

export class EscapeGuard {
  /** Shown while Escape waits to be pressed again; the shell places it. */
  readonly note: HTMLElement;
  private armed = false;

  constructor() {
    this.note = el("div", "nbask-escape-note");
    this.note.setAttribute("role", "status");
  }

  /** Whether this Escape should be held back (the first one): then it arms. */
  holds(): boolean {
    if (!this.armed) {
      this.armed = true;
      this.note.textContent = ESCAPE_TEXT.escapeAgain;
      return true;
    }
    this.disarm();
    return false;
  }

  readonly disarm = (): void => {
    if (!this.armed && this.note.textContent === "") return;
    this.armed = false;
    this.note.textContent = "";
  };
}
