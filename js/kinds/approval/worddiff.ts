// What changed within a changed line: a line diff (js/kinds/approval/linediff.ts) shows that
// `kubectl apply --context prod -f deploy.yaml` became `… --context staging …`, but the eye must
// still find `prod` → `staging` in a long command. Each removed line is paired with the added line
// at the same place of its change, and the words that differ are marked. Pure (no DOM); the
// approval's resolved block draws it (js/kinds/approval/diffview.ts).
import type { DiffLine } from "./linediff";
import { detailsDiff } from "./linediff";

/** A run of a line's text: `changed` when it is not in the other line of its pair. */
export interface DiffPart {
  readonly text: string;
  readonly changed: boolean;
}

/** A diff line with, where it pairs with one on the other side, its words marked. */
export interface WordLine extends DiffLine {
  /** The line's text in runs, changed or kept; absent when the line is unpaired, or when the
   *  two lines share no word (then the whole line is the change). */
  readonly parts?: readonly DiffPart[];
  /** On an added line: what changed, said plainly for screen readers ("prod → staging"). */
  readonly summary?: string;
  /** On an added line: the parts of the removed line it pairs with. */
  readonly partner?: readonly DiffPart[];
}

/** Above this many token pairs a line pair gets no word marks (a diff must never hang the page). */
export const MAX_WORD_CELLS = 40_000;

/** Words (letters, digits, _), runs of spaces, and each other character on its own. */
function tokens(line: string): string[] {
  return line.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? [];
}

function merge(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (last !== undefined && last.changed === part.changed) out[out.length - 1] = { text: last.text + part.text, changed: part.changed };
    else out.push(part);
  }
  return out;
}

/** A space between two changed runs is part of the change: "prod eu" → "staging us" reads as one
 *  change, not two words around a kept space. */
function joinChanges(parts: DiffPart[]): DiffPart[] {
  return merge(
    parts.map((part, i) => {
      const around = parts[i - 1]?.changed === true && parts[i + 1]?.changed === true;
      return !part.changed && around && part.text.trim() === "" ? { ...part, changed: true } : part;
    }),
  );
}

/** The words of `before` and `after` marked changed or kept; null when they share no word (or are
 *  too long to compare), so the whole line stands as the change. */
export function wordDiff(before: string, after: string): { before: DiffPart[]; after: DiffPart[] } | null {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length * b.length > MAX_WORD_CELLS) return null;
  const width = b.length + 1;
  const table = new Int32Array((a.length + 1) * width);
  const keep = (i: number, j: number): number => table[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? keep(i + 1, j + 1) + 1 : Math.max(keep(i + 1, j), keep(i, j + 1));
    }
  }
  const left: DiffPart[] = [];
  const right: DiffPart[] = [];
  let sharedWord = false;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x !== undefined && x === y) {
      left.push({ text: x, changed: false });
      right.push({ text: x, changed: false });
      sharedWord ||= x.trim() !== "";
      i++;
      j++;
    } else if (x !== undefined && (y === undefined || keep(i + 1, j) >= keep(i, j + 1))) {
      left.push({ text: x, changed: true });
      i++;
    } else if (y !== undefined) {
      right.push({ text: y, changed: true });
      j++;
    }
  }
  return sharedWord ? { before: joinChanges(left), after: joinChanges(right) } : null;
}

function changedText(parts: readonly DiffPart[]): string {
  return parts
    .filter((part) => part.changed)
    .map((part) => part.text.trim())
    .filter((text) => text !== "")
    .join(" … ");
}

/** `lines` with word marks: in each run of removed lines followed by added lines, the n-th removed
 *  line pairs with the n-th added one. */
export function withWords(lines: readonly DiffLine[]): WordLine[] {
  const out: WordLine[] = lines.map((line) => ({ ...line }));
  let i = 0;
  while (i < out.length) {
    if (out[i]?.op !== "-") {
      i++;
      continue;
    }
    let removedEnd = i;
    while (out[removedEnd]?.op === "-") removedEnd++;
    let addedEnd = removedEnd;
    while (out[addedEnd]?.op === "+") addedEnd++;
    const pairs = Math.min(removedEnd - i, addedEnd - removedEnd);
    for (let k = 0; k < pairs; k++) {
      const removed = out[i + k];
      const added = out[removedEnd + k];
      if (removed === undefined || added === undefined) continue;
      const words = wordDiff(removed.text, added.text);
      if (words === null) continue;
      const was = changedText(words.before);
      const now = changedText(words.after);
      out[i + k] = { ...removed, parts: words.before };
      const summary = `${was || "nothing"} → ${now || "nothing"}`;
      out[removedEnd + k] = { ...added, parts: words.after, summary, partner: words.before };
    }
    i = Math.max(addedEnd, i + 1);
  }
  return out;
}


/** Each value the edit changed, as (was, now): the changed runs of a paired line, in order, where
 *  both lines have as many (a word with letters or digits; punctuation alone is no value). */
function replacements(before: string, after: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const line of withWords(detailsDiff(before, after))) {
    if (line.partner === undefined || line.parts === undefined) continue;
    const was = line.partner.filter((p) => p.changed).map((p) => p.text.trim());
    const now = line.parts.filter((p) => p.changed).map((p) => p.text.trim());
    if (was.length !== now.length) continue;
    was.forEach((w, i) => {
      const n = now[i] ?? "";
      if (n !== "" && /[\p{L}\p{N}]/u.test(w)) pairs.push([w, n]);
    });
  }
  return pairs;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The approval's title as the edit left it: where a value the person changed in the details
 *  ("prod") appears in the title as a whole word, it reads the edited value ("staging"), marked
 *  changed. Null when no changed value appears there: the title then still says what runs.
 *
 *  Why: the resolved card is read later as the record of what was approved. A title that still
 *  says "Deploy to prod" above an edit to staging tells the reader the opposite of what ran, so
 *  the title follows the edit, visibly marked, and the card keeps the title as asked beside it
 *  (js/kinds/approval/diffview.ts): nothing of the original request is hidden. A value only part of a longer
 *  word ("prod" in "production") is left alone: replacing inside words would invent titles. */
export function retitle(title: string, before: string, after: string): DiffPart[] | null {
  let parts: DiffPart[] = [{ text: title, changed: false }];
  for (const [was, now] of replacements(before, after)) {
    const word = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(was)}(?![\\p{L}\\p{N}_])`, "u");
    parts = parts.flatMap((part) => {
      if (part.changed) return [part];
      const pieces: DiffPart[] = [];
      let rest = part.text;
      for (let m = word.exec(rest); m !== null; m = word.exec(rest)) {
        pieces.push({ text: rest.slice(0, m.index), changed: false }, { text: now, changed: true });
        rest = rest.slice(m.index + was.length);
      }
      pieces.push({ text: rest, changed: false });
      return pieces.filter((piece) => piece.text !== "");
    });
  }
  return parts.some((part) => part.changed) ? parts : null;
}
