// An edit's changes as the resolved block shows them (js/kinds/approval/linediff.ts computes the lines,
// js/kinds/approval/worddiff.ts the words within them): one line each, removed lines as <del> marked "-", added
// as <ins> marked "+", kept lines unmarked; within a changed line the words that changed are a
// <mark>, so `prod` → `staging` stands out in a long command. The marks are text, not only
// colour; screen readers hear "Removed:" / "Added:" and, after an added line, what changed.
// Also the approval's title after an edit (js/kinds/approval/worddiff.ts retitle). Model text only ever goes in
// as text.
import { el, textEl } from "../../parts/dom";
import { labelledText } from "../../parts/resolved";
import type { DiffPart, WordLine } from "./worddiff";
import { retitle, withWords } from "./worddiff";
import { detailsDiff } from "./linediff";

export const DIFF_TEXT = {
  label: "Changes",
  removed: "Removed: ",
  added: "Added: ",
  changed: "Changed: ",
  edited: "edited",
  asked: "As asked",
} as const;

/** Runs of text, the changed ones in `tag` with class `className`. */
function runs(parts: readonly DiffPart[], tag: "mark" | "ins", className: string): Node[] {
  return parts.map((part) => (part.changed ? el(tag, className, part.text) : document.createTextNode(part.text)));
}

function diffLine({ op, text, parts, summary }: WordLine): HTMLElement {
  const tag = op === "-" ? "del" : op === "+" ? "ins" : "span";
  const line = el(tag, "nbask-diff-line");
  line.dataset.op = op === " " ? "keep" : op === "-" ? "removed" : "added";
  const mark = el("span", "nbask-diff-mark", op);
  mark.setAttribute("aria-hidden", "true");
  line.append(mark);
  if (op !== " ") line.append(el("span", "nbask-sr-only", op === "-" ? DIFF_TEXT.removed : DIFF_TEXT.added));
  // An empty line still takes its height.
  const body = textEl("span", "nbask-diff-text", text === "" ? "\u200b" : text);
  if (parts !== undefined) body.replaceChildren(...runs(parts, "mark", "nbask-diff-word"));
  line.append(body);
  if (summary !== undefined) line.append(el("span", "nbask-sr-only", ` (${DIFF_TEXT.changed}${summary})`));
  return line;
}

/** "Changes" and the diff from `before` to `after` (JSON compared pretty-printed). */
export function diffBlock(before: string, after: string, id: string): HTMLElement[] {
  const label = el("div", "nbask-resolved-label", DIFF_TEXT.label);
  label.id = id;
  const pre = el("pre", "nbask-details nbask-diff");
  pre.append(...withWords(detailsDiff(before, after)).map(diffLine));
  // Long diffs scroll; the region is focusable so keyboard users can scroll it too.
  pre.tabIndex = 0;
  pre.setAttribute("role", "region");
  pre.setAttribute("aria-labelledby", id);
  return [label, pre];
}

/** The resolved approval's title after an edit of its details: with the edited value where the
 *  old one stood in it, marked, "(edited)", and the title as asked on a line of its own; the
 *  title alone when the edit changed nothing it names (see retitle for why). */
export function editedTitle(title: string, before: string, after: string): HTMLElement[] {
  const parts = retitle(title, before, after);
  if (parts === null) return [textEl("div", "nbask-action", title)];
  const heading = el("div", "nbask-action nbask-action-edited");
  heading.dir = "auto";
  heading.append(...runs(parts, "ins", "nbask-edited-word"), el("span", "nbask-edited-tag", ` (${DIFF_TEXT.edited})`));
  return [heading, labelledText("p", "nbask-note nbask-asked-as", DIFF_TEXT.asked, title)];
}
