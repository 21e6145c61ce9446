// The kernel's refusal of a reply (a view's `_error` trait) in the view's alert: shown until the
// person edits or sends again; a new refusal, or the same one again after another try, comes
// back. Shared by the approval and form views.

export class KernelRefusal {
  private hidden = false;
  private last = "";
  private wasSending = false;

  /** A fresh request: nothing is put away. */
  reset(): void {
    this.hidden = false;
  }

  /** Follow the model after a change, and show what it says. */
  update(alert: HTMLElement | undefined, error: string, sending: boolean): void {
    if (error !== this.last || (this.wasSending && !sending)) this.hidden = false;
    this.last = error;
    this.wasSending = sending;
    this.show(alert, error, sending);
  }

  /** The person edited: put the refusal away (shown again only by a new one). */
  putAway(alert: HTMLElement | undefined, error: string, sending: boolean): void {
    if (this.hidden) return;
    this.hidden = true;
    this.show(alert, error, sending);
  }

  /** The person is sending again: the refusal goes away with the answer on its way. */
  sending(): void {
    this.hidden = true;
  }

  private show(alert: HTMLElement | undefined, error: string, sending: boolean): void {
    if (!alert) return;
    const shown = error.trim() !== "" && !this.hidden && !sending;
    const text = shown ? error : "";
    if (alert.textContent !== text) alert.textContent = text;
    alert.hidden = !shown;
  }
}
