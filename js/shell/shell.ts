// The shared shell of every nbask view: the root and its data-status, locking while a response
// is on its way or after the time limit, the screen-reader announcer, and sending. Its small
// controllers: countdown.ts, discard.ts (asking before a draft is discarded), lateanswer.ts and
// draftsync.ts beside it, and js/focus/ (autofocus, the notebook's keys, focus once a request
// ends). It knows no kind: each kind (js/kinds/<kind>/view.ts) subclasses InteractionView.
import type { AnyModel } from "@anywidget/types";
import type { BaseModel, SavedDraft } from "../contract/contract";
import { LATE_TEXT, STATUS_TEXT } from "../contract/contract";
import { Autofocus } from "../focus/autofocus";
import { FOCUS_CARD_EVENT, cardArrow, onFocusCard } from "../focus/cardnav";
import { COUNTDOWN_TEXT, Countdown } from "./countdown";
import { asText, el, isObject, randomId, setFlag } from "../parts/dom";
import { DraftSync, fingerprint, type DraftTarget } from "./draftsync";
import { DISCARD_TEXT, DiscardConfirm } from "./discard";
import { FocusReturn } from "../focus/focusreturn";
import { installShortcutGate, isHostKey } from "../focus/hostkeys";
import { knownUsername, learnUsername } from "./identity";
import { lateRow, retitleLate } from "./lateanswer";
import { statusLineElement } from "../parts/resolved";
import { ReplyChannel } from "./sidechannel";
import { registerWaiting, unregisterWaiting, type WaitingView } from "./attention";
import { answeredByText, notAnswerableHere, showAnswerability } from "./approvers";

export { formatDuration } from "./countdown";

export const SHELL_TEXT = {
  sending: "Sending… Waiting for the kernel…",
  timeLeft: COUNTDOWN_TEXT.timeLeft,
  timeUp: COUNTDOWN_TEXT.timeUp,
  discard: DISCARD_TEXT.discard,
  keepEditing: DISCARD_TEXT.keepEditing,
} as const;

export abstract class InteractionView<M extends BaseModel> {
  protected readonly id = randomId();
  protected readonly root: HTMLElement;
  private readonly announcer: HTMLElement;
  private readonly content: HTMLElement;
  /** The pending form while one is shown; null once resolved (or before the first render). */
  protected form: HTMLElement | null = null;
  private formKey = "";
  private readonly countdown = new Countdown();
  private readonly autofocus: Autofocus;
  private readonly focusReturn: FocusReturn;
  private readonly events: string[];
  private readonly listeners: [string, EventListener][];
  /** This view as the page-wide "question waiting" signals see it (js/shell/attention.ts). */
  private readonly waiting: WaitingView;
  /** The draft in the model, and which request and form it belongs to. */
  private readonly draftSync: DraftSync;
  private draftTarget: DraftTarget = { request_id: "", key: "" };
  /** Escape or Dismiss with a draft: asks before it is thrown away. */
  private readonly discard = new DiscardConfirm(this.domId("discard"), () => this.autofocusTarget());
  /** The person pressed "Answer anyway" on a timed-out request: its form is shown again. */
  private answeringLate = false;
  /** The reply's route where the comm cannot reach a running cell (JupyterLite). */
  private readonly replies = new ReplyChannel();

  constructor(
    protected readonly model: AnyModel<M>,
    host: HTMLElement,
    kind: string,
    fields: readonly string[],
  ) {
    this.root = el("div", "nbask");
    installShortcutGate();
    this.focusReturn = new FocusReturn(this.root);
    this.root.dataset.kind = kind;
    // Announces state changes (sending, resolved, time up) to screen readers.
    this.announcer = el("div", "nbask-sr-only");
    this.announcer.setAttribute("aria-live", "polite");
    this.content = el("div", "nbask-content");
    this.autofocus = new Autofocus(
      this.root,
      () => this.form !== null && !this.isLocked(),
      () => this.autofocusTarget(),
      (active) => this.focusReturn.remember(active),
    );
    this.root.append(this.content, this.announcer, this.countdown.notice); // own live region
    this.listeners = [
      ["keydown", this.onKeydown as EventListener], ["focusout", this.onFocusOut as EventListener],
      ["focusin", this.autofocus.personArrives], ["focusin", this.focusReturn.onFocusIn as EventListener],
      ["pointerdown", this.autofocus.personArrives], ["pointerdown", this.focusReturn.onPointerDown],
      ["input", this.discard.edited], ["change", this.discard.edited],
      [FOCUS_CARD_EVENT, onFocusCard(() => (this.form !== null && !this.isLocked() ? this.autofocusTarget() : null))],
    ];
    for (const [type, listener] of this.listeners) this.root.addEventListener(type, listener);
    this.draftSync = new DraftSync(model, this.id, this.onRemoteDraft);
    host.append(this.root);
    const shared = ["_status", "_request_id", "_result", "_response", "_deadline_ms", "_countdown_from_ms", "_notify", "_show_names", "_approvers", "_verifies"];
    this.events = [...shared, ...fields].map((f) => `change:${f}`);
    this.waiting = {
      root: this.root,
      request: model,
      focusTarget: () => this.autofocusTarget(),
      text: () => this.waitingText(),
      notify: () => this.model.get("_notify") === true,
    };
    for (const name of this.events) this.model.on(name, this.update);
    learnUsername(this.update); // who this page's person is decides whether they may answer
  }

  /** Subclasses call this at the end of their constructor, once their own fields exist. */
  protected start(): void {
    this.update();
  }

  destroy(): void {
    for (const name of this.events) this.model.off(name, this.update);
    this.draftSync.destroy();
    for (const [type, listener] of this.listeners) this.root.removeEventListener(type, listener);
    this.countdown.stop();
    this.autofocus.destroy();
    unregisterWaiting(this.waiting);
    this.replies.close();
    this.root.remove();
  }

  // -- what each form provides ---------------------------------------------------------------

  /** Identifies what the pending form shows; a change starts a fresh form and draft. */
  protected abstract pendingKey(): string;
  /** Forget the person's unsent draft (a new request arrived). */
  protected abstract resetDraft(): void;
  /** The pending form; its timer comes from `this.makeTimer()`. */
  protected abstract buildForm(): HTMLElement;
  /** Called after every change while pending, with the form built. */
  protected abstract refreshForm(locked: boolean): void;
  protected abstract buildResolved(status: string): HTMLElement;
  /** A key pressed inside the unlocked form (not Tab, no modifiers). */
  protected abstract onKey(event: KeyboardEvent, target: HTMLElement): void;
  /** Where focus lands when the widget has just appeared, or null for nowhere. */
  protected abstract autofocusTarget(): HTMLElement | null;
  /** The person's unsent state as plain JSON data, for the model's draft. */
  protected abstract draftData(): Record<string, unknown>;
  /** Takes a saved draft (read defensively: any view, any version may have written it).
   *  Called before the form is built (a reload), or with it built (another view typed):
   *  then the controls are updated in place, without moving focus or a caret. */
  protected abstract applyDraft(data: Record<string, unknown>): void;
  /** The widget's title or first question, as plain text (for the desktop notification). */
  protected abstract waitingText(): string;
  /** What dismissing now would throw away, as the sentence that asks first ("Discard your
   *  answer? …", js/shell/discard.ts); null when nothing would be lost. */
  protected abstract discardMessage(): string | null;
  /** Whether a timed-out request offers "Answer anyway" (a form in URL mode does not). */
  protected offersLateAnswer(): boolean {
    return true;
  }

  // -- reading the model ----------------------------------------------------------------------

  protected status(): string {
    return asText(this.model.get("_status")) || "pending";
  }

  private deadline(): number {
    // Read defensively: the type says number, but the model holds whatever the kernel sent.
    const raw: unknown = this.model.get("_deadline_ms");
    const value = Number(raw);
    return Number.isFinite(value) && value > 0 ? value : 0;
  }

  /** The kernel took an answer given after the time limit (the result says so). */
  protected isAnsweredLate(): boolean {
    const result: unknown = this.model.get("_result");
    return isObject(result) && result.late === true;
  }

  protected isSending(): boolean {
    const response: unknown = this.model.get("_response");
    return isObject(response) && typeof response.action === "string" && response.action !== "";
  }

  private isExpired(): boolean {
    const deadline = this.deadline();
    return deadline > 0 && Date.now() >= deadline;
  }

  /** Controls are disabled while an answer is on its way, after the time limit, or where this
   *  page's person may not answer (js/shell/approvers.ts). */
  protected isLocked(): boolean {
    return this.isSending() || this.isExpired() || notAnswerableHere(this.model) !== null;
  }

  protected domId(suffix: string): string {
    return `nbask-${this.id}-${suffix}`;
  }

  // -- rendering -------------------------------------------------------------------------------

  /** Brings the view in line with the model; called on every model change. */
  protected readonly update = (): void => {
    const status = this.status();
    this.root.dataset.status = status;
    const answeredLate = status === "timeout" && this.isAnsweredLate();
    if (answeredLate || status !== "timeout") this.answeringLate = false;
    const late = answeredLate ? "answered" : this.answeringLate ? "answering" : "";
    if (late === "") this.root.removeAttribute("data-late");
    else this.root.dataset.late = late;
    if (status === "pending" || this.answeringLate) this.showPending();
    // A late answer is shown as an answer (the block then says it came late).
    else this.showResolved(answeredLate ? "answered" : status);
    // Waiting for the person: pending, and neither sending nor past its time limit.
    if (status === "pending" && !this.isLocked()) registerWaiting(this.waiting);
    else unregisterWaiting(this.waiting);
  };

  private showPending(): void {
    const key = this.pendingKey();
    if (key !== this.formKey) {
      this.formKey = key;
      this.resetDraft();
      this.draftSync.cancel();
      this.discard.close();
      this.draftTarget = { request_id: asText(this.model.get("_request_id")), key: fingerprint(key) };
      // What the person had chosen and typed in this form before a reload, or in another view.
      const saved = this.draftSync.read(this.draftTarget);
      if (saved !== null) this.applyDraft(saved.data);
      this.form = null;
    }
    if (this.form === null) {
      // Built once per request; later changes (deadline, response) update it in place.
      this.form = this.buildForm();
      this.discard.place(this.form);
      // Reopened by "Answer anyway": the agent is no longer waiting, and the form says so.
      if (this.answeringLate) retitleLate(this.form);
      this.content.replaceChildren(this.form);
    }
    this.applyPendingState();
    this.autofocus.maybe();
  }

  /** The countdown element, placed by the form in its top row. */
  protected makeTimer(): HTMLElement {
    const timer = el("span", "nbask-timer");
    timer.setAttribute("role", "timer");
    this.countdown.element = timer;
    return timer;
  }

  /** A note shown while a response is on its way; the form places it. */
  protected makeSendingNote(): HTMLElement {
    return el("span", "nbask-sending", SHELL_TEXT.sending);
  }

  /** Updates what depends on the deadline and the response, without rebuilding the form. */
  private applyPendingState(): void {
    const form = this.form;
    if (form === null) return;
    const sending = this.isSending();
    const expired = this.isExpired();
    const locked = sending || expired || notAnswerableHere(this.model) !== null;
    showAnswerability(form, this.model);
    if (locked) unregisterWaiting(this.waiting);
    if (locked) this.discard.close();
    setFlag(this.root, "data-sending", sending);
    setFlag(this.root, "data-expired", expired);
    // Locked with focus in it (sent here or elsewhere, past its time limit): focus leaves the form.
    const controls = form.querySelectorAll<HTMLInputElement | HTMLButtonElement | HTMLTextAreaElement>("input, button, textarea");
    this.focusReturn.lock(locked, () => controls.forEach((control) => (control.disabled = locked)));
    for (const note of form.querySelectorAll<HTMLElement>(".nbask-sending")) note.hidden = !sending;
    this.countdown.show(this.deadline(), Number(this.model.get("_countdown_from_ms")) || 0);
    if (this.deadline() > 0 && !expired) this.countdown.start(() => this.applyPendingState());
    else this.countdown.stop();
    this.refreshForm(locked);
    if (sending) this.announce(SHELL_TEXT.sending);
    else if (expired) this.announce(SHELL_TEXT.timeUp);
    else this.announce("");
  }

  protected announce(text: string): void {
    // Only on change, so a screen reader hears each state once.
    if (this.announcer.textContent !== text) this.announcer.textContent = text;
  }

  private showResolved(status: string): void {
    // A timed-out form can still be answered late ("Answer anyway"): the kernel keeps its
    // draft, so what was typed just before the time limit is written too.
    if (status === "timeout" && !this.isAnsweredLate()) this.draftSync.flush();
    else this.draftSync.cancel();
    this.discard.close();
    // The form gives way (or a block with focus in it is redrawn): focus is not left to fall.
    const ending = this.form !== null || this.content.contains(document.activeElement);
    this.form = null;
    this.countdown.element = null;
    this.countdown.reset();
    this.root.removeAttribute("data-sending");
    this.root.removeAttribute("data-expired");
    const block = this.buildResolved(status);
    if (status === "timeout" && this.offersLateAnswer()) block.append(lateRow(this.answerLate));
    this.content.replaceChildren(block);
    this.focusReturn.resolved(block, ending);
    this.announce(this.isAnsweredLate() ? LATE_TEXT.answered_late : (STATUS_TEXT[status] ?? status));
  }

  /** "Answer anyway": reopens the timed-out request's form here, with its normal controls. */
  private readonly answerLate = (): void => {
    this.answeringLate = true;
    this.update();
    this.autofocusTarget()?.focus();
  };

  /** The status line every resolved block starts with: "late" for an answer after the time
   *  limit, and who answered where that names someone (js/parts/wording.ts, showsName); `mark` is
   *  the key of its symbol (the status, or an approval's decision). */
  protected statusLine(status: string, text?: string, mark: string = status): HTMLElement {
    let shown = text ?? STATUS_TEXT[status] ?? status;
    // Late: no tick, as the cell went on without this answer (the block's note says where it went).
    if (this.isAnsweredLate()) [shown, mark] = [text === undefined ? LATE_TEXT.answered_late : `${shown} late`, "timeout"];
    shown += answeredByText(this.model); // " by alice (verified)" where it names someone
    return statusLineElement(status, shown, mark);
  }

  // -- the draft -------------------------------------------------------------------------------

  /** The person changed the draft: keep it in the model once typing pauses. */
  protected draftChanged(): void {
    if (this.status() !== "pending" && !this.answeringLate) return;
    this.draftSync.save(this.draftTarget, this.draftData());
  }

  private readonly onRemoteDraft = (saved: SavedDraft): void => {
    if ((this.status() !== "pending" && !this.answeringLate) || this.isSending()) return;
    if (saved.request_id !== this.draftTarget.request_id || saved.key !== this.draftTarget.key) return;
    this.applyDraft(saved.data);
  };

  private readonly onFocusOut = (event: FocusEvent): void => {
    // Leaving the widget (for another cell, another tab) is a good moment to save.
    const next = event.relatedTarget;
    if (!(next instanceof Node) || !this.root.contains(next)) this.draftSync.flush();
    this.focusReturn.onFocusOut(event);
  };

  // -- sending ---------------------------------------------------------------------------------

  /** Writes the response for the kernel; every view of the model then shows "Sending…". */
  protected sendResponse(response: object): void {
    if (this.form === null || this.isLocked()) return;
    this.discard.close();
    // The answer carries what the draft held; the kernel empties the draft once it accepts it
    // (after a refusal the next edit saves it again).
    this.draftSync.cancel();
    if (this.answeringLate && isObject(response) && response.action === "dismiss") {
      // Nothing to tell the kernel: the request already ended. Back to the resolved block,
      // and the draft is discarded (as Escape or Dismiss, confirmed, discards a pending one).
      this.answeringLate = false;
      this.draftSync.clear();
      this.formKey = "";
      this.update();
      this.root.querySelector<HTMLElement>(".nbask-late-row button")?.focus();
      return;
    }
    const user = knownUsername();
    const sent = user === null ? response : { ...response, user };
    this.model.set("_response", sent);
    this.model.save_changes();
    this.replies.post(this.model.get("_reply_channel"), sent);
    // For hosts that do not echo it; the form locks, and focus goes back to the notebook.
    this.update();
  }

  /** Escape and Dismiss (Decline): `dismiss` at once when nothing would be lost, else asks. */
  protected requestDismiss(dismiss: () => void): void {
    if (this.form === null || this.isLocked()) return;
    this.discard.ask(this.discardMessage(), dismiss);
  }

  /** The fields every response carries. */
  protected stamp(): { view_id: string; sent_at_ms: number } {
    return { view_id: this.id, sent_at_ms: Date.now() };
  }

  // -- focus and keys --------------------------------------------------------------------------

  private readonly onKeydown = (event: KeyboardEvent): void => {
    // Running the cell, save, the command palette and interrupt keep working from inside the
    // widget: the notebook's keys bubble on (js/focus/hostkeys.ts); the widget's own keys stop here.
    if (isHostKey(event)) return;
    event.stopPropagation();
    // Keys that finish an IME composition (keyCode 229 in Safari, with isComposing false).
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- no standard property says this
    if (event.isComposing || event.keyCode === 229) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    if (this.form === null || this.isLocked()) return;
    const target = event.target instanceof HTMLElement ? event.target : null;
    if (target === null || event.key === "Tab") return;
    if (cardArrow(event, target, this.root)) return; // Up/Down from a button: another card
    if (this.discard.escape(event)) return; // while it asks, Escape keeps editing
    this.onKey(event, target);
  };
}
