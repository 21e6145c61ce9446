// Escape and Enter inside an unlocked form, the same in every kind: Escape does the kind's
// close (dismiss, reject, decline, or closing a row of its own); Enter on a focused button does
// what the button says and in a textarea starts a new line; anywhere else the kind decides.

export interface FormKeys {
  escape: () => void;
  /** Enter outside a button or a textarea (the browser's own default is prevented). */
  enter: (target: HTMLElement) => void;
}

/** Handles Escape and Enter; returns false for any other key. */
export function handleFormKey(event: KeyboardEvent, target: HTMLElement, keys: FormKeys): boolean {
  if (event.key === "Escape") {
    event.preventDefault();
    keys.escape();
    return true;
  }
  if (event.key !== "Enter") return false;
  if (target instanceof HTMLButtonElement || target instanceof HTMLTextAreaElement) return true;
  event.preventDefault();
  keys.enter(target);
  return true;
}
