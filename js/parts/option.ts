// The option row: a radio or checkbox and what names it, inside one <label> so a click
// anywhere on the row chooses it. The question kind's rows add a description, a
// "Recommended" badge and the "Other" row with its capped textbox; the form kind's choice
// fields and its yes/no use the same row.
import type { Option } from "../contract/contract";
import { MAX_OTHER_CHARS, RECOMMENDED, isRecommended } from "../contract/contract";
import { el, textEl } from "./dom";
import { cappedText } from "./capped";

export const OPTION_TEXT = {
  other: "Other",
  otherPlaceholder: "Type your own answer",
  recommended: "Recommended",
} as const;

/** A radio or checkbox of a group. */
export function choiceInput(type: "radio" | "checkbox", name: string, value: string): HTMLInputElement {
  const input = el("input", "nbask-input");
  input.type = type;
  input.name = name;
  input.value = value;
  return input;
}

/** The row: the input, then what names and describes it. */
export function optionRow(input: HTMLInputElement, ...content: HTMLElement[]): HTMLLabelElement {
  const row = el("label", "nbask-option");
  row.append(input, ...content);
  return row;
}

/** A question's option: named by its label only (aria-labelledby); the description, which
 *  may be very long, is its accessible description. `id` prefixes the label's and
 *  description's ids. */
export function questionOption(
  option: Option,
  input: HTMLInputElement,
  id: string,
): HTMLLabelElement {
  const labelText = buildLabelText(option.label);
  labelText.id = id;
  input.setAttribute("aria-labelledby", labelText.id);
  const title = el("span", "nbask-option-title");
  title.append(labelText);
  if (isRecommended(option.label)) {
    // The label text already says "(Recommended)" to screen readers; the badge is visual.
    const badge = el("span", "nbask-badge", OPTION_TEXT.recommended);
    badge.setAttribute("aria-hidden", "true");
    title.append(badge);
  }
  const body = el("span", "nbask-option-body");
  body.append(title);
  if (option.description.trim() !== "") {
    const description = textEl("span", "nbask-option-desc", option.description);
    description.id = `${id}-desc`;
    input.setAttribute("aria-describedby", description.id);
    body.append(description);
  }
  return optionRow(input, body);
}

export interface OtherControls {
  row: HTMLElement;
  choice: HTMLInputElement;
  /** The Other answer's box: shown while Other is chosen or holds text (showOtherText). */
  box: HTMLElement;
  text: HTMLTextAreaElement;
  refreshCounter: () => void;
}

/** The tallest the Other textbox grows, in lines; past it, it scrolls. */
export const OTHER_MAX_LINES = 8;

/** The "Other" row: an option row like the others (its choice named "Other"), and below it
 *  the capped textbox for the answer, shown only while Other is chosen or holds text. The
 *  answer is one line (Enter sends, as in every field of the form): a line break pasted in
 *  becomes a space. */
export function otherRow(
  type: "radio" | "checkbox",
  name: string,
  id: string,
  onChoice: (checked: boolean) => void,
  onInput: (text: string) => void,
): OtherControls {
  const choice = choiceInput(type, name, "other");
  choice.id = id;
  choice.addEventListener("change", () => onChoice(choice.checked));
  const label = el("span", "nbask-option-label nbask-other-label", OPTION_TEXT.other);
  const body = el("span", "nbask-option-body");
  body.append(label);
  const option = optionRow(choice, body);

  const text = el("textarea", "nbask-other-text");
  text.rows = 1;
  text.dir = "auto";
  text.autocomplete = "off";
  text.placeholder = OPTION_TEXT.otherPlaceholder;
  text.setAttribute("aria-label", OPTION_TEXT.other);
  // The cap keeps one answer from flooding the agent's context; the kernel enforces it too.
  const counter = cappedText(text, MAX_OTHER_CHARS, `${id}-count`);
  text.addEventListener("input", () => {
    const oneLine = singleLine(text.value);
    if (oneLine !== text.value) {
      const caret = text.selectionStart;
      text.value = oneLine;
      text.setSelectionRange(caret, caret);
    }
    fitHeight(text);
    onInput(text.value);
  });
  const box = el("div", "nbask-other-box");
  box.hidden = true;
  box.append(text, counter.element);

  const row = el("div", "nbask-other");
  row.append(option, box);
  return { row, choice, box, text, refreshCounter: counter.refresh };
}

/** The Other answer as the one-line field kept it: line breaks become spaces. */
export function singleLine(text: string): string {
  return text.replace(/\r\n|[\r\n]/g, " ");
}

/** Whether the Other textbox is shown: while Other is chosen, or while it holds text (a draft
 *  or a restored answer), or while the person is in it. */
export function showsOtherText(otherChecked: boolean, otherText: string, focused: boolean): boolean {
  return otherChecked || otherText !== "" || focused;
}

/** Shows or hides the Other box, and sizes its textbox to its text. */
export function showOtherText(controls: Pick<OtherControls, "box" | "text">, shown: boolean): void {
  controls.box.hidden = !shown;
  if (shown) fitHeight(controls.text);
}

/** Grows a textbox with its text (CSS caps it at OTHER_MAX_LINES lines, then it scrolls). */
function fitHeight(text: HTMLTextAreaElement): void {
  text.style.height = "auto";
  const { borderTopWidth, borderBottomWidth } = getComputedStyle(text);
  const borders = (parseFloat(borderTopWidth) || 0) + (parseFloat(borderBottomWidth) || 0);
  if (text.scrollHeight > 0) text.style.height = `${String(text.scrollHeight + borders)}px`;
}

/** The label as given; a trailing "(Recommended)" is kept for screen readers and copy-paste
 *  but hidden on screen, where the badge says it instead. */
function buildLabelText(label: string): HTMLElement {
  const node = el("span", "nbask-option-label");
  node.dir = "auto";
  const match = RECOMMENDED.exec(label);
  if (match === null) {
    node.textContent = label;
    return node;
  }
  node.append(
    document.createTextNode(label.slice(0, match.index)),
    el("span", "nbask-sr-only", label.slice(match.index)),
  );
  return node;
}
