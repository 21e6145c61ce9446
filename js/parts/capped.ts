// A capped text box: the field's maxLength and its live counter (js/parts/dom.ts charCounter), the
// counter named as the field's description when it has an id.
import { charCounter } from "./dom";

export function cappedText(
  field: HTMLInputElement | HTMLTextAreaElement,
  limit: number,
  counterId?: string,
): { element: HTMLElement; refresh: () => void } {
  const counter = charCounter(field, limit);
  if (counterId !== undefined) {
    counter.element.id = counterId;
    field.setAttribute("aria-describedby", counterId);
  }
  return counter;
}
