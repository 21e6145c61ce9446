// The inbox page in jsdom, its server a stub of fetch: the empty state, a card drawn by the
// widget's own view from the state the server sends, an answer posted as the card writes it, and
// a refusal shown where the person reads it.
import { findByRole, findByText, getByRole } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INBOX_TEXT, start } from "./page";

const QUESTION_STATE = {
  _kind: "question",
  _request_id: "r1",
  _status: "pending",
  _deadline_ms: 0,
  _response: {},
  _result: {},
  _approvers: [],
  _verifies: true,
  _questions: [
    {
      question: "Which <b>database</b>?",
      header: "DB",
      multi_select: false,
      options: [
        { label: "SQLite", description: "" },
        { label: "Postgres", description: "" },
      ],
    },
  ],
};

function card(state: Record<string, unknown> = QUESTION_STATE): Record<string, unknown> {
  return { id: "a".repeat(32), short_id: "aaaaaaaa", kind: "question", headline: "Which <b>database</b>?", notebook: "etl.ipynb", asked_at: "2026-11-28T10:00:00+00:00", state };
}

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

let main: HTMLElement;
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  document.body.innerHTML = `<script id="jupyter-config-data" type="application/json">{"baseUrl": "/", "token": "", "nbaskInboxApi": "/nbask/inbox/api", "xsrfToken": "x1"}</script>
    <main class="nbask-inbox"><h1>Inbox</h1><p class="nbask-inbox-status" role="status"></p></main>`;
  main = document.querySelector<HTMLElement>("main") ?? document.body;
  vi.stubGlobal("fetch", fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function urlOf(input: RequestInfo | URL): string {
  return input instanceof Request ? input.url : input instanceof URL ? input.href : input;
}

function serve(items: unknown[], answer?: Response): void {
  fetchMock.mockImplementation((input) => {
    const url = urlOf(input);
    if (url.endsWith("/api/me")) return Promise.resolve(reply(200, { identity: { username: "alice" } }));
    if (url.endsWith("/items")) return Promise.resolve(reply(200, { user: { username: "alice" }, items }));
    return Promise.resolve(answer ?? reply(500, {}));
  });
}

describe("the inbox page", () => {
  it("says clearly when nothing waits", async () => {
    serve([]);
    start(main);
    expect(await findByText(main, INBOX_TEXT.empty)).toHaveProperty("tagName", "P");
    expect(getByRole<HTMLButtonElement>(main, "button", { name: "Refresh" }).disabled).toBe(false);
  });

  it("draws the card from the server's state, model text as text, and posts the answer with the XSRF token", async () => {
    const answered = { ...QUESTION_STATE, _status: "answered", _result: { answers: { "Which <b>database</b>?": "Postgres" }, answered_by_user: "alice", identity: "verified" } };
    serve([card()], reply(200, { item: card(answered) }));
    start(main);
    const region = await findByRole(main, "region", { name: "Which <b>database</b>?" });
    expect(region.querySelector("b")).toBeNull();
    await userEvent.click(getByRole(region, "radio", { name: /Postgres/ }));
    await userEvent.click(getByRole(region, "button", { name: "Submit" }));
    expect(await findByText(region, /by alice \(verified\)/)).toBeTruthy();
    const [url, init] = fetchMock.mock.calls.find(([input]) => urlOf(input).endsWith("/answer")) ?? [];
    expect(url === undefined ? "" : urlOf(url)).toBe(`/nbask/inbox/api/items/${"a".repeat(32)}/answer`);
    expect(new Headers(init?.headers).get("X-XSRFToken")).toBe("x1");
    expect(JSON.parse(typeof init?.body === "string" ? init.body : "null")).toMatchObject({
      action: "submit",
      answers: [{ selected: ["Postgres"], other: null }],
    });
  });

  it("shows who answered first when someone else did", async () => {
    const byBob = { ...QUESTION_STATE, _status: "answered", _result: { answers: { "Which <b>database</b>?": "SQLite" }, answered_by_user: "bob", identity: "verified" } };
    serve([card()], reply(409, { message: "Already answered by bob at 2026-11-28T10:01:00+00:00.", item: card(byBob) }));
    start(main);
    const region = await findByRole(main, "region", { name: "Which <b>database</b>?" });
    await userEvent.click(getByRole(region, "radio", { name: /Postgres/ }));
    await userEvent.click(getByRole(region, "button", { name: "Submit" }));
    expect((await findByRole(region, "alert")).textContent).toBe("Already answered by bob at 2026-11-28T10:01:00+00:00.");
    expect(await findByText(region, /by bob \(verified\)/)).toBeTruthy();
  });

  it("unlocks the card and says why when the server refuses the answer", async () => {
    serve([card()], reply(400, { message: "This answer does not fit the request: no option MySQL." }));
    start(main);
    const region = await findByRole(main, "region", { name: "Which <b>database</b>?" });
    await userEvent.click(getByRole(region, "radio", { name: /SQLite/ }));
    await userEvent.click(getByRole(region, "button", { name: "Submit" }));
    expect((await findByRole(region, "alert")).textContent).toContain("no option MySQL");
    expect(getByRole(region, "button", { name: "Submit" })).toHaveProperty("disabled", false);
  });
});
