// Pieces of every kind's resolved block: the block itself under the shell's status line, a
// labelled line ("Note: …", "Reason: …", "Site: …") and the kernel's closing note.
import { el, textEl } from "./dom";

export function resolvedBlock(className: string, statusLine: HTMLElement): HTMLElement {
  const block = el("div", className);
  block.append(statusLine);
  return block;
}

/** "<label>: <text>": the label quiet, the text as given (model text, any direction). */
export function labelledText<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  label: string,
  text: string,
  { dir = true }: { dir?: boolean } = {},
): HTMLElementTagNameMap[K] {
  const line = el(tag, className);
  line.append(el("span", "nbask-resolved-label", `${label}: `), dir ? textEl("span", "", text) : el("span", "", text));
  return line;
}

/** The result's note, when it has one: appended at the end of the block. */
export function appendResultNote(block: HTMLElement, note: string): void {
  if (note.trim() !== "") block.append(textEl("p", "nbask-note", note));
}
