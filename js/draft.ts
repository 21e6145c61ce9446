// The person's unsent answers to a question form, as plain data and pure functions: no DOM,
// no model. The view keeps one Draft per question and replaces it with reduceDraft's result
// on every change; nothing reaches the model until Submit, so re-renders caused by the kernel
// do not lose it.
import type { Question, QuestionAnswer, Response } from "./contract";
import { MAX_NOTE_CHARS, MAX_OTHER_CHARS } from "./contract";

/** One question's unsent answer. */
export interface Draft {
  /** Multi select (checkboxes) rather than single select (radios). */
  readonly multi: boolean;
  /** Per option, in option order: chosen or not. */
  readonly checked: readonly boolean[];
  /** The Other choice is chosen. */
  readonly otherChecked: boolean;
  /** The Other textbox's text, at most MAX_OTHER_CHARS long. Kept even when Other is not
   *  chosen, but then not sent. */
  readonly otherText: string;
  /** The note on this question, at most MAX_NOTE_CHARS long; sent when not blank, also while
   *  its box is collapsed. */
  readonly note: string;
  /** The note's box is open ("Add a note" expanded). */
  readonly noteOpen: boolean;
}

/** The note on the whole set: its text and whether its box is open. */
export interface SetNote {
  readonly note: string;
  readonly noteOpen: boolean;
}

export const EMPTY_SET_NOTE: SetNote = { note: "", noteOpen: false };

/** What the person did to one question. */
export type DraftAction =
  /** A digit key: choose (single select) or toggle (multi select) option `option`. */
  | { readonly type: "pick"; readonly option: number }
  /** An arrow key in a single-select question: make choice `choice` the only one; the
   *  choices are the options followed by Other (choice === number of options). */
  | { readonly type: "select"; readonly choice: number }
  /** An option's checkbox or radio changed. */
  | { readonly type: "setOption"; readonly option: number; readonly checked: boolean }
  /** The Other checkbox or radio changed. */
  | { readonly type: "setOther"; readonly checked: boolean }
  /** The Other text changed: Other is chosen exactly when the text is not blank. */
  | { readonly type: "typeOther"; readonly text: string }
  /** The note's text changed. */
  | { readonly type: "typeNote"; readonly text: string }
  /** "Add a note" opened or closed the note's box. */
  | { readonly type: "openNote"; readonly open: boolean };

export function emptyDraft(question: Question): Draft {
  return {
    multi: question.multi_select,
    checked: question.options.map(() => false),
    otherChecked: false,
    otherText: "",
    note: "",
    noteOpen: false,
  };
}

/** The Other text as it may be kept: cut at the cap the textbox and the kernel enforce. */
export function capOtherText(text: string): string {
  return text.length > MAX_OTHER_CHARS ? text.slice(0, MAX_OTHER_CHARS) : text;
}

/** A note as it may be kept: cut at the cap the textbox and the kernel enforce. */
export function capNote(text: string): string {
  return text.length > MAX_NOTE_CHARS ? text.slice(0, MAX_NOTE_CHARS) : text;
}

/** The set's note after typing in it or opening/closing its box. */
export function reduceSetNote(
  set: SetNote,
  action: { readonly type: "typeNote"; readonly text: string } | { readonly type: "openNote"; readonly open: boolean },
): SetNote {
  if (action.type === "typeNote") return { ...set, note: capNote(action.text) };
  return { ...set, noteOpen: action.open };
}

function hasOption(draft: Draft, option: number): boolean {
  return Number.isInteger(option) && option >= 0 && option < draft.checked.length;
}

/** Single select: option `option` only (-1 = none). */
function only(draft: Draft, option: number): boolean[] {
  return draft.checked.map((_, i) => i === option);
}

function withOption(draft: Draft, option: number, checked: boolean): boolean[] {
  return draft.checked.map((value, i) => (i === option ? checked : value));
}

/** The draft after `action`; the same object when the action changes nothing. */
export function reduceDraft(draft: Draft, action: DraftAction): Draft {
  switch (action.type) {
    case "pick":
      if (!hasOption(draft, action.option)) return draft;
      if (draft.multi) return { ...draft, checked: withOption(draft, action.option, draft.checked[action.option] !== true) };
      return { ...draft, checked: only(draft, action.option), otherChecked: false };
    case "select": {
      if (!Number.isInteger(action.choice) || action.choice < 0 || action.choice > draft.checked.length) return draft;
      return { ...draft, checked: only(draft, action.choice), otherChecked: action.choice === draft.checked.length };
    }
    case "setOption":
      if (!hasOption(draft, action.option)) return draft;
      if (draft.multi) return { ...draft, checked: withOption(draft, action.option, action.checked) };
      // A radio only ever reports being chosen; the Other text is kept, but no longer sent.
      if (!action.checked) return draft;
      return { ...draft, checked: only(draft, action.option), otherChecked: false };
    case "setOther":
      if (action.checked && !draft.multi) return { ...draft, checked: only(draft, -1), otherChecked: true };
      return { ...draft, otherChecked: action.checked };
    case "typeOther": {
      const otherText = capOtherText(action.text);
      const otherChecked = otherText.trim() !== "";
      const checked = otherChecked && !draft.multi ? only(draft, -1) : draft.checked;
      return { ...draft, checked, otherChecked, otherText };
    }
    case "typeNote":
      return { ...draft, note: capNote(action.text) };
    case "openNote":
      return draft.noteOpen === action.open ? draft : { ...draft, noteOpen: action.open };
  }
}

/** What is sent for one question: the chosen labels in option order, the trimmed Other
 *  text when Other is chosen and not blank, and the trimmed note when not blank. */
export function answerOf(question: Question, draft: Draft): QuestionAnswer {
  const selected = question.options.filter((_, i) => draft.checked[i] === true).map((o) => o.label);
  const text = draft.otherText.trim();
  const answer: QuestionAnswer = { selected, other: draft.otherChecked && text !== "" ? text : null };
  const note = draft.note.trim();
  if (note !== "") answer.note = note;
  return answer;
}

export function isAnswered(answer: QuestionAnswer): boolean {
  return answer.selected.length > 0 || answer.other !== null;
}

/** One answer per question, in question order; a question without a draft is unanswered. */
export function answersOf(questions: readonly Question[], drafts: readonly Draft[]): QuestionAnswer[] {
  return questions.map((q, qi) => answerOf(q, drafts[qi] ?? emptyDraft(q)));
}

/** How many questions have no answer yet (Submit then asks before sending). */
export function unansweredCount(questions: readonly Question[], drafts: readonly Draft[]): number {
  return answersOf(questions, drafts).filter((a) => !isAnswered(a)).length;
}

/** Index of the first question without an answer, or -1. */
export function firstUnanswered(questions: readonly Question[], drafts: readonly Draft[]): number {
  return answersOf(questions, drafts).findIndex((a) => !isAnswered(a));
}

/** The response written to the model: the answers and the set's note on submit, none on
 *  dismiss. */
export function buildResponse(
  action: Response["action"],
  questions: readonly Question[],
  drafts: readonly Draft[],
  stamp: { view_id: string; sent_at_ms: number },
  setNote: SetNote = EMPTY_SET_NOTE,
): Response {
  const note = setNote.note.trim();
  return {
    action,
    answers: action === "submit" ? answersOf(questions, drafts) : [],
    ...(action === "submit" && note !== "" ? { note } : {}),
    ...stamp,
  };
}
