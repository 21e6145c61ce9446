// The approval form: approve, edit, reject with a reason, Escape, locking while sending, the
// resolved block for every decision and ending, hostile text, and the kind dispatch.
import { getByRole, queryByRole, within } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalResponse } from "./contract";
import { FakeModel, unmountAll, view } from "./testing";

afterEach(unmountAll);

const DETAILS = "rm -rf build/\n  echo done";

function approvalModel(extra: Record<string, unknown> = {}): FakeModel {
  return new FakeModel({ kind: "approval", title: "Run shell command", details: DETAILS, ...extra });
}

function openApproval(extra: Record<string, unknown> = {}) {
  const user = userEvent.setup();
  const model = approvalModel(extra);
  return { user, model, ...view(model) };
}

function response(model: FakeModel): ApprovalResponse {
  expect(model.set).toHaveBeenCalledTimes(1);
  expect(model.save_changes).toHaveBeenCalledTimes(1);
  expect(model.set.mock.calls[0]?.[0]).toBe("response");
  return model.set.mock.calls[0]?.[1] as unknown as ApprovalResponse;
}

describe("approval form", () => {
  it("shows the action and its details as text, with Approve, Edit and Reject", () => {
    const { root } = openApproval();
    expect(root.dataset.kind).toBe("approval");
    expect(root.dataset.status).toBe("pending");
    expect(getByRole(root, "group", { name: "Run shell command" })).toBeTruthy();
    expect(root.querySelector("pre.nbask-details")?.textContent).toBe(DETAILS);
    for (const name of ["Approve", "Edit", "Reject"]) expect(getByRole(root, "button", { name })).toBeTruthy();
    expect(getByRole(root, "textbox", { name: "Reason" })).toBeTruthy();
    expect(queryByRole(root, "textbox", { name: "Details" })).toBeNull();
  });

  it("puts first focus on Reject, never on Approve", () => {
    const { root } = openApproval();
    expect(document.activeElement).toBe(getByRole(root, "button", { name: "Reject" }));
  });

  it("approve sends no edit", async () => {
    const { user, root, model } = openApproval();
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(response(model)).toMatchObject({ action: "approve", edited_details: null, reason: "" });
    expect(root.dataset.sending).toBe("true");
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Reject" }).disabled).toBe(true);
  });

  it("Edit turns the details into a textbox; Approve then sends the edited text", async () => {
    const { user, root, model } = openApproval();
    await user.click(getByRole(root, "button", { name: "Edit" }));
    const box = getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Details" });
    expect(box.value).toBe(DETAILS);
    expect(document.activeElement).toBe(box);
    expect(queryByRole(root, "button", { name: "Edit" })).toBeNull();
    await user.clear(box);
    await user.type(box, "rm -rf build/tmp");
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(response(model)).toMatchObject({ action: "approve", edited_details: "rm -rf build/tmp" });
  });

  it("reject sends the trimmed reason", async () => {
    const { user, root, model } = openApproval();
    await user.type(getByRole(root, "textbox", { name: "Reason" }), "  not on prod  ");
    await user.click(getByRole(root, "button", { name: "Reject" }));
    expect(response(model)).toMatchObject({ action: "reject", reason: "not on prod", edited_details: null });
  });

  it("Escape dismisses, from anywhere in the form", async () => {
    const { user, root, model } = openApproval();
    getByRole(root, "textbox", { name: "Reason" }).focus();
    await user.keyboard("{Escape}");
    expect(response(model)).toMatchObject({ action: "dismiss", edited_details: null });
  });

  it("Enter outside a button approves nothing", async () => {
    const { user, root, model } = openApproval();
    (root.querySelector("pre.nbask-details") as HTMLElement).focus();
    await user.keyboard("{Enter}");
    expect(model.set).not.toHaveBeenCalled();
  });

  it("unlocks when the kernel refuses a response, keeping the edit", async () => {
    const { user, root, model } = openApproval();
    await user.click(getByRole(root, "button", { name: "Edit" }));
    await user.type(getByRole(root, "textbox", { name: "Details" }), " --dry-run");
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(root.dataset.sending).toBe("true");
    model.kernelUpdate({ response: {} });
    expect(root.dataset.sending).toBeUndefined();
    const box = getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Details" });
    expect(box.disabled).toBe(false);
    expect(box.value).toBe(`${DETAILS} --dry-run`);
  });

  it("caps the reason with a visible count", async () => {
    const { user, root } = openApproval();
    const reason = getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Reason" });
    expect(reason.maxLength).toBe(2000);
    reason.focus();
    await user.paste("x".repeat(2500));
    expect(reason.value).toHaveLength(2000);
    expect(root.textContent).toContain("2000 / 2000");
  });

  it("renders hostile model text literally", () => {
    const hostile = "<img src=x onerror=alert(1)><script>alert(2)</script>";
    const { root } = openApproval({ title: hostile, details: hostile });
    expect(root.querySelector("img, script")).toBeNull();
    expect(getByRole(root, "group", { name: hostile })).toBeTruthy();
    expect(root.querySelector("pre.nbask-details")?.textContent).toBe(hostile);
  });
});

describe("approval resolved block", () => {
  const cases = [
    ["answered", { decision: "approve", edited: null, reason: "" }, "Approved"],
    ["answered", { decision: "edit", edited: "ls build/", reason: "safer" }, "Approved with edits"],
    ["answered", { decision: "reject", edited: null, reason: "wrong table" }, "Rejected"],
    ["dismissed", { decision: "reject", edited: null, reason: "The person dismissed it." }, "Rejected · Dismissed"],
    ["timeout", { decision: "reject", edited: null, reason: "No answer within 5 seconds." }, "Rejected · Timed out"],
    ["cancelled", { decision: "reject", edited: null, reason: "Interrupted." }, "Rejected · Cancelled"],
  ] as const;

  it.each(cases)("status %s with %o reads %s, read-only", (status, result, text) => {
    const { root } = view(approvalModel({ status, result }));
    expect(root.dataset.status).toBe(status);
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe(text);
    expect(root.querySelectorAll("input, button, textarea")).toHaveLength(0);
    expect(root.textContent).toContain("Run shell command");
    if (result.reason) expect(root.textContent).toContain(result.reason);
    if (result.decision === "edit") expect(within(root).getByText("ls build/")).toBeTruthy();
  });

  it("the question kind still renders questions", () => {
    const { root } = view(new FakeModel({ kind: "question", status: "pending" }));
    expect(root.dataset.kind).toBe("question");
    expect(queryByRole(root, "button", { name: "Approve" })).toBeNull();
    expect(getByRole(root, "button", { name: "Submit" })).toBeTruthy();
  });
});
