// Late answers and who answered: "Answer anyway" on a timed-out request reopens its form in the
// same view; Dismiss puts it away again; the kernel's late result shows "Answered late"; the
// username the kernel recorded is shown as text; the server identity rides in the response.
import { getByRole, queryByRole } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LATE_TEXT } from "../contract/contract";
import { knownUsername, learnUsername, readServerUsername, resetUsername } from "./identity";
import { DB, FakeModel, pendingModel, sent, timedOut, unmountAll, view } from "../testing/harness";

afterEach(() => {
  unmountAll();
  resetUsername();
  document.getElementById("jupyter-config-data")?.remove();
  vi.unstubAllGlobals();
});

/** The page's Jupyter server settings, as JupyterLab and Notebook 7 put them in the page. */
function jupyterConfig(text: string): void {
  const config = document.createElement("script");
  config.id = "jupyter-config-data";
  config.type = "application/json";
  config.textContent = text;
  document.body.append(config);
}

describe("Answer anyway", () => {
  it("is offered on a timed-out question and reopens the form with its normal controls", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const { root } = view(model);
    timedOut(model);
    expect(root.dataset.status).toBe("timeout");
    expect(queryByRole(root, "button", { name: "Submit" })).toBeNull();
    await user.click(getByRole(root, "button", { name: LATE_TEXT.answer_anyway }));
    expect(root.dataset.late).toBe("answering");
    expect(root.querySelector(".nbask-title")?.textContent).toBe(LATE_TEXT.answering_late);
    expect(document.activeElement).toBe(getByRole(root, "radio", { name: "PostgreSQL (Recommended)" }));
    expect(root.querySelector(".nbask-timer")?.hasAttribute("hidden")).toBe(true);
    await user.click(getByRole(root, "radio", { name: "SQLite" }));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(sent(model)).toMatchObject({ action: "submit", answers: [{ selected: ["SQLite"], other: null }] });
    expect(getByRole(root, "button", { name: "Submit" })).toHaveProperty("disabled", true);
  });

  it("shows the kernel's late answer as answered late, in every view, without the button", () => {
    const model = pendingModel([DB]);
    const first = view(model).root;
    const second = view(model).root;
    timedOut(model);
    model.kernelUpdate({
      _response: {},
      _result: { answers: { [DB.question]: "SQLite" }, note: "Answered after the time limit.", late: true },
    });
    for (const root of [first, second]) {
      expect(root.dataset.status).toBe("timeout");
      expect(root.dataset.late).toBe("answered");
      expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Answered late");
      expect(root.querySelector(".nbask-resolved-answer")?.textContent).toBe("SQLite");
      expect(queryByRole(root, "button", { name: LATE_TEXT.answer_anyway })).toBeNull();
    }
  });

  it("puts the form away again on Dismiss or Escape without sending anything", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const { root } = view(model);
    timedOut(model);
    await user.click(getByRole(root, "button", { name: LATE_TEXT.answer_anyway }));
    await user.click(getByRole(root, "button", { name: "Dismiss" }));
    expect(model.set).not.toHaveBeenCalled();
    expect(root.hasAttribute("data-late")).toBe(false);
    expect(document.activeElement).toBe(getByRole(root, "button", { name: LATE_TEXT.answer_anyway }));
    await user.click(getByRole(root, "button", { name: LATE_TEXT.answer_anyway }));
    await user.keyboard("{Escape}{Escape}");
    expect(model.set).not.toHaveBeenCalled();
    getByRole(root, "button", { name: LATE_TEXT.answer_anyway });
  });

  it("keeps the form open when the kernel refuses the late reply", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const { root } = view(model);
    timedOut(model);
    await user.click(getByRole(root, "button", { name: LATE_TEXT.answer_anyway }));
    await user.click(getByRole(root, "radio", { name: "SQLite" }));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    model.kernelUpdate({ _response: {} });
    expect(getByRole(root, "button", { name: "Submit" })).toHaveProperty("disabled", false);
  });

  it("is offered on a timed-out approval, whose late decision reads 'Approved late'", async () => {
    const user = userEvent.setup();
    const model = new FakeModel({ _kind: "approval", _title: "Drop table", _details: "users" });
    const { root } = view(model);
    model.kernelUpdate({ _status: "timeout", _result: { decision: "reject", reason: "No answer.", edited: null } });
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Rejected · Timed out");
    await user.click(getByRole(root, "button", { name: LATE_TEXT.answer_anyway }));
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(model.lastResponse()).toMatchObject({ action: "approve" });
    model.kernelUpdate({ _response: {}, _result: { decision: "approve", reason: "", edited: null, late: true } });
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Approved late");
  });

  it("lists a timed-out question's questions without a description list of terms alone", () => {
    const model = pendingModel([DB]);
    const { root } = view(model);
    timedOut(model);
    expect(root.querySelector("dl")).toBeNull();
    expect(root.querySelector(".nbask-resolved-question")?.textContent).toContain(DB.question);
  });

  it("is not offered for a cancelled request nor for a page to open", () => {
    const cancelled = pendingModel([DB]);
    const one = view(cancelled).root;
    cancelled.kernelUpdate({ _status: "cancelled", _result: { answers: {}, note: "Interrupted." } });
    expect(queryByRole(one, "button", { name: LATE_TEXT.answer_anyway })).toBeNull();
    const page = new FakeModel({ _kind: "form", _message: "Log in", _url: "https://example.com/login" });
    const two = view(page).root;
    page.kernelUpdate({ _status: "timeout", _result: { values: {}, note: "No answer." } });
    expect(queryByRole(two, "button", { name: LATE_TEXT.answer_anyway })).toBeNull();
  });
});

describe("who answered", () => {
  it("names the person in the status line, as text", () => {
    const model = new FakeModel({ _kind: "approval", _title: "Drop table" });
    const { root } = view(model);
    const name = '<img src=x onerror="alert(1)">';
    model.kernelUpdate({
      _status: "answered",
      _result: { decision: "approve", reason: "", edited: null, answered_by_user: name },
    });
    const line = root.querySelector(".nbask-status-line");
    expect(line?.textContent).toBe(`Approved by ${name}`);
    expect(line?.querySelector("img")).toBeNull();
  });

  it("says answered late by whom, and nothing about who when the kernel knows no one", () => {
    const model = pendingModel([DB]);
    const { root } = view(model);
    model.kernelUpdate({ _status: "answered", _result: { answers: { [DB.question]: "SQLite" }, note: "" } });
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Answered");
    model.kernelUpdate({
      _status: "timeout",
      _result: { answers: { [DB.question]: "SQLite" }, late: true, answered_by_user: "alice" },
    });
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Answered late by alice");
    // the kernel's own account, recorded for a token login: not named while it is the only one
    model.kernelUpdate({ _result: { answers: {}, late: true, answered_by_user: "dana", answered_by_account: true } });
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Answered late");
  });

  it("reads the username from the page's Jupyter server and sends it with the response", async () => {
    jupyterConfig(JSON.stringify({ baseUrl: "/user/x/", token: "abc" }));
    const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ identity: { username: "alice" } }))));
    vi.stubGlobal("fetch", fetchMock);
    learnUsername();
    learnUsername(); // once per page
    await vi.waitFor(() => expect(knownUsername()).toBe("alice"));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.pathname).toBe("/user/x/api/me");
    expect(init.headers).toEqual({ Authorization: "token abc" });
    const user = userEvent.setup();
    const model = pendingModel([DB]);
    const { root } = view(model);
    await user.click(getByRole(root, "radio", { name: "SQLite" }));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(sent(model)).toMatchObject({ user: "alice" });
  });

  it("sends the username with Approve all too, so bulk decisions name who made them", async () => {
    jupyterConfig(JSON.stringify({ baseUrl: "/", token: "" }));
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response(JSON.stringify({ identity: { username: "alice" } })))));
    learnUsername();
    await vi.waitFor(() => expect(knownUsername()).toBe("alice"));
    const user = userEvent.setup();
    const batch = { id: "b1", lead: true, waiting: 2, approvals: ["r1", "r2"] };
    const model = new FakeModel({ _kind: "approval", _request_id: "r1", _title: "Drop t0", _details: "x", _batch: batch });
    const { root } = view(model);
    await user.click(getByRole(root, "button", { name: "Approve all (2)" }));
    await user.click(getByRole(root, "button", { name: "Approve 2" }));
    expect(model.send).toHaveBeenCalledWith({ batch: "approve_all", batch_id: "b1", request_ids: ["r1", "r2"], user: "alice" });
  });

  it("records a token-login server's made-up identity by the name JupyterLab shows, not its hex id", async () => {
    jupyterConfig(JSON.stringify({ baseUrl: "/", token: "" }));
    const identity = (username: string) => ({
      identity: { username, name: "Anonymous Io", display_name: "Anonymous Io" },
    });
    const answer = (body: object) => vi.fn(() => Promise.resolve(new Response(JSON.stringify(body))));
    vi.stubGlobal("fetch", answer(identity("0123456789abcdef0123456789abcdef")));
    expect(await readServerUsername()).toBe("Anonymous Io");
    // A real username that happens to look like hex, or a person whose name starts "Anonymous", stays.
    vi.stubGlobal("fetch", answer(identity("alice")));
    expect(await readServerUsername()).toBe("alice");
    vi.stubGlobal("fetch", answer({ identity: { username: "0123456789abcdef0123456789abcdef", name: "Dana" } }));
    expect(await readServerUsername()).toBe("0123456789abcdef0123456789abcdef");
  });

  it("has no username where the page has no Jupyter server (VS Code) or the server says nothing", async () => {
    expect(await readServerUsername()).toBeNull();
    jupyterConfig("{}");
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response("nope", { status: 403 }))));
    expect(await readServerUsername()).toBeNull();
    const model = pendingModel([DB]);
    const { root } = view(model);
    const user = userEvent.setup();
    await user.click(getByRole(root, "radio", { name: "SQLite" }));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(sent(model)).not.toHaveProperty("user");
  });
});
