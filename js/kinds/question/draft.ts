// The person's unsent answers to a question form, as plain data and pure functions: no DOM,
// no model. The view keeps one Draft per question and replaces it with reduceDraft's result
// on every change. The whole Draft objects are the question's saved draft (js/shell/draftsync.ts):
// restoreDraft takes back every field the empty draft has, by its type, so a field added to
// Draft is kept across a reload without more code.
import type { Question, QuestionAnswer, Response } from "../../contract/contract";
import { MAX_NOTE_CHARS, MAX_OTHER_CHARS } from "../../contract/contract";
import { isObject } from "../../parts/dom";

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
  /** The Other text changed: text that is not blank chooses Other; blank text leaves the
   *  choice as it was (the person chose the Other row to type in it). */
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
      const typed = otherText.trim() !== "";
      const otherChecked = typed || draft.otherChecked;
      const checked = typed && !draft.multi ? only(draft, -1) : draft.checked;
      return { ...draft, checked, otherChecked, otherText };
    }
    case "typeNote":
      return { ...draft, note: capNote(action.text) };
    case "openNote":
      return draft.noteOpen === action.open ? draft : { ...draft, noteOpen: action.open };
  }
}

function sameShape(value: unknown, like: unknown): boolean {
  if (Array.isArray(like)) {
    return (
      Array.isArray(value) &&
      value.length === like.length &&
      value.every((item, i) => typeof item === typeof like[i])
    );
  }
  return typeof value === typeof like && (typeof like !== "object" || like === null ? true : isObject(value));
}

/** A saved draft of `question` (from the model: any view, any version may have written it),
 *  as a Draft: each field the empty draft has is taken when its type (and, for a list, its
 *  length) fits, else left empty. */
export function restoreDraft(question: Question, raw: unknown): Draft {
  const empty = emptyDraft(question);
  if (!isObject(raw)) return empty;
  const fields: Record<string, unknown> = { ...empty };
  for (const [name, like] of Object.entries(empty)) {
    // Single or multi select is the question's, never the saved draft's.
    if (name !== "multi" && sameShape(raw[name], like)) fields[name] = raw[name];
  }
  const draft = fields as unknown as Draft;
  const restored = { ...draft, otherText: capOtherText(draft.otherText), note: capNote(draft.note) };
  if (restored.multi) return restored;
  // A single select has at most one choice.
  const first = restored.checked.indexOf(true);
  if (first >= 0) return { ...restored, checked: only(restored, first), otherChecked: false };
  return restored;
}

/** The set's note from a saved draft: its text (capped) and whether its box is open. */
export function restoreSetNote(raw: unknown): SetNote {
  if (!isObject(raw)) return EMPTY_SET_NOTE;
  return {
    note: typeof raw.note === "string" ? capNote(raw.note) : "",
    noteOpen: raw.noteOpen === true,
  };
}

/** Fields of a Draft that say how the form looks, not what the person answered. */
const VIEW_STATE = new Set(["multi", "noteOpen"]);

/** Whether the person chose or typed anything in this question (every field the Draft has
 *  but its view state: a choice made, a text not blank). */
export function hasContent(draft: Draft): boolean {
  return Object.entries(draft).some(([name, value]) => {
    if (VIEW_STATE.has(name)) return false;
    if (typeof value === "boolean") return value;
    if (typeof value === "string") return value.trim() !== "";
    return Array.isArray(value) && value.some((item) => item === true || (typeof item === "string" && item.trim() !== ""));
  });
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
