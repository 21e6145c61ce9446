// The heading of a batch (several requests shown together, src/nbask/widget/batch.py): on the lead
// card only (the first request still waiting: the heading moves down as cards above it are
// answered, and so never sits on an answered card), above its own content, "3 requests waiting"
// (announced politely as it changes),
// and with two or more approvals waiting "Approve all (N)" / "Reject all (N)". Either asks
// first in the shared confirm row (js/parts/confirm.ts), naming how many, with "Keep reviewing" (where
// focus lands: the safe default) beside "Approve N" / "Reject N"; Escape closes it. Confirming
// sends the lead widget's custom message with exactly the approvals the confirmation named,
// then shows "Sending…" until the kernel's count changes (or none of those approvals waits any
// more); a confirmation open while approvals are decided elsewhere names only those left.
// Questions and forms are never decided by an "all" button: the kernel lists approvals only.
import type { AnyModel } from "@anywidget/types";
import { confirmControls } from "../parts/confirm";
import type { BatchMessage, BatchState, Model } from "../contract/contract";
import { button, el, isObject, randomId } from "../parts/dom";
import { knownUsername } from "../shell/identity";
import { cardArrow } from "../focus/cardnav";
import { isHostKey } from "../focus/hostkeys";

export type BatchAction = BatchMessage["batch"];

export const BATCH_TEXT = {
  waiting: (n: number): string => (n === 1 ? "1 request waiting" : `${n} requests waiting`),
  approveAll: (n: number): string => `Approve all (${n})`,
  rejectAll: (n: number): string => `Reject all (${n})`,
  confirmApprove: (n: number): string => `Approve all ${n} approvals? Each runs as shown, without edits.`,
  /** What "Approve all" leaves out: each high-risk approval, by its title. */
  leftOut: (actions: readonly string[]): string =>
    actions.length === 1
      ? ` High risk, left for its own card: "${actions[0]}".`
      : ` High risk, each left for its own card: ${actions.map((a) => `"${a}"`).join(", ")}.`,
  confirmReject: (n: number): string => `Reject all ${n} approvals?`,
  approveN: (n: number): string => `Approve ${n}`,
  rejectN: (n: number): string => `Reject ${n}`,
  keepReviewing: "Keep reviewing",
  sending: "Sending…",
} as const;

/** The model's `_batch`, read defensively (an older kernel sends none, any kernel may send
 *  anything): null unless it names a batch. */
export function readBatch(raw: unknown): BatchState | null {
  if (!isObject(raw) || typeof raw.id !== "string" || raw.id === "") return null;
  const waiting = Number(raw.waiting);
  const approvals = Array.isArray(raw.approvals) ? raw.approvals.filter((id): id is string => typeof id === "string") : [];
  const highRisk = Array.isArray(raw.high_risk)
    ? raw.high_risk
        .filter((item): item is { id: string; action: string } => isObject(item) && typeof item.id === "string")
        .map((item) => ({ id: item.id, action: typeof item.action === "string" ? item.action : item.id }))
        .filter((item) => approvals.includes(item.id))
    : [];
  return {
    id: raw.id,
    lead: raw.lead === true,
    waiting: Number.isFinite(waiting) && waiting > 0 ? Math.floor(waiting) : 0,
    approvals,
    high_risk: highRisk,
  };
}

/** The approvals "Approve all" may decide: every one but the high-risk ones. */
function approvable(batch: BatchState): string[] {
  const risky = new Set((batch.high_risk ?? []).map((item) => item.id));
  return batch.approvals.filter((id) => !risky.has(id));
}

function waitsFor(batch: BatchState, ids: readonly string[]): boolean {
  return ids.some((id) => batch.approvals.includes(id));
}

/** What the confirmation asks about: a snapshot taken when it opened. */
interface Asking {
  action: BatchAction;
  batchId: string;
  requestIds: string[];
  opener: HTMLButtonElement;
}

export class BatchHeading {
  readonly element: HTMLElement;
  private readonly count: HTMLElement;
  private readonly approveAll: HTMLButtonElement;
  private readonly rejectAll: HTMLButtonElement;
  private readonly confirmRow: HTMLElement;
  private readonly confirmText: HTMLElement;
  private readonly confirmButton: HTMLButtonElement;
  private readonly keepReviewing: HTMLButtonElement;
  private readonly sendingNote: HTMLElement;
  private asking: Asking | null = null;
  /** After confirming: the batch, count and approvals it was sent for; cleared once the count
   *  changes or none of those approvals waits any more (the kernel had nothing left to decide). */
  private sentAt: { batchId: string; waiting: number; requestIds: string[] } | null = null;

  /** `place` puts the heading where it belongs (above the card's content) when a batch is
   *  shown; the rest of the time it is not in the page at all. */
  constructor(
    private readonly model: AnyModel<Model>,
    private readonly place: (heading: HTMLElement) => void,
  ) {
    const id = `nbask-batch-${randomId()}`;
    this.element = el("div", "nbask-batch");
    this.element.setAttribute("role", "group");
    this.count = el("p", "nbask-batch-count");
    this.count.id = `${id}-count`;
    this.count.tabIndex = -1;
    // Polite: a change of the count is read once the person is idle.
    this.count.setAttribute("aria-live", "polite");
    this.element.setAttribute("aria-labelledby", this.count.id);
    this.approveAll = button("nbask-button", "", () => this.ask("approve_all", this.approveAll));
    this.rejectAll = button("nbask-button", "", () => this.ask("reject_all", this.rejectAll));
    const row = el("div", "nbask-batch-row");
    row.append(this.count, el("span", "nbask-spacer"), this.approveAll, this.rejectAll);
    const confirm = confirmControls(`${id}-confirm`, this.confirm, this.close);
    this.confirmRow = confirm.confirmRow;
    this.confirmRow.classList.add("nbask-batch-confirm");
    this.confirmText = confirm.confirmText;
    this.confirmButton = confirm.sendAnyway;
    this.keepReviewing = confirm.keepAnswering;
    this.keepReviewing.textContent = BATCH_TEXT.keepReviewing;
    this.confirmButton.textContent = "";
    this.confirmRow.hidden = true;
    this.sendingNote = el("p", "nbask-sending nbask-batch-sending", BATCH_TEXT.sending);
    this.sendingNote.setAttribute("role", "status");
    this.sendingNote.hidden = true;
    this.element.append(row, this.confirmRow, this.sendingNote);
    this.element.addEventListener("keydown", this.onKeydown);
    this.model.on("change:_batch", this.update);
    this.update();
  }

  destroy(): void {
    this.model.off("change:_batch", this.update);
    this.element.removeEventListener("keydown", this.onKeydown);
    this.element.remove();
  }

  private batch(): BatchState | null {
    const batch = readBatch(this.model.get("_batch"));
    return batch !== null && batch.lead && batch.waiting > 0 ? batch : null;
  }

  /** Brings the heading in line with the model's `_batch`. */
  private readonly update = (): void => {
    const batch = this.batch();
    const sent = this.sentAt;
    if (sent !== null && (batch === null || batch.id !== sent.batchId || batch.waiting !== sent.waiting || !waitsFor(batch, sent.requestIds))) {
      this.sentAt = null;
    }
    if (batch === null || (this.asking !== null && this.asking.batchId !== batch.id)) this.asking = null;
    if (batch !== null && this.asking !== null) this.narrowAsking(batch);
    if (batch === null) {
      // The heading leaves this card (its request ended, or the batch did); focus in the card
      // goes on to the next one waiting (js/focus/focusreturn.ts), where the heading now is.
      this.count.textContent = "";
      this.element.remove();
      return;
    }
    if (!this.element.isConnected) this.place(this.element);
    const text = BATCH_TEXT.waiting(batch.waiting);
    // Only on change, so a screen reader hears each count once.
    if (this.count.textContent !== text) this.count.textContent = text;
    const n = batch.approvals.length;
    const m = approvable(batch).length;
    for (const [node, label, count] of [
      [this.approveAll, BATCH_TEXT.approveAll(m), m],
      [this.rejectAll, BATCH_TEXT.rejectAll(n), n],
    ] as const) {
      node.hidden = !(count >= 2 && this.sentAt === null);
      if (node.textContent !== label) node.textContent = label;
    }
    this.confirmRow.hidden = this.asking === null;
    this.sendingNote.hidden = this.sentAt === null;
  };

  /** While the confirmation is open, an approval decided elsewhere (its own card, another view)
   *  leaves what it names: the count follows, and with fewer than two left it closes. One that
   *  joined since was not seen, so it is not added. */
  private narrowAsking(batch: BatchState): void {
    const asking = this.asking;
    if (asking === null) return;
    const ids = asking.requestIds.filter((id) => batch.approvals.includes(id));
    if (ids.length === asking.requestIds.length) return;
    if (ids.length < 2) {
      this.asking = null;
      if (this.element.contains(document.activeElement)) this.count.focus({ preventScroll: true });
      return;
    }
    asking.requestIds = ids;
    this.setConfirmText(asking.action, ids.length);
  }

  private setConfirmText(action: BatchAction, n: number): void {
    const approve = action === "approve_all";
    const risky = (this.batch()?.high_risk ?? []).map((item) => item.action);
    const leftOut = approve && risky.length > 0 ? BATCH_TEXT.leftOut(risky) : "";
    this.confirmText.textContent = (approve ? BATCH_TEXT.confirmApprove(n) : BATCH_TEXT.confirmReject(n)) + leftOut;
    this.confirmButton.textContent = approve ? BATCH_TEXT.approveN(n) : BATCH_TEXT.rejectN(n);
  }

  /** Opens the confirmation for what the batch shows now. */
  private ask(action: BatchAction, opener: HTMLButtonElement): void {
    const batch = this.batch();
    const ids = batch === null ? [] : action === "approve_all" ? approvable(batch) : [...batch.approvals];
    if (batch === null || ids.length < 2 || this.sentAt !== null) return;
    this.asking = { action, batchId: batch.id, requestIds: ids, opener };
    this.setConfirmText(action, ids.length);
    this.update();
    this.keepReviewing.focus();
  }

  /** "Keep reviewing" or Escape: nothing is sent, focus goes back to the button that asked. */
  private readonly close = (): void => {
    const asking = this.asking;
    if (asking === null) return;
    this.asking = null;
    this.update();
    if (asking.opener.isConnected && !asking.opener.hidden) asking.opener.focus();
  };

  private readonly confirm = (): void => {
    const asking = this.asking;
    const batch = this.batch();
    if (asking === null || batch === null) return;
    this.asking = null;
    this.sentAt = { batchId: asking.batchId, waiting: batch.waiting, requestIds: asking.requestIds };
    const user = knownUsername();
    const message: BatchMessage = {
      batch: asking.action,
      batch_id: asking.batchId,
      request_ids: asking.requestIds,
      ...(user === null ? {} : { user }),
    };
    this.model.send(message);
    this.update();
    // The confirm row is gone: focus stays in the heading, on its count.
    this.count.focus({ preventScroll: true });
  };

  private readonly onKeydown = (event: KeyboardEvent): void => {
    // The notebook's own keys bubble on (js/focus/hostkeys.ts); the heading's stop here, so the card
    // below never takes them for its own (a digit choosing an option, Escape dismissing).
    if (isHostKey(event)) return;
    event.stopPropagation();
    if (event.key === "Escape" && this.asking !== null) {
      event.preventDefault();
      this.close();
      return;
    }
    // Down goes into the cards below the heading (its own first), Up to a card above it.
    if (event.target instanceof Element) cardArrow(event, event.target, this.element);
  };
}
