// The approval form: approve, edit, reject with a reason, Escape, locking while sending, the
// resolved block for every decision and ending, hostile text, and the kind dispatch.
import { getByRole, queryByRole } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalResponse, Model } from "../../contract/contract";
import { CHECK_DELAY_MS } from "./view";
import { FakeModel, responseWrites, sent, unmountAll, view } from "../../testing/harness";

afterEach(unmountAll);

const DETAILS = "rm -rf build/\n  echo done";

function approvalModel(extra: Partial<Model> = {}): FakeModel {
  return new FakeModel({ _kind: "approval", _title: "Run shell command", _details: DETAILS, ...extra });
}

function openApproval(extra: Partial<Model> = {}) {
  const user = userEvent.setup();
  const model = approvalModel(extra);
  return { user, model, ...view(model) };
}

function response(model: FakeModel): ApprovalResponse {
  return sent(model) as unknown as ApprovalResponse;
}

describe("approval form", () => {
  it("shows the action and its details as text, with Approve, Edit and Reject", () => {
    const { root } = openApproval();
    expect(root.dataset.kind).toBe("approval");
    expect(root.dataset.status).toBe("pending");
    expect(getByRole(root, "group", { name: "Run shell command" }).textContent).toContain("Run shell command");
    expect(root.querySelector("pre.nbask-details")?.textContent).toBe(DETAILS);
    for (const name of ["Approve", "Edit", "Reject"]) expect(getByRole<HTMLButtonElement>(root, "button", { name }).disabled).toBe(false);
    expect(getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Reason" }).value).toBe("");
    expect(queryByRole(root, "textbox", { name: "Details" })).toBeNull();
  });

  it("offers no Edit when there are no details to edit", async () => {
    const { root, user, model } = openApproval({ _details: "" });
    expect(queryByRole(root, "button", { name: "Edit" })).toBeNull();
    for (const name of ["Approve", "Reject"]) getByRole(root, "button", { name });
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(response(model).action).toBe("approve");
  });

  it("offers no Edit when its caller takes only yes or no", () => {
    const { root } = openApproval({ _details: "to the blog", _edits: "off" });
    expect(queryByRole(root, "button", { name: "Edit" })).toBeNull();
    expect(root.querySelector("pre.nbask-details")?.textContent).toBe("to the blog");
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

  it("Escape dismisses an untouched approval at once, from anywhere in the form, never as Reject", async () => {
    const { user, root, model } = openApproval();
    getByRole(root, "textbox", { name: "Reason" }).focus();
    await user.keyboard("{Escape}");
    expect(response(model)).toMatchObject({ action: "dismiss", edited_details: null, reason: "" });
  });

  it("Escape with Reject focused dismisses; it does not reject", async () => {
    const { user, root, model } = openApproval();
    getByRole(root, "button", { name: "Reject" }).focus();
    await user.keyboard("{Escape}");
    expect(response(model).action).toBe("dismiss");
  });

  it("Edit pressed but nothing changed loses nothing; an edit asks, naming it", async () => {
    const { user, root, model } = openApproval();
    await user.click(getByRole(root, "button", { name: "Edit" }));
    const box = getByRole(root, "textbox", { name: "Details" });
    await user.type(box, " --dry-run");
    await user.keyboard("{Escape}");
    expect(root.querySelector(".nbask-discard .nbask-confirm-text")?.textContent).toBe(
      "Discard your changes? Your edit of the details will be lost, and the request will not be approved.",
    );
    await user.keyboard("{Enter}"); // Keep editing, focused
    expect(document.activeElement).toBe(box);
    await user.click(getByRole(root, "button", { name: "Restore original" }));
    await user.keyboard("{Escape}");
    expect(response(model)).toMatchObject({ action: "dismiss", edited_details: null });
  });

  it("Enter outside a button approves nothing", async () => {
    const { user, root, model } = openApproval();
    (root.querySelector("pre.nbask-details") as HTMLElement).focus();
    await user.keyboard("{Enter}");
    expect(responseWrites(model)).toEqual([]);
  });

  it("unlocks when the kernel refuses a response, keeping the edit", async () => {
    const { user, root, model } = openApproval();
    await user.click(getByRole(root, "button", { name: "Edit" }));
    await user.type(getByRole(root, "textbox", { name: "Details" }), " --dry-run");
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(root.dataset.sending).toBe("true");
    model.kernelUpdate({ _response: {} });
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
    const { root } = openApproval({ _title: hostile, _details: hostile });
    expect(root.querySelector("img, script")).toBeNull();
    expect(getByRole(root, "group", { name: hostile }).textContent).toContain(hostile);
    expect(root.querySelector("pre.nbask-details")?.textContent).toBe(hostile);
  });
});

describe("approval resolved block", () => {
  const cases = [
    ["answered", { decision: "approve", edited: null, reason: "" }, "Approved"],
    ["answered", { decision: "edit", edited: "ls build/", reason: "safer" }, "Approved with edits"],
    ["answered", { decision: "reject", edited: null, reason: "wrong table" }, "Rejected"],
    ["dismissed", { decision: "reject", edited: null, reason: "The person dismissed it." }, "Dismissed"],
    ["timeout", { decision: "reject", edited: null, reason: "No answer within 5 seconds." }, "Rejected · Timed out"],
    ["cancelled", { decision: "reject", edited: null, reason: "Interrupted." }, "Rejected · Cancelled"],
  ] as const;

  it.each(cases)("status %s with %o reads %s, read-only", (status, result, text) => {
    const { root } = view(approvalModel({ _status: status, _result: result }));
    expect(root.dataset.status).toBe(status);
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe(text);
    const controls = [...root.querySelectorAll("input, button, textarea")];
    expect(controls.map((c) => c.textContent)).toEqual(status === "timeout" ? ["Answer anyway"] : []);
    expect(root.textContent).toContain("Run shell command");
    if (result.reason) expect(root.textContent).toContain(result.reason);
    if (result.decision === "edit") expect(root.querySelector("ins.nbask-diff-line")?.textContent).toContain("ls build/");
  });

  it("an edit the caller sends back to the model says so, not that it was approved", () => {
    const result = { decision: "edit", edited: "ls build/", reason: "" };
    const { root } = view(approvalModel({ _status: "answered", _result: result, _edits: "sent_back" }));
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Edited, sent back to the model");
    expect(root.textContent).toContain("the call as asked did not run");
    expect(root.textContent).not.toContain("You approved");
  });

  it("the question kind still renders questions", () => {
    const { root } = view(new FakeModel({ _kind: "question", _status: "pending" }));
    expect(root.dataset.kind).toBe("question");
    expect(queryByRole(root, "button", { name: "Approve" })).toBeNull();
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Submit" }).disabled).toBe(false);
  });
});

describe("edited arguments", () => {
  const SCHEMA = {
    type: "object",
    additionalProperties: false,
    properties: { name: { type: "string" }, replicas: { type: "integer" } },
    required: ["name", "replicas"],
  };
  const ARGS = JSON.stringify({ name: "web", replicas: 2 }, null, 2);
  const pause = () => new Promise((resolve) => setTimeout(resolve, CHECK_DELAY_MS + 50));

  async function editTo(text: string, extra: Partial<Model> = { _details: ARGS, _details_schema: SCHEMA }) {
    const opened = openApproval(extra);
    await opened.user.click(getByRole(opened.root, "button", { name: "Edit" }));
    const box = getByRole<HTMLTextAreaElement>(opened.root, "textbox", { name: "Details" });
    await opened.user.clear(box);
    await opened.user.click(box);
    await opened.user.paste(text);
    return { ...opened, box };
  }

  function check(root: HTMLElement): HTMLElement {
    const node = root.querySelector<HTMLElement>(".nbask-details-error");
    if (!node) throw new Error("no check element");
    return node;
  }

  it("shows a wrong type next to Details once typing pauses, and Approve sends nothing", async () => {
    const { user, root, model, box } = await editTo('{"name": "web", "replicas": "three"}');
    await pause();
    expect(check(root).hidden).toBe(false);
    expect(check(root).textContent).toBe('Argument "replicas" must be an integer, not a string');
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(box.getAttribute("aria-describedby")?.split(" ")).toContain(check(root).id);
    expect(getByRole(root, "textbox", { name: "Details", description: /must be an integer/ })).toBe(box);
    getByRole(root, "textbox", { name: "Reason" }).focus();
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(responseWrites(model)).toEqual([]);
    expect(document.activeElement).toBe(box);
    expect(root.dataset.sending).toBeUndefined();
  });

  it("a fixed edit clears the check at once and Approve sends it", async () => {
    const { user, root, model, box } = await editTo('{"name": "web", "replicas": "three"}');
    await pause();
    await user.clear(box);
    await user.paste('{"name": "web", "replicas": 3}');
    expect(check(root).hidden).toBe(true);
    expect(box.hasAttribute("aria-invalid")).toBe(false);
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(response(model)).toMatchObject({ action: "approve", edited_details: '{"name": "web", "replicas": 3}' });
  });

  it("Approve right after typing checks at once, without waiting for the pause", async () => {
    const { user, root, model } = await editTo('{"name": "web"}');
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(responseWrites(model)).toEqual([]);
    expect(check(root).textContent).toBe('Missing required argument "replicas"');
  });

  it.each([
    ["not JSON", "name=web", /^The arguments are not valid JSON \(/],
    ["not an object", "[1]", /^The arguments must be a JSON object of argument names and values, not a list$/],
    ["unknown", '{"name": "w", "replicas": 1, "zone": "a"}', /^Unknown argument "zone" \(the arguments are: name, replicas\)$/],
    ["several", '{"replicas": true}', /^Missing required argument "name"\nArgument "replicas" must be an integer/],
  ])("names the problem: %s", async (_, text, expected) => {
    const { user, root, model } = await editTo(text);
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(responseWrites(model)).toEqual([]);
    expect(check(root).textContent).toMatch(expected);
  });

  it("checks enums", async () => {
    const schema = { ...SCHEMA, properties: { ...SCHEMA.properties, mode: { type: "string", enum: ["a", "b"] } } };
    const { user, root } = await editTo('{"name": "w", "replicas": 1, "mode": "c"}', { _details: ARGS, _details_schema: schema });
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(check(root).textContent).toBe('Argument "mode" must be one of "a", "b"');
  });

  it("without a schema, JSON details must stay JSON", async () => {
    const { user, root, model } = await editTo('{"name": ', { _details: ARGS });
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(responseWrites(model)).toEqual([]);
    expect(check(root).textContent).toMatch(/^The arguments are not valid JSON/);
  });

  it("without a schema, any JSON and any edit of text details goes", async () => {
    const json = await editTo("[1, 2]", { _details: ARGS });
    await json.user.click(getByRole(json.root, "button", { name: "Approve" }));
    expect(response(json.model)).toMatchObject({ edited_details: "[1, 2]" });
    unmountAll();
    const text = await editTo("not json at all", { _details: "rm -rf build/" });
    await text.user.click(getByRole(text.root, "button", { name: "Approve" }));
    expect(response(text.model)).toMatchObject({ edited_details: "not json at all" });
  });

  it("unchanged details, Reject and Escape are never held back", async () => {
    const { user, root, model } = openApproval({ _details: "not json", _details_schema: SCHEMA });
    await user.click(getByRole(root, "button", { name: "Edit" }));
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(response(model)).toMatchObject({ action: "approve", edited_details: "not json" });
    unmountAll();
    const bad = await editTo("{");
    await bad.user.click(getByRole(bad.root, "button", { name: "Reject" }));
    expect(response(bad.model)).toMatchObject({ action: "reject", edited_details: null });
  });

  it("shows the kernel's refusal in an alert until the person edits again", async () => {
    const { user, root, model, box } = await editTo('{"name": "web", "replicas": 3}');
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(root.dataset.sending).toBe("true");
    const refusal = 'The edit was not accepted: argument "replicas" must be at most 10.';
    model.kernelUpdate({ _error: refusal, _response: {} });
    const alert = getByRole(root, "alert");
    expect(alert.textContent).toBe(refusal);
    expect(alert.hidden).toBe(false);
    expect(box.disabled).toBe(false);
    await user.type(box, " ");
    expect(alert.hidden).toBe(true);
  });
});
