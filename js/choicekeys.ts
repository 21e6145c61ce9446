// Digits and arrow keys in a question's choices. In a single-select question the choices are a
// radio group (WAI-ARIA): the arrow moves focus and the selection together, so what is focused
// is what gets sent. In a multi-select one it moves focus only, and Space toggles.
import type { DraftAction } from "./draft";
import { isTextEntry } from "./dom";

export interface ChoiceControls {
  options: readonly HTMLInputElement[];
  otherChoice: HTMLInputElement;
  otherText: HTMLInputElement;
}

/** Handles an arrow or a digit 1-4 pressed inside one question's controls. */
export function choiceKey(
  event: KeyboardEvent,
  target: HTMLElement,
  controls: ChoiceControls,
  multi: boolean,
  change: (action: DraftAction) => void,
): void {
  if (event.key === "ArrowUp" || event.key === "ArrowLeft") onArrow(event, target, controls, multi, change, -1);
  else if (event.key === "ArrowDown" || event.key === "ArrowRight") onArrow(event, target, controls, multi, change, 1);
  else if (/^[1-4]$/.test(event.key)) onDigit(event, target, controls, change, Number(event.key) - 1);
}

function onArrow(
  event: KeyboardEvent,
  target: HTMLElement,
  controls: ChoiceControls,
  multi: boolean,
  change: (action: DraftAction) => void,
  step: 1 | -1,
): void {
  const inText = target === controls.otherText;
  // In the Other textbox, Left/Right move the caret.
  if (inText && (event.key === "ArrowLeft" || event.key === "ArrowRight")) return;
  const choices = [...controls.options, controls.otherChoice];
  // The textbox belongs to the Other choice, so it counts as Other's position.
  const current = inText ? choices.length - 1 : choices.indexOf(target as HTMLInputElement);
  if (current < 0) return;
  event.preventDefault(); // the browser's own radio arrow handling would fire change twice
  const nextIndex = (current + step + choices.length) % choices.length;
  if (!multi) change({ type: "select", choice: nextIndex });
  choices[nextIndex]?.focus();
}

function onDigit(
  event: KeyboardEvent,
  target: HTMLElement,
  controls: ChoiceControls,
  change: (action: DraftAction) => void,
  oi: number,
): void {
  if (isTextEntry(target)) return; // digits are text in the Other box and the note
  const input = controls.options[oi];
  if (!input) return;
  event.preventDefault();
  change({ type: "pick", option: oi });
  input.focus();
}
