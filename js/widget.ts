// The nbask question widget: shows 1-4 questions, sends the person's answer to the kernel,
// then turns into a read-only record of what was asked and answered.
//
// One `View` per rendered output. The kernel owns the model; a view keeps only the person's
// unsent draft, so every view of one model (and a reloaded page) shows the same state.
import type { AnyModel, RenderProps } from "@anywidget/types";

// ---------------------------------------------------------------------------------------------
// The model contract. It mirrors the synced traitlets of QuestionWidget in src/nbask/widget.py:
// change both together. The kernel writes every field except `response`.

export interface Option {
  label: string;
  description: string;
}

export interface Question {
  question: string;
  header: string;
  options: Option[];
  multi_select: boolean;
}

export type Status = "pending" | "answered" | "dismissed" | "timeout" | "cancelled";

/** One entry per question, in question order. */
export interface QuestionAnswer {
  /** Labels of the chosen options, in option order. */
  selected: string[];
  /** The trimmed "Other" text when Other is chosen and not empty, else null. */
  other: string | null;
}

/** Written by the front end (model.set + save_changes), read by the kernel. */
export interface Response {
  action: "submit" | "dismiss";
  answers: QuestionAnswer[];
  /** Random id of the view that sent it. */
  view_id: string;
  sent_at_ms: number;
}

export interface Result {
  /** Question text -> answer text, for the resolved block. */
  answers?: Record<string, string>;
  /** Extra text for the resolved block, e.g. that a late answer was ignored. */
  note?: string;
}

export interface Model {
  questions: Question[];
  request_id: string;
  status: Status;
  /** Epoch milliseconds when the kernel stops waiting; 0 = no time limit. */
  deadline_ms: number;
  response: Response | Record<string, never>;
  result: Result;
}

// ---------------------------------------------------------------------------------------------
// Fixed text. Button names are part of the accessibility contract (end-to-end tests find them
// by role and name), so no other text here contains "Submit" or "Dismiss".

export const TEXT = {
  title: "The agent is waiting for your answer",
  multiHint: "Select all that apply",
  other: "Other",
  otherPlaceholder: "Type your own answer",
  recommended: "Recommended",
  submit: "Submit",
  dismiss: "Dismiss",
  sendAnyway: "Send anyway",
  keepAnswering: "Keep answering",
  sending: "Sending… Waiting for the kernel…",
  timeLeft: "Time left",
  timeUp: "Time is up",
  noPreference: "[No preference]",
  keys: "Keys: 1–4 choose · ↑↓ move · Enter send · Esc close",
} as const;

export const STATUS_TEXT: Record<string, string> = {
  answered: "Answered",
  dismissed: "Dismissed",
  timeout: "Timed out",
  cancelled: "Cancelled",
};

/** Autofocus only a widget that has just appeared, never one re-rendered later. */
const AUTOFOCUS_WINDOW_MS = 2000;
const AUTOFOCUS_RETRY_MS = 50;
const RECOMMENDED = /\(recommended\)\s*$/i;

// ---------------------------------------------------------------------------------------------
// Pure helpers (exported for the tests).

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

export function isRecommended(label: string): boolean {
  return RECOMMENDED.test(label);
}

/** The model's questions, read defensively: the kernel validates them, but a view must not crash. */
export function readQuestions(raw: unknown): Question[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item: unknown) => {
    const q = isObject(item) ? item : {};
    const options = Array.isArray(q.options) ? q.options : [];
    return {
      question: asText(q.question),
      header: asText(q.header),
      multi_select: q.multi_select === true,
      options: options.map((o: unknown) => {
        const option = isObject(o) ? o : {};
        return { label: asText(option.label), description: asText(option.description) };
      }),
    };
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  return value === null || value === undefined ? "" : String(value);
}

function hasAction(response: unknown): boolean {
  return isObject(response) && typeof response.action === "string" && response.action !== "";
}

/** Random hex id. getRandomValues works on plain-http Jupyter servers, randomUUID does not. */
function randomId(): string {
  const bytes = new Uint8Array(6);
  if (globalThis.crypto?.getRandomValues) {
    globalThis.crypto.getRandomValues(bytes);
  } else {
    bytes.forEach((_, i) => (bytes[i] = Math.floor(Math.random() * 256)));
  }
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** True when the person is typing somewhere else on the page (a cell editor, a search box). */
function isTextEntry(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLInputElement) {
    return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"].includes(el.type);
  }
  return el.closest('[contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]') !== null;
}

// ---------------------------------------------------------------------------------------------
// The person's unsent answer to one question. Kept per view and never written to the model
// until Submit, so re-renders caused by the kernel do not lose it.

interface Draft {
  checked: boolean[];
  otherChecked: boolean;
  otherText: string;
}

function emptyDraft(question: Question): Draft {
  return { checked: question.options.map(() => false), otherChecked: false, otherText: "" };
}

export function answerOf(question: Question, draft: Draft): QuestionAnswer {
  const selected = question.options.filter((_, i) => draft.checked[i]).map((o) => o.label);
  const text = draft.otherText.trim();
  return { selected, other: draft.otherChecked && text !== "" ? text : null };
}

function isAnswered(answer: QuestionAnswer): boolean {
  return answer.selected.length > 0 || answer.other !== null;
}

// ---------------------------------------------------------------------------------------------
// DOM building. Model text only ever goes through textContent: it is LLM output.

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An element holding model text: may be any language, any direction, any length. */
function textEl<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text: string): HTMLElementTagNameMap[K] {
  const node = el(tag, className, text);
  node.dir = "auto";
  return node;
}

/** Notebook 7 runs its shortcuts before a key reaches the widget unless the focused element
 *  itself carries this attribute, so every focusable control gets it. */
function suppressShortcuts<T extends HTMLElement>(node: T): T {
  node.setAttribute("data-lm-suppress-shortcuts", "true");
  return node;
}

function button(className: string, label: string, onClick: () => void): HTMLButtonElement {
  const node = suppressShortcuts(el("button", className, label));
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

function headerChip(header: string): HTMLElement | null {
  return header.trim() === "" ? null : textEl("span", "nbask-chip", header);
}

/** Controls of one question, kept so the view can update them in place. */
interface QuestionControls {
  fieldset: HTMLFieldSetElement;
  options: HTMLInputElement[];
  otherChoice: HTMLInputElement;
  otherText: HTMLInputElement;
  /** Index of the "(Recommended)" option, or 0: where focus lands first. */
  firstFocus: number;
}

interface FormControls {
  element: HTMLElement;
  questions: QuestionControls[];
  timer: HTMLElement;
  confirmRow: HTMLElement;
  confirmText: HTMLElement;
  sendAnyway: HTMLButtonElement;
  submit: HTMLButtonElement;
  dismiss: HTMLButtonElement;
  sendingNote: HTMLElement;
}

// ---------------------------------------------------------------------------------------------
// The view.

class View {
  private readonly id = randomId();
  private readonly createdAt = Date.now();
  private readonly root: HTMLElement;
  private readonly announcer: HTMLElement;
  private readonly content: HTMLElement;

  private questions: Question[] = [];
  private drafts: Draft[] = [];
  /** Identifies the question set the form and drafts belong to (request id + questions). */
  private formKey = "";
  private form: FormControls | null = null;
  private confirming = false;
  private autofocusDone = false;
  private autofocusTimer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly model: AnyModel<Model>,
    host: HTMLElement,
  ) {
    this.root = suppressShortcuts(el("div", "nbask"));
    // Announces state changes (sending, resolved, time up) to screen readers.
    this.announcer = el("div", "nbask-sr-only");
    this.announcer.setAttribute("aria-live", "polite");
    this.content = el("div", "nbask-content");
    this.root.append(this.content, this.announcer);
    this.root.addEventListener("keydown", this.onKeydown);
    host.append(this.root);
    for (const name of MODEL_EVENTS) this.model.on(name, this.update);
    this.update();
  }

  destroy(): void {
    for (const name of MODEL_EVENTS) this.model.off(name, this.update);
    this.root.removeEventListener("keydown", this.onKeydown);
    this.stopTicker();
    clearTimeout(this.autofocusTimer);
    this.root.remove();
  }

  // -- reading the model ------------------------------------------------------------------

  private status(): string {
    return asText(this.model.get("status")) || "pending";
  }

  private deadline(): number {
    const value = Number(this.model.get("deadline_ms"));
    return Number.isFinite(value) && value > 0 ? value : 0;
  }

  private isSending(): boolean {
    return hasAction(this.model.get("response"));
  }

  private isExpired(): boolean {
    const deadline = this.deadline();
    return deadline > 0 && Date.now() >= deadline;
  }

  /** Controls are disabled while an answer is on its way or after the time limit. */
  private isLocked(): boolean {
    return this.isSending() || this.isExpired();
  }

  // -- rendering --------------------------------------------------------------------------

  /** Brings the view in line with the model; called on every model change. */
  private readonly update = (): void => {
    const status = this.status();
    this.root.dataset.status = status;
    if (status === "pending") {
      this.showPending();
    } else {
      this.showResolved(status);
    }
  };

  private showPending(): void {
    const questions = readQuestions(this.model.get("questions"));
    const key = JSON.stringify([asText(this.model.get("request_id")), questions]);
    if (key !== this.formKey) {
      // A different question set: start a fresh draft.
      this.formKey = key;
      this.questions = questions;
      this.drafts = questions.map(emptyDraft);
      this.confirming = false;
      this.form = null;
    }
    if (this.form === null) {
      // Built once per question set; later changes (deadline, response) update it in place.
      this.form = this.buildForm();
      this.content.replaceChildren(this.form.element);
      this.questions.forEach((_, qi) => this.syncQuestion(qi));
    }
    this.applyPendingState();
    this.maybeAutofocus();
  }

  /** Updates what depends on the deadline and the response, without rebuilding the form. */
  private applyPendingState(): void {
    const form = this.form;
    if (form === null) return;
    const sending = this.isSending();
    const expired = this.isExpired();
    const locked = sending || expired;
    if (locked) this.confirming = false;

    setFlag(this.root, "data-sending", sending);
    setFlag(this.root, "data-expired", expired);
    for (const control of form.element.querySelectorAll<HTMLInputElement | HTMLButtonElement>("input, button")) {
      control.disabled = locked;
    }
    form.confirmRow.hidden = !this.confirming;
    form.sendingNote.hidden = !sending;
    this.updateTimer(form.timer);
    if (this.deadline() > 0 && !expired) {
      this.startTicker();
    } else {
      this.stopTicker();
    }
    if (sending) this.announce(TEXT.sending);
    else if (expired) this.announce(TEXT.timeUp);
    else this.announce("");
  }

  private updateTimer(timer: HTMLElement): void {
    const deadline = this.deadline();
    timer.hidden = deadline === 0;
    if (deadline === 0) {
      timer.textContent = "";
      return;
    }
    const left = deadline - Date.now();
    timer.textContent = left > 0 ? `${TEXT.timeLeft} ${formatDuration(left)}` : TEXT.timeUp;
  }

  private startTicker(): void {
    if (this.ticker === undefined) this.ticker = setInterval(() => this.applyPendingState(), 1000);
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private announce(text: string): void {
    // Only on change, so a screen reader hears each state once.
    if (this.announcer.textContent !== text) this.announcer.textContent = text;
  }

  private buildForm(): FormControls {
    const element = el("div", "nbask-form");

    const top = el("div", "nbask-top");
    const timer = el("span", "nbask-timer");
    timer.setAttribute("role", "timer");
    top.append(el("span", "nbask-title", TEXT.title), timer);

    const questions = this.questions.map((q, qi) => this.buildQuestion(q, qi));

    const confirmText = el("span", "nbask-confirm-text");
    confirmText.id = this.domId("confirm");
    const sendAnyway = button("nbask-button nbask-primary", TEXT.sendAnyway, () => this.send("submit"));
    sendAnyway.setAttribute("aria-describedby", confirmText.id);
    const keepAnswering = button("nbask-button", TEXT.keepAnswering, () => this.closeConfirm(true));
    const confirmRow = el("div", "nbask-confirm");
    confirmRow.append(confirmText, el("span", "nbask-spacer"), sendAnyway, keepAnswering);

    const sendingNote = el("span", "nbask-sending", TEXT.sending);
    const keys = el("span", "nbask-keys", TEXT.keys);
    keys.setAttribute("aria-hidden", "true");
    const submit = button("nbask-button nbask-primary", TEXT.submit, () => this.requestSubmit());
    const dismiss = button("nbask-button", TEXT.dismiss, () => this.dismiss());
    const footer = el("div", "nbask-footer");
    footer.append(keys, sendingNote, el("span", "nbask-spacer"), submit, dismiss);

    element.append(top, ...questions.map((q) => q.fieldset), confirmRow, footer);
    return { element, questions, timer, confirmRow, confirmText, sendAnyway, submit, dismiss, sendingNote };
  }

  private buildQuestion(question: Question, qi: number): QuestionControls {
    const fieldset = el("fieldset", "nbask-question");
    // The group's accessible name is the question text alone, not the header chip.
    const text = textEl("span", "nbask-question-text", question.question);
    text.id = this.domId(`q${qi}`);
    fieldset.setAttribute("aria-labelledby", text.id);
    const head = el("div", "nbask-question-head");
    const chip = headerChip(question.header);
    if (chip) head.append(chip);
    head.append(text);
    fieldset.append(head);
    if (question.multi_select) {
      const hint = el("div", "nbask-multi-hint", TEXT.multiHint);
      hint.id = this.domId(`q${qi}-hint`);
      fieldset.setAttribute("aria-describedby", hint.id);
      fieldset.append(hint);
    }

    const list = el("div", "nbask-options");
    const type = question.multi_select ? "checkbox" : "radio";
    const name = this.domId(`q${qi}-choice`); // one radio group per question and per view
    const options = question.options.map((option, oi) => {
      const { row, input } = this.buildOption(option, type, name, qi, oi);
      list.append(row);
      return input;
    });
    const other = this.buildOther(type, name, qi);
    list.append(other.row);
    fieldset.append(list);

    const recommended = question.options.findIndex((o) => isRecommended(o.label));
    return {
      fieldset,
      options,
      otherChoice: other.choice,
      otherText: other.text,
      firstFocus: recommended >= 0 ? recommended : 0,
    };
  }

  private buildOption(
    option: Option,
    type: "radio" | "checkbox",
    name: string,
    qi: number,
    oi: number,
  ): { row: HTMLElement; input: HTMLInputElement } {
    const input = suppressShortcuts(el("input", "nbask-input"));
    input.type = type;
    input.name = name;
    input.value = String(oi);
    input.addEventListener("change", () => this.onOptionChange(qi, oi, input.checked));

    // The accessible name is the label only (aria-labelledby); the description, which may be
    // very long, is the accessible description instead. Both sit inside the <label> so a click
    // anywhere on the row chooses the option.
    const labelText = this.buildLabelText(option.label);
    labelText.id = this.domId(`q${qi}-o${oi}`);
    input.setAttribute("aria-labelledby", labelText.id);
    const title = el("span", "nbask-option-title");
    title.append(labelText);
    if (isRecommended(option.label)) {
      // The label text already says "(Recommended)" to screen readers; the badge is visual.
      const badge = el("span", "nbask-badge", TEXT.recommended);
      badge.setAttribute("aria-hidden", "true");
      title.append(badge);
    }
    const body = el("span", "nbask-option-body");
    body.append(title);
    if (option.description.trim() !== "") {
      const description = textEl("span", "nbask-option-desc", option.description);
      description.id = this.domId(`q${qi}-o${oi}-desc`);
      input.setAttribute("aria-describedby", description.id);
      body.append(description);
    }
    const row = el("label", "nbask-option");
    row.append(input, body);
    return { row, input };
  }

  /** The label as given; a trailing "(Recommended)" is kept for screen readers and copy-paste
   *  but hidden on screen, where the badge says it instead. */
  private buildLabelText(label: string): HTMLElement {
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

  private buildOther(
    type: "radio" | "checkbox",
    name: string,
    qi: number,
  ): { row: HTMLElement; choice: HTMLInputElement; text: HTMLInputElement } {
    const choice = suppressShortcuts(el("input", "nbask-input"));
    choice.type = type;
    choice.name = name;
    choice.value = "other";
    choice.id = this.domId(`q${qi}-other`);
    choice.addEventListener("change", () => this.onOtherChoiceChange(qi, choice.checked));
    const label = el("label", "nbask-other-label", TEXT.other);
    label.htmlFor = choice.id;

    const text = suppressShortcuts(el("input", "nbask-other-text"));
    text.type = "text";
    text.dir = "auto";
    text.autocomplete = "off";
    text.placeholder = TEXT.otherPlaceholder;
    text.setAttribute("aria-label", TEXT.other);
    text.addEventListener("input", () => this.onOtherInput(qi, text.value));

    const row = el("div", "nbask-option nbask-other");
    row.append(choice, label, text);
    return { row, choice, text };
  }

  private showResolved(status: string): void {
    this.form = null;
    this.confirming = false;
    this.stopTicker();
    this.root.removeAttribute("data-sending");
    this.root.removeAttribute("data-expired");
    this.content.replaceChildren(this.buildResolved(status));
    this.announce(STATUS_TEXT[status] ?? status);
  }

  private buildResolved(status: string): HTMLElement {
    const block = el("div", "nbask-resolved");
    const line = el("div", "nbask-status-line", STATUS_TEXT[status] ?? status);
    line.dataset.status = status;
    block.append(line);

    const result = this.model.get("result");
    const answers = isObject(result) && isObject(result.answers) ? result.answers : {};
    const list = el("dl", "nbask-resolved-list");
    for (const question of readQuestions(this.model.get("questions"))) {
      const term = el("dt", "nbask-resolved-question");
      const chip = headerChip(question.header);
      if (chip) term.append(chip);
      term.append(textEl("span", "nbask-question-text", question.question));
      list.append(term);
      // An answered question with no entry in the result is one the person left empty.
      const given = answers[question.question];
      const answer = typeof given === "string" ? given : status === "answered" ? TEXT.noPreference : null;
      if (answer !== null) list.append(textEl("dd", "nbask-resolved-answer", answer));
    }
    if (list.childElementCount > 0) block.append(list);

    const note = isObject(result) ? asText(result.note) : "";
    if (note.trim() !== "") block.append(textEl("p", "nbask-note", note));
    return block;
  }

  private domId(suffix: string): string {
    return `nbask-${this.id}-${suffix}`;
  }

  // -- the draft --------------------------------------------------------------------------

  private draft(qi: number): Draft | undefined {
    return this.drafts[qi];
  }

  /** Shows the draft of question qi in its controls (the draft is the source of truth). */
  private syncQuestion(qi: number): void {
    const controls = this.form?.questions[qi];
    const draft = this.draft(qi);
    if (!controls || !draft) return;
    controls.options.forEach((input, oi) => (input.checked = draft.checked[oi] === true));
    controls.otherChoice.checked = draft.otherChecked;
    if (controls.otherText.value !== draft.otherText) controls.otherText.value = draft.otherText;
    controls.fieldset.dataset.answered = String(isAnswered(answerOf(this.questions[qi] as Question, draft)));
  }

  private draftChanged(qi: number): void {
    this.syncQuestion(qi);
    // The confirm row counted unanswered questions; once the person answers more it is stale.
    if (this.confirming) this.closeConfirm(false);
  }

  private isMulti(qi: number): boolean {
    return this.questions[qi]?.multi_select === true;
  }

  /** Choose (single select) or toggle (multi select) option oi. */
  private pickOption(qi: number, oi: number): void {
    const draft = this.draft(qi);
    if (!draft) return;
    if (this.isMulti(qi)) {
      draft.checked[oi] = !draft.checked[oi];
    } else {
      draft.checked = draft.checked.map((_, i) => i === oi);
      draft.otherChecked = false;
    }
    this.draftChanged(qi);
  }

  private onOptionChange(qi: number, oi: number, checked: boolean): void {
    const draft = this.draft(qi);
    if (!draft) return;
    if (this.isMulti(qi)) {
      draft.checked[oi] = checked;
    } else if (checked) {
      draft.checked = draft.checked.map((_, i) => i === oi);
      draft.otherChecked = false; // the Other text is kept, but no longer sent
    }
    this.draftChanged(qi);
  }

  private onOtherChoiceChange(qi: number, checked: boolean): void {
    const draft = this.draft(qi);
    if (!draft) return;
    draft.otherChecked = checked;
    if (checked && !this.isMulti(qi)) draft.checked = draft.checked.map(() => false);
    this.draftChanged(qi);
    // Choosing Other means the person wants to type it.
    if (checked) this.form?.questions[qi]?.otherText.focus();
  }

  private onOtherInput(qi: number, value: string): void {
    const draft = this.draft(qi);
    if (!draft) return;
    draft.otherText = value;
    draft.otherChecked = value.trim() !== "";
    if (draft.otherChecked && !this.isMulti(qi)) draft.checked = draft.checked.map(() => false);
    this.draftChanged(qi);
  }

  private collectAnswers(): QuestionAnswer[] {
    return this.questions.map((q, qi) => answerOf(q, this.drafts[qi] ?? emptyDraft(q)));
  }

  // -- actions ----------------------------------------------------------------------------

  /** Submit: sends at once if every question has an answer, else asks for confirmation. */
  private requestSubmit(): void {
    const form = this.form;
    if (form === null || this.isLocked()) return;
    const unanswered = this.collectAnswers().filter((a) => !isAnswered(a)).length;
    if (unanswered === 0) {
      this.send("submit");
      return;
    }
    this.confirming = true;
    form.confirmText.textContent = confirmMessage(unanswered);
    form.confirmRow.hidden = false;
    form.sendAnyway.focus();
  }

  private closeConfirm(moveFocus: boolean): void {
    const form = this.form;
    this.confirming = false;
    if (form === null) return;
    form.confirmRow.hidden = true;
    if (moveFocus) this.focusFirstUnanswered();
  }

  private dismiss(): void {
    if (this.form === null || this.isLocked()) return;
    this.send("dismiss");
  }

  private send(action: Response["action"]): void {
    if (this.form === null || this.isLocked()) return;
    const response: Response = {
      action,
      answers: action === "submit" ? this.collectAnswers() : [],
      view_id: this.id,
      sent_at_ms: Date.now(),
    };
    this.confirming = false;
    this.model.set("response", response);
    this.model.save_changes();
    // model.set already notifies every view of this model; this covers hosts that do not
    // echo a view's own change back to it.
    this.update();
  }

  // -- focus ------------------------------------------------------------------------------

  /** Focuses the recommended (else first) option of question qi. */
  private focusChoice(qi: number, options?: FocusOptions): void {
    const controls = this.form?.questions[qi];
    if (!controls) return;
    const target = controls.options[controls.firstFocus] ?? controls.otherChoice;
    target.focus(options);
  }

  private focusFirstUnanswered(): void {
    const answers = this.collectAnswers();
    const qi = answers.findIndex((a) => !isAnswered(a));
    if (qi >= 0) this.focusChoice(qi);
    else this.form?.submit.focus();
  }

  /** Focus the first question of a widget that just appeared, once per view. */
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
    if (isOutOfView(this.root)) return;
    this.focusChoice(0, { preventScroll: true });
  }

  // -- keyboard ---------------------------------------------------------------------------

  private readonly onKeydown = (event: KeyboardEvent): void => {
    // JupyterLab handles its shortcuts from keydown events that reach the document.
    event.stopPropagation();
    // Keys that finish an IME composition (keyCode 229 in Safari) are the input method's.
    if (event.isComposing || event.keyCode === 229) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    if (this.form === null || this.isLocked()) return;
    const target = event.target instanceof HTMLElement ? event.target : null;
    if (target === null) return;

    if (event.key === "Enter") this.onEnter(event, target);
    else if (event.key === "Escape") this.onEscape(event);
    else if (event.key === "ArrowUp" || event.key === "ArrowLeft") this.onArrow(event, target, -1);
    else if (event.key === "ArrowDown" || event.key === "ArrowRight") this.onArrow(event, target, 1);
    else if (/^[1-4]$/.test(event.key)) this.onDigit(event, target, Number(event.key) - 1);
  };

  private onEnter(event: KeyboardEvent, target: HTMLElement): void {
    // A focused button does what it says (Enter on "Send anyway" sends, on Dismiss dismisses).
    if (target instanceof HTMLButtonElement) return;
    event.preventDefault();
    this.requestSubmit();
  }

  private onEscape(event: KeyboardEvent): void {
    event.preventDefault();
    if (this.confirming) {
      this.closeConfirm(false);
      this.form?.submit.focus();
    } else {
      this.dismiss();
    }
  }

  /** Moves focus (never the selection) between the choices of the focused question. */
  private onArrow(event: KeyboardEvent, target: HTMLElement, step: 1 | -1): void {
    const qi = this.questionIndexOf(target);
    const controls = this.form?.questions[qi];
    if (!controls) return;
    const inText = target === controls.otherText;
    // In the Other textbox, Left/Right move the caret.
    if (inText && (event.key === "ArrowLeft" || event.key === "ArrowRight")) return;
    const choices = [...controls.options, controls.otherChoice];
    // The textbox belongs to the Other choice, so it counts as Other's position.
    const current = inText ? choices.length - 1 : choices.indexOf(target as HTMLInputElement);
    if (current < 0) return;
    event.preventDefault(); // a radio would otherwise select the next option
    const next = choices[(current + step + choices.length) % choices.length];
    next?.focus();
  }

  private onDigit(event: KeyboardEvent, target: HTMLElement, oi: number): void {
    const qi = this.questionIndexOf(target);
    const controls = this.form?.questions[qi];
    if (!controls || target === controls.otherText) return; // digits are text there
    const input = controls.options[oi];
    if (!input) return;
    event.preventDefault();
    this.pickOption(qi, oi);
    input.focus();
  }

  private questionIndexOf(target: HTMLElement): number {
    return this.form?.questions.findIndex((q) => q.fieldset.contains(target)) ?? -1;
  }
}

const MODEL_EVENTS = [
  "change:status",
  "change:questions",
  "change:request_id",
  "change:result",
  "change:response",
  "change:deadline_ms",
] as const;

function setFlag(node: HTMLElement, name: string, on: boolean): void {
  if (on) node.setAttribute(name, "true");
  else node.removeAttribute(name);
}

export function confirmMessage(unanswered: number): string {
  const questions = unanswered === 1 ? "1 question" : `${unanswered} questions`;
  return `${questions} without an answer will be sent as ${TEXT.noPreference}.`;
}

/** True only when layout says the element is entirely off screen; no layout (size 0) = unknown. */
function isOutOfView(node: HTMLElement): boolean {
  const rect = node.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return false;
  return rect.bottom < 0 || rect.top > window.innerHeight;
}

function render({ model, el: host }: RenderProps<Model>): () => void {
  const view = new View(model, host);
  return () => view.destroy();
}

export default { render };
