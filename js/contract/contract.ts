// The wire contract with the kernel: the model each widget kind syncs, what the front end
// writes back, and the constants both sides share.
//
// The interfaces mirror the synced traitlets of src/nbask/widget/base.py (every kind) and of each
// kind's widget (question, approval, form): change them together.
// Every synced name starts with "_": the wire is private to nbask, not the widget's Python API
// (js/contract/oldnames.ts reads state saved under the earlier names). The kernel writes every
// field except `_response` and `_draft`. Statuses, fixed texts and limits come from
// src/nbask/contract.json, which the Python side reads too.
// Named imports: the bundle keeps only the entries the front end reads.
import {
  answer_separator,
  approval_risks,
  decision_text,
  edit_sent_back_text,
  field_types,
  late_text,
  max_choice_options,
  max_description_chars,
  max_details_chars,
  max_draft_chars,
  max_field_chars,
  max_form_fields,
  max_note_chars,
  max_other_chars,
  max_preview_chars,
  max_reason_chars,
  max_source_chars,
  max_title_chars,
  no_preference,
  recommended_suffix_pattern,
  risk_text,
  status_text,
  string_formats,
} from "../../src/nbask/contract.json";

export type Kind = "question" | "approval" | "form";
export type Status = "pending" | "answered" | "dismissed" | "timeout" | "cancelled";
export type DecisionKind = "approve" | "edit" | "reject";
/** How much is at stake in an approval (contract.json `approval_risks`). */
export type Risk = "low" | "medium" | "high";

/** What every widget kind syncs. */
export interface BaseModel {
  _kind: Kind;
  _request_id: string;
  _status: Status;
  /** Epoch milliseconds when the kernel stops waiting; 0 = no time limit. */
  _deadline_ms: number;
  /** Epoch milliseconds from which the countdown shows; 0 = all along (a limit the caller set).
   *  nbask's own default limit is shown only in its last minutes. Optional: an older kernel
   *  does not sync it. */
  _countdown_from_ms?: number;
  /** Written by the front end only (model.set + save_changes); `{}` until it answers. */
  _response: object;
  /** Written by the kernel once resolved: what the resolved block shows. */
  _result: object;
  /** The person's unsent answer (a SavedDraft), written by the front end only (js/shell/draftsync.ts)
   *  so a reload or a second view shows it; `{}` when there is none. The kernel keeps it as
   *  state only, never as an answer, and empties it once the request resolves. Optional: an
   *  older kernel does not sync it. */
  _draft?: object;
  /** nbask.configure(notify=True): a desktop notification when a question starts waiting
   *  unseen (js/shell/attention.ts). Optional: an older kernel does not send it. */
  _notify?: boolean;
  /** The BroadcastChannel the response is also posted on, where the comm cannot bring it to a
   *  running cell (JupyterLite's Pyodide kernel, js/shell/sidechannel.ts); "" = the comm alone.
   *  Optional: an older kernel does not send it. */
  _reply_channel?: string;
  /** Whether the resolved block names a made-up identity (a token login's "Anonymous Io"):
   *  the kernel sets it once more than one identity has answered there (js/parts/wording.ts).
   *  Optional: an older kernel does not send it. */
  _show_names?: boolean;
  /** The batch this request waits in, when several are shown together (src/nbask/widget/batch.py);
   *  `{}` when it waits alone. Only the lead's heading reads it (js/batch/heading.ts). Optional:
   *  an older kernel does not sync it. */
  _batch?: BatchState | Record<string, never>;
  /** Who asks ("billing agent"; "" when unsaid), plain text: the card names it only in a batch
   *  whose requests come from more than one source (js/batch/source.ts). Optional: an older kernel
   *  does not sync it. */
  _source?: string;
  /** The first line of the running cell's code ("" when unknown, at most 80 characters): how the
   *  Waiting requests panel (js/reload/panel.ts) names where a request comes from. Plain text.
   *  Optional: an older kernel does not sync it. */
  _cell?: string;
  /** The running cell's execute request, `{msg_id, session}` (`{}` when unknown): a page that did
   *  not send it (reloaded while the cell ran) shows the run's later output in the view
   *  (js/reload/cellrun.ts). Optional: an older kernel does not sync it. */
  _cell_run?: { msg_id?: string; session?: string };
  /** The only people whose verified answer resolves the request ([] = anyone): every other page
   *  shows the card read-only, "Waiting for alice or bob" (js/shell/approvers.ts). Optional: an
   *  older kernel does not sync it. */
  _approvers?: string[];
  /** Whether the Jupyter server vouched for who ran the cell (nbask's server extension stamped
   *  it): where it did not, a request with approvers cannot be answered. Optional. */
  _verifies?: boolean;
}

/** A batch as its widgets see it: the `_batch` trait when several requests wait together. */
export interface BatchState {
  id: string;
  /** Whether this widget's request is the first of the batch still waiting: its card shows the
   *  batch's heading (the count, Approve all / Reject all), which so never sits on a card
   *  already answered; it moves down as the cards above are answered. */
  lead: boolean;
  /** How many requests of the batch still wait (on the lead only: 0 on the other cards, whose
   *  state so stays put as requests come and go, but for the one that becomes the lead). */
  waiting: number;
  /** Request ids of the batch's approvals still waiting, in the order shown: what an "all"
   *  button may decide (questions and forms never are). On the lead only, [] elsewhere. */
  approvals: string[];
  /** The high-risk ones among `approvals`, with their titles: "Approve all" leaves them out (each
   *  is decided on its own card) and says so; "Reject all" takes them. On the lead only. */
  high_risk?: { id: string; action: string }[];
  /** How many sources (a request's `source`, unsaid counting as one) its requests have come
   *  from: with more than one, each card names its own. On every card. */
  sources?: number;
}

/** The custom message a lead widget sends (model.send) for Approve all / Reject all: the kernel
 *  decides, as the person, exactly the listed approvals that still wait. */
export interface BatchMessage {
  batch: "approve_all" | "reject_all";
  batch_id: string;
  request_ids: string[];
  /** Who decided them, as a response names its sender (js/shell/identity.ts); left out when unknown. */
  user?: string;
}

export interface Option {
  label: string;
  description: string;
  /** Monospace text (a snippet, a small table, a diff) shown beside the options while this
   *  option is focused or chosen; "" or absent = none. Rendered as text, never HTML. */
  preview?: string;
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
  _questions: Question[];
}

/** ApprovalWidget's model. */
export interface ApprovalModel extends BaseModel {
  /** The proposed action, e.g. "Run shell command". */
  _title: string;
  /** What exactly would run, shown as monospace text. */
  _details: string;
  /** The JSON Schema an edit of the details (the tool's arguments as JSON) must fit; null when
   *  the details are not such arguments. Edits are checked against it (js/kinds/approval/argcheck.ts). */
  _details_schema: Record<string, unknown> | null;
  /** The kernel's refusal of the last reply ("" = none), cleared `_response` with it. */
  _error: string;
  /** What is at stake ("" = not said: the default look). "high" draws Approve in the danger
   *  colour; every risk shows a tag in the header (RISK_TEXT). Optional: an older kernel does
   *  not send it. */
  _risk?: Risk | "";
  /** What an edit of the details does: "run" (the edited action runs); "sent_back" (the caller
   *  sends the edit back to the model: the resolved card says "Edited, sent back to the
   *  model"); "off" (the caller takes only yes or no: no Edit is offered). Optional: an older
   *  kernel does not send it ("run"). */
  _edits?: "run" | "sent_back" | "off";
}

/** The types a form field may have (contract.json `field_types`). */
export type FieldType = "string" | "number" | "integer" | "boolean" | "choice" | "multi_choice";
/** What a string field's text must look like (contract.json `string_formats`); "" = free text. */
export type StringFormat = "" | "email" | "uri" | "date" | "date-time";
/** A field's value as sent and as the kernel reports it: a date-time is the text of the
 *  browser's datetime-local input (e.g. "2026-11-23T10:30"). */
export type FieldValue = string | number | boolean | string[];

/** One choice of a choice or multi_choice field. */
export interface FieldOption {
  /** What is sent in `values`. */
  value: string;
  /** What the person sees. */
  title: string;
}

/** One field of a form (src/nbask/forms.py, FormField). */
export interface FormField {
  /** The property key: the field's key in `values`. */
  name: string;
  /** The label text; the kernel already falls back to the key. */
  title: string;
  /** "" if none; shown under the label as the control's accessible description. */
  description: string;
  type: FieldType;
  required: boolean;
  /** Strings only. */
  format: StringFormat;
  /** Strings, in code points. */
  min_length: number | null;
  max_length: number | null;
  /** Numbers and integers, inclusive. */
  minimum: number | null;
  maximum: number | null;
  /** Multi choices. */
  min_items: number | null;
  max_items: number | null;
  /** Choices and multi choices. */
  options: FieldOption[];
  /** Prefilled; null = none. */
  default: FieldValue | null;
}

/** FormWidget's model: a typed form (fields) or, in URL mode, a page to open (url). */
export interface FormModel extends BaseModel {
  /** What the agent asks: plain text, may be long and multiline. */
  _message: string;
  /** The fields, in order; [] in URL mode. */
  _fields: FormField[];
  /** "" in form mode; non-empty means URL mode. */
  _url: string;
  /** The kernel's refusal of the last reply ("" = none). The kernel sets it and clears
   *  `_response` together, so the form unlocks and shows why. */
  _error: string;
}

/** Every field any kind syncs; what render() receives. */
export type Model = QuestionModel & ApprovalModel & FormModel;

/** One entry per question, in question order. */
export interface QuestionAnswer {
  /** Labels of the chosen options, in option order. */
  selected: string[];
  /** The trimmed "Other" text when Other is chosen and not empty, else null. */
  other: string | null;
  /** The person's trimmed note on this question; left out when they wrote none. */
  note?: string;
}

/** What every response may add: who sent it, as the page's Jupyter server knows them
 *  (GET api/me, js/shell/identity.ts); left out where there is none. The kernel prefers the comm
 *  message header's username where a front end fills it in. */
export interface Sender {
  user?: string;
}

/** A question's response (parsed by src/nbask/replies.py, parse_question_response). */
export interface Response extends Sender {
  action: "submit" | "dismiss";
  answers: QuestionAnswer[];
  /** The person's trimmed note on the whole set; left out when they wrote none. */
  note?: string;
  /** Random id of the view that sent it. */
  view_id: string;
  sent_at_ms: number;
}

/** An approval's response (parsed by src/nbask/replies.py, parse_approval_response). */
export interface ApprovalResponse extends Sender {
  action: "approve" | "reject" | "dismiss";
  /** The Details textbox's text when the person pressed Edit, else null; the kernel
   *  decides "edit" (changed) or "approve" (unchanged). */
  edited_details: string | null;
  reason: string;
  view_id: string;
  sent_at_ms: number;
}

/** A form's response (parsed by the kernel, which checks the values again). */
export interface FormResponse extends Sender {
  /** URL mode: "submit" = Open was pressed, "dismiss" = Decline. */
  action: "submit" | "dismiss";
  /** Field name -> typed value; empty optional fields are left out. {} on dismiss and in URL mode. */
  values: Record<string, FieldValue>;
  view_id: string;
  sent_at_ms: number;
}

/** The model's `_draft`: one view's unsent state for one request. */
export interface SavedDraft {
  request_id: string;
  /** Fingerprint of what the form shows (js/shell/draftsync.ts): restored only into the same form. */
  key: string;
  /** The view that wrote it: a view ignores its own writes coming back. */
  view_id: string;
  /** The kind's own draft: question {drafts: Draft[]} (js/kinds/question/draft.ts), approval {editing,
   *  details, reason}, form {values, dirty, touched, attempted}. */
  data: Record<string, unknown>;
}

/** What every result may add. After a timeout (status stays "timeout") an answer given with
 *  "Answer anyway" replaces the result, with `late: true`; `answered_by_user` is the username
 *  of who answered where the kernel knows one (rendered as text). */
export interface ResultExtras {
  late?: boolean;
  answered_by_user?: string;
  /** How `answered_by_user` is known: stamped by the Jupyter server, or said by the page. */
  identity?: "verified" | "reported" | "none";
}

/** A question's result: question text -> answer text, and a note. */
export interface QuestionResult extends ResultExtras {
  answers?: Record<string, string>;
  /** Question text -> the person's note on it (only questions with one). */
  notes?: Record<string, string>;
  /** The person's note on the whole set, then the kernel's remark, a blank line apart. */
  note?: string;
}

/** An approval's result. */
export interface ApprovalResult extends ResultExtras {
  decision?: DecisionKind;
  edited?: string | null;
  reason?: string;
  note?: string;
}

/** A form's result: the values as the kernel accepted them, and a note. */
export interface FormResult extends ResultExtras {
  values?: Record<string, FieldValue>;
  note?: string;
}

export const STATUS_TEXT: Readonly<Record<string, string>> = status_text;
/** "Answer anyway" (the button on a timed-out request), the reopened form's title line, and
 *  "Answered late" (its resolved block). */
export const LATE_TEXT: Readonly<{ answer_anyway: string; answering_late: string; answered_late: string }> =
  late_text;
export const DECISION_TEXT: Readonly<Record<string, string>> = decision_text;
/** The decision's text when an edit went back to the model instead of running (`edits` "sent_back"). */
export const EDIT_SENT_BACK_TEXT: string = edit_sent_back_text;
export const APPROVAL_RISKS: readonly string[] = approval_risks;
/** The tag an approval's header shows for its risk: "High risk"… */
export const RISK_TEXT: Readonly<Record<string, string>> = risk_text;
export const NO_PREFERENCE: string = no_preference;
/** Between the labels of a multi-select answer in the result's text. */
export const ANSWER_SEPARATOR: string = answer_separator;
export const MAX_OTHER_CHARS: number = max_other_chars;
export const MAX_NOTE_CHARS: number = max_note_chars;
export const MAX_PREVIEW_CHARS: number = max_preview_chars;
export const MAX_REASON_CHARS: number = max_reason_chars;
export const MAX_DETAILS_CHARS: number = max_details_chars;
export const MAX_DRAFT_CHARS: number = max_draft_chars;
export const FIELD_TYPES: readonly string[] = field_types;
export const STRING_FORMATS: readonly string[] = string_formats;
export const MAX_FORM_FIELDS: number = max_form_fields;
export const MAX_FIELD_CHARS: number = max_field_chars;
export const MAX_CHOICE_OPTIONS: number = max_choice_options;
export const MAX_TITLE_CHARS: number = max_title_chars;
export const MAX_SOURCE_CHARS: number = max_source_chars;
export const MAX_DESCRIPTION_CHARS: number = max_description_chars;
export const RECOMMENDED = new RegExp(recommended_suffix_pattern, "i");

export function isRecommended(label: string): boolean {
  return RECOMMENDED.test(label);
}
