// @vitest-environment node
// The draft rules of the question form (draft.ts), without a DOM.
import { describe, expect, it } from "vitest";
import type { Question } from "../../contract/contract";
import { MAX_OTHER_CHARS } from "../../contract/contract";
import type { Draft, DraftAction } from "./draft";
import {
  answerOf,
  answersOf,
  buildResponse,
  capOtherText,
  emptyDraft,
  firstUnanswered,
  isAnswered,
  reduceDraft,
  unansweredCount,
} from "./draft";

function question(multi: boolean, labels: string[] = ["A", "B", "C"]): Question {
  return {
    question: multi ? "Which ones?" : "Which one?",
    header: "",
    options: labels.map((label) => ({ label, description: "" })),
    multi_select: multi,
  };
}

const single = question(false);
const multi = question(true);

function run(q: Question, ...actions: DraftAction[]): Draft {
  return actions.reduce(reduceDraft, emptyDraft(q));
}

describe("emptyDraft", () => {
  it("has nothing chosen and follows the question's shape", () => {
    expect(emptyDraft(single)).toEqual({
      multi: false,
      checked: [false, false, false],
      otherChecked: false,
      otherText: "",
      note: "",
      noteOpen: false,
    });
    expect(emptyDraft(multi).multi).toBe(true);
    expect(answerOf(single, emptyDraft(single))).toEqual({ selected: [], other: null });
  });
});

describe("single select", () => {
  it("picking an option replaces the previous choice", () => {
    const draft = run(single, { type: "pick", option: 0 }, { type: "pick", option: 2 });
    expect(draft.checked).toEqual([false, false, true]);
    expect(answerOf(single, draft)).toEqual({ selected: ["C"], other: null });
  });

  it("picking the chosen option again keeps it chosen", () => {
    const draft = run(single, { type: "pick", option: 1 }, { type: "pick", option: 1 });
    expect(draft.checked).toEqual([false, true, false]);
  });

  it("a radio change chooses that option only; an unchecked report changes nothing", () => {
    const chosen = run(single, { type: "setOption", option: 0, checked: true }, { type: "setOption", option: 1, checked: true });
    expect(chosen.checked).toEqual([false, true, false]);
    expect(reduceDraft(chosen, { type: "setOption", option: 1, checked: false })).toBe(chosen);
  });

  it("typing Other text deselects the options", () => {
    const draft = run(single, { type: "pick", option: 1 }, { type: "typeOther", text: "mine" });
    expect(draft.checked).toEqual([false, false, false]);
    expect(draft.otherChecked).toBe(true);
    expect(answerOf(single, draft)).toEqual({ selected: [], other: "mine" });
  });

  it("choosing an option after Other unchooses Other but keeps its text", () => {
    for (const action of [
      { type: "pick", option: 0 },
      { type: "setOption", option: 0, checked: true },
    ] as const) {
      const draft = run(single, { type: "typeOther", text: "mine" }, action);
      expect(draft.otherChecked).toBe(false);
      expect(draft.otherText).toBe("mine");
      expect(answerOf(single, draft)).toEqual({ selected: ["A"], other: null });
    }
  });

  it("choosing the Other radio deselects the options", () => {
    const draft = run(single, { type: "pick", option: 2 }, { type: "setOther", checked: true });
    expect(draft.checked).toEqual([false, false, false]);
    expect(draft.otherChecked).toBe(true);
  });

  it("select (arrow keys) moves the single choice, Other being the last one", () => {
    let draft = run(single, { type: "typeOther", text: "mine" }, { type: "select", choice: 1 });
    expect(draft).toMatchObject({ checked: [false, true, false], otherChecked: false, otherText: "mine" });
    draft = reduceDraft(draft, { type: "select", choice: 3 });
    expect(draft).toMatchObject({ checked: [false, false, false], otherChecked: true });
    expect(answerOf(single, draft)).toEqual({ selected: [], other: "mine" });
  });
});

describe("multi select", () => {
  it("picking toggles an option and keeps the others", () => {
    let draft = run(multi, { type: "pick", option: 0 }, { type: "pick", option: 2 });
    expect(draft.checked).toEqual([true, false, true]);
    draft = reduceDraft(draft, { type: "pick", option: 0 });
    expect(draft.checked).toEqual([false, false, true]);
  });

  it("checkbox changes set the option as reported", () => {
    const draft = run(
      multi,
      { type: "setOption", option: 1, checked: true },
      { type: "setOption", option: 2, checked: true },
      { type: "setOption", option: 1, checked: false },
    );
    expect(draft.checked).toEqual([false, false, true]);
  });

  it("Other text and Other's checkbox add to the options instead of replacing them", () => {
    let draft = run(multi, { type: "pick", option: 1 }, { type: "typeOther", text: "  extra  " });
    expect(draft.checked).toEqual([false, true, false]);
    expect(answerOf(multi, draft)).toEqual({ selected: ["B"], other: "extra" });
    draft = reduceDraft(draft, { type: "setOther", checked: false });
    expect(draft.checked).toEqual([false, true, false]);
    expect(answerOf(multi, draft)).toEqual({ selected: ["B"], other: null });
    draft = reduceDraft(draft, { type: "setOther", checked: true });
    expect(answerOf(multi, draft)).toEqual({ selected: ["B"], other: "extra" });
  });

  it("the selected labels come in option order, not in click order", () => {
    const draft = run(multi, { type: "pick", option: 2 }, { type: "pick", option: 0 });
    expect(answerOf(multi, draft).selected).toEqual(["A", "C"]);
  });
});

describe("the Other text", () => {
  it("chooses Other when not blank; blank text leaves the choice as it was", () => {
    let draft = run(single, { type: "typeOther", text: "x" });
    expect(draft.otherChecked).toBe(true);
    // Cleared: Other stays chosen (the person chose its row to type there), and sends nothing.
    draft = reduceDraft(draft, { type: "typeOther", text: "   " });
    expect(draft.otherChecked).toBe(true);
    expect(draft.otherText).toBe("   ");
    expect(answerOf(single, draft)).toEqual({ selected: [], other: null });
    // Blank text alone does not choose Other.
    expect(run(single, { type: "typeOther", text: "  " }).otherChecked).toBe(false);
  });

  it("blank text does not deselect the options", () => {
    const draft = run(single, { type: "pick", option: 0 }, { type: "typeOther", text: "  " });
    expect(draft.checked).toEqual([true, false, false]);
  });

  it("is sent trimmed, and only while Other is chosen", () => {
    const draft = run(single, { type: "typeOther", text: "\n mine \t" });
    expect(answerOf(single, draft).other).toBe("mine");
    const checkedBlank = run(single, { type: "setOther", checked: true });
    expect(answerOf(single, checkedBlank)).toEqual({ selected: [], other: null });
  });

  it(`is cut at MAX_OTHER_CHARS (${MAX_OTHER_CHARS})`, () => {
    const draft = run(single, { type: "typeOther", text: "y".repeat(MAX_OTHER_CHARS + 500) });
    expect(draft.otherText).toHaveLength(MAX_OTHER_CHARS);
    expect(answerOf(single, draft).other).toBe("y".repeat(MAX_OTHER_CHARS));
    expect(capOtherText("y".repeat(MAX_OTHER_CHARS))).toHaveLength(MAX_OTHER_CHARS);
    expect(capOtherText("short")).toBe("short");
  });
});

describe("actions out of range", () => {
  it("change nothing", () => {
    const draft = run(single, { type: "pick", option: 1 });
    for (const action of [
      { type: "pick", option: 3 },
      { type: "pick", option: -1 },
      { type: "setOption", option: 5, checked: true },
      { type: "select", choice: 4 },
      { type: "select", choice: -1 },
    ] as const) {
      expect(reduceDraft(draft, action)).toBe(draft);
    }
  });

  it("never modify the draft they are given", () => {
    const draft = run(multi, { type: "pick", option: 0 });
    const copy = structuredClone(draft);
    reduceDraft(draft, { type: "pick", option: 1 });
    reduceDraft(draft, { type: "typeOther", text: "x" });
    reduceDraft(draft, { type: "setOther", checked: true });
    expect(draft).toEqual(copy);
  });
});

describe("the form's answers and the response", () => {
  const questions = [single, multi];

  it("counts and finds unanswered questions", () => {
    const none = questions.map(emptyDraft);
    expect(unansweredCount(questions, none)).toBe(2);
    expect(firstUnanswered(questions, none)).toBe(0);
    const first = [reduceDraft(none[0] as Draft, { type: "pick", option: 0 }), none[1] as Draft];
    expect(unansweredCount(questions, first)).toBe(1);
    expect(firstUnanswered(questions, first)).toBe(1);
    const both = [first[0] as Draft, reduceDraft(none[1] as Draft, { type: "typeOther", text: "z" })];
    expect(unansweredCount(questions, both)).toBe(0);
    expect(firstUnanswered(questions, both)).toBe(-1);
  });

  it("isAnswered: an option or Other text", () => {
    expect(isAnswered({ selected: [], other: null })).toBe(false);
    expect(isAnswered({ selected: ["A"], other: null })).toBe(true);
    expect(isAnswered({ selected: [], other: "x" })).toBe(true);
  });

  it("a missing draft counts as an empty one", () => {
    expect(answersOf(questions, [])).toEqual([
      { selected: [], other: null },
      { selected: [], other: null },
    ]);
  });

  it("submit sends one answer per question in question order, with the view's stamp", () => {
    const drafts = [
      run(single, { type: "pick", option: 1 }),
      run(multi, { type: "pick", option: 0 }, { type: "pick", option: 2 }, { type: "typeOther", text: " more " }),
    ];
    const response = buildResponse("submit", questions, drafts, { view_id: "abc123", sent_at_ms: 42 });
    expect(response).toEqual({
      action: "submit",
      answers: [
        { selected: ["B"], other: null },
        { selected: ["A", "C"], other: "more" },
      ],
      view_id: "abc123",
      sent_at_ms: 42,
    });
    expect(Object.keys(response)).toEqual(["action", "answers", "view_id", "sent_at_ms"]);
    // Exactly what the kernel parses: nothing beyond the wire fields.
    expect(JSON.parse(JSON.stringify(response))).toEqual(response);
  });

  it("submit with nothing chosen sends empty answers (the kernel reads them as no preference)", () => {
    const response = buildResponse("submit", questions, questions.map(emptyDraft), { view_id: "v", sent_at_ms: 1 });
    expect(response.answers).toEqual([
      { selected: [], other: null },
      { selected: [], other: null },
    ]);
  });

  it("dismiss sends no answers", () => {
    const drafts = [run(single, { type: "pick", option: 1 }), emptyDraft(multi)];
    expect(buildResponse("dismiss", questions, drafts, { view_id: "v", sent_at_ms: 7 })).toEqual({
      action: "dismiss",
      answers: [],
      view_id: "v",
      sent_at_ms: 7,
    });
  });
});
