// The page-level "Waiting requests" panel (js/reload/orphans.ts decides what goes in it): fixed at the
// bottom right, one card per request whose cell shows no view of it, in the order they came.
// Its heading says how many still wait; the Close button appears once none does.
//
// Every copy of the widget's module (anywidget loads one per model) works on the one panel in
// the page's DOM, so everything here reads and writes the DOM only: no module state.
import { button, el } from "../parts/dom";

export const PANEL_TEXT = {
  /** The panel's accessible name (a region). */
  region: "Waiting requests",
  heading: (waiting: number): string =>
    waiting === 0
      ? "Nothing is waiting any more"
      : waiting === 1
        ? "A request is still waiting"
        : `${waiting} requests are still waiting`,
  /** Why the `cards` are here (`cleared` of them lost a view they had: their cell's output was
   *  cleared) and what answering does, said for `waiting` of them still waiting: an ended
   *  request resumes nothing any more. */
  note: (cards: number, cleared = 0, waiting = cards): string => {
    const why =
      cards === 1
        ? `Its cell's output was ${cleared === 1 ? "cleared" : "not saved"}, so it ${waiting === 0 ? "was" : "is"} shown here.`
        : `Their cells' outputs were ${cleared === 0 ? "not saved" : cleared === cards ? "cleared" : "cleared or not saved"}, so they ${waiting === 0 ? "were" : "are"} shown here.`;
    const then =
      waiting === 0
        ? cards === 1
          ? "It has ended, as shown below: its cell no longer waits for it."
          : "They have ended, as shown below: no cell waits for them."
        : cards === 1
          ? "Answering it resumes the cell."
          : waiting === cards
            ? "Answering one resumes its cell."
            : "Answering one that still waits resumes its cell.";
    return `${why} ${then}`;
  },
  close: "Close",
  /** Before the first line of the request's cell, shown as code. */
  from: "From the cell",
} as const;

/** Dispatched on the panel when the person closes it: each card's owner removes its card. */
export const CLOSE_EVENT = "nbask-orphans-close";

const PANEL = "nbask-orphans";
const CARD = "nbask-orphan-card";

/** The panel in the page, or null. */
export function findPanel(): HTMLElement | null {
  return document.querySelector<HTMLElement>(`section.${PANEL}`);
}

function createPanel(): HTMLElement {
  const panel = el("section", PANEL);
  panel.setAttribute("role", "region");
  panel.setAttribute("aria-label", PANEL_TEXT.region);
  const top = el("div", `${PANEL}-top`);
  const title = el("div", `${PANEL}-title`);
  title.append(el("h2", `${PANEL}-heading`), el("p", `${PANEL}-note`));
  const close = button(`${PANEL}-close`, PANEL_TEXT.close, () => panel.dispatchEvent(new CustomEvent(CLOSE_EVENT)));
  close.hidden = true;
  top.append(title, close);
  panel.append(top, el("div", `${PANEL}-cards`));
  document.body.append(panel);
  return panel;
}

/** A new card at the end of the panel (created on first use), saying which cell asked when
 *  ``cell`` (the first line of its code) is known; ``cleared`` when its view was there and went
 *  (the cell's output cleared); the caller renders into ``card``. */
export function addCard(request: string, cell = "", cleared = false): { panel: HTMLElement; card: HTMLElement } {
  const panel = findPanel() ?? createPanel();
  const card = el("div", CARD);
  card.dataset.request = request;
  card.dataset.pending = "true";
  if (cleared) card.dataset.cleared = "true";
  if (cell !== "") {
    const from = el("p", `${CARD}-from`, `${PANEL_TEXT.from} `);
    from.append(el("code", "", cell)); // the cell's own text, shown as text
    card.append(from);
  }
  panel.querySelector(`.${PANEL}-cards`)?.append(card);
  refreshPanel();
  return { panel, card };
}

/** Marks whether the card's request still waits, and updates the heading. */
export function setPending(card: HTMLElement, pending: boolean): void {
  card.dataset.pending = String(pending);
  refreshPanel();
}

/** Takes the card out; the panel goes once it has none. */
export function removeCard(card: HTMLElement): void {
  card.remove();
  refreshPanel();
}

/** Heading, note and Close from the cards in the panel; an empty panel is removed. */
export function refreshPanel(): void {
  const panel = findPanel();
  if (panel === null) return;
  const cards = [...panel.querySelectorAll<HTMLElement>(`.${CARD}`)];
  if (cards.length === 0) {
    panel.remove();
    return;
  }
  const waiting = cards.filter((card) => card.dataset.pending === "true").length;
  setText(panel.querySelector(`.${PANEL}-heading`), PANEL_TEXT.heading(waiting));
  const cleared = cards.filter((card) => card.dataset.cleared === "true").length;
  setText(panel.querySelector(`.${PANEL}-note`), PANEL_TEXT.note(cards.length, cleared, waiting));
  const close = panel.querySelector<HTMLButtonElement>(`.${PANEL}-close`);
  // A waiting request is not hidden away again: it has its own Dismiss.
  if (close !== null) close.hidden = waiting > 0;
}

function setText(node: Element | null, text: string): void {
  if (node !== null && node.textContent !== text) node.textContent = text;
}
