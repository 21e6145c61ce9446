// Test helpers: a fake anywidget model and a way to render views of it into jsdom.
import type { AnyModel } from "@anywidget/types";
import { vi } from "vitest";
import widget, { type Model, type Question } from "./widget";

type Listener = (...args: unknown[]) => void;

/**
 * Behaves like the Backbone model anywidget hands to render(): `set` changes the value and
 * fires `change:<key>` synchronously to every listener (so every view of the model sees it);
 * `save_changes` is where the real one sends the change to the kernel.
 */
export class FakeModel {
  private readonly data: Model;
  private readonly listeners = new Map<string, Set<Listener>>();

  readonly set = vi.fn(<K extends keyof Model>(key: K, value: Model[K]): void => {
    this.data[key] = value;
    this.emit(`change:${String(key)}`);
  });
  readonly save_changes = vi.fn();
  readonly send = vi.fn();
  readonly widget_manager = { get_model: vi.fn() };

  constructor(initial: Partial<Model> = {}) {
    this.data = {
      questions: [],
      request_id: "req-1",
      status: "pending",
      deadline_ms: 0,
      response: {},
      result: {},
      ...structuredClone(initial),
    };
  }

  get<K extends keyof Model>(key: K): Model[K] {
    return this.data[key];
  }

  on(name: string, callback: Listener): void {
    const set = this.listeners.get(name) ?? new Set<Listener>();
    set.add(callback);
    this.listeners.set(name, set);
  }

  off(name?: string | null, callback?: Listener | null): void {
    for (const [key, set] of this.listeners) {
      if (name && key !== name) continue;
      if (callback) set.delete(callback);
      else set.clear();
    }
  }

  listenerCount(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  /** A change coming from the kernel: all keys are set before any change event fires,
   *  as Backbone does for one comm message that carries several traitlets. */
  kernelUpdate(patch: Partial<Model>): void {
    const keys = Object.keys(patch) as (keyof Model)[];
    Object.assign(this.data, structuredClone(patch));
    for (const key of keys) this.emit(`change:${String(key)}`);
    this.emit("change");
  }

  /** The response the front end wrote, if any. */
  lastResponse(): unknown {
    return this.data.response;
  }

  private emit(name: string): void {
    for (const callback of [...(this.listeners.get(name) ?? [])]) callback();
  }
}

export interface Mounted {
  host: HTMLElement;
  root: HTMLElement;
  cleanup: () => void;
}

/** Renders one view of the model into a fresh element attached to the document. */
export function mount(model: FakeModel, { attach = true }: { attach?: boolean } = {}): Mounted {
  const host = document.createElement("div");
  if (attach) document.body.append(host);
  const cleanup = widget.render({
    model: model as unknown as AnyModel<Model>,
    el: host,
    signal: new AbortController().signal,
    host: {} as never,
    experimental: {} as never,
  });
  const root = host.querySelector<HTMLElement>(".nbask");
  if (!root) throw new Error("render() did not create a .nbask root");
  return { host, root, cleanup };
}

export const DB: Question = {
  question: "Which database should the app use?",
  header: "DB",
  options: [
    { label: "PostgreSQL (Recommended)", description: "Robust, runs as a server." },
    { label: "SQLite", description: "One file, no server." },
  ],
  multi_select: false,
};

export const FEATURES: Question = {
  question: "Which features should be enabled?",
  header: "Features",
  options: [
    { label: "Auth", description: "Log in with a password." },
    { label: "Search", description: "" },
    { label: "Export", description: "CSV and Parquet." },
  ],
  multi_select: true,
};

export function pendingModel(questions: Question[] = [DB, FEATURES], extra: Partial<Model> = {}): FakeModel {
  return new FakeModel({ questions, ...extra });
}

/** Dispatches a keydown like a browser would, and returns the event to inspect afterwards. */
export function keydown(target: Element, key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}
