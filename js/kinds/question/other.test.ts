// Long and many questions: the Other row (its textbox shown only once chosen, one line, a digit
// of its own), the keys hint counting it, and a number field's bounds as its hint.
import { getByRole, within } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { Question } from "../../contract/contract";
import { boundsHint } from "../form/controls";
import { showsOtherText, singleLine } from "../../parts/option";
import { DB, FEATURES, pendingView, sent, unmountAll } from "../../testing/harness";

afterEach(unmountAll);

const group = (root: HTMLElement, question: Question): HTMLElement => getByRole(root, "group", { name: question.question });
const otherBox = (root: HTMLElement, question: Question): HTMLElement | null =>
  within(group(root, question)).queryByRole("textbox", { name: "Other" });

describe("the Other textbox", () => {
  it("is shown while Other is chosen, while it holds text, or while the person is in it", () => {
    expect(showsOtherText(false, "", false)).toBe(false);
    expect(showsOtherText(true, "", false)).toBe(true);
    expect(showsOtherText(false, "kept", false)).toBe(true);
    expect(showsOtherText(false, "", true)).toBe(true);
  });

  it("keeps an answer on one line", () => {
    expect(singleLine("a\nb\r\nc\rd")).toBe("a b c d");
    expect(singleLine("plain")).toBe("plain");
  });
});

describe("Other's digit", () => {
  it("is the one after the options': it chooses Other and moves into its textbox", async () => {
    const { user, model, root } = pendingView([DB]);
    getByRole(root, "radio", { name: "SQLite" }).focus();
    expect(otherBox(root, DB)).toBeNull();
    await user.keyboard(String(DB.options.length + 1));
    const text = otherBox(root, DB);
    expect(text).not.toBeNull();
    expect(document.activeElement).toBe(text);
    expect(within(group(root, DB)).getByRole<HTMLInputElement>("radio", { name: "Other" }).checked).toBe(true);
    await user.keyboard("DuckDB{Enter}");
    expect(sent(model).answers).toEqual([{ selected: [], other: "DuckDB" }]);
  });

  it("toggles Other in a multi select; unchecked with no text, its box goes", async () => {
    const user = userEvent.setup();
    const { root } = pendingView([FEATURES]);
    const other = within(group(root, FEATURES)).getByRole<HTMLInputElement>("checkbox", { name: "Other" });
    getByRole(root, "checkbox", { name: "Auth" }).focus();
    await user.keyboard(String(FEATURES.options.length + 1));
    expect(other.checked).toBe(true);
    other.focus();
    await user.keyboard(String(FEATURES.options.length + 1));
    expect(other.checked).toBe(false);
    expect(otherBox(root, FEATURES)).toBeNull();
    expect(document.activeElement).toBe(other);
  });
});

describe("number bounds hint", () => {
  it("says both bounds as a range, one as more or less, none as nothing", () => {
    expect(boundsHint(1, 10)).toBe("1–10");
    expect(boundsHint(0.5, null)).toBe("0.5 or more");
    expect(boundsHint(null, -2)).toBe("-2 or less");
    expect(boundsHint(null, null)).toBe("");
  });
});
