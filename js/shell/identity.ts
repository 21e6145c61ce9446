// Who is answering: the username the Jupyter server knows this page by (GET api/me), read once
// per page. JupyterLab and Notebook 7 leave the username of kernel messages empty, so the
// kernel could not tell people apart in a shared notebook; the response carries this instead.
// Hosts without a Jupyter server page (VS Code) have no jupyter-config-data: no username.
import { isObject } from "../parts/dom";

let username: string | null = null;
let asked = false;
/** Told once the identity has been read (the views that wait to know who may answer). */
const told = new Set<() => void>();

interface PageConfig {
  baseUrl: string;
  token: string;
}

function pageConfig(): PageConfig | null {
  const node = document.getElementById("jupyter-config-data");
  if (node === null) return null;
  try {
    const data: unknown = JSON.parse(node.textContent || "{}");
    if (!isObject(data)) return null;
    return {
      baseUrl: typeof data.baseUrl === "string" ? data.baseUrl : "/",
      token: typeof data.token === "string" ? data.token : "",
    };
  } catch {
    return null;
  }
}

// A server that logs people in by one shared token makes up an identity per browser: a random
// hex username and a display name such as "Anonymous Io", which is what JupyterLab shows for
// that person (collaborators' cursors, the user menu). The display name is the one to record.
const MADE_UP_USERNAME = /^[0-9a-f]{32}$/;

function personName(identity: Record<string, unknown>): string | null {
  const text = (value: unknown): string | null =>
    typeof value === "string" && value.trim() !== "" ? value.trim() : null;
  const username = text(identity.username);
  const displayName = text(identity.display_name) ?? text(identity.name);
  if (username !== null && MADE_UP_USERNAME.test(username) && displayName?.startsWith("Anonymous ")) {
    return displayName;
  }
  return username;
}

/** Reads the identity from the page's Jupyter server; null when there is none to read. */
export async function readServerUsername(): Promise<string | null> {
  const config = pageConfig();
  if (config === null) return null;
  const url = new URL("api/me", new URL(config.baseUrl, window.location.href));
  const headers: Record<string, string> = config.token === "" ? {} : { Authorization: `token ${config.token}` };
  try {
    const response = await fetch(url, { credentials: "same-origin", headers });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    const identity = isObject(body) && isObject(body.identity) ? body.identity : {};
    return personName(identity);
  } catch {
    return null;
  }
}

/** Starts reading the identity once per page (every view calls it; only the first asks);
 *  `onKnown` runs once it has been read. */
export function learnUsername(onKnown?: () => void): void {
  if (onKnown !== undefined) told.add(onKnown);
  if (asked) return;
  asked = true;
  void readServerUsername().then((name) => {
    username = name;
    for (const callback of told) callback();
    told.clear();
  });
}

/** The username read so far, or null (not known, or not read yet). */
export function knownUsername(): string | null {
  return username;
}

/** For tests: forget what was read. */
export function resetUsername(): void {
  username = null;
  asked = false;
  told.clear();
}
