// The question form: 1-4 questions as radio or checkbox groups with a free-text "Other", an
// optional note per question and one for the set ("Add a note"), option previews beside the
// options, Submit / Dismiss (with a confirm row when some are left empty), digits and arrow
// keys, and the resolved block listing each question with its answer and note.
import type { AnyModel } from "@anywidget/types";
import type { Question, QuestionModel, Response } from "../../contract/contract";
import { NO_PREFERENCE, isRecommended } from "../../contract/contract";
import type { Draft, DraftAction, SetNote } from "./draft";
import { EMPTY_SET_NOTE, answerOf, buildResponse, emptyDraft, firstUnanswered, isAnswered } from "./draft";
import { reduceDraft, reduceSetNote, restoreDraft, restoreSetNote } from "./draft";
import { asText, button, el, headerChip, isObject, setFieldValue, textEl } from "../../parts/dom";
import { footerRow } from "../../parts/footer";
import { headerRow } from "../../parts/header";
import { type ChoiceControls, choiceKey, choiceKeysHint } from "./choicekeys";
import { CONFIRM_TEXT, confirmControls, confirmMessage, questionName } from "../../parts/confirm";
import { questionsLost } from "../../shell/discard";
import { handleFormKey } from "../../focus/formkeys";
import { type NoteControls, NOTE_TEXT, noteDisclosure, noteLabel, placeNote, syncNote } from "./note";
import { OPTION_TEXT, choiceInput, otherRow, questionOption, showOtherText, showsOtherText } from "../../parts/option";
import { type PreviewControls, PREVIEW_TEXT, previewPane, showPreview } from "./preview";
import { appendResultNote, resolvedBlock } from "../../parts/resolved";
import { RESOLVED_TEXT, resolvedList } from "./resolved";
import { readQuestions } from "./questions";
import { InteractionView } from "../../shell/shell";

export { readQuestions } from "./questions";

// Button names are part of the accessibility contract (end-to-end tests find them by role and
// name), so no other text here contains "Submit" or "Dismiss".
export const TEXT = {
  title: "The agent is waiting for your answer",
  multiHint: "Select all that apply",
  other: OPTION_TEXT.other,
  otherPlaceholder: OPTION_TEXT.otherPlaceholder,
  recommended: OPTION_TEXT.recommended,
  submit: "Submit",
  dismiss: "Dismiss",
  sendAnyway: CONFIRM_TEXT.sendAnyway,
  keepAnswering: CONFIRM_TEXT.keepAnswering,
  noPreference: NO_PREFERENCE,
  keysFor: choiceKeysHint,
  addNote: "Add a note",
  addSetNote: "Add a note for all questions",
  notePlaceholder: NOTE_TEXT.placeholder,
  allQuestions: "all questions",
  preview: PREVIEW_TEXT.preview,
  noPreview: PREVIEW_TEXT.noPreview,
  previewHint: PREVIEW_TEXT.previewHint,
  resolvedNote: RESOLVED_TEXT.note,
} as const;

/** Controls of one question, kept so the view can update them in place. */
interface QuestionControls extends ChoiceControls {
  fieldset: HTMLFieldSetElement;
  otherBox: HTMLElement;
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
  keepAnswering: HTMLButtonElement;
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
    super(model, host, "question", ["_questions"]);
    this.start();
  }

  protected pendingKey(): string {
    return JSON.stringify([asText(this.model.get("_request_id")), readQuestions(this.model.get("_questions"))]);
  }

  protected resetDraft(): void {
    this.questions = readQuestions(this.model.get("_questions"));
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

  protected waitingText(): string {
    const first = readQuestions(this.model.get("_questions"))[0]?.question ?? "";
    return first.trim() !== "" ? first : "";
  }

  protected discardMessage(): string | null {
    return questionsLost(this.questions, this.drafts, this.setNote);
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
    const top = headerRow(TEXT.title, this.makeTimer());

    const questions = this.questions.map((q, qi) => this.buildQuestion(q, qi));

    const { confirmRow, confirmText, keepAnswering } = confirmControls(
      this.domId("confirm"),
      () => this.send("submit"),
      () => this.closeConfirm(true),
      "keep",
    );

    const submit = button("nbask-button nbask-primary", TEXT.submit, () => this.requestSubmit());
    const dismiss = button("nbask-button", TEXT.dismiss, () => this.dismiss());
    // Other has the digit after the options'.
    const most = Math.max(1, ...this.questions.map((q) => q.options.length)) + 1;
    const keys = choiceKeysHint(most, this.questions.some((q) => q.multi_select));
    const footer = footerRow(keys, this.makeSendingNote(), [submit, dismiss]);

    element.append(top, ...questions.map((q) => q.fieldset));
    let setNote: NoteControls | null = null;
    if (this.questions.length > 1) {
      setNote = noteDisclosure({
        id: this.domId("set-note"),
        name: TEXT.addSetNote,
        label: noteLabel(TEXT.allQuestions),
        onToggle: (open) => this.changeSetNote({ type: "openNote", open }),
        onInput: (text) => this.changeSetNote({ type: "typeNote", text }),
      });
      const row = el("div", "nbask-note nbask-set-note");
      row.append(setNote.toggle, setNote.box);
      element.append(row);
    }
    element.append(confirmRow, footer);
    this.controls = { questions, setNote, confirmRow, confirmText, keepAnswering, submit };
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
      const input = choiceInput(type, name, String(oi));
      input.addEventListener("change", () => this.change(qi, { type: "setOption", option: oi, checked: input.checked }));
      list.append(questionOption(option, input, this.domId(`q${qi}-o${oi}`)));
      return input;
    });
    const other = otherRow(
      type,
      name,
      this.domId(`q${qi}-other`),
      (checked) => this.onOtherChoiceChange(qi, checked),
      (value) => this.change(qi, { type: "typeOther", text: value }),
    );
    list.append(other.row);
    const preview = previewPane(question.options, options, this.domId(`q${qi}-preview`), () => this.syncPreview(qi));
    if (preview) {
      // Beside the options where there is room, below them where there is not (flex wrap).
      const choices = el("div", "nbask-choices");
      choices.append(list, preview.pane);
      fieldset.append(choices);
    } else {
      fieldset.append(list);
    }

    const note = noteDisclosure({
      id: this.domId(`q${qi}-note`),
      name: TEXT.addNote,
      label: noteLabel(question.header.trim() || question.question),
      onToggle: (open) => this.change(qi, { type: "openNote", open }),
      onInput: (value) => this.change(qi, { type: "typeNote", text: value }),
    });
    // In a set, the toggle ends the question's heading rather than taking a line of its own.
    fieldset.append(placeNote(note, text.id, this.questions.length > 1 ? head : null));
    const recommended = question.options.findIndex((o) => isRecommended(o.label));
    return {
      fieldset,
      options,
      otherChoice: other.choice,
      otherText: other.text,
      otherBox: other.box,
      refreshCounter: other.refreshCounter,
      note,
      preview,
      firstFocus: recommended >= 0 ? recommended : 0,
    };
  }

  protected buildResolved(status: string): HTMLElement {
    this.controls = null;
    this.confirming = false;
    const block = resolvedBlock("nbask-resolved", this.statusLine(status));

    const result = this.model.get("_result");
    // From the model: a view that never showed the form (a reload) still says "these 2 questions".
    const questions = readQuestions(this.model.get("_questions"));
    const list = resolvedList(questions, result, status);
    if (list) block.append(list);
    appendResultNote(block, isObject(result) ? asText(result.note) : "", questions.length);
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
    const inOther = document.activeElement === controls.otherText;
    showOtherText({ box: controls.otherBox, text: controls.otherText }, showsOtherText(draft.otherChecked, draft.otherText, inOther));
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
    showPreview(preview, question.options, draft.checked);
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
    const empty = this.questions.filter((q, qi) => !isAnswered(answerOf(q, this.drafts[qi] ?? emptyDraft(q))));
    if (empty.length === 0) {
      this.send("submit");
      return;
    }
    this.confirming = true;
    const names = empty.map((q) => questionName(q.header, q.question));
    controls.confirmText.textContent = confirmMessage(empty.length, names);
    controls.confirmRow.hidden = false;
    // The safe default: Enter, Enter on an untouched question sends nothing.
    controls.keepAnswering.focus();
  }

  private closeConfirm(moveFocus: boolean): void {
    const controls = this.controls;
    this.confirming = false;
    if (controls === null) return;
    controls.confirmRow.hidden = true;
    if (moveFocus) this.focusFirstUnanswered();
  }

  private dismiss(): void {
    if (this.confirming) this.closeConfirm(false);
    this.requestDismiss(() => this.send("dismiss"));
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
    // The Other answer is one line: Enter there sends, as in a one-line field.
    if (event.key === "Enter" && this.controls?.questions.some((q) => q.otherText === target)) {
      event.preventDefault();
      this.requestSubmit();
      return;
    }
    if (handleFormKey(event, target, { escape: () => this.onEscape(), enter: () => this.requestSubmit() })) return;
    const qi = this.questionIndexOf(target);
    const controls = this.controls?.questions[qi];
    if (!controls) return;
    choiceKey(event, target, controls, this.questions[qi]?.multi_select === true, (action) => this.change(qi, action));
  }

  private onEscape(): void {
    if (this.confirming) {
      this.closeConfirm(false);
      this.controls?.submit.focus();
    } else {
      this.dismiss();
    }
  }

  private questionIndexOf(target: HTMLElement): number {
    return this.controls?.questions.findIndex((q) => q.fieldset.contains(target)) ?? -1;
  }
}
