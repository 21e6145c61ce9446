// The form's draft as a pure reducer: actions, saving and restoring.
import { describe, expect, it } from "vitest";
import { MAX_FIELD_CHARS } from "../../contract/contract";
import {
  emptyFormDraft,
  formDraftData,
  reduceFormDraft,
  restoreFormDraft,
  restoredValues,
} from "./draft";
import { field } from "../../testing/harness";

const NAME = field({ name: "name", type: "string" });
const AGREE = field({ name: "agree", type: "boolean" });
const TAGS = field({ name: "tags", type: "multi_choice", options: [{ value: "a", title: "A" }, { value: "b", title: "B" }] });
const FIELDS = [NAME, AGREE, TAGS];

describe("form draft", () => {
  it("starts from each field's initial value, nothing changed or shown", () => {
    const draft = emptyFormDraft(FIELDS);
    expect([...draft.values.keys()]).toEqual(["name", "agree", "tags"]);
    expect(draft.dirty.size + draft.touched.size).toBe(0);
    expect(draft.attempted).toBe(false);
  });

  it("an edit changes the value and marks the field dirty; a commit also touches it", () => {
    const draft = emptyFormDraft(FIELDS);
    const typed = reduceFormDraft(draft, { type: "edit", name: "name", value: "Ada", commit: false });
    expect(typed.values.get("name")).toBe("Ada");
    expect([...typed.dirty]).toEqual(["name"]);
    expect(typed.touched.size).toBe(0);
    expect(draft.values.get("name")).not.toBe("Ada"); // the old draft is left as it was
    const chosen = reduceFormDraft(typed, { type: "edit", name: "agree", value: true, commit: true });
    expect([...chosen.touched]).toEqual(["agree"]);
  });

  it("leaving touches a changed field only, once", () => {
    const draft = emptyFormDraft(FIELDS);
    expect(reduceFormDraft(draft, { type: "leave", name: "name" })).toBe(draft);
    const typed = reduceFormDraft(draft, { type: "edit", name: "name", value: "x", commit: false });
    const left = reduceFormDraft(typed, { type: "leave", name: "name" });
    expect([...left.touched]).toEqual(["name"]);
    expect(reduceFormDraft(left, { type: "leave", name: "name" })).toBe(left);
  });

  it("show sets a value without marking a change; attempt is kept once set", () => {
    const draft = emptyFormDraft(FIELDS);
    const shown = reduceFormDraft(draft, { type: "show", name: "name", value: "filled" });
    expect(shown.values.get("name")).toBe("filled");
    const attempted = reduceFormDraft(shown, { type: "attempt" });
    expect(attempted.attempted).toBe(true);
    expect(reduceFormDraft(attempted, { type: "attempt" })).toBe(attempted);
  });

  it("saves as plain JSON and restores what it saved", () => {
    let draft = emptyFormDraft(FIELDS);
    draft = reduceFormDraft(draft, { type: "edit", name: "name", value: "Ada", commit: false });
    draft = reduceFormDraft(draft, { type: "edit", name: "tags", value: ["b"], commit: true });
    const data = JSON.parse(JSON.stringify(formDraftData(draft))) as Record<string, unknown>;
    expect(data).toEqual({ values: { name: "Ada", agree: false, tags: ["b"] }, dirty: ["name", "tags"], touched: ["tags"], attempted: false });
    const restored = restoreFormDraft(emptyFormDraft(FIELDS), FIELDS, data);
    expect(formDraftData(restored)).toEqual(data);
  });

  it("restores defensively: only changed values of the right kind, texts capped", () => {
    const data = {
      values: { name: "n".repeat(MAX_FIELD_CHARS + 3), agree: "yes", tags: ["a", 3], ghost: "x" },
      dirty: ["name", "agree", "tags", 7],
      touched: "name",
    };
    const values = restoredValues(FIELDS, data);
    expect(values.get("name")).toHaveLength(MAX_FIELD_CHARS);
    expect(values.has("agree")).toBe(false);
    expect(values.get("tags")).toEqual(["a"]);
    expect(values.has("ghost")).toBe(false);
    const restored = restoreFormDraft(emptyFormDraft(FIELDS), FIELDS, data);
    expect(restored.values.get("agree")).toBe(emptyFormDraft(FIELDS).values.get("agree"));
    expect(restored.touched.size).toBe(0);
    expect([...restored.dirty]).toEqual(["name", "agree", "tags"]);
  });
});
