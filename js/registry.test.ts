// The registry from kind to view: each known kind renders its own view; an unknown one fails
// loudly (an error in the widget and on the console) and renders no question.
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeModel, pendingModel, unmountAll, view } from "./testing/harness";
import type { Kind } from "./contract/contract";
import { VIEWS } from "./kinds/all";
import approvalWidget from "./kinds/approval/widget";
import formWidget from "./kinds/form/widget";
import questionWidget from "./kinds/question/widget";
import { unknownKindText } from "./widget";

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

describe("each kind's own bundle", () => {
  const MODULES: Record<Kind, typeof questionWidget> = {
    question: questionWidget,
    approval: approvalWidget,
    form: formWidget,
  };
  const KINDS = Object.keys(MODULES) as Kind[];

  it.each(KINDS)("the %s bundle shows its own kind and no other", (kind) => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const shown of KINDS) {
      const model = shown === "question" ? pendingModel() : new FakeModel({ _kind: shown, _title: "Deploy" });
      const { root } = view(model, { module: MODULES[kind] });
      if (shown === kind) {
        expect(root.dataset.kind).toBe(kind);
        expect(root.dataset.status).toBe("pending");
      } else {
        expect(root.querySelector('[role="alert"]')?.textContent).toBe(unknownKindText(shown));
        expect(root.dataset.status).toBe("error");
      }
    }
    expect(error).toHaveBeenCalledTimes(KINDS.length - 1);
  });
});
