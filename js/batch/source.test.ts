// Who asks, on a batch's cards (js/batch/source.ts): named only when the batch's requests come from
// more than one source, as plain text, at the top of the card under the batch's heading.
import { afterEach, describe, expect, it } from "vitest";
import type { BatchState } from "../contract/contract";
import { MAX_SOURCE_CHARS } from "../contract/contract";
import { shownSource } from "./source";
import { FakeModel, unmountAll, view } from "../testing/harness";

afterEach(unmountAll);

const SEVERAL: BatchState = { id: "b1", lead: false, waiting: 0, approvals: [], sources: 2 };

function card(source: string, batch: BatchState | Record<string, never>): HTMLElement {
  return view(new FakeModel({ _kind: "approval", _request_id: "r1", _title: "Drop table t0", _details: "DROP TABLE t0", _source: source, _batch: batch })).root;
}

function line(root: HTMLElement): HTMLElement | null {
  return root.querySelector<HTMLElement>(".nbask-source");
}

describe("the source of a request", () => {
  it("is named only in a batch of more than one source, and only where the request says one", () => {
    expect(shownSource("billing agent", SEVERAL)).toBe("billing agent");
    expect(shownSource("billing agent", { ...SEVERAL, sources: 1 })).toBe("");
    expect(shownSource("billing agent", {})).toBe(""); // waiting alone
    expect(shownSource("billing agent", { ...SEVERAL, sources: "many" })).toBe("");
    expect(shownSource("", SEVERAL)).toBe("");
    expect(shownSource("  two\nlines ", SEVERAL)).toBe("two lines");
    expect(shownSource("x".repeat(500), SEVERAL)).toHaveLength(MAX_SOURCE_CHARS);
  });

  it("shows as plain text at the top of the card, pending and answered", () => {
    const model = new FakeModel({ _kind: "approval", _request_id: "r1", _title: "Drop table t0", _details: "DROP TABLE t0", _source: "<b>billing</b> agent", _batch: SEVERAL });
    const { root } = view(model);
    const shown = line(root);
    expect(shown?.hidden).toBe(false);
    expect(shown?.textContent).toBe("From <b>billing</b> agent");
    expect(shown?.querySelector("b")).toBeNull();
    expect(root.firstElementChild).toBe(shown);
    model.kernelUpdate({ _status: "answered", _result: { decision: "approve" } });
    expect(line(root)?.hidden).toBe(false);
    expect(line(root)?.textContent).toBe("From <b>billing</b> agent");
  });

  it("is hidden when every request of the batch has the same source, or none", () => {
    expect(line(card("billing agent", { ...SEVERAL, sources: 1 }))?.hidden).toBe(true);
    expect(line(card("", SEVERAL))?.hidden).toBe(true);
    expect(line(card("billing agent", {}))?.hidden).toBe(true);
  });
});

describe("a card of no batch", () => {
  it("holds no trace of a source, not even hidden text", () => {
    const root = card("billing agent", {});
    expect(root.textContent).not.toContain("From");
    expect(line(root)?.childElementCount).toBe(0);
  });
});
