// "Answer anyway" under a timed-out request: reopens its form here, with its normal controls.
import { LATE_TEXT } from "../contract/contract";
import { button, el } from "../parts/dom";

export function lateRow(onAnswer: () => void): HTMLElement {
  const row = el("div", "nbask-late-row");
  row.append(button("nbask-button", LATE_TEXT.answer_anyway, onAnswer));
  return row;
}

/** A reopened form's title says the agent is no longer waiting. */
export function retitleLate(form: HTMLElement): void {
  const title = form.querySelector(".nbask-title");
  if (title !== null) title.textContent = LATE_TEXT.answering_late;
}
