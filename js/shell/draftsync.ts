// The person's unsent draft in the widget model (`_draft`), so a reloaded page, a second view of
// the same output or a notebook re-opened while the cell waits shows what they had chosen and
// typed. Each view keeps its draft in its own state and writes it here; the kernel only stores
// it (it is never an answer) and empties it once the request resolves.
//
// Saves are debounced (one message per pause in typing, not per keystroke) and flushed when
// the page is hidden or left and when focus leaves the widget, so a reload right after the last
// keystroke still keeps it. A draft saved by another view is handed to `onRemote`.
import type { AnyModel } from "@anywidget/types";
import type { BaseModel, SavedDraft } from "../contract/contract";
import { MAX_DRAFT_CHARS } from "../contract/contract";
import { isObject } from "../parts/dom";

/** How long typing must pause before the draft is written to the model. */
export const SAVE_DELAY_MS = 200;

/** A short fingerprint of what a form shows (FNV-1a, 32 bit): a draft is restored only into the
 *  form it was made for, even if the kernel re-used a request id with other content. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The model's `_draft`, read defensively; null when it is empty or not one. */
export function parseSaved(raw: unknown): SavedDraft | null {
  if (!isObject(raw)) return null;
  const { request_id, key, view_id, data } = raw;
  if (typeof request_id !== "string" || typeof key !== "string" || typeof view_id !== "string") return null;
  if (!isObject(data) || Array.isArray(data)) return null;
  return { request_id, key, view_id, data };
}

/** The draft as it is written, or null when it is over the size the kernel keeps. */
export function serialise(draft: SavedDraft): string | null {
  const text = JSON.stringify(draft);
  return text.length > MAX_DRAFT_CHARS ? null : text;
}

/** Which request and form the view's draft belongs to. */
export interface DraftTarget {
  request_id: string;
  key: string;
}

export class DraftSync {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: SavedDraft | null = null;
  private lastWritten = "";
  private warned = false;

  constructor(
    private readonly model: AnyModel<BaseModel>,
    private readonly viewId: string,
    private readonly onRemote: (draft: SavedDraft) => void,
  ) {
    this.model.on("change:_draft", this.onChange);
    window.addEventListener("pagehide", this.leave);
    window.addEventListener("beforeunload", this.leave);
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  destroy(): void {
    this.flush();
    this.model.off("change:_draft", this.onChange);
    window.removeEventListener("pagehide", this.leave);
    window.removeEventListener("beforeunload", this.leave);
    document.removeEventListener("visibilitychange", this.onVisibility);
  }

  /** The model's draft for `target`, or null (none, another request's, or another form's). */
  read(target: DraftTarget): SavedDraft | null {
    const saved = parseSaved(this.model.get("_draft"));
    if (saved === null || saved.request_id !== target.request_id || saved.key !== target.key) return null;
    return saved;
  }

  /** Write `data` as this view's draft for `target` once typing pauses. */
  save(target: DraftTarget, data: Record<string, unknown>): void {
    this.pending = { ...target, view_id: this.viewId, data };
    clearTimeout(this.timer);
    this.timer = setTimeout(this.flush, SAVE_DELAY_MS);
  }

  /** True while a change of this view has not been written yet. */
  get dirty(): boolean {
    return this.pending !== null;
  }

  /** Forget an unwritten change (the request resolved or a new one arrived). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = null;
  }

  /** Discard the draft in the model too (the person said so), for every view. */
  clear(): void {
    this.cancel();
    this.lastWritten = "";
    if (parseSaved(this.model.get("_draft")) === null) return; // nothing kept: nothing to write
    this.model.set("_draft", {});
    this.model.save_changes();
  }

  /** Write the pending change now. */
  readonly flush = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    const draft = this.pending;
    this.pending = null;
    if (draft === null) return;
    const text = serialise(draft);
    if (text === null) {
      // Every field has its own cap, so only a very large form gets here; the draft then
      // lives in this view only (a reload loses it), and the console says so once.
      if (!this.warned) console.warn(`nbask: the draft is over ${MAX_DRAFT_CHARS} characters and is not kept in the notebook`);
      this.warned = true;
      return;
    }
    if (text === this.lastWritten) return;
    this.lastWritten = text;
    this.model.set("_draft", draft);
    this.model.save_changes();
  };

  /** The page is being left (a reload): write the draft, and send it once more as a message of
   *  its own. The ipywidgets front end holds a model's next update until the kernel has taken the
   *  previous one, so a draft saved right after another (Edit, then the new details) could still
   *  be held in the page when it unloads; a custom message is sent at once. */
  private readonly leave = (): void => {
    this.flush();
    if (this.lastWritten !== "") this.model.send({ draft: JSON.parse(this.lastWritten) as unknown });
  };

  private readonly onVisibility = (): void => {
    if (document.visibilityState === "hidden") this.flush();
  };

  private readonly onChange = (): void => {
    const saved = parseSaved(this.model.get("_draft"));
    // Our own write coming back, or an empty draft (the request resolved): nothing to show.
    if (saved === null || saved.view_id === this.viewId) return;
    this.lastWritten = "";
    // A change of ours not written yet is newer than what another view wrote before it.
    if (this.pending !== null) return;
    this.onRemote(saved);
  };
}
