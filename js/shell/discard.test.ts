// What "Discard your answer?" says (js/shell/discard.ts): it names what would be lost, in the
// singular or plural, and asks nothing when nothing would be lost.
import { describe, expect, it } from "vitest";
import { DB, FEATURES } from "../testing/harness";
import { emptyDraft, EMPTY_SET_NOTE, reduceDraft } from "../kinds/question/draft";
import { approvalLost, discardMessage, formLost, joinAnd, questionsLost } from "./discard";

describe("the discard question", () => {
  it("joins what is lost in plain English", () => {
    expect(joinAnd([])).toBe("");
    expect(joinAnd(["a"])).toBe("a");
    expect(joinAnd(["a", "b"])).toBe("a and b");
    expect(joinAnd(["a", "b", "c"])).toBe("a, b and c");
    expect(discardMessage("Discard your answer?", ["your reason"])).toBe("Discard your answer? Your reason will be lost.");
  });

  it("asks nothing of untouched questions, and names the ones with an answer or a note", () => {
    const empty = [emptyDraft(DB), emptyDraft(FEATURES)];
    expect(questionsLost([DB, FEATURES], empty, EMPTY_SET_NOTE)).toBeNull();
    // Opening a note's box is no draft; only what is typed in it is.
    const opened = [reduceDraft(emptyDraft(DB), { type: "openNote", open: true }), emptyDraft(FEATURES)];
    expect(questionsLost([DB, FEATURES], opened, { note: "  ", noteOpen: true })).toBeNull();
    const one = [reduceDraft(emptyDraft(DB), { type: "pick", option: 0 }), emptyDraft(FEATURES)];
    expect(questionsLost([DB, FEATURES], one, EMPTY_SET_NOTE)).toBe("Discard your answer? Your answer to “DB” will be lost.");
    const both = [one[0] ?? emptyDraft(DB), reduceDraft(emptyDraft(FEATURES), { type: "typeNote", text: "later" })];
    expect(questionsLost([DB, FEATURES], both, { note: "see above", noteOpen: true })).toBe(
      "Discard your answer? Your answers to “DB” and “Features” and your note for all questions will be lost.",
    );
  });

  it("names an approval's edit and reason, and says it will not be approved", () => {
    expect(approvalLost(false, "  ")).toBeNull();
    expect(approvalLost(true, "")).toBe(
      "Discard your changes? Your edit of the details will be lost, and the request will not be approved.",
    );
    expect(approvalLost(true, "too wide")).toBe(
      "Discard your changes? Your edit of the details and your reason will be lost, and the request will not be approved.",
    );
  });

  it("names a form's changed fields", () => {
    expect(formLost([])).toBeNull();
    expect(formLost(["Email"])).toBe("Discard your answer? Your entry in “Email” will be lost.");
    expect(formLost(["Email", "Age"])).toBe("Discard your answer? Your entries in “Email” and “Age” will be lost.");
  });
});
