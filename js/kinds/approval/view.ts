// The approval form: a proposed action and its details, buttons Approve / Edit / Reject, an
// optional Reason, and the resolved block with the decision. Edited JSON arguments are checked
// against the tool's `details_schema` (js/kinds/approval/argcheck.ts) before Approve sends them; the kernel's
// refusal of a reply shows in an alert.
import type { AnyModel } from "@anywidget/types";
import type { ApprovalModel, ApprovalResponse } from "../../contract/contract";
import { DECISION_TEXT, EDIT_SENT_BACK_TEXT, MAX_DETAILS_CHARS, MAX_REASON_CHARS, RISK_TEXT, STATUS_TEXT } from "../../contract/contract";
import { editProblems, looksLikeJson } from "./argcheck";
import type { ApprovalAction, ApprovalDraft } from "./draft";
import { approvalDraftData, emptyApprovalDraft, reduceApprovalDraft, restoreApprovalDraft } from "./draft";
import { asText, button, charCounter, el, isObject, setFieldValue, textEl } from "../../parts/dom";
import { alertBox } from "../../shell/alert";
import { diffBlock, editedTitle } from "./diffview";
import { footerRow } from "../../parts/footer";
import { headerRow } from "../../parts/header";
import { approvalLost } from "../../shell/discard";
import { handleFormKey } from "../../focus/formkeys";
import { KernelRefusal } from "../../shell/refusal";
import { appendResultNote, labelledText, resolvedBlock } from "../../parts/resolved";
import { InteractionView } from "../../shell/shell";
import { decisionWording, PERSON_TEXT, personWording } from "../../parts/wording";

// Button and textbox names are what people and the tests find them by (tests/scenarios/): keep them.
export const APPROVAL_TEXT = {
  title: "The agent asks for your approval",
  approve: "Approve",
  edit: "Edit",
  reject: "Reject",
  details: "Details",
  reason: "Reason",
  reasonPlaceholder: "Optional: why, or what to do instead",
  editHint: "Edit the details, then approve to run the edited version.",
  restore: "Restore original",
  // Escape dismisses (shown as dismissed, never as Reject); with an edit or a reason typed it
  // asks first, as in questions and forms.
  keys: "Keys: Esc close",
} as const;

/** How long typing must pause before the Details box's check is shown. */
export const CHECK_DELAY_MS = 300;

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class ApprovalView extends InteractionView<ApprovalModel> {
  private draft: ApprovalDraft = emptyApprovalDraft("");
  private controls: {
    detailsBox: HTMLElement;
    editButton: HTMLButtonElement;
    rejectButton: HTMLButtonElement;
    reason: HTMLTextAreaElement;
    refreshReasonCount: () => void;
    alert: HTMLElement;
    /** While editing: the Details textbox and its check. */
    edit: { box: HTMLTextAreaElement; check: HTMLElement; hintId: string; refreshCount: () => void } | null;
  } | null = null;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  /** The kernel's error was put away by the person editing or sending again. */
  private readonly refusal = new KernelRefusal();

  constructor(model: AnyModel<ApprovalModel>, host: HTMLElement) {
    super(model, host, "approval", ["_title", "_details", "_details_schema", "_error", "_risk"]);
    this.start();
  }

  override destroy(): void {
    clearTimeout(this.checkTimer);
    super.destroy();
  }

  private details(): string {
    return asText(this.model.get("_details"));
  }

  /** "low", "medium", "high", or "" (not said: the default look). */
  private risk(): string {
    const risk = asText(this.model.get("_risk"));
    return RISK_TEXT[risk] === undefined ? "" : risk;
  }

  protected pendingKey(): string {
    return JSON.stringify([
      asText(this.model.get("_request_id")),
      asText(this.model.get("_title")),
      this.details(),
      JSON.stringify(this.model.get("_details_schema") ?? null),
      this.risk(),
    ]);
  }

  protected resetDraft(): void {
    this.draft = emptyApprovalDraft(this.details());
    this.controls = null;
    this.refusal.reset();
    clearTimeout(this.checkTimer);
  }

  protected draftData(): Record<string, unknown> {
    return approvalDraftData(this.draft);
  }

  protected applyDraft(data: Record<string, unknown>): void {
    const wasEditing = this.draft.editing;
    this.draft = restoreApprovalDraft(data, this.details());
    const { editing, details, reason } = this.draft;
    const controls = this.controls;
    if (controls === null) return;
    if (setFieldValue(controls.reason, reason)) controls.refreshReasonCount();
    if (editing !== wasEditing) {
      this.showDetails();
    } else if (controls.edit && setFieldValue(controls.edit.box, details)) {
      controls.edit.refreshCount();
      this.showCheck();
    }
  }

  protected discardMessage(): string | null {
    const { editing, details, reason } = this.draft;
    return approvalLost(editing && details !== this.details(), reason);
  }

  protected waitingText(): string {
    const title = asText(this.model.get("_title"));
    return title.trim() !== "" ? title : "";
  }

  protected refreshForm(): void {
    this.refusal.update(this.controls?.alert, asText(this.model.get("_error")), this.isSending());
  }

  /** Applies what the person did to the draft, and keeps it in the model. */
  private change(action: ApprovalAction): void {
    this.draft = reduceApprovalDraft(this.draft, action);
    this.draftChanged();
  }

  /** What is wrong with the edited details, or [] (unchanged details are never checked). */
  private problems(): string[] {
    const text = this.draft.details;
    if (!this.draft.editing || text === this.details()) return [];
    const schema: unknown = this.model.get("_details_schema");
    if (isObject(schema)) return editProblems(text, schema);
    // Without a schema, details that were JSON must stay JSON.
    return looksLikeJson(this.details()) ? editProblems(text, null) : [];
  }

  /** Shows (or clears) the Details box's check; returns its problems. */
  private showCheck(): string[] {
    clearTimeout(this.checkTimer);
    const edit = this.controls?.edit;
    if (!edit) return [];
    const problems = this.problems();
    const text = problems.map(sentence).join("\n");
    if (edit.check.textContent !== text) edit.check.textContent = text;
    edit.check.hidden = problems.length === 0;
    const invalid = problems.length > 0;
    edit.box.setAttribute("aria-describedby", invalid ? `${edit.check.id} ${edit.hintId}` : edit.hintId);
    if (invalid) edit.box.setAttribute("aria-invalid", "true");
    else edit.box.removeAttribute("aria-invalid");
    return problems;
  }

  /** The person typed in Details: a fixed edit clears its check at once, a broken one shows
   *  its check once typing pauses. */
  private onDetailsInput(value: string): void {
    this.change({ type: "typeDetails", text: value });
    this.hideKernelError();
    clearTimeout(this.checkTimer);
    if (this.problems().length === 0) this.showCheck();
    else this.checkTimer = setTimeout(() => this.showCheck(), CHECK_DELAY_MS);
  }

  private hideKernelError(): void {
    this.refusal.putAway(this.controls?.alert, asText(this.model.get("_error")), this.isSending());
  }

  /** A stray Enter must never approve a risky action, so focus starts on Reject (at any risk). */
  protected autofocusTarget(): HTMLElement | null {
    return this.controls?.rejectButton ?? null;
  }

  protected buildForm(): HTMLElement {
    const element = el("div", "nbask-form nbask-approval");
    const top = headerRow(APPROVAL_TEXT.title, this.makeTimer());

    const heading = textEl("div", "nbask-action", asText(this.model.get("_title")));
    heading.id = this.domId("action");
    element.setAttribute("role", "group");
    element.setAttribute("aria-labelledby", heading.id);

    const risk = this.risk();
    if (risk !== "") {
      // The stakes in words, beside the title; the group names them as its description.
      const tag = el("span", "nbask-risk", RISK_TEXT[risk]);
      tag.id = this.domId("risk");
      tag.dataset.risk = risk;
      top.querySelector(".nbask-title")?.after(tag);
      element.setAttribute("aria-describedby", tag.id);
    }

    const detailsBox = el("div", "nbask-details-box");
    // High risk: Approve in the danger colour, not the inviting primary one.
    const approveClass = risk === "high" ? "nbask-button nbask-danger-fill" : "nbask-button nbask-primary";
    const approve = button(approveClass, APPROVAL_TEXT.approve, () => this.requestApprove());
    const editButton = button("nbask-button", APPROVAL_TEXT.edit, () => this.startEditing());
    const rejectButton = button("nbask-button nbask-danger", APPROVAL_TEXT.reject, () => this.send("reject"));

    const reasonId = this.domId("reason");
    const reasonLabel = el("label", "nbask-reason-label", APPROVAL_TEXT.reason);
    reasonLabel.htmlFor = reasonId;
    const reason = el("textarea", "nbask-reason");
    reason.id = reasonId;
    reason.rows = 1;
    reason.dir = "auto";
    reason.placeholder = APPROVAL_TEXT.reasonPlaceholder;
    reason.value = this.draft.reason;
    const reasonCount = charCounter(reason, MAX_REASON_CHARS);
    reason.addEventListener("input", () => {
      this.change({ type: "typeReason", text: reason.value });
    });
    const reasonRow = el("div", "nbask-reason-row");
    reasonRow.append(reasonLabel, reason, reasonCount.element);

    const footer = footerRow(APPROVAL_TEXT.keys, this.makeSendingNote(), [approve, editButton, rejectButton]);
    const alert = alertBox();

    element.append(top, heading, detailsBox, reasonRow, alert, footer);
    this.controls = {
      detailsBox,
      editButton,
      rejectButton,
      reason,
      refreshReasonCount: reasonCount.refresh,
      alert,
      edit: null,
    };
    this.showDetails();
    return element;
  }

  /** The details as read-only monospace text, or, after Edit, as the "Details" textbox. */
  private showDetails(): void {
    const controls = this.controls;
    if (controls === null) return;
    if (!this.draft.editing) {
      const text = this.details();
      const pre = textEl("pre", "nbask-details", text);
      pre.hidden = text === "";
      // Long details scroll; the region is focusable so keyboard users can scroll it too.
      pre.tabIndex = text === "" ? -1 : 0;
      pre.setAttribute("aria-label", APPROVAL_TEXT.details);
      controls.detailsBox.replaceChildren(pre);
      // No details, nothing to edit, or a caller that takes only yes or no: only Approve and
      // Reject are offered.
      controls.editButton.hidden = !this.editable();
      controls.edit = null;
      return;
    }
    const id = this.domId("details");
    const label = el("label", "nbask-details-label", APPROVAL_TEXT.details);
    label.htmlFor = id;
    const box = el("textarea", "nbask-details nbask-details-edit");
    box.id = id;
    box.dir = "auto";
    box.spellcheck = false;
    box.value = this.draft.details;
    box.rows = Math.min(12, Math.max(3, this.draft.details.split("\n").length + 1));
    const count = charCounter(box, MAX_DETAILS_CHARS);
    box.addEventListener("input", () => this.onDetailsInput(box.value));
    box.addEventListener("blur", () => this.showCheck());
    const hint = el("div", "nbask-edit-hint", APPROVAL_TEXT.editHint);
    hint.id = this.domId("edit-hint");
    box.setAttribute("aria-describedby", hint.id);
    // What is wrong with the edit, next to the box; the box names it as its description.
    const check = el("div", "nbask-field-error nbask-details-error");
    check.id = this.domId("details-error");
    check.dir = "auto";
    check.hidden = true;
    const restore = button("nbask-button nbask-restore", APPROVAL_TEXT.restore, () => this.restoreOriginal());
    const tools = el("div", "nbask-edit-tools");
    tools.append(hint, restore);
    controls.detailsBox.replaceChildren(label, box, check, tools, count.element);
    controls.editButton.hidden = true;
    controls.edit = { box, check, hintId: hint.id, refreshCount: count.refresh };
    this.showCheck();
  }

  private editable(): boolean {
    return this.details() !== "" && this.model.get("_edits") !== "off";
  }

  private startEditing(): void {
    if (this.isLocked() || !this.editable()) return;
    this.change({ type: "edit" });
    this.showDetails();
    this.controls?.detailsBox.querySelector("textarea")?.focus();
  }

  /** "Restore original": the edit box gets the model's own details back, and keeps focus. */
  private restoreOriginal(): void {
    const edit = this.controls?.edit;
    if (!edit || this.isLocked()) return;
    this.change({ type: "restoreOriginal", original: this.details() });
    if (setFieldValue(edit.box, this.draft.details)) edit.refreshCount();
    this.hideKernelError();
    this.showCheck();
    edit.box.focus();
  }

  /** Approve: sends when the edited details pass their check; else shows it and focuses them. */
  private requestApprove(): void {
    if (this.controls === null || this.isLocked()) return;
    const edit = this.controls.edit;
    // The box is the truth (a browser may fill it without an input event).
    if (edit) this.draft = reduceApprovalDraft(this.draft, { type: "typeDetails", text: edit.box.value });
    if (this.showCheck().length > 0) {
      edit?.box.focus();
      return;
    }
    this.send("approve");
  }

  private send(action: ApprovalResponse["action"]): void {
    const response: ApprovalResponse = {
      action,
      edited_details: action === "approve" && this.draft.editing ? this.draft.details : null,
      reason: action === "dismiss" ? "" : this.draft.reason.trim(),
      ...this.stamp(),
    };
    this.refusal.sending();
    this.sendResponse(response);
  }

  protected onKey(event: KeyboardEvent, target: HTMLElement): void {
    // Enter never approves: it only does what a focused button says.
    handleFormKey(event, target, { escape: () => this.requestDismiss(() => this.send("dismiss")), enter: () => undefined });
  }

  protected buildResolved(status: string): HTMLElement {
    this.controls = null;
    const result = this.model.get("_result");
    const outcome = isObject(result) ? result : {};
    // A dismissal (Escape, Dismiss) is its own outcome, never shown as "Rejected": the kernel
    // records it as a reject so nothing runs, but the person rejected nothing.
    const decision = status === "dismissed" ? "" : asText(outcome.decision);
    const sentBack = decision === "edit" && this.model.get("_edits") === "sent_back";
    let verdict = (sentBack ? EDIT_SENT_BACK_TEXT : DECISION_TEXT[decision]) ?? STATUS_TEXT[status] ?? status;
    if (decision !== "" && status !== "answered") verdict += ` · ${STATUS_TEXT[status] ?? status}`;

    const line = this.statusLine(status, verdict, status === "answered" && decision !== "" ? decision : status);
    if (decision !== "") line.dataset.decision = decision;
    const block = resolvedBlock("nbask-resolved nbask-approval", line);
    const title = asText(this.model.get("_title"));
    const edited = outcome.edited;
    if (decision === "edit" && typeof edited === "string") {
      block.append(...editedTitle(title, this.details(), edited), ...diffBlock(this.details(), edited, this.domId("changes")));
    } else {
      block.append(textEl("div", "nbask-action", title));
      if (this.details() !== "") block.append(textEl("pre", "nbask-details", this.details()));
    }
    // The person's own decision and typed reason; a reason nbask wrote (an ending, a policy) is
    // shown in the person's words, never as "Reason: …".
    const reason = asText(outcome.reason);
    const nbaskReason = personWording(reason) ?? (status === "answered" || reason.trim() === "" ? null : reason);
    if (status === "answered" && decision !== "" && nbaskReason === null) {
      const wording = sentBack ? PERSON_TEXT.edited_sent_back : decisionWording(decision);
      block.append(el("p", "nbask-note nbask-decision-text", wording));
      if (reason.trim() !== "") block.append(labelledText("p", "nbask-reason-text", APPROVAL_TEXT.reason, reason));
    }
    if (nbaskReason !== null) block.append(textEl("p", "nbask-note nbask-ending", nbaskReason));
    appendResultNote(block, asText(outcome.note));
    return block;
  }
}
