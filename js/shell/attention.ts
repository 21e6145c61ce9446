// "A question is waiting" signals, shared by every nbask view on the page: a marker in the tab's
// title, a fixed "Question waiting" badge while a pending widget is out of view (both say
// "3 requests waiting" while several requests wait, counting each request once however many
// views show it), and (opt-in,
// nbask.configure(notify=True)) a desktop notification. The shell registers a view while it
// waits for the person (pending, not sending, not timed out) and unregisters it otherwise and
// on destroy. Nothing here moves the focus on its own: only a click on the badge or on the
// notification does.
//
// anywidget loads the ES module once per model, so each request's widget has its own copy of
// this module: what the page shows once for all of them (the registry, the marker, the badge)
// lives on globalThis, shared by every copy.

/** Put before the page's own title while a question waits and the person may not see it. */
export const WAITING_TITLE_PREFIX = "● Question waiting — ";
/** Any marker this module puts before the title (one request, or several). */
const MARKER = /^● (?:Question|\d+ requests) waiting — /;

export const WAITING_TEXT = {
  badge: "Question waiting",
  notificationTitle: "Question waiting",
  /** The badge and the title marker while several requests wait. */
  several: (n: number): string => `${n} requests waiting`,
} as const;

/** What the badge and the title marker say while `n` requests wait. */
export function waitingText(n: number): string {
  return n > 1 ? WAITING_TEXT.several(n) : WAITING_TEXT.badge;
}

/** The title marker while `n` requests wait. */
export function waitingTitlePrefix(n: number): string {
  return `● ${waitingText(n)} — `;
}

/** The notification's body is the question as plain text, at most this long. */
export const NOTIFICATION_TEXT_LIMIT = 180;

/** What the shell tells the registry about one waiting view. */
export interface WaitingView {
  readonly root: HTMLElement;
  /** The request the view shows (its model): views of one request count once. */
  readonly request?: object;
  /** Where a click on the badge puts the focus. */
  focusTarget(): HTMLElement | null;
  /** The widget's title or first question, as plain text. */
  text(): string;
  /** Whether the kernel asked for a desktop notification (nbask.configure(notify=True)). */
  notify(): boolean;
}

interface Entry {
  /** null until the IntersectionObserver (if any) has reported. */
  inView: boolean | null;
  notified: boolean;
  notification: Notification | null;
  /** The JupyterLab/Notebook 7 cell last seen around the view: a collapsed output area takes
   *  the view out of the page, and its placeholder is how to open it again. */
  cell: Element | null;
}

/** The page's one registry, whichever copy of this module made it. */
interface Shared {
  entries: Map<WaitingView, Entry>;
  observer: IntersectionObserver | null;
  titleObserver: MutationObserver | null;
  /** The page's own title while the marker is shown (updated when the host changes it). */
  baseTitle: string | null;
  badge: HTMLButtonElement | null;
  /** The page focus and visibility listener in place (one copy's refresh), to remove it by. */
  listener: (() => void) | null;
}

const SHARED = Symbol.for("nbask.waiting.v1");

function shared(): Shared {
  const scope = globalThis as { [SHARED]?: Shared };
  const found = scope[SHARED];
  if (found !== undefined) return found;
  const made: Shared = { entries: new Map(), observer: null, titleObserver: null, baseTitle: null, badge: null, listener: null };
  scope[SHARED] = made;
  return made;
}

const S = shared();
const entries = S.entries;

/** Starts signalling that this view waits for an answer; returns the function that stops. */
export function registerWaiting(view: WaitingView): () => void {
  if (!entries.has(view)) {
    entries.set(view, { inView: null, notified: false, notification: null, cell: view.root.closest(".jp-Cell") });
    startListening();
    if (S.observer === null && typeof IntersectionObserver !== "undefined") {
      S.observer = new IntersectionObserver(onIntersect);
    }
    if (S.observer !== null) S.observer.observe(view.root);
    // A hidden tab runs no IntersectionObserver callbacks until it is shown again: there the
    // page being hidden is reason enough, without waiting for the first report.
    if (S.observer === null || document.visibilityState !== "visible") maybeNotify(view);
    refresh();
  }
  return () => unregisterWaiting(view);
}

export function unregisterWaiting(view: WaitingView): void {
  const entry = entries.get(view);
  if (entry === undefined) return;
  entries.delete(view);
  entry.notification?.close();
  S.observer?.unobserve(view.root);
  if (entries.size === 0) {
    S.observer?.disconnect();
    S.observer = null;
    stopListening();
  }
  refresh();
}

/** How many views are waiting now (for tests and diagnostics). */
export function waitingCount(): number {
  return entries.size;
}

/** How many requests are waiting now: every view of one request counts once. */
export function waitingRequests(): number {
  return new Set([...entries.keys()].map((view) => view.request ?? view)).size;
}

function onIntersect(records: IntersectionObserverEntry[]): void {
  for (const record of records) {
    for (const [view, entry] of entries) {
      if (view.root !== record.target) continue;
      const rect = record.boundingClientRect;
      // A collapsed output area gives the widget no size: out of view, whatever it says.
      const first = entry.inView === null;
      if (view.root.isConnected) entry.cell = view.root.closest(".jp-Cell");
      entry.inView = record.isIntersecting && rect.width > 0 && rect.height > 0;
      if (first) maybeNotify(view);
    }
  }
  refresh();
}

/** Unknown (no IntersectionObserver, or no report yet) counts as seen. */
function isInView(entry: Entry): boolean {
  return entry.inView !== false;
}

function pageActive(): boolean {
  return document.visibilityState === "visible" && document.hasFocus();
}

function refresh(): void {
  const active = pageActive();
  const unseen = [...entries.values()].some((entry) => !(active && isInView(entry)));
  setMarker(unseen);
  updateBadge();
}

// -- the title marker ---------------------------------------------------------------------------

function setMarker(on: boolean): void {
  if (on) {
    if (S.baseTitle === null) S.baseTitle = document.title;
    applyMarker();
    watchTitle();
  } else if (S.baseTitle !== null) {
    S.titleObserver?.disconnect();
    S.titleObserver = null;
    const original = S.baseTitle;
    S.baseTitle = null;
    if (document.title !== original) document.title = original;
  }
}

function applyMarker(): void {
  if (S.baseTitle === null) return;
  const marked = waitingTitlePrefix(waitingRequests()) + S.baseTitle;
  if (document.title !== marked) document.title = marked;
}

function watchTitle(): void {
  if (S.titleObserver !== null || typeof MutationObserver === "undefined") return;
  S.titleObserver = new MutationObserver(() => {
    if (S.baseTitle === null) return;
    const now = document.title;
    // Our own write carries the marker and changes nothing here, so this never loops.
    if (MARKER.test(now)) return;
    S.baseTitle = now;
    applyMarker();
  });
  S.titleObserver.observe(document.head, { childList: true, subtree: true, characterData: true });
}

// -- the badge ----------------------------------------------------------------------------------

/** Waiting views out of view, in page order. */
function outOfView(): WaitingView[] {
  const views = [...entries].filter(([, entry]) => !isInView(entry)).map(([view]) => view);
  return views.sort((a, b) => (a.root.compareDocumentPosition(b.root) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

function updateBadge(): void {
  const hidden = outOfView();
  if (hidden.length === 0) {
    S.badge?.remove();
    S.badge = null;
    return;
  }
  if (S.badge === null) {
    S.badge = document.createElement("button");
    S.badge.type = "button";
    S.badge.className = "nbask-waiting-badge";
    S.badge.addEventListener("click", onBadgeClick);
  }
  const badge = S.badge;
  const label = waitingText(waitingRequests());
  if (badge.textContent !== label) badge.textContent = label;
  if (!badge.isConnected) document.body.append(badge);
}

function onBadgeClick(): void {
  const view = outOfView()[0] ?? entries.keys().next().value;
  if (view !== undefined) reveal(view, true);
}

/** Scrolls the view into sight (opening a collapsed JupyterLab output area) and, when asked,
 *  focuses its first control. Only ever called from a click. */
function reveal(view: WaitingView, focus: boolean): void {
  const root = view.root;
  const rect = root.getBoundingClientRect();
  if (!root.isConnected || (rect.width === 0 && rect.height === 0)) {
    const cell = root.isConnected ? root.closest(".jp-Cell") : (entries.get(view)?.cell ?? null);
    cell?.querySelector<HTMLElement>(".jp-OutputPlaceholder")?.click();
  }
  root.scrollIntoView({ block: "center" });
  if (!focus) return;
  const target =
    view.focusTarget() ??
    root.querySelector<HTMLElement>("input:not([disabled]), textarea:not([disabled]), button:not([disabled])");
  target?.focus({ preventScroll: true });
}

// -- page focus and visibility ------------------------------------------------------------------

function startListening(): void {
  if (S.listener !== null) return;
  S.listener = refresh;
  document.addEventListener("visibilitychange", refresh);
  window.addEventListener("focus", refresh);
  window.addEventListener("blur", refresh);
}

function stopListening(): void {
  // The listener may be another copy's refresh: removed by reference.
  const listener = S.listener;
  if (listener === null) return;
  S.listener = null;
  document.removeEventListener("visibilitychange", listener);
  window.removeEventListener("focus", listener);
  window.removeEventListener("blur", listener);
}

// -- desktop notification -----------------------------------------------------------------------

function plainText(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > NOTIFICATION_TEXT_LIMIT ? `${flat.slice(0, NOTIFICATION_TEXT_LIMIT - 1)}…` : flat;
}

/** Once per waiting view: when notify is on and the person may not see the question. */
function maybeNotify(view: WaitingView): void {
  const entry = entries.get(view);
  if (entry === undefined || entry.notified || !view.notify()) return;
  if (typeof Notification === "undefined") return;
  if (document.visibilityState === "visible" && isInView(entry)) return;
  entry.notified = true;
  const show = (): void => {
    if (!entries.has(view)) return;
    const notification = new Notification(WAITING_TEXT.notificationTitle, {
      body: plainText(view.text()),
      tag: "nbask-question-waiting",
    });
    notification.onclick = () => {
      window.focus();
      reveal(view, false);
      notification.close();
    };
    entry.notification = notification;
  };
  if (Notification.permission === "granted") show();
  else if (Notification.permission === "default") {
    void Notification.requestPermission().then((permission) => {
      if (permission === "granted") show();
    });
  }
}
