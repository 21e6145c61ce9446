// Requests that wait with nothing on the page to answer them. A notebook reloaded without being
// saved has no output for its running cell (the outputs come back from the file), yet the
// widget manager restores every live model from the kernel, and anywidget calls initialize()
// once per model. A model whose request still waits a moment later, with no view of it
// rendered anywhere on the page, is shown in the page-level panel (js/reload/panel.ts) through
// the same render path as a cell's output, so the person can answer it and the cell resumes.
// A regular view of that request rendered later (a saved output showing up late) takes the
// card away. A widget displayed in a cell renders within milliseconds: it never gets a card.
// The last view of a request that still waits can also go later: Shift+Enter inside it runs its
// cell again, and the notebook clears that cell's output (the kernel, still waiting for the
// answer, runs the cell again only after it); so can a cleared output. After the same moment,
// with no view of it back, the request gets a card too.
//
// anywidget loads the ES module once per model (its text through a blob URL), so each model
// has its own copy of this module: what the copies share, the views rendered on the page,
// lives on globalThis, and the panel lives in the DOM.
import type { AnyModel } from "@anywidget/types";
import type { BaseModel } from "../contract/contract";
import { asText } from "../parts/dom";
import { markCell } from "./cellview";
import { CLOSE_EVENT, addCard, removeCard, setPending } from "./panel";

/** How long after its model appears a request may go without a view before it gets a card. */
export const ORPHAN_DELAY_MS = 2000;

type RequestModel = Pick<AnyModel<BaseModel>, "get" | "on" | "off">;

interface ShownView {
  /** The request the view shows now (a model may move on to a new request). */
  request(): string;
}

interface Shared {
  /** Views rendered in the page's outputs (not the panel's cards). */
  views: Set<ShownView>;
  /** Told the request of each view as it renders. */
  watchers: Set<(request: string) => void>;
  /** Told the request of each view as it goes away. */
  gone: Set<(request: string) => void>;
}

const SHARED = Symbol.for("nbask.shown-views.v1");

function shared(): Shared {
  const scope = globalThis as { [SHARED]?: Shared };
  const found = scope[SHARED] as (Omit<Shared, "gone"> & Partial<Shared>) | undefined;
  if (found !== undefined) {
    // Made by an older copy of this module (a model displayed before nbask was updated).
    found.gone ??= new Set();
    return found as Shared;
  }
  const made: Shared = { views: new Set(), watchers: new Set(), gone: new Set() };
  scope[SHARED] = made;
  return made;
}

function requestOf(model: Pick<RequestModel, "get">): string {
  return asText(model.get("_request_id"));
}

/** Records a view of `model` rendered on the page; the returned function forgets it. */
export function registerView(model: Pick<RequestModel, "get">): () => void {
  const { views, watchers, gone } = shared();
  const view: ShownView = { request: () => requestOf(model) };
  views.add(view);
  const request = view.request();
  for (const watcher of [...watchers]) watcher(request);
  return () => {
    if (!views.delete(view)) return;
    const last = view.request();
    for (const watcher of [...gone]) watcher(last);
  };
}

/** Whether a view of this request is rendered on the page. */
export function isShown(request: string): boolean {
  for (const view of shared().views) if (view.request() === request) return true;
  return false;
}

/** `render` that records each view it makes (see registerView). */
export function trackViews<P extends { model: Pick<RequestModel, "get"> }>(
  render: (props: P) => () => void,
): (props: P) => () => void {
  return (props) => {
    const forget = registerView(props.model);
    const cleanup = render(props);
    return () => {
      forget();
      cleanup();
    };
  };
}

/**
 * Called from initialize() for each model: after `delayMs`, a request that still waits and has no
 * view on the page gets a card in the panel, `mount` rendering its view there; so does one whose
 * last view went away, `delayMs` after it went (a view back meanwhile keeps it). The card keeps
 * showing the resolved block once the request ends, until the person closes the panel; a
 * regular view of the request rendered meanwhile takes it away. Returns the cleanup (the model
 * went away, or the module was replaced).
 */
export function watchOrphan(
  model: RequestModel,
  mount: (host: HTMLElement) => () => void,
  delayMs: number = ORPHAN_DELAY_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shown: { card: HTMLElement; panel: HTMLElement; unmount: () => void; request: string } | null = null;
  /** Removes the view shown in the request's cell once it ended in the panel (js/reload/cellview.ts). */
  let unmark: (() => void) | null = null;

  const onStatus = (): void => {
    if (shown === null) return;
    const pending = model.get("_status") === "pending";
    setPending(shown.card, pending);
    // Its cell shows the file's outputs (an earlier run's, or none): it shows how this one ended too.
    if (!pending && unmark === null) unmark = markCell(asText(model.get("_cell")).trim(), mount);
  };
  const onViewShown = (request: string): void => {
    if (shown !== null && request === shown.request) hide();
  };
  /** A view went: if it was this request's last and the request still waits, look again once
   *  the moment has passed since (also when it went within its first moment). */
  const onViewGone = (request: string): void => {
    if (shown !== null || request === "" || request !== requestOf(model)) return;
    if (model.get("_status") !== "pending" || isShown(request)) return;
    clearTimeout(timer);
    timer = setTimeout(() => check(true), delayMs);
  };
  const hide = (): void => {
    if (shown === null) return;
    const { card, panel, unmount } = shown;
    shown = null;
    shared().watchers.delete(onViewShown);
    model.off("change:_status", onStatus);
    panel.removeEventListener(CLOSE_EVENT, hide);
    unmount();
    removeCard(card);
  };
  /** `cleared`: the request had a view, gone since (not a reload's unsaved output). */
  const check = (cleared = false): void => {
    timer = undefined;
    const request = requestOf(model);
    if (model.get("_status") !== "pending" || request === "" || isShown(request)) return;
    const { panel, card } = addCard(request, asText(model.get("_cell")).trim(), cleared);
    shown = { card, panel, request, unmount: () => undefined };
    shared().watchers.add(onViewShown);
    model.on("change:_status", onStatus);
    panel.addEventListener(CLOSE_EVENT, hide);
    shown.unmount = mount(card);
    onStatus();
  };

  timer = setTimeout(check, delayMs);
  shared().gone.add(onViewGone);
  return () => {
    clearTimeout(timer);
    timer = undefined;
    shared().gone.delete(onViewGone);
    hide();
    unmark?.();
  };
}
