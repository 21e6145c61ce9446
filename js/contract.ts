// The wire contract with the kernel: the model each widget kind syncs, what the front end
// writes back, and the constants both sides share.
//
// The interfaces mirror the synced traitlets of src/nbask/widgets/_base.py (every kind),
// src/nbask/widgets/question.py and src/nbask/widgets/approval.py: change them together.
// The kernel writes every field except `response`. Statuses, fixed texts and limits come from
// src/nbask/contract.json, which the Python side reads too.
import contract from "../src/nbask/contract.json";

export type Kind = "question" | "approval";
export type Status = "pending" | "answered" | "dismissed" | "timeout" | "cancelled";
export type DecisionKind = "approve" | "edit" | "reject";

/** What every widget kind syncs. */
export interface BaseModel {
  kind: Kind;
  request_id: string;
  status: Status;
  /** Epoch milliseconds when the kernel stops waiting; 0 = no time limit. */
  deadline_ms: number;
  /** Written by the front end only (model.set + save_changes); `{}` until it answers. */
  response: object;
  /** Written by the kernel once resolved: what the resolved block shows. */
  result: object;
}

export interface Option {
  label: string;
  description: string;
}

export interface Question {
  question: string;
  header: string;
  /** The whole header when a tool dialect shortened `header` for the chip; its tooltip. */
  header_tooltip?: string;
  options: Option[];
  multi_select: boolean;
}

/** QuestionWidget's model. */
export interface QuestionModel extends BaseModel {
  questions: Question[];
}

/** ApprovalWidget's model. */
export interface ApprovalModel extends BaseModel {
  /** The proposed action, e.g. "Run shell command". */
  title: string;
  /** What exactly would run, shown as monospace text. */
  details: string;
}

/** Every field any kind syncs; what render() receives. */
export type Model = QuestionModel & ApprovalModel;

/** One entry per question, in question order. */
export interface QuestionAnswer {
  /** Labels of the chosen options, in option order. */
  selected: string[];
  /** The trimmed "Other" text when Other is chosen and not empty, else null. */
  other: string | null;
}

/** A question's response (parsed by src/nbask/responses.py, parse_question_response). */
export interface Response {
  action: "submit" | "dismiss";
  answers: QuestionAnswer[];
  /** Random id of the view that sent it. */
  view_id: string;
  sent_at_ms: number;
}

/** An approval's response (parsed by src/nbask/responses.py, parse_approval_response). */
export interface ApprovalResponse {
  action: "approve" | "reject" | "dismiss";
  /** The Details textbox's text when the person pressed Edit, else null; the kernel
   *  decides "edit" (changed) or "approve" (unchanged). */
  edited_details: string | null;
  reason: string;
  view_id: string;
  sent_at_ms: number;
}

/** A question's result: question text -> answer text, and a note. */
export interface QuestionResult {
  answers?: Record<string, string>;
  note?: string;
}

/** An approval's result. */
export interface ApprovalResult {
  decision?: DecisionKind;
  edited?: string | null;
  reason?: string;
  note?: string;
}

export const STATUS_TEXT: Readonly<Record<string, string>> = contract.status_text;
export const DECISION_TEXT: Readonly<Record<string, string>> = contract.decision_text;
export const NO_PREFERENCE: string = contract.no_preference;
export const MAX_OTHER_CHARS: number = contract.max_other_chars;
export const MAX_REASON_CHARS: number = contract.max_reason_chars;
export const MAX_DETAILS_CHARS: number = contract.max_details_chars;
export const RECOMMENDED = new RegExp(contract.recommended_suffix_pattern, "i");

export function isRecommended(label: string): boolean {
  return RECOMMENDED.test(label);
}
