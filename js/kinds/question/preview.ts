// The preview pane of a question whose options have previews: beside the options (or below,
// narrow), a focusable scrolling region showing the focused option's preview, else the first
// chosen one's, else a hint. Its height is fixed per question (the tallest preview's lines).
import type { Option } from "../../contract/contract";
import { el } from "../../parts/dom";

export const PREVIEW_TEXT = {
  preview: "Preview",
  noPreview: "No preview for this option.",
  previewHint: "Focus or choose an option to see its preview.",
} as const;

/** The preview region's accessible name while it shows an option's preview. */
export function previewLabel(label: string): string {
  return `Preview of ${label}`;
}

/** Lines shown at most before the preview scrolls. */
const PREVIEW_MAX_LINES = 14;
const PREVIEW_MIN_LINES = 3;

export interface PreviewControls {
  pane: HTMLPreElement;
  /** The option whose preview shows because it has focus (-1 = none has). */
  focused: number;
}

/** The pane, when some option has a preview; null otherwise. `sync` is called whenever what
 *  it should show may have changed. */
export function previewPane(
  options: readonly Option[],
  inputs: readonly HTMLInputElement[],
  id: string,
  sync: () => void,
): PreviewControls | null {
  const previews = options.map((o) => o.preview ?? "");
  if (previews.every((p) => p === "")) return null;
  const pane = el("pre", "nbask-preview");
  pane.id = id;
  // A scrolling region: focusable, so keyboard users can scroll it too.
  pane.setAttribute("role", "region");
  pane.tabIndex = 0;
  const lines = Math.max(...previews.map((p) => p.split("\n").length));
  pane.style.setProperty("--nbask-preview-lines", String(Math.min(Math.max(lines, PREVIEW_MIN_LINES), PREVIEW_MAX_LINES)));
  const controls: PreviewControls = { pane, focused: -1 };
  pane.addEventListener("blur", (event) => {
    if (inputs.includes(event.relatedTarget as HTMLInputElement)) return;
    controls.focused = -1;
    sync();
  });
  inputs.forEach((input, oi) => {
    input.setAttribute("aria-controls", pane.id);
    input.addEventListener("focus", () => {
      controls.focused = oi;
      sync();
    });
    input.addEventListener("blur", (event) => {
      // Moving into the region to scroll it keeps the preview that was showing.
      if (event.relatedTarget === pane) return;
      if (controls.focused === oi) controls.focused = -1;
      sync();
    });
  });
  return controls;
}

/** Shows the focused option's preview, else the first chosen one's, else a hint. */
export function showPreview(preview: PreviewControls, options: readonly Option[], checked: readonly boolean[]): void {
  const shown = preview.focused >= 0 ? preview.focused : checked.findIndex((c) => c);
  const option = options[shown];
  const text = option?.preview ?? "";
  // Model text: textContent only, so markup in a preview stays literal.
  preview.pane.textContent = option === undefined ? PREVIEW_TEXT.previewHint : text === "" ? PREVIEW_TEXT.noPreview : text;
  preview.pane.setAttribute("aria-label", option === undefined ? PREVIEW_TEXT.preview : previewLabel(option.label));
  preview.pane.dataset.empty = String(text === "");
}
