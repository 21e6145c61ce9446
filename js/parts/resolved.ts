// Pieces of every kind's resolved block: the status line with its mark, the block itself under
// it, a labelled line ("Note: …", "Reason: …", "Site: …") and the result's closing note, in
// the person's words (js/parts/wording.ts).
import { el, textEl } from "./dom";
import { MARKS, PERSON_TEXT, splitNote } from "./wording";

/** "Answered", "Rejected · Dismissed"…, after its mark (CSS draws `data-mark` before the text,
 *  hidden from screen readers, which read the text). */
export function statusLineElement(status: string, text: string, mark: string): HTMLElement {
  const line = el("div", "nbask-status-line", text);
  line.dataset.status = status;
  line.dataset.mark = MARKS[mark] ?? MARKS[status] ?? "";
  return line;
}

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

/** The result's note, when it has one, at the end of the block: the person's own words as
 *  "Note: …", then what nbask says about the ending in the person's wording (`count`: how
 *  many questions there were). Also takes a reason nbask wrote: never shown as "Reason: …". */
export function appendResultNote(block: HTMLElement, note: string, count = 1): void {
  const { own, nbask } = splitNote(note, count);
  if (own !== "") block.append(labelledText("p", "nbask-note nbask-own-note", PERSON_TEXT.note, own));
  if (nbask !== "") block.append(textEl("p", "nbask-note nbask-ending", nbask));
}
