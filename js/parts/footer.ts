// The footer row of every kind: the key hints (visual only: the keys themselves are the
// accessible way), the shell's "Sending…" note, then the kind's buttons at the end.
import { el } from "./dom";

/** The key hints, hidden from screen readers (they repeat what the controls already say). */
export function keyHints(text: string): HTMLElement {
  const keys = el("span", "nbask-keys", text);
  keys.setAttribute("aria-hidden", "true");
  return keys;
}

export function footerRow(keys: string, sendingNote: HTMLElement, buttons: readonly HTMLElement[]): HTMLElement {
  const footer = el("div", "nbask-footer");
  footer.append(keyHints(keys), sendingNote, el("span", "nbask-spacer"), ...buttons);
  return footer;
}
