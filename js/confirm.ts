// The question kind's confirm row: Submit with questions left empty asks first, naming which
// ones will be sent as "No preference", with "Keep answering" (where focus lands: the safe
// default, so Enter, Enter sends nothing) beside "Send anyway".
import { NO_PREFERENCE } from "./contract";
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

/** The row (hidden by the view until Submit asks), its text and its two buttons. */
export function confirmControls(
  id: string,
  sendAnyway: () => void,
  keepAnswering: () => void,
): { confirmRow: HTMLElement; confirmText: HTMLElement; sendAnyway: HTMLButtonElement; keepAnswering: HTMLButtonElement } {
  const confirmText = el("span", "nbask-confirm-text");
  confirmText.id = id;
  const send = button("nbask-button nbask-primary", CONFIRM_TEXT.sendAnyway, sendAnyway);
  send.setAttribute("aria-describedby", confirmText.id);
  const keep = button("nbask-button", CONFIRM_TEXT.keepAnswering, keepAnswering);
  keep.setAttribute("aria-describedby", confirmText.id);
  const confirmRow = el("div", "nbask-confirm");
  confirmRow.append(confirmText, el("span", "nbask-spacer"), send, keep);
  return { confirmRow, confirmText, sendAnyway: send, keepAnswering: keep };
}
