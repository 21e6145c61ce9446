// The inbox page's server: its JSON API (src/nbask/server_extension/inbox_page.py), reached with
// the page's login cookie and the server's XSRF token, both written into the page by the server
// (jupyter-config-data). Every reply is read defensively: what the server sends is data.
import { isObject } from "../parts/dom";

/** One waiting request as the server lists it: where and when it was asked, and the card's state. */
export interface InboxCard {
  id: string;
  short_id: string;
  kind: string;
  headline: string;
  notebook: string | null;
  asked_at: string;
  state: Record<string, unknown>;
}

export interface Listing {
  user: string;
  items: InboxCard[];
}

/** What the server made of an answer: the card as it now reads, and what to tell the person. */
export interface AnswerReply {
  ok: boolean;
  /** The server left the request waiting (a dismissal). */
  leftWaiting: boolean;
  message: string;
  item: InboxCard | null;
}

interface PageConfig {
  api: string;
  xsrf: string;
}

function pageConfig(): PageConfig {
  const node = document.getElementById("jupyter-config-data");
  let data: unknown = {};
  try {
    data = JSON.parse(node?.textContent ?? "{}");
  } catch {
    data = {};
  }
  const config = isObject(data) ? data : {};
  return {
    api: typeof config.nbaskInboxApi === "string" ? config.nbaskInboxApi : "api",
    xsrf: typeof config.xsrfToken === "string" ? config.xsrfToken : "",
  };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function cardOf(value: unknown): InboxCard | null {
  if (!isObject(value) || !isObject(value.state) || typeof value.id !== "string") return null;
  return {
    id: value.id,
    short_id: text(value.short_id) || value.id.slice(0, 8),
    kind: text(value.kind),
    headline: text(value.headline),
    notebook: typeof value.notebook === "string" ? value.notebook : null,
    asked_at: text(value.asked_at),
    state: value.state,
  };
}

async function bodyOf(response: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await response.json();
    return isObject(body) ? body : {};
  } catch {
    return {};
  }
}

/** The requests waiting for this page's person; throws with the server's reason. */
export async function listItems(): Promise<Listing> {
  const config = pageConfig();
  const response = await fetch(`${config.api}/items`, { credentials: "same-origin", cache: "no-store" });
  const body = await bodyOf(response);
  if (!response.ok) throw new Error(text(body.message) || `the server answered ${response.status} ${response.statusText}`);
  const items = Array.isArray(body.items) ? body.items.map(cardOf).filter((card) => card !== null) : [];
  const username = isObject(body.user) ? text(body.user.username) : "";
  const shown = isObject(body.user) ? text(body.user.display_name).trim() : "";
  // The name the server shows this person by, and the username answers are recorded under.
  const user = shown === "" || shown === username ? username : `${shown} (${username})`;
  return { user, items };
}

/** Sends a card's response (as a widget writes it) as this page's person. */
export async function sendAnswer(id: string, response: Record<string, unknown>): Promise<AnswerReply> {
  const config = pageConfig();
  let reply: Response;
  try {
    reply = await fetch(`${config.api}/items/${encodeURIComponent(id)}/answer`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-XSRFToken": config.xsrf },
      body: JSON.stringify(response),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, leftWaiting: false, message: `The answer could not reach the server (${why}). Try again.`, item: null };
  }
  const body = await bodyOf(reply);
  const message = text(body.message) || (reply.ok ? "" : `The server refused the answer (${reply.status} ${reply.statusText}).`);
  return { ok: reply.ok, leftWaiting: body.left_waiting === true, message, item: cardOf(body.item) };
}
