// A card's model on the inbox page: the same state the kernel syncs to a widget (the server sends
// it, built by the request's own widget class), held in the page. Views read and write it as they
// do a kernel's model (js/shell/shell.ts); what a kernel would receive, a response saved with
// save_changes, goes to `onResponse` instead (the page posts it to the server's inbox API).
// Drafts stay in this page: nothing else shows this card.
import type { AnyModel } from "@anywidget/types";
import type { Model } from "../contract/contract";

// anywidget types its listeners this loosely: a change listener takes nothing, a message one a message.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function isResponse(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && typeof (value as Record<string, unknown>).action === "string";
}

export class PageModel implements AnyModel<Model> {
  private readonly state = new Map<string, unknown>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private responseChanged = false;
  readonly widget_manager = {
    get_model: (): Promise<never> => Promise.reject(new Error("the inbox page holds no other models")),
  };

  constructor(
    state: Record<string, unknown>,
    private readonly onResponse: (response: Record<string, unknown>) => void,
  ) {
    for (const [key, value] of Object.entries(state)) this.state.set(key, value);
  }

  get<K extends keyof Model>(key: K): Model[K] {
    return this.state.get(key) as Model[K];
  }

  /** As a widget model does: the value is kept and its change told at once. */
  set<K extends keyof Model>(key: K, value: Model[K]): void {
    this.put(key, value);
    if (key === "_response") this.responseChanged = true;
  }

  /** The server's word on the card (what it answered, who did): shown like a kernel's update. */
  update(state: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(state)) this.put(key, value);
  }

  save_changes(): void {
    if (!this.responseChanged) return;
    this.responseChanged = false;
    const response: unknown = this.state.get("_response");
    if (isResponse(response) && response.action !== "") this.onResponse(response);
  }

  /** A view's custom messages (a draft sent as a page closes) have no kernel to reach here. */
  send(): void {
    return;
  }

  on(eventName: string, callback: Listener): void {
    let set = this.listeners.get(eventName);
    if (set === undefined) this.listeners.set(eventName, (set = new Set()));
    set.add(callback);
  }

  off(eventName?: string | null, callback?: Listener | null): void {
    if (eventName === undefined || eventName === null) {
      this.listeners.clear();
      return;
    }
    if (callback === undefined || callback === null) this.listeners.delete(eventName);
    else this.listeners.get(eventName)?.delete(callback);
  }

  private put(key: string, value: unknown): void {
    if (same(this.state.get(key), value)) return;
    this.state.set(key, value);
    for (const callback of [...(this.listeners.get(`change:${key}`) ?? [])]) callback();
  }
}
