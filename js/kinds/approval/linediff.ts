// What an edit changed, line by line: the lines both texts keep, the removed ones and the added
// ones, in reading order. Pure (no DOM); the approval's resolved block draws it (js/kinds/approval/view.ts).

export type DiffOp = " " | "-" | "+";

export interface DiffLine {
  /** " " kept, "-" only in the original, "+" only in the edit. */
  readonly op: DiffOp;
  readonly text: string;
}

/** Above this many line pairs the middle is shown as all removed, then all added (the common
 *  first and last lines are still kept): a diff must never hang the page. */
export const MAX_DIFF_CELLS = 250_000;

function lines(text: string): string[] {
  return text === "" ? [] : text.replace(/\r\n?/g, "\n").split("\n");
}

/** A longest-common-subsequence diff of `a` and `b` (removed lines before added ones where
 *  both change at one place). */
function middleDiff(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_DIFF_CELLS) {
    return [...a.map((text) => ({ op: "-" as const, text })), ...b.map((text) => ({ op: "+" as const, text }))];
  }
  // keep(i, j): the length of the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const table = new Int32Array((n + 1) * width);
  const keep = (i: number, j: number): number => table[i * width + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? keep(i + 1, j + 1) + 1 : Math.max(keep(i + 1, j), keep(i, j + 1));
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: " ", text: a[i] ?? "" });
      i++;
      j++;
    } else if (j >= m || (i < n && keep(i + 1, j) >= keep(i, j + 1))) {
      out.push({ op: "-", text: a[i] ?? "" });
      i++;
    } else {
      out.push({ op: "+", text: b[j] ?? "" });
      j++;
    }
  }
  return out;
}

/** The line diff from `before` to `after`; [] when they are the same. */
export function lineDiff(before: string, after: string): DiffLine[] {
  if (before === after) return [];
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const kept = (text: string): DiffLine => ({ op: " ", text });
  return [
    ...a.slice(0, start).map(kept),
    ...middleDiff(a.slice(start, a.length - end), b.slice(start, b.length - end)),
    ...a.slice(a.length - end).map(kept),
  ];
}

function prettyJson(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return null;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return null;
  }
}

/** What changed in an edit of the details: JSON on both sides is compared pretty-printed (so
 *  a one-line document shows the argument that changed, not one long line); text line by line. */
export function detailsDiff(before: string, after: string): DiffLine[] {
  const a = prettyJson(before);
  const b = prettyJson(after);
  if (a !== null && b !== null) {
    const diff = lineDiff(a, b);
    // Only spacing changed: show the texts' own lines instead of nothing.
    if (diff.length > 0) return diff;
  }
  return lineDiff(before, after);
}
