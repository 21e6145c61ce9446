// The question kind's confirm row: Submit with questions left empty asks first, naming how
// many will be sent as "No preference", with "Send anyway" and "Keep answering".
import { NO_PREFERENCE } from "./contract";
import { button, el } from "./dom";

export const CONFIRM_TEXT = {
  sendAnyway: "Send anyway",
  keepAnswering: "Keep answering",
} as const;

export function confirmMessage(unanswered: number): string {
  const questions = unanswered === 1 ? "1 question" : `${unanswered} questions`;
  return `${questions} without an answer will be sent as ${NO_PREFERENCE}.`;
}

/** The row (hidden by the view until Submit asks), its text and its "Send anyway" button. */
export function confirmControls(
  id: string,
  sendAnyway: () => void,
  keepAnswering: () => void,
): { confirmRow: HTMLElement; confirmText: HTMLElement; sendAnyway: HTMLButtonElement } {
  const confirmText = el("span", "nbask-confirm-text");
  confirmText.id = id;
  const send = button("nbask-button nbask-primary", CONFIRM_TEXT.sendAnyway, sendAnyway);
  send.setAttribute("aria-describedby", confirmText.id);
  const keep = button("nbask-button", CONFIRM_TEXT.keepAnswering, keepAnswering);
  const confirmRow = el("div", "nbask-confirm");
  confirmRow.append(confirmText, el("span", "nbask-spacer"), send, keep);
  return { confirmRow, confirmText, sendAnyway: send };
}
