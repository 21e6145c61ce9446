// The registry from kind to view: each known kind renders its own view; an unknown one fails
// loudly (an error in the widget and on the console) and renders no question.
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeModel, pendingModel, unmountAll, view } from "./testing/harness";
import { VIEWS, unknownKindText } from "./widget";

afterEach(() => {
  unmountAll();
  vi.restoreAllMocks();
});

describe("kind registry", () => {
  it("has a view for each kind the kernel sends", () => {
    expect(Object.keys(VIEWS).sort()).toEqual(["approval", "form", "question"]);
  });

  it("renders a known kind as its own view", () => {
    const { root } = view(pendingModel());
    expect(root.dataset.kind).toBe("question");
  });

  it("shows an error and no question for an unknown kind", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const model = pendingModel();
    model.set("_kind", "survey");
    const { root } = view(model);
    const alert = root.querySelector('[role="alert"]');
    expect(alert?.textContent).toBe(unknownKindText("survey"));
    expect(alert?.hasAttribute("hidden")).toBe(false);
    expect(root.dataset.status).toBe("error");
    expect(root.querySelector("fieldset, input, button, textarea")).toBeNull();
    expect(error).toHaveBeenCalledWith(unknownKindText("survey"));
  });

  it("fails loudly on a missing kind too", () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const model = new FakeModel({ _kind: "" as never });
    const { root } = view(model);
    expect(root.querySelector('[role="alert"]')?.textContent).toBe(unknownKindText(""));
    expect(root.querySelector("fieldset")).toBeNull();
  });
});
