// Rendering: the pending form, the accessibility contract, hostile text, the resolved block.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { getAllByRole, getByRole, queryAllByRole, within } from "@testing-library/dom";
import { afterEach, describe, expect, it } from "vitest";
import { DB, FakeModel, FEATURES, otherText, pendingModel, unmountAll, view } from "./testing/harness";
import { isRecommended, type Question } from "./contract/contract";
import { readQuestions } from "./kinds/question/view";
import { formatDuration } from "./shell/shell";

afterEach(unmountAll);

describe("pending form", () => {
  it("marks the root with its class and status, without turning the notebook's keys off", () => {
    const { root } = view(pendingModel());
    expect(root.className).toBe("nbask");
    expect(root.dataset.status).toBe("pending");
    expect(root.hasAttribute("data-lm-suppress-shortcuts")).toBe(false);
    expect(root.hasAttribute("data-sending")).toBe(false);
  });

  it("makes each question a group named by its text alone, with the header as a chip", () => {
    const { root } = view(pendingModel());
    const groups = getAllByRole(root, "group");
    expect(groups).toHaveLength(2);
    const db = getByRole(root, "group", { name: DB.question });
    expect(db.tagName).toBe("FIELDSET");
    expect(within(db).getByText("DB").className).toContain("nbask-chip");
    getByRole(root, "group", { name: FEATURES.question });
  });

  it("leaves out the chip when the header is empty", () => {
    const { root } = view(pendingModel([{ ...DB, header: "" }]));
    expect(root.querySelector(".nbask-chip")).toBeNull();
    getByRole(root, "group", { name: DB.question });
  });

  it("uses radios for single select and checkboxes for multi select", () => {
    const { root } = view(pendingModel());
    const db = getByRole(root, "group", { name: DB.question });
    const features = getByRole(root, "group", { name: FEATURES.question });
    expect(within(db).getAllByRole("radio").map(accessibleName)).toEqual([
      "PostgreSQL (Recommended)",
      "SQLite",
      "Other",
    ]);
    expect(within(db).queryAllByRole("checkbox")).toHaveLength(0);
    expect(within(features).getAllByRole("checkbox")).toHaveLength(4); // 3 options + Other
    expect(within(features).queryAllByRole("radio")).toHaveLength(0);
  });

  it("gives each question its own radio group, Other included", () => {
    const second: Question = { ...DB, question: "Which cache?", options: [{ label: "Redis", description: "" }, { label: "None", description: "" }] };
    const { root } = view(pendingModel([DB, second]));
    const names = getAllByRole(root, "radio").map((r) => (r as HTMLInputElement).name);
    expect(new Set(names.slice(0, 3)).size).toBe(1);
    expect(new Set(names.slice(3)).size).toBe(1);
    expect(names[0]).not.toBe(names[3]);
  });

  it("names each option by its label and describes it by its description, both inside its <label>", () => {
    const { root } = view(pendingModel());
    const sqlite = getByRole(root, "radio", { name: "SQLite" });
    const label = sqlite.closest("label");
    expect(label?.textContent).toContain("SQLite");
    expect(label?.textContent).toContain("One file, no server.");
    const descriptionId = sqlite.getAttribute("aria-describedby") ?? "";
    expect(root.querySelector(`[id="${descriptionId}"]`)?.textContent).toBe("One file, no server.");
    // No description: no dangling aria-describedby.
    expect(getByRole(root, "checkbox", { name: "Search" }).hasAttribute("aria-describedby")).toBe(false);
  });

  it("badges a (Recommended) option without choosing it", () => {
    const { root } = view(pendingModel());
    const recommended = getByRole<HTMLInputElement>(root, "radio", { name: "PostgreSQL (Recommended)" });
    expect(recommended.checked).toBe(false);
    const badges = root.querySelectorAll(".nbask-badge");
    expect(badges).toHaveLength(1);
    expect(badges[0]?.textContent).toBe("Recommended");
    expect(recommended.closest("label")?.contains(badges[0] ?? null)).toBe(true);
  });

  it("recognises (Recommended) in any case and with trailing spaces, only at the end", () => {
    expect(isRecommended("Yes (Recommended)")).toBe(true);
    expect(isRecommended("Yes (recommended)  ")).toBe(true);
    expect(isRecommended("Yes (RECOMMENDED)\n")).toBe(true);
    expect(isRecommended("(Recommended) yes")).toBe(false);
    expect(isRecommended("Recommended")).toBe(false);
  });

  it("adds an Other choice to every question, its textbox shown once it is chosen", () => {
    const { root } = view(pendingModel());
    for (const question of [DB, FEATURES]) {
      const group = getByRole(root, "group", { name: question.question });
      const role = question.multi_select ? "checkbox" : "radio";
      const choice = within(group).getByRole<HTMLInputElement>(role, { name: "Other" });
      expect(within(group).queryByRole("textbox", { name: "Other" })).toBeNull();
      choice.click();
      const text = within(group).getByRole<HTMLTextAreaElement>("textbox", { name: "Other" });
      expect(document.activeElement).toBe(text);
      expect(text.getAttribute("aria-label")).toBe("Other");
      expect(text.placeholder).toBe("Type your own answer");
    }
    // Same radio group as the options, so choosing Other replaces a chosen option.
    const db = getByRole(root, "group", { name: DB.question });
    const names = within(db).getAllByRole("radio").map((r) => (r as HTMLInputElement).name);
    expect(new Set(names).size).toBe(1);
  });

  it("has exactly the Submit and Dismiss buttons, and no other button named like them", () => {
    const { root } = view(pendingModel());
    getByRole(root, "button", { name: "Submit" });
    getByRole(root, "button", { name: "Dismiss" });
    const names = getAllByRole(root, "button", { hidden: true }).map(accessibleName);
    expect(names.filter((n) => /submit|dismiss/i.test(n)).sort()).toEqual(["Dismiss", "Submit"]);
  });

  it("puts data-lm-suppress-shortcuts on no control (js/focus/hostkeys.ts gates each key instead)", () => {
    const { root } = view(pendingModel());
    const focusable = root.querySelectorAll("input, button, select, textarea, [tabindex]");
    // 5 options, Other choice + textbox and "Add a note" + note per question, the set's
    // "Add a note" + note, 6 buttons (Submit, Dismiss, and the two of each confirm row).
    expect(focusable.length).toBe(5 + 2 * 2 + 2 * 2 + 2 + 6);
    for (const control of focusable) expect(control.hasAttribute("data-lm-suppress-shortcuts")).toBe(false);
  });

  it("gives two views of one model distinct ids and radio group names", () => {
    const model = pendingModel();
    const a = view(model);
    const b = view(model);
    const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);
    const nameA = (getAllByRole(a.root, "radio")[0] as HTMLInputElement).name;
    const nameB = (getAllByRole(b.root, "radio")[0] as HTMLInputElement).name;
    expect(nameA).not.toBe(nameB);
  });

  it("marks model text dir=auto, so right-to-left questions read right", () => {
    const arabic: Question = { question: "أي قاعدة بيانات؟", header: "قاعدة", options: [{ label: "نعم", description: "وصف" }, { label: "لا", description: "" }], multi_select: false };
    const { root } = view(pendingModel([arabic]));
    for (const text of ["أي قاعدة بيانات؟", "قاعدة", "نعم", "وصف"]) {
      expect(within(root).getByText(text).getAttribute("dir")).toBe("auto");
    }
    expect(otherText(root, "أي قاعدة بيانات؟").getAttribute("dir")).toBe("auto");
  });

  it("renders a 10 kB description and a 300-character word as text", () => {
    const long = "word ".repeat(2000);
    const word = "x".repeat(300);
    const { root } = view(pendingModel([{ ...DB, question: word, options: [{ label: "A", description: long }, { label: word, description: "" }] }]));
    expect(within(root).getByText(long.trim()).className).toBe("nbask-option-desc");
    getByRole(root, "radio", { name: word });
    getByRole(root, "group", { name: word });
  });

  it("survives malformed questions without throwing", () => {
    const questions = [{ question: 42, options: null }, null, { question: "Q", header: null, options: [{ label: "A" }, "junk"] }];
    const { root } = view(new FakeModel({ _questions: questions as unknown as Question[] }));
    expect(getAllByRole(root, "group")).toHaveLength(3);
    getByRole(root, "radio", { name: "A" });
    expect(readQuestions("nonsense")).toEqual([]);
  });
});

describe("hostile text", () => {
  const payloads = ['<img src=x onerror="window.__pwned=1">', "<script>window.__pwned=1</script>", '<a href="javascript:alert(1)">x</a>', "<style>*{display:none}</style>"];

  it("shows markup from the model literally and creates no elements from it", () => {
    const [a, b, c, d] = payloads as [string, string, string, string];
    const hostile: Question = { question: a, header: b, options: [{ label: c, description: d }, { label: b, description: a }], multi_select: false };
    const { root } = view(pendingModel([hostile]));
    expect(root.querySelector("img, script, a, style, iframe")).toBeNull();
    expect([...root.querySelectorAll(".nbask-question-text")].map((e) => e.textContent)).toContain(a);
    expect([...root.querySelectorAll(".nbask-chip")].map((e) => e.textContent)).toContain(b);
    expect([...root.querySelectorAll(".nbask-option-label")].map((e) => e.textContent)).toContain(c);
    expect([...root.querySelectorAll(".nbask-option-desc")].map((e) => e.textContent)).toContain(d);
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it("shows hostile answers and notes literally in the resolved block", () => {
    const [a, b] = payloads as [string, string];
    const hostile: Question = { ...DB, question: a };
    const { root } = view(new FakeModel({ _questions: [hostile], _status: "answered", _result: { answers: { [a]: b }, note: b } }));
    expect(root.querySelector("img, script")).toBeNull();
    expect([...root.querySelectorAll(".nbask-resolved-answer")].map((e) => e.textContent)).toContain(b);
    expect(root.querySelector(".nbask-own-note")?.textContent).toBe(`Note: ${b}`);
  });

  it("never writes HTML strings into the DOM, in any front-end source file", () => {
    const dir = dirname(fileURLToPath(import.meta.url));
    const sources = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(
      (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"),
    );
    expect(sources).toEqual(
      expect.arrayContaining(["widget.ts", join("shell", "shell.ts"), join("kinds", "question", "view.ts"), join("parts", "dom.ts")]),
    );
    for (const name of sources) {
      const source = readFileSync(join(dir, name), "utf8");
      expect(source, name).not.toMatch(
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser|setHTML/,
      );
    }
  });
});

describe("resolved block", () => {
  const cases = [
    ["answered", "Answered"],
    ["dismissed", "Dismissed"],
    ["timeout", "Timed out"],
    ["cancelled", "Cancelled"],
  ] as const;

  it.each(cases)("status %s shows %s and no form controls", (status, text) => {
    const { root } = view(new FakeModel({ _questions: [DB, FEATURES], _status: status }));
    expect(root.dataset.status).toBe(status);
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe(text);
    // Only a timed-out request offers a control: "Answer anyway" (js/shell/lateanswer.test.ts).
    const controls = [...root.querySelectorAll("input, button, textarea, select")];
    expect(controls.map((c) => c.textContent)).toEqual(status === "timeout" ? ["Answer anyway"] : []);
    expect(queryAllByRole(root, "radio")).toHaveLength(0);
    expect(queryAllByRole(root, "textbox")).toHaveLength(0);
  });

  it("lists each question with its header and its answer from the result", () => {
    const result = { answers: { [DB.question]: "SQLite", [FEATURES.question]: "Auth, Export, Audit log" }, note: "" };
    const { root } = view(new FakeModel({ _questions: [DB, FEATURES], _status: "answered", _result: result }));
    const terms = [...root.querySelectorAll("dt")].map((dt) => dt.textContent);
    expect(terms).toEqual(["DB" + DB.question, "Features" + FEATURES.question]);
    const answers = [...root.querySelectorAll("dd")].map((dd) => dd.textContent);
    expect(answers).toEqual(["SQLite", "Auth, Export, Audit log"]);
    expect(root.querySelector(".nbask-note")).toBeNull();
  });

  it("shows [No preference] for an answered question missing from the result, and the note", () => {
    const result = { answers: { [DB.question]: "SQLite" }, note: "1 question(s) left without an answer." };
    const { root } = view(new FakeModel({ _questions: [DB, FEATURES], _status: "answered", _result: result }));
    expect([...root.querySelectorAll("dd")].map((dd) => dd.textContent)).toEqual(["SQLite", "[No preference]"]);
    // nbask's remark for the agent, in the person's words.
    expect(root.querySelector(".nbask-note")?.textContent).toBe("You left this question without an answer.");
  });

  it("shows the note of a timeout (e.g. a late answer) without inventing answers", () => {
    const note = "An answer arrived after the question had ended and was ignored.";
    const { root } = view(new FakeModel({ _questions: [DB], _status: "timeout", _result: { answers: {}, note } }));
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Timed out");
    expect(root.querySelectorAll("dd")).toHaveLength(0);
    expect(root.textContent).toContain(DB.question);
    expect(root.querySelector(".nbask-note")?.textContent).toBe("Your answer came after this had ended, so it was not used.");
  });

  it("turns a live pending view into the resolved block when the kernel resolves", () => {
    const model = pendingModel();
    const { root } = view(model);
    expect(root.querySelectorAll("input").length).toBeGreaterThan(0);
    model.kernelUpdate({ _status: "answered", _result: { answers: { [DB.question]: "SQLite" }, note: "" }, _deadline_ms: 0 });
    expect(root.dataset.status).toBe("answered");
    expect(root.querySelectorAll("input, button")).toHaveLength(0);
    expect(root.querySelector("dd")?.textContent).toBe("SQLite");
    model.kernelUpdate({ _result: { answers: { [DB.question]: "SQLite" }, note: "later note" } });
    expect(root.querySelector(".nbask-note")?.textContent).toBe("Note: later note");
  });
});

describe("formatDuration", () => {
  it("formats m:ss below an hour and h:mm:ss from an hour, rounding up", () => {
    expect(formatDuration(598_000)).toBe("9:58");
    expect(formatDuration(600_000)).toBe("10:00");
    expect(formatDuration(59_001)).toBe("1:00");
    expect(formatDuration(1)).toBe("0:01");
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(-5)).toBe("0:00");
    expect(formatDuration(3_600_000)).toBe("1:00:00");
    expect(formatDuration(3_725_000)).toBe("1:02:05");
  });
});

/** The accessible name as computed by the DOM Testing Library (what getByRole matches). */
function accessibleName(element: Element): string {
  const labelledBy = element.getAttribute("aria-labelledby");
  if (labelledBy) {
    return labelledBy
      .split(/\s+/)
      .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? "")
      .join(" ");
  }
  const ariaLabel = element.getAttribute("aria-label");
  if (ariaLabel) return ariaLabel;
  const input = element as HTMLInputElement;
  if (input.labels && input.labels.length > 0) return [...input.labels].map((l) => l.textContent).join(" ");
  return element.textContent;
}

describe("header chip", () => {
  it("shows a dialect-shortened header with the whole text as its tooltip", () => {
    const question: Question = { ...DB, header: "Mục tiêu…", header_tooltip: "Mục tiêu chính" };
    const { root } = view(new FakeModel({ _questions: [question] }));
    const chip = root.querySelector<HTMLElement>(".nbask-chip");
    expect(chip?.textContent).toBe("Mục tiêu…");
    expect(chip?.title).toBe("Mục tiêu chính");
  });
});
