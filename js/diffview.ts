// An edit's changes as the resolved block shows them (js/linediff.ts computes them): one line
// each, removed lines as <del> marked "-", added as <ins> marked "+", kept lines unmarked. The
// marks are text, not only colour; screen readers hear "Removed:" / "Added:" instead.
import { el, textEl } from "./dom";
import type { DiffLine } from "./linediff";
import { detailsDiff } from "./linediff";

export const DIFF_TEXT = {
  label: "Changes",
  removed: "Removed: ",
  added: "Added: ",
} as const;

function diffLine({ op, text }: DiffLine): HTMLElement {
  const tag = op === "-" ? "del" : op === "+" ? "ins" : "span";
  const line = el(tag, "nbask-diff-line");
  line.dataset.op = op === " " ? "keep" : op === "-" ? "removed" : "added";
  const mark = el("span", "nbask-diff-mark", op);
  mark.setAttribute("aria-hidden", "true");
  line.append(mark);
  if (op !== " ") line.append(el("span", "nbask-sr-only", op === "-" ? DIFF_TEXT.removed : DIFF_TEXT.added));
  // An empty line still takes its height.
  line.append(textEl("span", "nbask-diff-text", text === "" ? "\u200b" : text));
  return line;
}

/** "Changes" and the line diff from `before` to `after` (JSON compared pretty-printed). */
export function diffBlock(before: string, after: string, id: string): HTMLElement[] {
  const label = el("div", "nbask-resolved-label", DIFF_TEXT.label);
  label.id = id;
  const pre = el("pre", "nbask-details nbask-diff");
  pre.append(...detailsDiff(before, after).map(diffLine));
  // Long diffs scroll; the region is focusable so keyboard users can scroll it too.
  pre.tabIndex = 0;
  pre.setAttribute("role", "region");
  pre.setAttribute("aria-labelledby", id);
  return [label, pre];
}
