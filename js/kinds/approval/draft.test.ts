// The approval's draft as a pure reducer: actions, saving and restoring.
import { describe, expect, it } from "vitest";
import {
  approvalDraftData,
  emptyApprovalDraft,
  reduceApprovalDraft,
  restoreApprovalDraft,
} from "./draft";
import { MAX_DETAILS_CHARS, MAX_REASON_CHARS } from "../../contract/contract";

const DETAILS = '{"path": "/tmp/x"}';

describe("approval draft", () => {
  it("starts unedited with the model's details and no reason", () => {
    const draft = emptyApprovalDraft(DETAILS);
    expect(draft).toEqual({ editing: false, details: DETAILS, reason: "" });
  });

  it("returns the same draft when an action changes nothing", () => {
    const draft = emptyApprovalDraft(DETAILS);
    expect(reduceApprovalDraft(draft, { type: "typeReason", text: "" })).toBe(draft);
    expect(reduceApprovalDraft(draft, { type: "typeDetails", text: DETAILS })).toBe(draft);
    const editing = reduceApprovalDraft(draft, { type: "edit" });
    expect(reduceApprovalDraft(editing, { type: "edit" })).toBe(editing);
  });

  it("caps the texts as their boxes do", () => {
    const draft = emptyApprovalDraft(DETAILS);
    const long = reduceApprovalDraft(draft, { type: "typeReason", text: "r".repeat(MAX_REASON_CHARS + 5) });
    expect(long.reason).toHaveLength(MAX_REASON_CHARS);
    const edited = reduceApprovalDraft(draft, { type: "typeDetails", text: "d".repeat(MAX_DETAILS_CHARS + 5) });
    expect(edited.details).toHaveLength(MAX_DETAILS_CHARS);
  });

  it("saves the details only once edited, and restores what it saved", () => {
    const reason = reduceApprovalDraft(emptyApprovalDraft(DETAILS), { type: "typeReason", text: "why" });
    expect(approvalDraftData(reason)).toEqual({ editing: false, reason: "why" });
    expect(restoreApprovalDraft(approvalDraftData(reason), DETAILS)).toEqual(reason);
    const edited = reduceApprovalDraft(reduceApprovalDraft(reason, { type: "edit" }), { type: "typeDetails", text: "{}" });
    expect(approvalDraftData(edited)).toEqual({ editing: true, details: "{}", reason: "why" });
    expect(restoreApprovalDraft(approvalDraftData(edited), DETAILS)).toEqual(edited);
  });

  it("restores defensively: wrong types fall back to the model's details and no reason", () => {
    expect(restoreApprovalDraft({ editing: "yes", details: 3, reason: ["x"] }, DETAILS)).toEqual(
      emptyApprovalDraft(DETAILS),
    );
    expect(restoreApprovalDraft({ editing: false, details: "{}" }, DETAILS).details).toBe(DETAILS);
  });
});

describe("Restore original", () => {
  it("puts the model's details back in the edit box and keeps editing and the reason", () => {
    const editing = reduceApprovalDraft(emptyApprovalDraft(DETAILS), { type: "edit" });
    const edited = reduceApprovalDraft(reduceApprovalDraft(editing, { type: "typeDetails", text: "{}" }), {
      type: "typeReason",
      text: "careful",
    });
    const restored = reduceApprovalDraft(edited, { type: "restoreOriginal", original: DETAILS });
    expect(restored).toEqual({ editing: true, details: DETAILS, reason: "careful" });
    expect(reduceApprovalDraft(restored, { type: "restoreOriginal", original: DETAILS })).toBe(restored);
  });
});
