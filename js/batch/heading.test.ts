// A batch's heading on its lead card (js/batch/heading.ts): the count, Approve all / Reject all
// with two or more approvals, the confirmation's snapshot of ids and the message it sends.
import { getByRole, queryByRole, queryByText, within } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { BatchState } from "../contract/contract";
import { BATCH_TEXT, readBatch } from "./heading";
import { DB, FakeModel, keydown, pendingModel, unmountAll, view } from "../testing/harness";

afterEach(unmountAll);

function batch(patch: Partial<BatchState> = {}): BatchState {
  return { id: "b1", lead: true, waiting: 3, approvals: ["r1", "r2", "r3"], ...patch };
}

function approval(extra: Partial<BatchState> | null = {}): FakeModel {
  return new FakeModel({
    _kind: "approval",
    _request_id: "r1",
    _title: "Drop table t0",
    _details: "DROP TABLE t0",
    _batch: extra === null ? {} : batch(extra),
  });
}

function heading(root: HTMLElement): HTMLElement | null {
  return root.querySelector<HTMLElement>(".nbask-batch");
}

describe("the count", () => {
  it("says how many requests wait, above the card's own content, and follows the kernel", () => {
    const model = approval();
    const { root } = view(model);
    const node = heading(root);
    expect(node).not.toBeNull();
    expect(root.firstElementChild).toBe(node);
    expect(getByRole(root, "group", { name: "3 requests waiting" })).toBe(node);
    const count = within(root).getByText("3 requests waiting");
    expect(count.getAttribute("aria-live")).toBe("polite");
    model.kernelUpdate({ _batch: batch({ waiting: 1, approvals: ["r1"] }) });
    expect(count.textContent).toBe("1 request waiting");
    model.kernelUpdate({ _batch: batch({ waiting: 2 }) });
    expect(count.textContent).toBe("2 requests waiting");
  });

  it("is hidden when the request waits alone, on every card but the lead, and once none wait", () => {
    expect(heading(view(approval(null)).root)).toBeNull();
    expect(heading(view(approval({ lead: false })).root)).toBeNull();
    expect(heading(view(new FakeModel({ _questions: [DB] })).root)).toBeNull(); // an older kernel: no trait
    const model = approval();
    const { root } = view(model);
    model.kernelUpdate({ _batch: batch({ waiting: 0, approvals: [] }) });
    expect(heading(root)).toBeNull();
  });

  it("moves to the next card still waiting, never staying on an answered one, and focus follows it", () => {
    for (const order of ["old lead first", "new lead first"]) {
      const first = approval();
      const second = new FakeModel({ _kind: "approval", _request_id: "r2", _title: "Drop table t1", _details: "DROP TABLE t1", _batch: batch({ lead: false, waiting: 0, approvals: [] }) });
      const a = view(first).root;
      const b = view(second).root;
      expect(heading(b)).toBeNull();
      within(a).getByText("3 requests waiting").focus();
      // As the kernel sends it: the batch's change, then the card's own outcome.
      const oldLead = (): void => {
        first.kernelUpdate({ _batch: batch({ lead: false, waiting: 0, approvals: [] }) });
        first.kernelUpdate({ _status: "answered", _result: { decision: "approve" } });
      };
      const newLead = (): void => second.kernelUpdate({ _batch: batch({ waiting: 2, approvals: ["r2", "r3"] }) });
      if (order === "old lead first") {
        oldLead();
        newLead();
      } else {
        newLead();
        oldLead();
      }
      expect(heading(a)).toBeNull();
      expect(b.firstElementChild).toBe(heading(b));
      // Focus is not dropped on the page: it is in the card that now carries the heading.
      expect(b.contains(document.activeElement)).toBe(true);
      unmountAll();
    }
  });

  it("reads a malformed trait as no batch", () => {
    expect(readBatch({ lead: true, waiting: 2 })).toBeNull();
    expect(readBatch("b1")).toBeNull();
    expect(readBatch({ id: "b", lead: "yes", waiting: "x", approvals: ["a", 3] })).toEqual({
      id: "b",
      lead: false,
      waiting: 0,
      approvals: ["a"],
      high_risk: [],
    });
    // A high-risk entry that is not among the approvals, or not an object, is left out.
    expect(readBatch({ id: "b", approvals: ["a"], high_risk: [{ id: "z", action: "x" }, "a"] })?.high_risk).toEqual([]);
  });

  it("shows on a question's lead card too, without an all button when no approvals wait", () => {
    const model = pendingModel([DB], { _batch: batch({ approvals: [] }) });
    const { root } = view(model);
    expect(heading(root)?.querySelector(".nbask-batch-count")?.textContent).toBe("3 requests waiting");
    expect(queryByRole(root, "button", { name: /all/ })).toBeNull();
  });
});

describe("Approve all and Reject all", () => {
  it("are offered only with two or more approvals waiting, counting them", () => {
    const model = approval({ approvals: ["r1"] });
    const { root } = view(model);
    expect(queryByRole(root, "button", { name: /^Approve all/ })).toBeNull();
    expect(queryByRole(root, "button", { name: /^Reject all/ })).toBeNull();
    model.kernelUpdate({ _batch: batch({ approvals: ["r1", "r2"] }) });
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Approve all (2)" }).disabled).toBe(false);
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Reject all (2)" }).disabled).toBe(false);
    model.kernelUpdate({ _batch: batch() });
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Approve all (3)" }).disabled).toBe(false);
  });

  it("leave a high-risk approval out of Approve all, naming it, and Reject all takes it", async () => {
    const user = userEvent.setup();
    const risky = [{ id: "r2", action: "DROP TABLE users" }];
    const model = approval({ high_risk: risky });
    const { root } = view(model);
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Approve all (2)" }).disabled).toBe(false); // r1 and r3 only
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Reject all (3)" }).disabled).toBe(false);
    await user.click(getByRole(root, "button", { name: "Approve all (2)" }));
    expect(
      within(root).getByText(
        'Approve all 2 approvals? Each runs as shown, without edits. High risk, left for its own card: "DROP TABLE users".',
      ),
    ).toBeTruthy();
    await user.click(getByRole(root, "button", { name: "Approve 2" }));
    expect(model.send).toHaveBeenCalledWith({ batch: "approve_all", batch_id: "b1", request_ids: ["r1", "r3"] });
  });

  it("offer no Approve all when fewer than two approvals are not high risk", () => {
    const risky = [
      { id: "r1", action: "Drop t1" },
      { id: "r2", action: "Drop t2" },
    ];
    const { root } = view(approval({ high_risk: risky }));
    expect(queryByRole(root, "button", { name: /^Approve all/ })).toBeNull();
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Reject all (3)" }).disabled).toBe(false);
  });

  it("ask first, focus on Keep reviewing; Keep reviewing and Escape send nothing", async () => {
    const user = userEvent.setup();
    const model = approval();
    const { root } = view(model);
    const approveAll = getByRole(root, "button", { name: "Approve all (3)" });
    await user.click(approveAll);
    expect(queryByText(root, BATCH_TEXT.confirmApprove(3))).not.toBeNull();
    expect(queryByText(root, "Approve all 3 approvals? Each runs as shown, without edits.")).not.toBeNull();
    const keep = getByRole(root, "button", { name: "Keep reviewing" });
    expect(document.activeElement).toBe(keep);
    expect(getByRole<HTMLButtonElement>(root, "button", { name: "Approve 3" }).disabled).toBe(false);
    await user.click(keep);
    expect(queryByRole(root, "button", { name: "Keep reviewing" })).toBeNull();
    expect(document.activeElement).toBe(approveAll);

    await user.click(getByRole(root, "button", { name: "Reject all (3)" }));
    expect(queryByText(root, "Reject all 3 approvals?")).not.toBeNull();
    const event = keydown(getByRole(root, "button", { name: "Keep reviewing" }), "Escape");
    expect(event.defaultPrevented).toBe(true);
    expect(queryByRole(root, "button", { name: "Reject 3" })).toBeNull();
    // Escape closed the confirmation only: the card below did not take it (no dismissal).
    expect(root.dataset.status).toBe("pending");
    expect(model.send).not.toHaveBeenCalled();
    expect(model.lastResponse()).toEqual({});
  });

  it("sends the ids the confirmation named, then shows Sending… until the count changes", async () => {
    const user = userEvent.setup();
    const model = approval();
    const { root } = view(model);
    await user.click(getByRole(root, "button", { name: "Approve all (3)" }));
    // A fourth approval joins while the person reads: the confirmation still names three.
    model.kernelUpdate({ _batch: batch({ waiting: 4, approvals: ["r1", "r2", "r3", "r4"] }) });
    expect(queryByText(root, BATCH_TEXT.confirmApprove(3))).not.toBeNull();
    await user.click(getByRole(root, "button", { name: "Approve 3" }));
    expect(model.send).toHaveBeenCalledTimes(1);
    expect(model.send).toHaveBeenCalledWith({ batch: "approve_all", batch_id: "b1", request_ids: ["r1", "r2", "r3"] });
    expect(model.lastResponse()).toEqual({}); // the card's own response is not written
    expect(root.querySelector<HTMLElement>(".nbask-batch-sending")?.hidden).toBe(false);
    expect(within(root).getByText("Sending…").getAttribute("role")).toBe("status");
    expect(queryByRole(root, "button", { name: /all/ })).toBeNull();
    expect(root.contains(document.activeElement)).toBe(true);
    model.kernelUpdate({ _batch: batch({ waiting: 1, approvals: ["r4"] }) });
    expect(within(root).getByText("Sending…").hidden).toBe(true);
    expect(heading(root)?.textContent).toContain("1 request waiting");
    // One approval left: no "all" button for it.
    expect(queryByRole(root, "button", { name: /all/ })).toBeNull();
  });

  it("a confirmation open while approvals are decided elsewhere names only those still waiting", async () => {
    const user = userEvent.setup();
    const model = approval();
    const { root } = view(model);
    await user.click(getByRole(root, "button", { name: "Approve all (3)" }));
    // r2 was approved on its own card: the confirmation now names two.
    model.kernelUpdate({ _batch: batch({ waiting: 2, approvals: ["r1", "r3"] }) });
    expect(queryByText(root, BATCH_TEXT.confirmApprove(2))).not.toBeNull();
    await user.click(getByRole(root, "button", { name: "Approve 2" }));
    expect(model.send).toHaveBeenCalledWith({ batch: "approve_all", batch_id: "b1", request_ids: ["r1", "r3"] });
  });

  it("a confirmation left with fewer than two approvals closes, focus on the count", async () => {
    const user = userEvent.setup();
    const model = approval();
    const { root } = view(model);
    await user.click(getByRole(root, "button", { name: "Reject all (3)" }));
    model.kernelUpdate({ _batch: batch({ waiting: 1, approvals: ["r3"] }) });
    expect(queryByRole(root, "button", { name: "Keep reviewing" })).toBeNull();
    expect(document.activeElement?.textContent).toBe("1 request waiting");
    expect(model.send).not.toHaveBeenCalled();
  });

  it("Sending… ends once none of the approvals sent waits, even if the count is the same", async () => {
    const user = userEvent.setup();
    const model = approval({ approvals: ["r1", "r2"] });
    const { root } = view(model);
    await user.click(getByRole(root, "button", { name: "Approve all (2)" }));
    await user.click(getByRole(root, "button", { name: "Approve 2" }));
    expect(within(root).getByText("Sending…").hidden).toBe(false);
    // Both were decided elsewhere as two questions joined: the kernel had nothing left to decide.
    model.kernelUpdate({ _batch: batch({ waiting: 3, approvals: [] }) });
    expect(within(root).getByText("Sending…").hidden).toBe(true);
  });

  it("Reject all sends reject_all", async () => {
    const user = userEvent.setup();
    const model = approval({ approvals: ["r2", "r3"] });
    const { root } = view(model);
    await user.click(getByRole(root, "button", { name: "Reject all (2)" }));
    await user.click(getByRole(root, "button", { name: "Reject 2" }));
    expect(model.send).toHaveBeenCalledWith({ batch: "reject_all", batch_id: "b1", request_ids: ["r2", "r3"] });
  });

  it("keys typed on the heading never reach the card below", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB], { _batch: batch({ approvals: ["a1", "a2"] }) });
    const { root } = view(model);
    getByRole(root, "button", { name: "Approve all (2)" }).focus();
    await user.keyboard("1");
    expect(getByRole<HTMLInputElement>(root, "radio", { name: /PostgreSQL/ }).checked).toBe(false);
  });
});
