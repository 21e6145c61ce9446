// The person's unsent approval, as plain data and pure functions (as js/kinds/question/draft.ts is for the
// question kind): whether Edit was pressed, the details as edited, and the reason.
import { MAX_DETAILS_CHARS, MAX_REASON_CHARS } from "../../contract/contract";

export interface ApprovalDraft {
  readonly editing: boolean;
  /** The details as edited; the model's own until Edit is pressed. */
  readonly details: string;
  readonly reason: string;
}

export type ApprovalAction =
  /** Edit was pressed. */
  | { readonly type: "edit" }
  | { readonly type: "typeDetails"; readonly text: string }
  /** "Restore original": the edit box back to the model's own details (still editing). */
  | { readonly type: "restoreOriginal"; readonly original: string }
  | { readonly type: "typeReason"; readonly text: string };

export function emptyApprovalDraft(details: string): ApprovalDraft {
  return { editing: false, details, reason: "" };
}

/** The draft after `action`; the same object when nothing changed. */
export function reduceApprovalDraft(draft: ApprovalDraft, action: ApprovalAction): ApprovalDraft {
  switch (action.type) {
    case "edit":
      return draft.editing ? draft : { ...draft, editing: true };
    case "typeDetails": {
      const details = action.text.slice(0, MAX_DETAILS_CHARS);
      return details === draft.details ? draft : { ...draft, details };
    }
    case "restoreOriginal": {
      const details = action.original.slice(0, MAX_DETAILS_CHARS);
      return draft.editing && details === draft.details ? draft : { ...draft, editing: true, details };
    }
    case "typeReason": {
      const reason = action.text.slice(0, MAX_REASON_CHARS);
      return reason === draft.reason ? draft : { ...draft, reason };
    }
  }
}

/** The saved draft (read defensively: any view, any version may have written it); unedited
 *  details are the model's own `details`. */
export function restoreApprovalDraft(data: Record<string, unknown>, details: string): ApprovalDraft {
  const editing = data.editing === true;
  return {
    editing,
    details: editing && typeof data.details === "string" ? data.details.slice(0, MAX_DETAILS_CHARS) : details,
    reason: typeof data.reason === "string" ? data.reason.slice(0, MAX_REASON_CHARS) : "",
  };
}

/** What is saved: the details only once edited (the unedited ones are the model's own). */
export function approvalDraftData(draft: ApprovalDraft): Record<string, unknown> {
  const { editing, details, reason } = draft;
  return editing ? { editing, details, reason } : { editing, reason };
}
