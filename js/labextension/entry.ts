// nbask's JupyterLab / Notebook 7 extension: a command that opens the server's inbox page
// (src/nbask/server_extension/inbox_page.py) in a new tab, in the command palette and, in
// JupyterLab, on the launcher. It is a federated extension written by hand, with no build of
// JupyterLab's own: this script registers a container under window._JUPYTERLAB.nbask, which the
// application initialises with its shared modules and asks for "./extension"; the tokens the
// plugin takes (the launcher, the palette) come from those shared modules, so they are the very
// objects the application's own plugins provide. esbuild bundles this into
// src/nbask/labextension/static/remoteEntry.js (npm run build:lab); package.json beside it is what
// JupyterLab reads to find it.

interface SharedVersion {
  get: () => Promise<() => Record<string, unknown>>;
}
type ShareScope = Record<string, Record<string, SharedVersion> | undefined>;

interface Commands {
  addCommand: (id: string, options: { label: string; caption: string; execute: () => void }) => unknown;
}
interface Launcher {
  add: (item: { command: string; category: string; rank: number }) => unknown;
}
interface Palette {
  addItem: (item: { command: string; category: string }) => unknown;
}

export const COMMAND = "nbask:open-inbox";
export const LAB_TEXT = {
  label: "nbask inbox",
  caption: "Open the requests waiting for your answer in nbask's inbox page",
  category: "nbask",
} as const;

/** The server's inbox page, under the base URL this application was served from. */
export function inboxUrl(doc: Document = document): string {
  let base = "/";
  try {
    const data: unknown = JSON.parse(doc.getElementById("jupyter-config-data")?.textContent ?? "{}");
    if (typeof data === "object" && data !== null && typeof (data as { baseUrl?: unknown }).baseUrl === "string") {
      base = (data as { baseUrl: string }).baseUrl;
    }
  } catch {
    base = "/";
  }
  return new URL("nbask/inbox", new URL(base, doc.location.href)).href;
}

function newest(versions: Record<string, SharedVersion>): SharedVersion | undefined {
  const order = (v: string): number[] => v.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  const keys = Object.keys(versions).sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  });
  const last = keys[keys.length - 1];
  return last === undefined ? undefined : versions[last];
}

/** The token ``name`` of the shared package ``pkg``, or null where the application has none. */
async function sharedToken(scope: ShareScope, pkg: string, name: string): Promise<unknown> {
  const versions = scope[pkg];
  const found = versions === undefined ? undefined : newest(versions);
  if (found === undefined) return null;
  const module = (await found.get())();
  return module[name] ?? null;
}

/** The plugin, with the launcher's and the palette's tokens where the application shares them. */
export async function plugin(scope: ShareScope): Promise<Record<string, unknown>> {
  const tokens = {
    launcher: await sharedToken(scope, "@jupyterlab/launcher", "ILauncher"),
    palette: await sharedToken(scope, "@jupyterlab/apputils", "ICommandPalette"),
  };
  const optional = Object.entries(tokens).filter(([, token]) => token !== null);
  return {
    id: "nbask:inbox",
    description: "Opens nbask's inbox page from the launcher and the command palette.",
    autoStart: true,
    optional: optional.map(([, token]) => token),
    activate: (app: { commands: Commands }, ...given: unknown[]): void => {
      const provided = Object.fromEntries(optional.map(([role], i) => [role, given[i] ?? null]));
      app.commands.addCommand(COMMAND, {
        label: LAB_TEXT.label,
        caption: LAB_TEXT.caption,
        execute: () => void window.open(inboxUrl(), "_blank"),
      });
      (provided.launcher as Launcher | null)?.add({ command: COMMAND, category: "Other", rank: 50 });
      (provided.palette as Palette | null)?.addItem({ command: COMMAND, category: LAB_TEXT.category });
    },
  };
}

/** The container JupyterLab's loader initialises, then asks for "./extension". */
export function container(): { init: (scope: ShareScope) => void; get: (module: string) => Promise<() => unknown> } {
  let shared: ShareScope = {};
  return {
    init: (scope) => {
      shared = scope;
    },
    get: async (module) => {
      if (module !== "./extension") throw new Error(`nbask's extension has no module ${module}`);
      const made = await plugin(shared);
      return () => ({ __esModule: true, default: made });
    },
  };
}

const host = window as unknown as { _JUPYTERLAB?: Record<string, unknown> };
host._JUPYTERLAB ??= {};
host._JUPYTERLAB.nbask = container();
