// A notebook saved by an earlier version holds each widget's state under the names without "_":
// rendered now, it still shows how each request ended.
import type { AnyModel } from "@anywidget/types";
import { afterEach, describe, expect, it } from "vitest";
import type { Model } from "./contract";
import { hasOldNames, readable } from "./oldnames";
import widget from "../kinds/all";
import { DB, FakeModel } from "../testing/harness";

/** Saved widget state as an earlier version wrote it: no key starts with "_". */
class SavedModel {
  readonly listened: string[] = [];
  constructor(private readonly data: Record<string, unknown>) {}
  get(key: string): unknown {
    return this.data[key];
  }
  set(key: string, value: unknown): void {
    this.data[key] = value;
  }
  on(name: string): void {
    this.listened.push(name);
  }
  off(): void {}
  save_changes(): void {}
  send(): void {}
}

const hosts: HTMLElement[] = [];
afterEach(() => {
  for (const host of hosts.splice(0)) host.remove();
});

function show(saved: SavedModel): HTMLElement {
  const host = document.createElement("div");
  document.body.append(host);
  hosts.push(host);
  widget.render({ model: saved as unknown as AnyModel<Model>, el: host, signal: new AbortController().signal, host: {} as never, experimental: {} as never });
  const root = host.querySelector<HTMLElement>(".nbask");
  if (root === null) throw new Error("nothing rendered");
  return root;
}

describe("state saved under the old names", () => {
  it("shows an answered question's answers", () => {
    const saved = new SavedModel({
      kind: "question",
      request_id: "r-old",
      status: "answered",
      questions: [DB],
      result: { answers: { [DB.question]: "SQLite" }, note: "" },
      response: {},
      deadline_ms: 0,
    });
    const root = show(saved);
    expect(root.dataset.status).toBe("answered");
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Answered");
    expect([...root.querySelectorAll("dd")].map((dd) => dd.textContent)).toEqual(["SQLite"]);
    expect(saved.listened.some((name) => name.includes("change:_"))).toBe(false);
  });

  it("shows an approval's decision and its reason", () => {
    const root = show(
      new SavedModel({
        kind: "approval",
        request_id: "r-old",
        status: "answered",
        title: "Drop table",
        details: "DROP TABLE t",
        details_schema: null,
        error: "",
        result: { decision: "reject", edited: null, reason: "wrong table", note: "" },
        response: {},
        deadline_ms: 0,
      }),
    );
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Rejected");
    expect(root.textContent).toContain("Drop table");
    expect(root.textContent).toContain("wrong table");
  });

  it("leaves a model of this version as it is", () => {
    const model = new FakeModel({ _status: "answered" });
    expect(hasOldNames(model as unknown as AnyModel<Model>)).toBe(false);
    expect(readable(model as unknown as AnyModel<Model>)).toBe(model);
  });
});
