// Who is answering: the username the Jupyter server knows this page by (GET api/me), read once
// per page. JupyterLab and Notebook 7 leave the username of kernel messages empty, so the
// kernel could not tell people apart in a shared notebook; the response carries this instead.
// Hosts without a Jupyter server page (VS Code) have no jupyter-config-data: no username.
import { isObject } from "./dom";

let username: string | null = null;
let asked = false;

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
    const name = identity.username;
    return typeof name === "string" && name.trim() !== "" ? name.trim() : null;
  } catch {
    return null;
  }
}

/** Starts reading the identity once per page (every view calls it; only the first asks). */
export function learnUsername(): void {
  if (asked) return;
  asked = true;
  void readServerUsername().then((name) => {
    username = name;
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
}
