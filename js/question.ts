// The question form: 1-4 questions as radio or checkbox groups with a free-text "Other", an
// optional note per question and one for the set ("Add a note"), option previews beside the
// options, Submit / Dismiss (with a confirm row when some are left empty), digits and arrow
// keys, and the resolved block listing each question with its answer and note.
import type { AnyModel } from "@anywidget/types";
import type { Option, Question, QuestionModel, Response } from "./contract";
import { MAX_NOTE_CHARS, MAX_OTHER_CHARS, NO_PREFERENCE, RECOMMENDED, isRecommended } from "./contract";
import type { Draft, DraftAction, SetNote } from "./draft";
import {
  EMPTY_SET_NOTE,
  answerOf,
  buildResponse,
  emptyDraft,
  firstUnanswered,
  hasContent,
  isAnswered,
  reduceDraft,
  reduceSetNote,
  restoreDraft,
  restoreSetNote,
  unansweredCount,
} from "./draft";
import {
  asText,
  button,
  charCounter,
  el,
  headerChip,
  isObject,
  isTextEntry,
  setFieldValue,
  suppressShortcuts,
  textEl,
} from "./dom";
import { InteractionView } from "./shell";

// Button names are part of the accessibility contract (end-to-end tests find them by role and
// name), so no other text here contains "Submit" or "Dismiss".
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
  noPreference: NO_PREFERENCE,
  keys: "Keys: 1–4 choose · ↑↓ move · Enter send · Esc close",
  addNote: "Add a note",
  addSetNote: "Add a note for all questions",
  notePlaceholder: "Optional: anything the agent should know",
  allQuestions: "all questions",
  preview: "Preview",
  noPreview: "No preview for this option.",
  previewHint: "Focus or choose an option to see its preview.",
  resolvedNote: "Note",
} as const;

/** The note textbox's accessible name: "Note for <header or question>". */
export function noteLabel(subject: string): string {
  return `Note for ${subject}`;
}

/** The preview region's accessible name while it shows an option's preview. */
export function previewLabel(label: string): string {
  return `Preview of ${label}`;
}

/** Lines shown at most before the preview scrolls; its height is fixed per question (the
 *  tallest preview's), so moving between options never moves what is below it. */
const PREVIEW_MAX_LINES = 14;
const PREVIEW_MIN_LINES = 3;

/** The model's questions, read defensively: the kernel validates them, but a view must not crash. */
export function readQuestions(raw: unknown): Question[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item: unknown) => {
    const q = isObject(item) ? item : {};
    const options = Array.isArray(q.options) ? q.options : [];
    return {
      question: asText(q.question),
      header: asText(q.header),
      header_tooltip: asText(q.header_tooltip),
      multi_select: q.multi_select === true,
      options: options.map((o: unknown) => {
        const option = isObject(o) ? o : {};
        return { label: asText(option.label), description: asText(option.description), preview: asText(option.preview) };
      }),
    };
  });
}

export function confirmMessage(unanswered: number): string {
  const questions = unanswered === 1 ? "1 question" : `${unanswered} questions`;
  return `${questions} without an answer will be sent as ${TEXT.noPreference}.`;
}

/** An "Add a note" disclosure: its button, the box it opens, the textbox in it. */
interface NoteControls {
  toggle: HTMLButtonElement;
  box: HTMLElement;
  text: HTMLTextAreaElement;
  refreshCounter: () => void;
}

/** The preview region of a question whose options have previews. */
interface PreviewControls {
  pane: HTMLPreElement;
  /** The option whose preview shows because it has focus (-1 = none has). */
  focused: number;
}

/** Controls of one question, kept so the view can update them in place. */
interface QuestionControls {
  fieldset: HTMLFieldSetElement;
  options: HTMLInputElement[];
  otherChoice: HTMLInputElement;
  otherText: HTMLInputElement;
  refreshCounter: () => void;
  note: NoteControls;
  preview: PreviewControls | null;
  /** Index of the "(Recommended)" option, or 0: where focus lands first. */
  firstFocus: number;
}

interface FormControls {
  questions: QuestionControls[];
  /** The note on the whole set; only with more than one question (one question has its own). */
  setNote: NoteControls | null;
  confirmRow: HTMLElement;
  confirmText: HTMLElement;
  sendAnyway: HTMLButtonElement;
  submit: HTMLButtonElement;
}

export class QuestionView extends InteractionView<QuestionModel> {
  private questions: Question[] = [];
  /** The person's unsent answers (see draft.ts), one per question. */
  private drafts: Draft[] = [];
  /** The person's unsent note on the whole set. */
  private setNote: SetNote = EMPTY_SET_NOTE;
  private controls: FormControls | null = null;
  private confirming = false;

  constructor(model: AnyModel<QuestionModel>, host: HTMLElement) {
    super(model, host, "question", ["questions"]);
    this.start();
  }

  protected pendingKey(): string {
    return JSON.stringify([asText(this.model.get("request_id")), readQuestions(this.model.get("questions"))]);
  }

  protected resetDraft(): void {
    this.questions = readQuestions(this.model.get("questions"));
    this.drafts = this.questions.map(emptyDraft);
    this.setNote = EMPTY_SET_NOTE;
    this.confirming = false;
    this.controls = null;
  }

  protected draftData(): Record<string, unknown> {
    return { drafts: this.drafts, setNote: this.setNote };
  }

  protected applyDraft(data: Record<string, unknown>): void {
    const saved = Array.isArray(data.drafts) ? (data.drafts as unknown[]) : [];
    this.drafts = this.questions.map((q, qi) => restoreDraft(q, saved[qi]));
    this.setNote = restoreSetNote(data.setNote);
    this.questions.forEach((_, qi) => this.syncQuestion(qi));
    this.syncSetNote();
  }

  protected hasDraft(): boolean {
    return this.drafts.some(hasContent) || this.setNote.note.trim() !== "";
  }

  protected override escapeDiscards(): boolean {
    // Escape closes the "send anyway?" row first.
    return !this.confirming;
  }

  protected refreshForm(locked: boolean): void {
    if (locked) this.confirming = false;
    if (this.controls) this.controls.confirmRow.hidden = !this.confirming;
  }

  protected autofocusTarget(): HTMLElement | null {
    const controls = this.controls?.questions[0];
    return controls ? (controls.options[controls.firstFocus] ?? controls.otherChoice) : null;
  }

  // -- building --------------------------------------------------------------------------------

  protected buildForm(): HTMLElement {
    const element = el("div", "nbask-form");
    const top = el("div", "nbask-top");
    top.append(el("span", "nbask-title", TEXT.title), this.makeTimer());

    const questions = this.questions.map((q, qi) => this.buildQuestion(q, qi));

    const confirmText = el("span", "nbask-confirm-text");
    confirmText.id = this.domId("confirm");
    const sendAnyway = button("nbask-button nbask-primary", TEXT.sendAnyway, () => this.send("submit"));
    sendAnyway.setAttribute("aria-describedby", confirmText.id);
    const keepAnswering = button("nbask-button", TEXT.keepAnswering, () => this.closeConfirm(true));
    const confirmRow = el("div", "nbask-confirm");
    confirmRow.append(confirmText, el("span", "nbask-spacer"), sendAnyway, keepAnswering);

    const keys = el("span", "nbask-keys", TEXT.keys);
    keys.setAttribute("aria-hidden", "true");
    const submit = button("nbask-button nbask-primary", TEXT.submit, () => this.requestSubmit());
    const dismiss = button("nbask-button", TEXT.dismiss, () => this.dismiss());
    const footer = el("div", "nbask-footer");
    footer.append(keys, this.makeSendingNote(), el("span", "nbask-spacer"), submit, dismiss);

    element.append(top, ...questions.map((q) => q.fieldset));
    let setNote: NoteControls | null = null;
    if (this.questions.length > 1) {
      setNote = this.buildNote(
        "set-note",
        TEXT.addSetNote,
        noteLabel(TEXT.allQuestions),
        (open) => this.changeSetNote({ type: "openNote", open }),
        (text) => this.changeSetNote({ type: "typeNote", text }),
      );
      const row = el("div", "nbask-note nbask-set-note");
      row.append(setNote.toggle, setNote.box);
      element.append(row);
    }
    element.append(confirmRow, footer);
    this.controls = { questions, setNote, confirmRow, confirmText, sendAnyway, submit };
    this.questions.forEach((_, qi) => this.syncQuestion(qi));
    this.syncSetNote();
    return element;
  }

  private buildQuestion(question: Question, qi: number): QuestionControls {
    const fieldset = el("fieldset", "nbask-question");
    // The group's accessible name is the question text alone, not the header chip.
    const text = textEl("span", "nbask-question-text", question.question);
    text.id = this.domId(`q${qi}`);
    fieldset.setAttribute("aria-labelledby", text.id);
    const head = el("div", "nbask-question-head");
    const chip = headerChip(question.header);
    if (chip) {
      // A long header (seed dialects allow more than the chip shows) is cut by CSS; the
      // tooltip keeps the whole text.
      chip.title = question.header_tooltip || question.header;
      head.append(chip);
    }
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
    const preview = this.buildPreview(question, qi, options);
    if (preview) {
      // Beside the options where there is room, below them where there is not (flex wrap).
      const choices = el("div", "nbask-choices");
      choices.append(list, preview.pane);
      fieldset.append(choices);
    } else {
      fieldset.append(list);
    }

    const note = this.buildNote(
      `q${qi}-note`,
      TEXT.addNote,
      noteLabel(question.header.trim() || question.question),
      (open) => this.change(qi, { type: "openNote", open }),
      (value) => this.change(qi, { type: "typeNote", text: value }),
    );
    // The button's name is the same in every question; its description says which one.
    note.toggle.setAttribute("aria-describedby", text.id);
    const noteRow = el("div", "nbask-note");
    noteRow.append(note.toggle, note.box);
    fieldset.append(noteRow);

    const recommended = question.options.findIndex((o) => isRecommended(o.label));
    return {
      fieldset,
      options,
      otherChoice: other.choice,
      otherText: other.text,
      refreshCounter: other.refreshCounter,
      note,
      preview,
      firstFocus: recommended >= 0 ? recommended : 0,
    };
  }

  /** An "Add a note" disclosure button and the box it opens, collapsed until opened. */
  private buildNote(
    suffix: string,
    name: string,
    label: string,
    onToggle: (open: boolean) => void,
    onInput: (text: string) => void,
  ): NoteControls {
    const box = el("div", "nbask-note-box");
    box.id = this.domId(suffix);
    box.hidden = true;
    const toggle = button("nbask-note-toggle", name, () => {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      onToggle(open);
      // Opening means the person wants to write it.
      if (open) text.focus();
    });
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-controls", box.id);
    const text = suppressShortcuts(el("textarea", "nbask-note-text"));
    text.rows = 2;
    text.dir = "auto";
    text.placeholder = TEXT.notePlaceholder;
    text.setAttribute("aria-label", label);
    // Capped like an Other answer; the kernel refuses a longer one.
    const counter = charCounter(text, MAX_NOTE_CHARS);
    counter.element.id = this.domId(`${suffix}-count`);
    text.setAttribute("aria-describedby", counter.element.id);
    text.addEventListener("input", () => onInput(text.value));
    box.append(text, counter.element);
    return { toggle, box, text, refreshCounter: counter.refresh };
  }

  /** The preview region, when some option of the question has a preview; null otherwise. */
  private buildPreview(question: Question, qi: number, options: HTMLInputElement[]): PreviewControls | null {
    const previews = question.options.map((o) => o.preview ?? "");
    if (previews.every((p) => p === "")) return null;
    const pane = el("pre", "nbask-preview");
    pane.id = this.domId(`q${qi}-preview`);
    // A scrolling region: focusable, so keyboard users can scroll it too.
    pane.setAttribute("role", "region");
    pane.tabIndex = 0;
    const lines = Math.max(...previews.map((p) => p.split("\n").length));
    pane.style.setProperty("--nbask-preview-lines", String(Math.min(Math.max(lines, PREVIEW_MIN_LINES), PREVIEW_MAX_LINES)));
    const controls: PreviewControls = { pane, focused: -1 };
    pane.addEventListener("blur", (event) => {
      if (options.includes(event.relatedTarget as HTMLInputElement)) return;
      controls.focused = -1;
      this.syncPreview(qi);
    });
    options.forEach((input, oi) => {
      input.setAttribute("aria-controls", pane.id);
      input.addEventListener("focus", () => {
        controls.focused = oi;
        this.syncPreview(qi);
      });
      input.addEventListener("blur", (event) => {
        // Moving into the region to scroll it keeps the preview that was showing.
        if (event.relatedTarget === pane) return;
        if (controls.focused === oi) controls.focused = -1;
        this.syncPreview(qi);
      });
    });
    return controls;
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
    input.addEventListener("change", () => this.change(qi, { type: "setOption", option: oi, checked: input.checked }));

    // The accessible name is the label only (aria-labelledby); the description, which may be
    // very long, is the accessible description instead. Both sit inside the <label> so a click
    // anywhere on the row chooses the option.
    const labelText = buildLabelText(option.label);
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

  private buildOther(
    type: "radio" | "checkbox",
    name: string,
    qi: number,
  ): { row: HTMLElement; choice: HTMLInputElement; text: HTMLInputElement; refreshCounter: () => void } {
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
    // The cap keeps one answer from flooding the agent's context; the kernel enforces it too.
    const counter = charCounter(text, MAX_OTHER_CHARS);
    counter.element.id = this.domId(`q${qi}-other-count`);
    text.setAttribute("aria-describedby", counter.element.id);
    text.addEventListener("input", () => this.change(qi, { type: "typeOther", text: text.value }));

    const row = el("div", "nbask-option nbask-other");
    row.append(choice, label, text, counter.element);
    return { row, choice, text, refreshCounter: counter.refresh };
  }

  protected buildResolved(status: string): HTMLElement {
    this.controls = null;
    this.confirming = false;
    const block = el("div", "nbask-resolved");
    block.append(this.statusLine(status));

    const result = this.model.get("result");
    const answers = isObject(result) && isObject(result.answers) ? result.answers : {};
    const notes = isObject(result) && isObject(result.notes) ? result.notes : {};
    const questions = readQuestions(this.model.get("questions"));
    // An answered question with no entry in the result is one the person left empty.
    const given = questions.map((question) => {
      const text = answers[question.question];
      return typeof text === "string" ? text : status === "answered" ? TEXT.noPreference : null;
    });
    const noted = questions.map((question) => {
      const text = notes[question.question];
      return typeof text === "string" && text.trim() !== "" ? text : null;
    });
    // A description list only with answers or notes in it (a <dl> of terms alone is not one); a
    // request that ended without any lists its questions as plain lines.
    const described = given.some((answer) => answer !== null) || noted.some((note) => note !== null);
    const list = el(described ? "dl" : "div", "nbask-resolved-list");
    questions.forEach((question, qi) => {
      const term = el(described ? "dt" : "div", "nbask-resolved-question");
      const chip = headerChip(question.header);
      if (chip) term.append(chip);
      term.append(textEl("span", "nbask-question-text", question.question));
      list.append(term);
      const answer = given[qi];
      if (answer !== null && answer !== undefined) list.append(textEl("dd", "nbask-resolved-answer", answer));
      const note = noted[qi];
      if (note !== null && note !== undefined) {
        const dd = el("dd", "nbask-resolved-note");
        dd.append(el("span", "nbask-resolved-label", `${TEXT.resolvedNote}: `), textEl("span", "", note));
        list.append(dd);
      }
    });
    if (list.childElementCount > 0) block.append(list);

    const note = isObject(result) ? asText(result.note) : "";
    if (note.trim() !== "") block.append(textEl("p", "nbask-note", note));
    return block;
  }

  // -- the draft ---------------------------------------------------------------------------------

  /** Shows the draft of question qi in its controls (the draft is the source of truth). */
  private syncQuestion(qi: number): void {
    const controls = this.controls?.questions[qi];
    const draft = this.drafts[qi];
    const question = this.questions[qi];
    if (!controls || !draft || !question) return;
    controls.options.forEach((input, oi) => (input.checked = draft.checked[oi] === true));
    controls.otherChoice.checked = draft.otherChecked;
    if (setFieldValue(controls.otherText, draft.otherText)) controls.refreshCounter();
    controls.fieldset.dataset.answered = String(isAnswered(answerOf(question, draft)));
    syncNote(controls.note, draft);
    this.syncPreview(qi);
  }

  private syncSetNote(): void {
    const note = this.controls?.setNote;
    if (note) syncNote(note, this.setNote);
  }

  /** Shows the focused option's preview, else the first chosen one's, else a hint. */
  private syncPreview(qi: number): void {
    const controls = this.controls?.questions[qi];
    const preview = controls?.preview;
    const question = this.questions[qi];
    const draft = this.drafts[qi];
    if (!preview || !question || !draft) return;
    const shown = preview.focused >= 0 ? preview.focused : draft.checked.findIndex((c) => c);
    const option = question.options[shown];
    const text = option?.preview ?? "";
    // Model text: textContent only, so markup in a preview stays literal.
    preview.pane.textContent = option === undefined ? TEXT.previewHint : text === "" ? TEXT.noPreview : text;
    preview.pane.setAttribute("aria-label", option === undefined ? TEXT.preview : previewLabel(option.label));
    preview.pane.dataset.empty = String(text === "");
  }

  private changeSetNote(action: Parameters<typeof reduceSetNote>[1]): void {
    const next = reduceSetNote(this.setNote, action);
    if (next === this.setNote) return;
    this.setNote = next;
    this.syncSetNote();
    this.draftChanged();
  }

  /** Applies what the person did to question qi's draft, then shows the result. */
  private change(qi: number, action: DraftAction): void {
    const draft = this.drafts[qi];
    if (!draft) return;
    const next = reduceDraft(draft, action);
    this.drafts[qi] = next;
    this.syncQuestion(qi);
    if (next !== draft) this.draftChanged();
    // The confirm row counted unanswered questions; once the person answers more it is stale.
    if (this.confirming) this.closeConfirm(false);
  }

  private isMulti(qi: number): boolean {
    return this.questions[qi]?.multi_select === true;
  }

  private onOtherChoiceChange(qi: number, checked: boolean): void {
    this.change(qi, { type: "setOther", checked });
    // Choosing Other means the person wants to type it.
    if (checked) this.controls?.questions[qi]?.otherText.focus();
  }

  // -- actions -----------------------------------------------------------------------------------

  /** Submit: sends at once if every question has an answer, else asks for confirmation. */
  private requestSubmit(): void {
    const controls = this.controls;
    if (controls === null || this.isLocked()) return;
    const unanswered = unansweredCount(this.questions, this.drafts);
    if (unanswered === 0) {
      this.send("submit");
      return;
    }
    this.confirming = true;
    controls.confirmText.textContent = confirmMessage(unanswered);
    controls.confirmRow.hidden = false;
    controls.sendAnyway.focus();
  }

  private closeConfirm(moveFocus: boolean): void {
    const controls = this.controls;
    this.confirming = false;
    if (controls === null) return;
    controls.confirmRow.hidden = true;
    if (moveFocus) this.focusFirstUnanswered();
  }

  private dismiss(): void {
    this.send("dismiss");
  }

  private send(action: Response["action"]): void {
    const response = buildResponse(action, this.questions, this.drafts, this.stamp(), this.setNote);
    this.confirming = false;
    this.sendResponse(response);
  }

  // -- focus -------------------------------------------------------------------------------------

  /** Focuses the recommended (else first) option of question qi. */
  private focusChoice(qi: number): void {
    const controls = this.controls?.questions[qi];
    if (!controls) return;
    (controls.options[controls.firstFocus] ?? controls.otherChoice).focus();
  }

  private focusFirstUnanswered(): void {
    const qi = firstUnanswered(this.questions, this.drafts);
    if (qi >= 0) this.focusChoice(qi);
    else this.controls?.submit.focus();
  }

  // -- keyboard ----------------------------------------------------------------------------------

  protected onKey(event: KeyboardEvent, target: HTMLElement): void {
    if (event.key === "Enter") this.onEnter(event, target);
    else if (event.key === "Escape") this.onEscape(event);
    else if (event.key === "ArrowUp" || event.key === "ArrowLeft") this.onArrow(event, target, -1);
    else if (event.key === "ArrowDown" || event.key === "ArrowRight") this.onArrow(event, target, 1);
    else if (/^[1-4]$/.test(event.key)) this.onDigit(event, target, Number(event.key) - 1);
  }

  private onEnter(event: KeyboardEvent, target: HTMLElement): void {
    // A focused button does what it says (Enter on "Send anyway" sends, on Dismiss dismisses);
    // in a note, Enter starts a new line.
    if (target instanceof HTMLButtonElement || target instanceof HTMLTextAreaElement) return;
    event.preventDefault();
    this.requestSubmit();
  }

  private onEscape(event: KeyboardEvent): void {
    event.preventDefault();
    if (this.confirming) {
      this.closeConfirm(false);
      this.controls?.submit.focus();
    } else {
      this.dismiss();
    }
  }

  /** Moves between the choices of the focused question. In a single-select question the
   *  choices are a radio group (WAI-ARIA): the arrow moves focus and the selection together,
   *  so what is focused is what gets sent. In a multi-select one it moves focus only, and
   *  Space toggles. */
  private onArrow(event: KeyboardEvent, target: HTMLElement, step: 1 | -1): void {
    const qi = this.questionIndexOf(target);
    const controls = this.controls?.questions[qi];
    if (!controls) return;
    const inText = target === controls.otherText;
    // In the Other textbox, Left/Right move the caret.
    if (inText && (event.key === "ArrowLeft" || event.key === "ArrowRight")) return;
    const choices = [...controls.options, controls.otherChoice];
    // The textbox belongs to the Other choice, so it counts as Other's position.
    const current = inText ? choices.length - 1 : choices.indexOf(target as HTMLInputElement);
    if (current < 0) return;
    event.preventDefault(); // the browser's own radio arrow handling would fire change twice
    const nextIndex = (current + step + choices.length) % choices.length;
    if (!this.isMulti(qi)) this.change(qi, { type: "select", choice: nextIndex });
    choices[nextIndex]?.focus();
  }

  private onDigit(event: KeyboardEvent, target: HTMLElement, oi: number): void {
    const qi = this.questionIndexOf(target);
    const controls = this.controls?.questions[qi];
    if (!controls || isTextEntry(target)) return; // digits are text in the Other box and the note
    const input = controls.options[oi];
    if (!input) return;
    event.preventDefault();
    this.change(qi, { type: "pick", option: oi });
    input.focus();
  }

  private questionIndexOf(target: HTMLElement): number {
    return this.controls?.questions.findIndex((q) => q.fieldset.contains(target)) ?? -1;
  }
}

/** Shows a note's draft: the box open or collapsed, and its text. */
function syncNote(note: NoteControls, draft: { readonly note: string; readonly noteOpen: boolean }): void {
  note.toggle.setAttribute("aria-expanded", String(draft.noteOpen));
  note.box.hidden = !draft.noteOpen;
  // A collapsed note with text is still sent; the button says there is one.
  note.toggle.dataset.hasNote = String(draft.note.trim() !== "");
  if (setFieldValue(note.text, draft.note)) note.refreshCounter();
}

/** The label as given; a trailing "(Recommended)" is kept for screen readers and copy-paste
 *  but hidden on screen, where the badge says it instead. */
function buildLabelText(label: string): HTMLElement {
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
