// The approval's stakes: the risk tag and button weight, Restore original in edit mode, and
// the resolved block's diff of an edit.
import { getByRole, queryByRole, within } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalResponse } from "../../contract/contract";
import { FakeModel, sent, unmountAll, view } from "../../testing/harness";

afterEach(unmountAll);

const DETAILS = "DELETE FROM events\nWHERE day < 7";

function open(extra: Record<string, unknown> = {}) {
  const model = new FakeModel({ _kind: "approval", _title: "Delete old events", _details: DETAILS, ...extra });
  return { user: userEvent.setup(), model, ...view(model) };
}

describe("risk", () => {
  it("high: a 'High risk' tag describes the group, Approve is danger-filled, focus is on Reject", () => {
    const { root } = open({ _risk: "high" });
    const group = getByRole(root, "group", { name: "Delete old events" });
    expect(group.getAttribute("aria-describedby")).toBe(within(root).getByText("High risk").id);
    const approve = getByRole(root, "button", { name: "Approve" });
    expect(approve.classList.contains("nbask-danger-fill")).toBe(true);
    expect(approve.classList.contains("nbask-primary")).toBe(false);
    expect(document.activeElement).toBe(getByRole(root, "button", { name: "Reject" }));
    expect(document.activeElement).not.toBe(approve);
  });

  it.each([
    ["medium", "Medium risk"],
    ["low", "Low risk"],
  ])("%s: a '%s' tag and the usual buttons", (risk, text) => {
    const { root } = open({ _risk: risk });
    expect(within(root).getByText(text).dataset.risk).toBe(risk);
    expect(getByRole(root, "button", { name: "Approve" }).classList.contains("nbask-primary")).toBe(true);
  });

  it("none, or one this version does not know: no tag, the usual look; Reject always outlined danger", () => {
    for (const risk of [undefined, "", "extreme"]) {
      const { root } = open(risk === undefined ? {} : { _risk: risk });
      expect(root.querySelector(".nbask-risk")).toBeNull();
      expect(getByRole(root, "button", { name: "Approve" }).classList.contains("nbask-primary")).toBe(true);
      expect(getByRole(root, "button", { name: "Reject" }).classList.contains("nbask-danger")).toBe(true);
      unmountAll();
    }
  });
});

describe("Restore original", () => {
  it("is offered only while editing and puts the original details back", async () => {
    const { root, user, model } = open();
    expect(queryByRole(root, "button", { name: "Restore original" })).toBeNull();
    await user.click(getByRole(root, "button", { name: "Edit" }));
    const box = getByRole<HTMLTextAreaElement>(root, "textbox", { name: "Details" });
    await user.clear(box);
    await user.type(box, "DROP TABLE events");
    await user.click(getByRole(root, "button", { name: "Restore original" }));
    expect(box.value).toBe(DETAILS);
    expect(document.activeElement).toBe(box);
    await user.click(getByRole(root, "button", { name: "Approve" }));
    expect(sent(model) as unknown as ApprovalResponse).toMatchObject({ action: "approve", edited_details: DETAILS });
  });
});

describe("resolved edit", () => {
  it("shows the changes as removed and added lines with text marks", () => {
    const result = { decision: "edit", edited: "DELETE FROM events\nWHERE day < 30", reason: "" };
    const { root } = open({ _status: "answered", _result: result });
    const changes = getByRole(root, "region", { name: "Changes" });
    const lines = [...changes.querySelectorAll(".nbask-diff-line")].map((l) => l.textContent);
    // After an added line, screen readers hear what changed within it.
    expect(lines).toEqual([" DELETE FROM events", "-Removed: WHERE day < 7", "+Added: WHERE day < 30 (Changed: 7 → 30)"]);
    expect(changes.querySelector("del")?.textContent).toContain("WHERE day < 7");
    expect(changes.querySelector("ins")?.textContent).toContain("WHERE day < 30");
    // Within the changed lines, the word that changed is marked, and only it.
    expect([...changes.querySelectorAll("del mark.nbask-diff-word")].map((m) => m.textContent)).toEqual(["7"]);
    expect([...changes.querySelectorAll("ins mark.nbask-diff-word")].map((m) => m.textContent)).toEqual(["30"]);
  });

  it("marks the changed word in one long command, and the title follows the edit, marked, with the title as asked", () => {
    const before = "kubectl apply -f deploy/web.yaml --context prod --namespace web --wait --timeout 300s";
    const edited = before.replace("prod", "staging");
    const model = new FakeModel({ _kind: "approval", _title: "Deploy web to prod", _details: before, _status: "answered", _result: { decision: "edit", edited, reason: "" } });
    const { root } = view(model);
    expect([...root.querySelectorAll("mark.nbask-diff-word")].map((m) => m.textContent)).toEqual(["prod", "staging"]);
    const title = root.querySelector(".nbask-action");
    expect(title?.textContent).toBe("Deploy web to staging (edited)");
    expect(title?.querySelector("ins.nbask-edited-word")?.textContent).toBe("staging");
    expect(root.querySelector(".nbask-asked-as")?.textContent).toBe("As asked: Deploy web to prod");
  });

  it("keeps the title as it is when the edit changed nothing it names, and never reads model text as markup", () => {
    const before = "<b>x</b> --limit 10";
    const model = new FakeModel({ _kind: "approval", _title: "Run <b>x</b>", _details: before, _status: "answered", _result: { decision: "edit", edited: "<b>x</b> --limit 20", reason: "" } });
    const { root } = view(model);
    expect(root.querySelector(".nbask-action")?.textContent).toBe("Run <b>x</b>");
    expect(root.querySelector(".nbask-asked-as")).toBeNull();
    expect(root.querySelector("b")).toBeNull();
    expect(root.querySelector("ins mark.nbask-diff-word")?.textContent).toBe("20");
  });
});
