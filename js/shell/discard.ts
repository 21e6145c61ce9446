// Escape and the Dismiss button follow one rule, in every kind: when nothing would be lost (no
// option chosen, no text typed, no edit made) the request is dismissed at once; when a draft
// would be lost, the shared confirm row (js/parts/confirm.ts) asks once, naming what is lost, with
// "Keep editing" focused (the safe default: Enter, or a second Escape, keeps the draft) beside
// "Discard". The words are pure functions; the row is a small controller the shell places.
import type { Question } from "../contract/contract";
import { confirmControls, questionName } from "../parts/confirm";
import { type Draft, type SetNote, emptyDraft, hasContent } from "../kinds/question/draft";

export const DISCARD_TEXT = {
  discard: "Discard",
  keepEditing: "Keep editing",
  answer: "Discard your answer?",
  changes: "Discard your changes?",
} as const;

/** "a", "a and b", "a, b and c". */
export function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1] ?? ""}`;
}

/** "“DB” and “Features”". */
export function quoted(names: readonly string[]): string {
  return joinAnd(names.map((name) => `“${name}”`));
}

/** "Discard your answer? Your answers to “DB” and “Env” will be lost." (`lost` are noun phrases,
 *  "your reason"; `after` ends the sentence, as an approval says it is not approved). */
export function discardMessage(heading: string, lost: readonly string[], after = ""): string {
  const what = joinAnd(lost);
  return `${heading} ${what.charAt(0).toUpperCase()}${what.slice(1)} will be lost${after}.`;
}

/** "Discard your answer? Your answers to “DB” and “Env” will be lost.", or null when nothing
 *  was chosen or typed (then Escape and Dismiss dismiss at once). */
export function questionsLost(questions: readonly Question[], drafts: readonly Draft[], setNote: SetNote): string | null {
  const names = questions.filter((q, qi) => hasContent(drafts[qi] ?? emptyDraft(q))).map((q) => questionName(q.header, q.question));
  const lost: string[] = [];
  if (names.length > 0) lost.push(`${names.length === 1 ? "your answer to" : "your answers to"} ${quoted(names)}`);
  if (setNote.note.trim() !== "") lost.push("your note for all questions");
  return lost.length === 0 ? null : discardMessage(DISCARD_TEXT.answer, lost);
}

/** "Discard your changes? Your edit of the details and your reason will be lost, …", or null
 *  when neither was changed (Edit pressed and nothing typed loses nothing). */
export function approvalLost(editedDetails: boolean, reason: string): string | null {
  const lost = [...(editedDetails ? ["your edit of the details"] : []), ...(reason.trim() !== "" ? ["your reason"] : [])];
  return lost.length === 0 ? null : discardMessage(DISCARD_TEXT.changes, lost, ", and the request will not be approved");
}

/** "Discard your answer? Your entries in “Name” and “Age” will be lost.", or null when no
 *  field holds other than what the form started with. */
export function formLost(changed: readonly string[]): string | null {
  if (changed.length === 0) return null;
  return discardMessage(DISCARD_TEXT.answer, [`${changed.length === 1 ? "your entry in" : "your entries in"} ${quoted(changed)}`]);
}

/** The row under a pending form that asks before a draft is thrown away. */
export class DiscardConfirm {
  readonly row: HTMLElement;
  private readonly text: HTMLElement;
  private readonly keep: HTMLButtonElement;
  /** Where focus was when it asked: "Keep editing" takes it back there. */
  private opener: HTMLElement | null = null;
  private onDiscard: (() => void) | null = null;

  constructor(id: string, private readonly fallbackFocus: () => HTMLElement | null) {
    const controls = confirmControls(id, () => this.discard(), () => this.keepEditing(), "keep");
    this.row = controls.confirmRow;
    this.row.classList.add("nbask-discard");
    this.text = controls.confirmText;
    this.keep = controls.keepAnswering;
    this.keep.textContent = DISCARD_TEXT.keepEditing;
    controls.sendAnyway.textContent = DISCARD_TEXT.discard;
    // "Keep editing" first in reading and Tab order too: the safe choice comes first.
    this.row.insertBefore(this.keep, controls.sendAnyway);
    this.row.hidden = true;
  }

  get open(): boolean {
    return !this.row.hidden;
  }

  /** Dismisses at once (`discard()`) when `message` is null (nothing would be lost); else
   *  shows it and focuses "Keep editing". */
  ask(message: string | null, discard: () => void): void {
    if (message === null) {
      this.close();
      discard();
      return;
    }
    const active = document.activeElement;
    if (!this.open) this.opener = active instanceof HTMLElement && !this.row.contains(active) ? active : null;
    this.onDiscard = discard;
    if (this.text.textContent !== message) this.text.textContent = message;
    this.row.hidden = false;
    this.keep.focus();
  }

  /** "Keep editing" (or Escape while it asks): nothing is sent, focus goes back. */
  keepEditing(): void {
    if (!this.open) return;
    const opener = this.opener;
    this.close();
    const target = opener !== null && opener.isConnected && !opener.hidden ? opener : this.fallbackFocus();
    target?.focus();
  }

  /** Puts the row in a newly built form, above its footer (by its Dismiss button). */
  place(form: HTMLElement): void {
    form.insertBefore(this.row, form.querySelector(":scope > .nbask-footer"));
  }

  /** The draft changed while it asks: what it named is stale. A text box's own change event
   *  (fired as focus leaves it for "Keep editing") is no change. */
  readonly edited = (event: Event): void => {
    const target = event.target;
    const text = target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && !["checkbox", "radio"].includes(target.type));
    if (event.type !== "change" || !text) this.close();
  };

  /** While it asks, Escape is "Keep editing" (a draft is never thrown away by Escape alone);
   *  returns whether it took the key. */
  escape(event: KeyboardEvent): boolean {
    if (event.key !== "Escape" || !this.open) return false;
    event.preventDefault();
    this.keepEditing();
    return true;
  }

  /** Hides the row (the draft changed, the form locked or gave way), focus left where it is. */
  close(): void {
    this.row.hidden = true;
    this.opener = null;
    this.onDiscard = null;
  }

  private discard(): void {
    const discard = this.onDiscard;
    this.close();
    discard?.();
  }
}
