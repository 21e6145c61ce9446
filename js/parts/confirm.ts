// The question kind's confirm row: Submit with questions left empty asks first, naming which
// ones will be sent as "No preference", with "Keep answering" (where focus lands: the safe
// default, so Enter, Enter sends nothing, and so it has the primary look) beside "Send anyway".
// The batch heading's confirmation is built on the same row, its confirming button primary.
import { NO_PREFERENCE } from "../contract/contract";
import { button, el } from "./dom";

export const CONFIRM_TEXT = {
  sendAnyway: "Send anyway",
  keepAnswering: "Keep answering",
} as const;

/** How a question is named in the confirm row: its header, else its text (shortened). */
export function questionName(header: string, question: string): string {
  const name = header.trim() !== "" ? header.trim() : question.trim();
  return name.length > 60 ? `${name.slice(0, 59)}…` : name;
}

/** "Not answered: “DB”, “Features”. 2 questions without an answer will be sent as …". */
export function confirmMessage(unanswered: number, names: readonly string[] = []): string {
  const questions = unanswered === 1 ? "1 question" : `${unanswered} questions`;
  const which = names.length > 0 ? `Not answered: ${names.map((n) => `“${n}”`).join(", ")}. ` : "";
  return `${which}${questions} without an answer will be sent as ${NO_PREFERENCE}.`;
}

/** The row (hidden by the view until Submit asks), its text and its two buttons; `primary`
 *  says which of them has the primary look: the one the default action and focus are on. */
export function confirmControls(
  id: string,
  sendAnyway: () => void,
  keepAnswering: () => void,
  primary: "send" | "keep" = "send",
): { confirmRow: HTMLElement; confirmText: HTMLElement; sendAnyway: HTMLButtonElement; keepAnswering: HTMLButtonElement } {
  const confirmText = el("span", "nbask-confirm-text");
  confirmText.id = id;
  const look = (which: "send" | "keep"): string => (which === primary ? "nbask-button nbask-primary" : "nbask-button");
  const send = button(look("send"), CONFIRM_TEXT.sendAnyway, sendAnyway);
  send.setAttribute("aria-describedby", confirmText.id);
  const keep = button(look("keep"), CONFIRM_TEXT.keepAnswering, keepAnswering);
  keep.setAttribute("aria-describedby", confirmText.id);
  const confirmRow = el("div", "nbask-confirm");
  confirmRow.append(confirmText, el("span", "nbask-spacer"), send, keep);
  return { confirmRow, confirmText, sendAnyway: send, keepAnswering: keep };
}
