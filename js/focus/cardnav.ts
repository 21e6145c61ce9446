// Up and Down between the cards of requests waiting together (a batch, or any requests shown
// at once): from a card's button, or from its batch heading, the arrow keys move to the next or
// previous waiting card in reading order, and that card's own first control takes focus (as when
// it appeared). In a choice group, a text box, a select or any other input the arrows keep their
// meaning there; at the first or the last card they do nothing. A card answered, sending or past
// its time limit is not waiting, so it is passed over.
//
// anywidget loads this module once per model (js/reload/orphans.ts), so the cards are found in the
// page, and the chosen card is asked by a DOM event to focus its own first control.
import { isTextEntry } from "../parts/dom";

export const FOCUS_CARD_EVENT = "nbask:focus-card";

/** Cards whose request waits for the person now (js/shell/shell.ts sets these attributes). */
const WAITING_CARD = '.nbask[data-status="pending"]:not([data-sending]):not([data-expired])';

export type CardStep = 1 | -1;

/** The step when `event` moves between cards from `target`, else null. */
export function cardStep(event: KeyboardEvent, target: Element): CardStep | null {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return null;
  if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return null;
  // Radios and checkboxes move within their group; text, numbers and selects use the arrows.
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || isTextEntry(target)) return null;
  return event.key === "ArrowDown" ? 1 : -1;
}

/** Handles Up or Down pressed on `target` inside `from` (a card, or a batch heading): true
 *  when it moved focus to another card (the key is then used up). */
export function cardArrow(event: KeyboardEvent, target: Element, from: Element): boolean {
  const step = cardStep(event, target);
  if (step === null || !moveToCard(from, step)) return false;
  event.preventDefault();
  return true;
}

/** Focuses the nearest waiting card after (1) or before (-1) `from` in reading order and says
 *  whether one took focus. A card containing `from` (the heading of its own batch) counts as
 *  after it: its content comes below the heading. */
export function moveToCard(from: Element, step: CardStep): boolean {
  const cards = [...from.ownerDocument.querySelectorAll<HTMLElement>(WAITING_CARD)].filter((card) => {
    if (card === from) return false;
    const position = from.compareDocumentPosition(card);
    if (position & Node.DOCUMENT_POSITION_CONTAINS) return step === 1;
    return (position & (step === 1 ? Node.DOCUMENT_POSITION_FOLLOWING : Node.DOCUMENT_POSITION_PRECEDING)) !== 0;
  });
  // querySelectorAll lists in document order.
  const card = step === 1 ? cards[0] : cards[cards.length - 1];
  if (card === undefined) return false;
  // The card's view focuses its own first control and cancels the event to say it did.
  if (!card.dispatchEvent(new CustomEvent(FOCUS_CARD_EVENT, { cancelable: true }))) return true;
  const control = card.querySelector<HTMLElement>("input:not([disabled]), textarea:not([disabled]), button:not([disabled])");
  control?.focus();
  return control !== null;
}

/** The listener a card's view puts on its root: focuses `target()` when there is one. */
export function onFocusCard(target: () => HTMLElement | null): EventListener {
  return (event: Event): void => {
    const control = target();
    if (control === null) return;
    control.focus();
    event.preventDefault();
  };
}
