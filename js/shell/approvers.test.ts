// Who may answer here: a request with approvers is read-only in every page but theirs, and in a
// page whose server cannot vouch for its person; the status line says how who answered is known.
import { getByRole } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { APPROVERS_TEXT, answeredByText, notAnswerableHere } from "./approvers";
import { knownUsername, learnUsername, resetUsername } from "./identity";
import { DB, FakeModel, pendingModel, unmountAll, view } from "../testing/harness";

afterEach(() => {
  unmountAll();
  resetUsername();
  document.getElementById("jupyter-config-data")?.remove();
  vi.unstubAllGlobals();
});

/** This page's person, as its Jupyter server names them (GET api/me). */
async function signedInAs(username: string): Promise<void> {
  const config = document.createElement("script");
  config.id = "jupyter-config-data";
  config.type = "application/json";
  config.textContent = JSON.stringify({ baseUrl: "/", token: "" });
  document.body.append(config);
  vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response(JSON.stringify({ identity: { username } })))));
  learnUsername();
  await vi.waitFor(() => expect(knownUsername()).toBe(username));
}

function approval(extra: Record<string, unknown> = {}): FakeModel {
  return new FakeModel({ _kind: "approval", _request_id: "r1", _title: "Drop table", _details: "events", ...extra });
}

describe("who may answer here", () => {
  it("reads 'Waiting for alice or bob' in anyone else's page, its buttons disabled", async () => {
    await signedInAs("carol");
    const { root } = view(approval({ _approvers: ["alice", "bob"], _verifies: true }));
    expect(getByRole(root, "status").textContent).toBe("Waiting for alice or bob. Only alice or bob can answer this request.");
    for (const name of ["Approve", "Edit", "Reject"]) expect(getByRole(root, "button", { name })).toHaveProperty("disabled", true);
  });

  it("lets an approver answer in their own page", async () => {
    await signedInAs("bob");
    const model = approval({ _approvers: ["alice", "bob"], _verifies: true });
    const { root } = view(model);
    expect(root.querySelector(".nbask-approvers")).toBeNull();
    await userEvent.setup().click(getByRole(root, "button", { name: "Approve" }));
    expect(model.set).toHaveBeenCalledWith("_response", expect.objectContaining({ action: "approve", user: "bob" }));
  });

  it("becomes answerable once the page has learned that its person is an approver", async () => {
    let answer: (response: Response) => void = () => undefined;
    const reply = new Promise<Response>((resolve) => (answer = resolve));
    await signedInAs("dana"); // the config and a fetch stub; then a page that has not asked yet
    resetUsername();
    vi.stubGlobal("fetch", vi.fn(() => reply));
    const { root } = view(approval({ _approvers: ["alice"], _verifies: true }));
    expect(getByRole(root, "button", { name: "Approve" })).toHaveProperty("disabled", true);
    answer(new Response(JSON.stringify({ identity: { username: "alice" } })));
    await vi.waitFor(() => expect(getByRole(root, "button", { name: "Approve" })).toHaveProperty("disabled", false));
    expect(root.querySelector(".nbask-approvers")).toBeNull();
  });

  it("says it cannot verify who you are where the server does not vouch for the page", async () => {
    await signedInAs("alice");
    const { root } = view(approval({ _approvers: ["alice"], _verifies: false }));
    expect(getByRole(root, "status").textContent).toContain(APPROVERS_TEXT.cannotVerify);
    expect(getByRole(root, "button", { name: "Approve" })).toHaveProperty("disabled", true);
  });

  it("leaves a request without approvers to anyone", () => {
    expect(notAnswerableHere(pendingModel([DB]), null)).toBeNull();
    expect(notAnswerableHere(pendingModel([DB], { _approvers: [] }), "dana")).toBeNull();
  });
});

describe("how who answered is known", () => {
  it("marks the name on the status line verified or reported", () => {
    const model = approval();
    model.kernelUpdate({ _status: "answered", _result: { decision: "approve", answered_by_user: "alice", identity: "verified" } });
    expect(answeredByText(model)).toBe(" by alice (verified)");
    const { root } = view(model);
    expect(root.querySelector(".nbask-status-line")?.textContent).toContain("by alice (verified)");
    model.kernelUpdate({ _result: { decision: "approve", answered_by_user: "alice", identity: "reported" } });
    expect(root.querySelector(".nbask-status-line")?.textContent).toContain("by alice (reported)");
    model.kernelUpdate({ _result: { decision: "approve", answered_by_user: "alice" } });
    expect(answeredByText(model)).toBe(" by alice");
  });
});
