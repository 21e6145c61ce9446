// The page-wide "question waiting" signals (js/shell/attention.ts): the title marker, the badge for a
// widget out of view, and the opt-in desktop notification.
import { getByRole, queryByRole } from "@testing-library/dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DB, FEATURES, pendingModel, unmountAll, view } from "../testing/harness";
import { WAITING_TITLE_PREFIX, registerWaiting, waitingCount } from "./attention";

const ORIGINAL = "Untitled.ipynb - JupyterLab";

/** A stand-in IntersectionObserver: tests say which roots are in view. */
class FakeObserver {
  static instances: FakeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.instances.push(this);
  }
  observe(target: Element): void {
    this.targets.add(target);
  }
  unobserve(target: Element): void {
    this.targets.delete(target);
  }
  disconnect(): void {
    this.targets.clear();
  }
  report(target: Element, inView: boolean): void {
    if (!this.targets.has(target)) return;
    const size = inView ? 100 : 0;
    const rect = { width: size, height: size, top: 0, left: 0, bottom: size, right: size } as DOMRectReadOnly;
    this.callback(
      [{ target, isIntersecting: inView, boundingClientRect: rect } as unknown as IntersectionObserverEntry],
      this as unknown as IntersectionObserver,
    );
  }
}

function reportView(root: HTMLElement, inView: boolean): void {
  for (const observer of FakeObserver.instances) observer.report(root, inView);
}

let scrollIntoView = vi.fn();
let visibility: DocumentVisibilityState = "hidden";
let focused = false;

beforeEach(() => {
  FakeObserver.instances = [];
  vi.stubGlobal("IntersectionObserver", FakeObserver);
  visibility = "hidden";
  focused = false;
  vi.spyOn(document, "visibilityState", "get").mockImplementation(() => visibility);
  vi.spyOn(document, "hasFocus").mockImplementation(() => focused);
  scrollIntoView = vi.fn();
  Element.prototype.scrollIntoView = scrollIntoView;
  document.title = ORIGINAL;
});

afterEach(() => {
  unmountAll();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  expect(waitingCount()).toBe(0);
  expect(document.title).not.toContain(WAITING_TITLE_PREFIX);
});

/** Lets the MutationObserver on <title> run. */
async function flush(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
}

function badge() {
  return queryByRole(document.body, "button", { name: /^(Question|\d+ requests) waiting$/ });
}

describe("title marker", () => {
  it("marks the title while a question waits and restores it exactly once answered", () => {
    const model = pendingModel([DB]);
    view(model);
    expect(document.title).toBe(WAITING_TITLE_PREFIX + ORIGINAL);
    model.kernelUpdate({ _status: "answered" });
    expect(document.title).toBe(ORIGINAL);
  });

  it("puts one marker counting several requests and keeps it until the last one ends", () => {
    const first = pendingModel([DB]);
    const second = pendingModel([FEATURES]);
    view(first);
    view(second);
    expect(document.title).toBe(`● 2 requests waiting — ${ORIGINAL}`);
    first.kernelUpdate({ _status: "answered" });
    expect(document.title).toBe(WAITING_TITLE_PREFIX + ORIGINAL);
    second.kernelUpdate({ _status: "dismissed" });
    expect(document.title).toBe(ORIGINAL);
  });

  it("goes while a response is on its way", () => {
    const model = pendingModel([DB]);
    view(model);
    model.set("_response", { action: "dismiss" });
    expect(document.title).toBe(ORIGINAL);
  });

  it("follows the host's own title changes, without a loop", async () => {
    const model = pendingModel([DB]);
    view(model);
    document.title = "Other.ipynb - JupyterLab";
    await flush();
    expect(document.title).toBe(WAITING_TITLE_PREFIX + "Other.ipynb - JupyterLab");
    await flush();
    expect(document.title).toBe(WAITING_TITLE_PREFIX + "Other.ipynb - JupyterLab");
    model.kernelUpdate({ _status: "answered" });
    expect(document.title).toBe("Other.ipynb - JupyterLab");
  });

  it("is absent while the widget is in view on a focused, visible page", () => {
    visibility = "visible";
    focused = true;
    const { root } = view(pendingModel([DB]));
    reportView(root, true);
    expect(document.title).toBe(ORIGINAL);
    reportView(root, false);
    expect(document.title).toBe(WAITING_TITLE_PREFIX + ORIGINAL);
    reportView(root, true);
    focused = false;
    window.dispatchEvent(new Event("blur"));
    expect(document.title).toBe(WAITING_TITLE_PREFIX + ORIGINAL);
  });

  it("is removed when the view is destroyed", () => {
    const { cleanup } = view(pendingModel([DB]));
    cleanup();
    expect(document.title).toBe(ORIGINAL);
  });
});

describe("badge", () => {
  it("appears while a waiting widget is out of view; a click scrolls to it and focuses it", async () => {
    const { root } = view(pendingModel([DB]));
    expect(badge()).toBeNull();
    reportView(root, false);
    const button = getByRole(document.body, "button", { name: "Question waiting" });
    expect(root.contains(button)).toBe(false);
    button.click();
    expect(scrollIntoView).toHaveBeenCalled();
    expect(root.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(getByRole(root, "radio", { name: /PostgreSQL/ }));
    reportView(root, true);
    expect(badge()).toBeNull();
    await flush();
  });

  it("is one badge counting every waiting request, and goes when they are answered", async () => {
    const first = pendingModel([DB]);
    const second = pendingModel([FEATURES], { _request_id: "req-2" });
    const third = pendingModel([DB], { _request_id: "req-3" });
    const a = view(first);
    const b = view(second);
    view(third);
    reportView(a.root, false);
    reportView(b.root, false);
    expect(document.querySelectorAll(".nbask-waiting-badge")).toHaveLength(1);
    // Every request waiting on the page, in view or not; the title marker says the same.
    expect(badge()?.textContent).toBe("3 requests waiting");
    expect(document.title).toBe(`● 3 requests waiting — ${ORIGINAL}`);
    first.kernelUpdate({ _status: "answered" });
    expect(badge()?.textContent).toBe("2 requests waiting");
    expect(document.title).toBe(`● 2 requests waiting — ${ORIGINAL}`);
    third.kernelUpdate({ _status: "answered" });
    expect(badge()?.textContent).toBe("Question waiting");
    expect(document.title).toBe(WAITING_TITLE_PREFIX + ORIGINAL);
    await flush();
    expect(document.title).toBe(WAITING_TITLE_PREFIX + ORIGINAL);
    b.cleanup();
    expect(badge()).toBeNull();
  });

  it("counts a request shown in two views once", () => {
    const model = pendingModel([DB]);
    const a = view(model);
    const b = view(model);
    reportView(a.root, false);
    reportView(b.root, false);
    expect(badge()?.textContent).toBe("Question waiting");
    expect(document.title).toBe(WAITING_TITLE_PREFIX + ORIGINAL);
  });

  it("treats a widget with no size (a collapsed output area) as out of view", () => {
    const { root } = view(pendingModel([DB]));
    for (const observer of FakeObserver.instances) {
      const rect = { width: 0, height: 0 } as DOMRectReadOnly;
      (observer as unknown as { callback: IntersectionObserverCallback }).callback(
        [{ target: root, isIntersecting: true, boundingClientRect: rect } as unknown as IntersectionObserverEntry],
        observer as unknown as IntersectionObserver,
      );
    }
    expect(badge()).not.toBeNull();
  });
});

describe("one copy of the module per model", () => {
  /** A waiting view as the shell registers it, for a request of its own. */
  function waitingView() {
    const root = document.body.appendChild(document.createElement("div"));
    return { root, request: {}, focusTarget: () => null, text: () => "Q", notify: () => false };
  }

  it("shares one marker and one badge counting the requests of every copy", async () => {
    // anywidget imports the module once per model: a second copy, as a second widget has.
    vi.resetModules();
    const other = await import("./attention");
    const [a, b, c] = [waitingView(), waitingView(), waitingView()];
    const stopA = registerWaiting(a);
    const stopB = other.registerWaiting(b);
    const stopC = other.registerWaiting(c);
    for (const { root } of [a, b, c]) reportView(root, false);
    expect(document.title).toBe(`● 3 requests waiting — ${ORIGINAL}`);
    expect(document.querySelectorAll(".nbask-waiting-badge")).toHaveLength(1);
    expect(badge()?.textContent).toBe("3 requests waiting");
    stopB();
    expect(document.title).toBe(`● 2 requests waiting — ${ORIGINAL}`);
    expect(badge()?.textContent).toBe("2 requests waiting");
    stopA();
    stopC();
    expect(document.title).toBe(ORIGINAL);
    expect(badge()).toBeNull();
    for (const { root } of [a, b, c]) root.remove();
  });
});

describe("notification", () => {
  function stubNotification(permission: NotificationPermission) {
    const shown: { title: string; body: string | undefined }[] = [];
    const requestPermission = vi.fn(() => Promise.resolve<NotificationPermission>("granted"));
    class FakeNotification {
      static permission = permission;
      static requestPermission = requestPermission;
      onclick: (() => void) | null = null;
      close = vi.fn();
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, body: options?.body });
      }
    }
    vi.stubGlobal("Notification", FakeNotification);
    return { shown, requestPermission };
  }

  it("is never shown nor asked for without notify", () => {
    const { shown, requestPermission } = stubNotification("default");
    const { root } = view(pendingModel([DB]));
    reportView(root, false);
    expect(requestPermission).not.toHaveBeenCalled();
    expect(shown).toEqual([]);
  });

  it("asks for permission only when notify is on and the question waits out of view", async () => {
    visibility = "visible";
    const { shown, requestPermission } = stubNotification("default");
    const { root } = view(pendingModel([DB], { _notify: true }));
    expect(requestPermission).not.toHaveBeenCalled();
    reportView(root, false);
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await flush();
    expect(shown).toEqual([{ title: "Question waiting", body: DB.question }]);
    reportView(root, true);
    reportView(root, false);
    expect(shown).toHaveLength(1);
  });

  it("is shown at once on a hidden page, before any report of the widget's place", async () => {
    const { shown, requestPermission } = stubNotification("default");
    view(pendingModel([DB], { _notify: true }));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await flush();
    expect(shown).toEqual([{ title: "Question waiting", body: DB.question }]);
  });

  it("is not shown for a question in view on a visible page", () => {
    visibility = "visible";
    const { shown, requestPermission } = stubNotification("granted");
    const { root } = view(pendingModel([DB], { _notify: true }));
    reportView(root, true);
    expect(requestPermission).not.toHaveBeenCalled();
    expect(shown).toEqual([]);
  });

  it("uses an approval's title, and shows at once when already permitted", () => {
    const { shown, requestPermission } = stubNotification("granted");
    const { root } = view(pendingModel([], { _kind: "approval", _title: "Run shell command", _details: "ls", _notify: true }));
    reportView(root, false);
    expect(requestPermission).not.toHaveBeenCalled();
    expect(shown).toEqual([{ title: "Question waiting", body: "Run shell command" }]);
  });
});
