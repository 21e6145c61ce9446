// Digits and arrow keys in a question's choices. In a single-select question the choices are a
// radio group (WAI-ARIA): the arrow moves focus and the selection together, so what is focused
// is what gets sent. In a multi-select one it moves focus only, and Space toggles.
import type { DraftAction } from "./draft";
import { isTextEntry } from "../../parts/dom";

export interface ChoiceControls {
  options: readonly HTMLInputElement[];
  otherChoice: HTMLInputElement;
  otherText: HTMLTextAreaElement;
}

/** The key hint as the form's buttons and questions have it: "1–3" for two options and Other,
 *  and Space where a question takes several answers. */
export function choiceKeysHint(choices: number, multi: boolean): string {
  const digits = choices > 1 ? `1–${String(choices)}` : "1";
  return `Keys: ${digits} choose · ↑↓ move${multi ? " · Space check" : ""} · Enter send · Esc close`;
}

/** Handles an arrow or a digit pressed inside one question's controls: 1 to the number of
 *  options choose an option, the next digit chooses Other (and moves into its textbox). */
export function choiceKey(
  event: KeyboardEvent,
  target: HTMLElement,
  controls: ChoiceControls,
  multi: boolean,
  change: (action: DraftAction) => void,
): void {
  if (event.key === "ArrowUp" || event.key === "ArrowLeft") onArrow(event, target, controls, multi, change, -1);
  else if (event.key === "ArrowDown" || event.key === "ArrowRight") onArrow(event, target, controls, multi, change, 1);
  else if (/^[1-9]$/.test(event.key)) onDigit(event, target, controls, multi, change, Number(event.key) - 1);
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
  multi: boolean,
  change: (action: DraftAction) => void,
  oi: number,
): void {
  if (isTextEntry(target)) return; // digits are text in the Other box and the note
  if (oi === controls.options.length) {
    event.preventDefault();
    const other = controls.otherChoice;
    if (multi) change({ type: "setOther", checked: !other.checked });
    else change({ type: "select", choice: oi });
    // Chosen, Other's textbox is shown: the person goes on by typing the answer.
    (other.checked ? controls.otherText : other).focus();
    return;
  }
  const input = controls.options[oi];
  if (!input) return;
  event.preventDefault();
  change({ type: "pick", option: oi });
  input.focus();
}
