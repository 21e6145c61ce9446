// The hand-written federated container: JupyterLab initialises it with its shared modules, asks
// for "./extension", and gets a plugin whose optional tokens are the shared ones; the command it
// adds opens the inbox page under the application's base URL.
import { afterEach, describe, expect, it, vi } from "vitest";
import { COMMAND, LAB_TEXT, container, inboxUrl } from "./entry";

const LAUNCHER = { name: "ILauncher token" };
const PALETTE = { name: "ICommandPalette token" };

function shared(module: Record<string, unknown>): Record<string, { get: () => Promise<() => Record<string, unknown>> }> {
  return { "4.6.6": { get: () => Promise.resolve(() => module) }, "4.0.0": { get: () => Promise.reject(new Error("old")) } };
}

afterEach(() => {
  document.body.innerHTML = "";
  vi.restoreAllMocks();
});

describe("nbask's JupyterLab extension", () => {
  it("registers itself where JupyterLab's loader looks", () => {
    const host = window as unknown as { _JUPYTERLAB?: Record<string, unknown> };
    expect(host._JUPYTERLAB?.nbask).toBeDefined();
  });

  it("takes the application's launcher and palette and adds a command that opens the inbox page", async () => {
    document.body.innerHTML = `<script id="jupyter-config-data" type="application/json">{"baseUrl": "/user/alice/"}</script>`;
    const made = container();
    made.init({ "@jupyterlab/launcher": shared({ ILauncher: LAUNCHER }), "@jupyterlab/apputils": shared({ ICommandPalette: PALETTE }) });
    const module = (await made.get("./extension"))() as { default: { optional: unknown[]; activate: (...args: unknown[]) => void } };
    expect(module.default.optional).toEqual([LAUNCHER, PALETTE]);
    const commands = new Map<string, { label: string; execute: () => void }>();
    const launcher = { add: vi.fn() };
    const palette = { addItem: vi.fn() };
    module.default.activate({ commands: { addCommand: (id: string, options: { label: string; execute: () => void }) => commands.set(id, options) } }, launcher, palette);
    expect(commands.get(COMMAND)?.label).toBe(LAB_TEXT.label);
    expect(launcher.add).toHaveBeenCalledWith(expect.objectContaining({ command: COMMAND }));
    expect(palette.addItem).toHaveBeenCalledWith(expect.objectContaining({ command: COMMAND }));
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    commands.get(COMMAND)?.execute();
    expect(open).toHaveBeenCalledWith(`${window.location.origin}/user/alice/nbask/inbox`, "_blank");
  });

  it("goes without the launcher where the application has none (Notebook 7's tree has a palette only)", async () => {
    const made = container();
    made.init({ "@jupyterlab/apputils": shared({ ICommandPalette: PALETTE }) });
    const module = (await made.get("./extension"))() as { default: { optional: unknown[] } };
    expect(module.default.optional).toEqual([PALETTE]);
    expect(inboxUrl()).toBe(`${window.location.origin}/nbask/inbox`);
  });
});
