// The shared shell of every nbask view: the root element and its data-status, the countdown,
// locking while a response is on its way or after the time limit, the screen-reader announcer,
// key isolation from the notebook's shortcuts, autofocus of a freshly shown widget, the draft
// kept in the model (js/draftsync.ts), and Escape asking before it discards a draft.
// A form (question.ts, approval.ts) subclasses InteractionView and fills in what is its own.
import type { AnyModel } from "@anywidget/types";
import type { BaseModel, SavedDraft } from "./contract";
import { LATE_TEXT, STATUS_TEXT } from "./contract";
import { asText, button, el, isObject, isOutOfView, isTextEntry, randomId, setFlag, suppressShortcuts } from "./dom";
import { DraftSync, fingerprint, type DraftTarget } from "./draftsync";
import { knownUsername, learnUsername } from "./identity";
import { ReplyChannel } from "./sidechannel";
import { registerWaiting, unregisterWaiting, type WaitingView } from "./waiting";

/** Autofocus only a widget that has just appeared, never one re-rendered later. */
const AUTOFOCUS_WINDOW_MS = 2000;
const AUTOFOCUS_RETRY_MS = 50;

export const SHELL_TEXT = {
  sending: "Sending… Waiting for the kernel…",
  timeLeft: "Time left",
  timeUp: "Time is up",
  escapeAgain: "Press Escape again to discard your answer",
} as const;

/** m:ss, or h:mm:ss from one hour up. Rounds up, so "0:00" is never shown while time is left. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, "0");
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${ss}`;
  return `${minutes}:${ss}`;
}

/** Keys that keep their meaning inside the widget even with Ctrl/Cmd held: text editing,
 *  caret and selection movement, and Enter (Ctrl+Enter would run the cell again). */
const KEPT_WITH_CTRL = new Set(["a", "c", "v", "x", "z", "y", "enter", "backspace", "delete", "home", "end", " "]);

const MODIFIER_KEYS = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"]);

function isHostShortcut(event: KeyboardEvent): boolean {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return false;
  const key = event.key.toLowerCase();
  return !KEPT_WITH_CTRL.has(key) && !key.startsWith("arrow") && key !== "control" && key !== "meta";
}

function hasAction(response: unknown): boolean {
  return isObject(response) && typeof response.action === "string" && response.action !== "";
}

export abstract class InteractionView<M extends BaseModel> {
  protected readonly id = randomId();
  private readonly createdAt = Date.now();
  protected readonly root: HTMLElement;
  private readonly announcer: HTMLElement;
  private readonly content: HTMLElement;
  /** The pending form while one is shown; null once resolved (or before the first render). */
  protected form: HTMLElement | null = null;
  private formKey = "";
  private timer: HTMLElement | null = null;
  private autofocusDone = false;
  /** The person focused or pressed something in the widget before autofocus did. */
  private personArrived = false;
  private autofocusTimer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private readonly events: string[];
  /** This view as the page-wide "question waiting" signals see it (js/waiting.ts). */
  private readonly waiting: WaitingView;
  /** The draft in the model, and which request and form it belongs to. */
  private readonly draftSync: DraftSync;
  private draftTarget: DraftTarget = { request_id: "", key: "" };
  /** Escape was pressed once with a draft: the next Escape discards it. */
  private escapeArmed = false;
  private readonly escapeNote: HTMLElement;
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
    this.root = suppressShortcuts(el("div", "nbask"));
    this.root.dataset.kind = kind;
    // Announces state changes (sending, resolved, time up) to screen readers.
    this.announcer = el("div", "nbask-sr-only");
    this.announcer.setAttribute("aria-live", "polite");
    this.content = el("div", "nbask-content");
    // Shown (and, being a status, announced) while Escape waits to be pressed again.
    this.escapeNote = el("div", "nbask-escape-note");
    this.escapeNote.setAttribute("role", "status");
    this.root.append(this.content, this.escapeNote, this.announcer);
    this.root.addEventListener("keydown", this.onKeydown);
    this.root.addEventListener("focusin", this.onPersonArrived);
    this.root.addEventListener("pointerdown", this.onPersonArrived);
    this.root.addEventListener("pointerdown", this.disarmEscape);
    this.root.addEventListener("input", this.disarmEscape);
    this.root.addEventListener("change", this.disarmEscape);
    this.root.addEventListener("focusout", this.onFocusOut);
    this.draftSync = new DraftSync(model, this.id, this.onRemoteDraft);
    host.append(this.root);
    this.events = ["status", "request_id", "result", "response", "deadline_ms", "notify", ...fields].map(
      (f) => `change:${f}`,
    );
    this.waiting = {
      root: this.root,
      focusTarget: () => this.autofocusTarget(),
      text: () => this.waitingText(),
      notify: () => this.model.get("notify") === true,
    };
    for (const name of this.events) this.model.on(name, this.update);
    learnUsername();
  }

  /** Subclasses call this at the end of their constructor, once their own fields exist. */
  protected start(): void {
    this.update();
  }

  destroy(): void {
    for (const name of this.events) this.model.off(name, this.update);
    this.draftSync.destroy();
    this.root.removeEventListener("keydown", this.onKeydown);
    this.root.removeEventListener("focusin", this.onPersonArrived);
    this.root.removeEventListener("pointerdown", this.onPersonArrived);
    this.root.removeEventListener("pointerdown", this.disarmEscape);
    this.root.removeEventListener("input", this.disarmEscape);
    this.root.removeEventListener("change", this.disarmEscape);
    this.root.removeEventListener("focusout", this.onFocusOut);
    this.stopTicker();
    clearTimeout(this.autofocusTimer);
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
  /** Whether the person chose or typed anything a dismiss would throw away. */
  protected abstract hasDraft(): boolean;
  /** Whether Escape would dismiss now (false while it closes something of the form's own). */
  protected escapeDiscards(): boolean {
    return true;
  }
  /** Whether a timed-out request offers "Answer anyway" (a form in URL mode does not). */
  protected offersLateAnswer(): boolean {
    return true;
  }

  // -- reading the model ----------------------------------------------------------------------

  protected status(): string {
    return asText(this.model.get("status")) || "pending";
  }

  private deadline(): number {
    // Read defensively: the type says number, but the model holds whatever the kernel sent.
    const raw: unknown = this.model.get("deadline_ms");
    const value = Number(raw);
    return Number.isFinite(value) && value > 0 ? value : 0;
  }

  /** The kernel took an answer given after the time limit (the result says so). */
  protected isAnsweredLate(): boolean {
    const result: unknown = this.model.get("result");
    return isObject(result) && result.late === true;
  }

  /** The username the kernel recorded as who answered, or "" when none. */
  private answeredBy(): string {
    const result: unknown = this.model.get("result");
    return isObject(result) ? asText(result.answered_by_user).trim() : "";
  }

  protected isSending(): boolean {
    return hasAction(this.model.get("response"));
  }

  private isExpired(): boolean {
    const deadline = this.deadline();
    return deadline > 0 && Date.now() >= deadline;
  }

  /** Controls are disabled while an answer is on its way or after the time limit. */
  protected isLocked(): boolean {
    return this.isSending() || this.isExpired();
  }

  /** The widget's title or first question, as plain text (for the desktop notification). */
  private waitingText(): string {
    const title = asText(this.model.get("title" as keyof M));
    if (title.trim() !== "") return title;
    const questions: unknown = this.model.get("questions" as keyof M);
    if (Array.isArray(questions) && isObject(questions[0])) {
      const question = asText(questions[0].question);
      if (question.trim() !== "") return question;
    }
    return asText(this.model.get("message" as keyof M));
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
      this.disarmEscape();
      this.draftTarget = { request_id: asText(this.model.get("request_id")), key: fingerprint(key) };
      // What the person had chosen and typed in this form before a reload, or in another view.
      const saved = this.draftSync.read(this.draftTarget);
      if (saved !== null) this.applyDraft(saved.data);
      this.form = null;
    }
    if (this.form === null) {
      // Built once per request; later changes (deadline, response) update it in place.
      this.form = this.buildForm();
      // Reopened by "Answer anyway": the agent is no longer waiting, and the form says so.
      const title = this.form.querySelector(".nbask-title");
      if (this.answeringLate && title !== null) title.textContent = LATE_TEXT.answering_late;
      this.content.replaceChildren(this.form);
    }
    this.applyPendingState();
    this.maybeAutofocus();
  }

  /** The countdown element, placed by the form in its top row. */
  protected makeTimer(): HTMLElement {
    const timer = el("span", "nbask-timer");
    timer.setAttribute("role", "timer");
    this.timer = timer;
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
    const locked = sending || expired;
    if (locked) unregisterWaiting(this.waiting);
    setFlag(this.root, "data-sending", sending);
    setFlag(this.root, "data-expired", expired);
    for (const control of form.querySelectorAll<HTMLInputElement | HTMLButtonElement | HTMLTextAreaElement>(
      "input, button, textarea",
    )) {
      control.disabled = locked;
    }
    for (const note of form.querySelectorAll<HTMLElement>(".nbask-sending")) note.hidden = !sending;
    this.updateTimer();
    if (this.deadline() > 0 && !expired) this.startTicker();
    else this.stopTicker();
    this.refreshForm(locked);
    if (sending) this.announce(SHELL_TEXT.sending);
    else if (expired) this.announce(SHELL_TEXT.timeUp);
    else this.announce("");
  }

  private updateTimer(): void {
    const timer = this.timer;
    if (timer === null) return;
    const deadline = this.deadline();
    timer.hidden = deadline === 0;
    if (deadline === 0) {
      timer.textContent = "";
      return;
    }
    const left = deadline - Date.now();
    timer.textContent = left > 0 ? `${SHELL_TEXT.timeLeft} ${formatDuration(left)}` : SHELL_TEXT.timeUp;
  }

  private startTicker(): void {
    if (this.ticker === undefined) this.ticker = setInterval(() => this.applyPendingState(), 1000);
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
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
    this.disarmEscape();
    this.form = null;
    this.timer = null;
    this.stopTicker();
    this.root.removeAttribute("data-sending");
    this.root.removeAttribute("data-expired");
    const block = this.buildResolved(status);
    if (status === "timeout" && this.offersLateAnswer()) block.append(this.lateRow());
    this.content.replaceChildren(block);
    this.announce(this.isAnsweredLate() ? LATE_TEXT.answered_late : (STATUS_TEXT[status] ?? status));
  }

  /** "Answer anyway": reopens the timed-out request's form here, with its normal controls. */
  private lateRow(): HTMLElement {
    const row = el("div", "nbask-late-row");
    const answer = button("nbask-button", LATE_TEXT.answer_anyway, () => {
      this.answeringLate = true;
      this.update();
      this.autofocusTarget()?.focus();
    });
    row.append(answer);
    return row;
  }

  /** The status line every resolved block starts with: "late" for an answer after the time
   *  limit, and who answered where the kernel knows their username (shown as text). */
  protected statusLine(status: string, text?: string): HTMLElement {
    let shown = text ?? STATUS_TEXT[status] ?? status;
    if (this.isAnsweredLate()) shown = text === undefined ? LATE_TEXT.answered_late : `${shown} late`;
    const user = this.answeredBy();
    if (user !== "") shown += ` by ${user}`;
    const line = el("div", "nbask-status-line", shown);
    line.dataset.status = status;
    return line;
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
  };

  private armEscape(): void {
    this.escapeArmed = true;
    this.escapeNote.textContent = SHELL_TEXT.escapeAgain;
  }

  private readonly disarmEscape = (): void => {
    if (!this.escapeArmed && this.escapeNote.textContent === "") return;
    this.escapeArmed = false;
    this.escapeNote.textContent = "";
  };

  // -- sending ---------------------------------------------------------------------------------

  /** Writes the response for the kernel; every view of the model then shows "Sending…". */
  protected sendResponse(response: object): void {
    if (this.form === null || this.isLocked()) return;
    this.disarmEscape();
    // The answer carries what the draft held; the kernel empties the draft once it accepts it
    // (after a refusal the next edit saves it again).
    this.draftSync.cancel();
    if (this.answeringLate && isObject(response) && response.action === "dismiss") {
      // Nothing to tell the kernel: the request already ended. Back to the resolved block,
      // and the draft is discarded (as Escape twice or Dismiss discards a pending one).
      this.answeringLate = false;
      this.draftSync.clear();
      this.formKey = "";
      this.update();
      this.root.querySelector<HTMLElement>(".nbask-late-row button")?.focus();
      return;
    }
    const user = knownUsername();
    const sent = user === null ? response : { ...response, user };
    this.model.set("response", sent);
    this.model.save_changes();
    this.replies.post(this.model.get("reply_channel"), sent);
    // model.set already notifies every view of this model; this covers hosts that do not
    // echo a view's own change back to it.
    this.update();
  }

  /** The fields every response carries. */
  protected stamp(): { view_id: string; sent_at_ms: number } {
    return { view_id: this.id, sent_at_ms: Date.now() };
  }

  // -- focus and keys --------------------------------------------------------------------------

  /** Focus the form of a widget that just appeared, once per view. */
  private maybeAutofocus(): void {
    if (this.autofocusDone) return;
    this.autofocusDone = true;
    this.tryAutofocus();
  }

  private tryAutofocus(): void {
    this.autofocusTimer = undefined;
    if (this.form === null || this.isLocked()) return;
    if (Date.now() - this.createdAt > AUTOFOCUS_WINDOW_MS) return;
    if (!this.root.isConnected) {
      // anywidget may render before the output is attached to the page.
      this.autofocusTimer = setTimeout(() => this.tryAutofocus(), AUTOFOCUS_RETRY_MS);
      return;
    }
    // Never pull keystrokes away from someone typing elsewhere (e.g. in another cell: their
    // next digits or Enter would answer the question), nor to a widget scrolled out of view.
    if (isTextEntry(document.activeElement) && !this.root.contains(document.activeElement)) return;
    // Nor from the person who got to the widget first: a field they focused or clicked keeps
    // focus (a late retry would send their next keystrokes into another field).
    if (this.personArrived || this.root.contains(document.activeElement)) return;
    if (isOutOfView(this.root)) return;
    this.autofocusTarget()?.focus({ preventScroll: true });
  }

  private readonly onPersonArrived = (): void => {
    this.personArrived = true;
  };

  private readonly onKeydown = (event: KeyboardEvent): void => {
    // Save and the command palette (Ctrl/Cmd+S, Ctrl/Cmd+Shift+P in VS Code, Ctrl+Shift+C in
    // JupyterLab) must keep working from inside the widget, so Ctrl/Cmd shortcuts bubble on,
    // except the ones a form or a text field uses itself.
    if (isHostShortcut(event)) return;
    // JupyterLab handles its shortcuts from keydown events that reach the document.
    event.stopPropagation();
    // Any key but Escape (and a modifier on its own) takes back a pending "press again".
    if (event.key !== "Escape" && !MODIFIER_KEYS.has(event.key)) this.disarmEscape();
    // Keys that finish an IME composition (keyCode 229 in Safari) are the input method's.
    // Safari reports that key with isComposing false, and only keyCode tells it apart.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- no standard property says this
    if (event.isComposing || event.keyCode === 229) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    if (this.form === null || this.isLocked()) return;
    const target = event.target instanceof HTMLElement ? event.target : null;
    if (target === null || event.key === "Tab") return;
    if (event.key === "Escape" && this.escapeDiscards()) {
      if (!this.escapeArmed && this.hasDraft()) {
        // Nothing the person chose or typed is thrown away by one stray key.
        event.preventDefault();
        this.armEscape();
        return;
      }
      this.disarmEscape();
    }
    this.onKey(event, target);
  };
}
