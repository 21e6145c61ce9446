// Up and Down between the cards of requests waiting together (js/focus/cardnav.ts): from a button or
// the batch heading to the next or previous waiting card's first control, in reading order;
// never out of a choice group or a text box, never to an answered card.
import { getByRole } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { BatchState } from "../contract/contract";
import { DB, FakeModel, keydown, pendingModel, unmountAll, view } from "../testing/harness";

afterEach(() => {
  unmountAll();
  document.body.replaceChildren();
});

function batch(lead: boolean): BatchState {
  return { id: "b1", lead, waiting: 3, approvals: ["r1", "r3"] };
}

function approval(id: string, title: string, lead: boolean): FakeModel {
  return new FakeModel({ _kind: "approval", _request_id: id, _title: title, _details: title.toUpperCase(), _batch: batch(lead) });
}

/** Three cards in reading order: an approval (the lead, with the heading), a question, an approval. */
function threeCards(): HTMLElement[] {
  const models = [approval("r1", "Drop table t1", true), pendingModel([DB], { _request_id: "r2", _batch: batch(false) }), approval("r3", "Drop table t3", false)];
  return models.map((model) => {
    (document.activeElement as HTMLElement | null)?.blur();
    return view(model).root;
  });
}

describe("Up and Down between cards", () => {
  it("go from a card's button to the next or previous card's first control, and stop at the ends", async () => {
    const user = userEvent.setup();
    const [first, question, last] = threeCards() as [HTMLElement, HTMLElement, HTMLElement];
    const reject1 = getByRole(first, "button", { name: "Reject" });
    reject1.focus();
    await user.keyboard("{ArrowDown}");
    const recommended = getByRole<HTMLInputElement>(question, "radio", { name: "PostgreSQL (Recommended)" });
    expect(document.activeElement).toBe(recommended);
    expect(recommended.checked).toBe(false); // reaching a card chooses nothing
    getByRole(question, "button", { name: "Submit" }).focus();
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(getByRole(last, "button", { name: "Reject" }));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(getByRole(last, "button", { name: "Reject" }));
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(recommended);
  });

  it("keep their meaning in a choice group and a text box", async () => {
    const user = userEvent.setup();
    const [first, question] = threeCards() as [HTMLElement, HTMLElement, HTMLElement];
    getByRole(question, "radio", { name: "PostgreSQL (Recommended)" }).focus();
    await user.keyboard("{ArrowDown}");
    expect(question.contains(document.activeElement)).toBe(true);
    const reason = getByRole<HTMLTextAreaElement>(first, "textbox", { name: "Reason" });
    reason.focus();
    const event = keydown(reason, "ArrowDown");
    expect(event.defaultPrevented).toBe(false);
    expect(document.activeElement).toBe(reason);
  });

  it("go from the batch heading into its own card first, and pass over an answered card", async () => {
    const user = userEvent.setup();
    const models = [approval("r1", "Drop table t1", true), approval("r2", "Drop table t2", false), approval("r3", "Drop table t3", false)];
    const roots = models.map((model) => view(model).root);
    getByRole(roots[0] as HTMLElement, "button", { name: "Approve all (2)" }).focus();
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(getByRole(roots[0] as HTMLElement, "button", { name: "Reject" }));
    models[1]?.kernelUpdate({ _status: "answered", _result: { decision: "approve" } });
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(getByRole(roots[2] as HTMLElement, "button", { name: "Reject" }));
  });

  it("do nothing for a request waiting alone", async () => {
    const user = userEvent.setup();
    const { root } = view(new FakeModel({ _kind: "approval", _request_id: "r9", _title: "Deploy", _details: "make deploy" }));
    const reject = getByRole(root, "button", { name: "Reject" });
    reject.focus();
    const event = keydown(reject, "ArrowDown");
    expect(event.defaultPrevented).toBe(false);
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(reject);
  });
});
