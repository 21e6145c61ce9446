// Accessibility: axe-core on every state of the widget, and WCAG contrast of the colour palette.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import axe from "axe-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DB, FakeModel, FEATURES, pendingModel, unmountAll, view } from "./testing/harness";

const here = dirname(fileURLToPath(import.meta.url));
// jsdom does no layout or colour computation, so axe cannot measure contrast here; the palette
// test below checks the colours instead.
const AXE_OPTIONS = { rules: { "color-contrast": { enabled: false } } };
// axe refuses to start while a run is going ("Axe is already running"), and a run outlives a
// test that failed: each test waits for the last run to end before the next one starts.
let running: Promise<unknown> | null = null;
afterEach(async () => {
  await running?.catch(() => undefined);
  running = null;
  unmountAll();
});

/** Serious and critical axe violations on the whole document, as "rule: target" lines. */
async function seriousViolations(): Promise<string[]> {
  const run = axe.run(document.body, AXE_OPTIONS);
  running = run;
  const results = await run;
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

describe("axe", () => {
  // axe's first pass (and jsdom's first style computation) costs more than every later one:
  // paid once here, not inside the first test's time.
  beforeAll(async () => {
    view(pendingModel([DB]));
    await axe.run(document.body, AXE_OPTIONS);
    unmountAll();
  });

  it("finds nothing serious in two views of a pending widget", async () => {
    const model = pendingModel([DB, FEATURES], { _deadline_ms: Date.now() + 600_000 });
    view(model);
    view(model);
    expect(await seriousViolations()).toEqual([]);
  });

  it("finds nothing serious with the confirm row open", async () => {
    const { root } = view(pendingModel([DB, FEATURES]));
    [...root.querySelectorAll("button")].find((b) => b.textContent === "Submit")?.click();
    expect(root.querySelector<HTMLElement>(".nbask-confirm")?.hidden).toBe(false);
    expect(await seriousViolations()).toEqual([]);
  });

  it("finds nothing serious while Escape asks before it discards a draft", async () => {
    const { root } = view(pendingModel([DB, FEATURES]));
    root.querySelector<HTMLInputElement>("input[type=radio]")?.click();
    root.querySelector("input")?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(root.querySelector<HTMLElement>(".nbask-discard")?.hidden).toBe(false);
    expect(await seriousViolations()).toEqual([]);
  });

  it("finds nothing serious while sending", async () => {
    view(new FakeModel({ _questions: [DB], _response: { action: "dismiss", answers: [], view_id: "v", sent_at_ms: 1 } }));
    expect(await seriousViolations()).toEqual([]);
  });

  it.each(["answered", "dismissed", "timeout", "cancelled"] as const)("finds nothing serious in the %s block", async (status) => {
    const result = { answers: { [DB.question]: "SQLite" }, note: "A note." };
    view(new FakeModel({ _questions: [DB, FEATURES], _status: status, _result: result }));
    expect(await seriousViolations()).toEqual([]);
  });

  it("would catch an unlabelled input (the check itself works)", async () => {
    const { root } = view(pendingModel([DB]));
    const stray = document.createElement("input");
    root.append(stray);
    expect((await seriousViolations()).some((v) => v.startsWith("label"))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Contrast. The widget's own palette (used outside JupyterLab and VS Code) is read from
// styles/theme.css, light and dark, and every text/background pair must reach WCAG AA.

const css = readFileSync(join(here, "styles", "theme.css"), "utf8");

/** The declarations of the first rule whose text starts with selectorStart. */
function block(selectorStart: string): string {
  const start = css.indexOf(selectorStart);
  if (start < 0) throw new Error(`no block starting with ${selectorStart}`);
  return css.slice(css.indexOf("{", start) + 1, css.indexOf("}", start));
}

/** The palette, each entry written `var(--nbask-when-light, #light) var(--nbask-when-dark, #dark)`. */
function palettes(): { light: Record<string, string>; dark: Record<string, string> } {
  const light: Record<string, string> = {};
  const dark: Record<string, string> = {};
  const entry = /--nbask-([\w-]+):\s*var\(--nbask-when-light,\s*(#[0-9a-f]{6})\)\s*var\(--nbask-when-dark,\s*(#[0-9a-f]{6})\)\s*;/gi;
  for (const match of block(".nbask {").matchAll(entry)) {
    const name = match[1] as string;
    light[name] = match[2] as string;
    dark[name] = match[3] as string;
  }
  return { light, dark };
}

/** The theme switch's two settings in a rule: { "when-light": ..., "when-dark": ... }. */
function themeSwitch(selectorStart: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const match of block(selectorStart).matchAll(/--nbask-(when-(?:light|dark)):([^;]*);/g)) {
    settings[match[1] as string] = (match[2] as string).trim();
  }
  return settings;
}

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** [text, background, minimum ratio]; 3:1 for focus rings and the chosen-option border. */
const PAIRS: [string, string, number][] = [
  ["base-fg", "base-bg", 4.5],
  ["base-muted", "base-bg", 4.5],
  ["base-fg", "base-chip", 4.5],
  ["base-on-accent", "base-accent", 4.5],
  ["base-accent", "base-bg", 3],
  ["base-input-border", "base-bg", 3],
  ["badge-fg", "badge-bg", 4.5],
  ["base-fg", "warn-bg", 4.5],
];

describe("palette contrast", () => {
  const { light, dark } = palettes();

  it.each(PAIRS)("light %s on %s reaches %s:1", (fg, bg, min) => {
    expect(contrast(light[fg] ?? "", light[bg] ?? "")).toBeGreaterThanOrEqual(min);
  });

  it.each(PAIRS)("dark %s on %s reaches %s:1", (fg, bg, min) => {
    expect(contrast(dark[fg] ?? "", dark[bg] ?? "")).toBeGreaterThanOrEqual(min);
  });

  it("uses the same dark palette when only the OS is dark", () => {
    const toDark = { "when-light": "", "when-dark": "initial" };
    expect(themeSwitch(".nbask {")).toEqual({ "when-light": "initial", "when-dark": "" });
    expect(themeSwitch('[data-jp-theme-light="false"] .nbask')).toEqual(toDark);
    expect(themeSwitch("html:not([data-theme])")).toEqual(toDark);
    // Every pair above reads a colour that the palette defines.
    for (const [fg, bg] of PAIRS) expect([light[fg], light[bg], dark[fg], dark[bg]]).not.toContain(undefined);
    expect(Object.keys(dark)).toEqual(Object.keys(light));
  });

  it("computes contrast like WCAG", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });
});
