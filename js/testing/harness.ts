// Test helpers: a fake anywidget model, a way to render views of it into jsdom, the questions
// the tests ask, and the checks several test files share.
import { getByRole, within } from "@testing-library/dom";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import type { AnyModel } from "@anywidget/types";
import { expect, vi } from "vitest";
import type { FormField, Model, Question, Response } from "../contract/contract";
import widget from "../kinds/all";

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
    this.emit(`change:${key}`);
  });
  readonly save_changes = vi.fn();
  readonly send = vi.fn();
  readonly widget_manager = { get_model: vi.fn() };

  constructor(initial: Partial<Model> = {}) {
    this.data = {
      _kind: "question",
      _questions: [],
      _title: "",
      _details: "",
      _details_schema: null,
      _message: "",
      _fields: [],
      _url: "",
      _error: "",
      _request_id: "req-1",
      _status: "pending",
      _deadline_ms: 0,
      _response: {},
      _result: {},
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
    for (const key of keys) this.emit(`change:${key}`);
    this.emit("change");
  }

  /** The response the front end wrote, if any. */
  lastResponse(): unknown {
    return this.data._response;
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

/** How a view is made: attached to the document or not, and by which module (by default the
 *  one with every kind; a kind's own bundle is js/kinds/<kind>/widget.ts). */
export interface MountOptions {
  attach?: boolean;
  module?: Pick<typeof widget, "render">;
}

/** Renders one view of the model into a fresh element attached to the document. */
export function mount(model: FakeModel, { attach = true, module = widget }: MountOptions = {}): Mounted {
  const host = document.createElement("div");
  if (attach) document.body.append(host);
  const cleanup = module.render({
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

const mounted: Mounted[] = [];

/** Like mount(), and remembered so that unmountAll() (each test file's afterEach) removes it. */
export function view(model: FakeModel, options?: MountOptions): Mounted {
  const m = mount(model, options);
  mounted.push(m);
  return m;
}

/** Cleans up and removes from the page every view made by view() since the last call. */
export function unmountAll(): void {
  for (const m of mounted.splice(0)) {
    m.cleanup();
    m.host.remove();
  }
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

/** A field with every limit unset; `patch` says what it is. */
export function field(patch: Partial<FormField> & Pick<FormField, "name" | "type">): FormField {
  return {
    title: patch.name,
    description: "",
    required: false,
    format: "",
    min_length: null,
    max_length: null,
    minimum: null,
    maximum: null,
    min_items: null,
    max_items: null,
    options: [],
    default: null,
    ...patch,
  };
}

/** What the kernel sends when a request's time limit passes with no answer. */
export function timedOut(model: FakeModel): void {
  model.kernelUpdate({ _status: "timeout", _deadline_ms: 0, _result: { answers: {}, note: "No answer within 5 seconds." } });
}

export function pendingModel(questions: Question[] = [DB, FEATURES], extra: Partial<Model> = {}): FakeModel {
  return new FakeModel({ _questions: questions, ...extra });
}

/** A user-event session and one view of a pending model asking these questions. */
export function pendingView(questions?: Question[]): Mounted & { user: UserEvent; model: FakeModel } {
  const user = userEvent.setup();
  const model = pendingModel(questions);
  return { user, model, ...view(model) };
}

/** The Other textbox of a question if it is shown, without choosing anything. */
export function shownOtherText(root: HTMLElement, question: string): HTMLTextAreaElement | null {
  return within(getByRole(root, "group", { name: question })).queryByRole<HTMLTextAreaElement>("textbox", { name: "Other" });
}

/** The Other textbox of a question, choosing the Other row first when the box is hidden (as a
 *  person must: the box is shown only while Other is chosen or holds text). */
export function otherText(root: HTMLElement, question: string): HTMLTextAreaElement {
  const group = within(getByRole(root, "group", { name: question }));
  const shown = group.queryByRole<HTMLTextAreaElement>("textbox", { name: "Other" });
  if (shown) return shown;
  const choice = group.queryByRole<HTMLInputElement>("radio", { name: "Other" }) ?? group.getByRole<HTMLInputElement>("checkbox", { name: "Other" });
  choice.click();
  return group.getByRole<HTMLTextAreaElement>("textbox", { name: "Other" });
}

/** The one response the front end sent: written once to `response`, then saved once. */
export function sent(model: FakeModel): Response {
  // Draft saves (js/shell/draftsync.ts) are other writes; exactly one is the response.
  const writes = model.set.mock.calls.map((call, i) => ({ key: call[0], value: call[1], order: model.set.mock.invocationCallOrder[i] ?? 0 }));
  const responses = writes.filter((w) => w.key === "_response");
  expect(responses).toHaveLength(1);
  expect(model.save_changes).toHaveBeenCalledTimes(writes.length);
  const response = responses[0];
  // Written before it is saved, or the kernel would get the old value.
  expect(model.save_changes.mock.invocationCallOrder.some((order) => order > (response?.order ?? 0))).toBe(true);
  return response?.value as Response;
}

/** The writes of `response` only (draft saves left out). */
export function responseWrites(model: FakeModel): unknown[] {
  return model.set.mock.calls.filter((call) => call[0] === "_response").map((call) => call[1]);
}

/** Dispatches a keydown like a browser would, and returns the event to inspect afterwards. */
export function keydown(target: Element, key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}
