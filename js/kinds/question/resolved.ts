// The question kind's resolved list: each question (its header chip and text) with the answer
// the kernel took (labels without their "(Recommended)"), the chosen option's preview, and the
// person's note on it.
import type { Question } from "../../contract/contract";
import { ANSWER_SEPARATOR, NO_PREFERENCE, RECOMMENDED } from "../../contract/contract";
import { el, headerChip, isObject, textEl } from "../../parts/dom";
import { labelledText } from "../../parts/resolved";
import { PERSON_TEXT } from "../../parts/wording";

export const RESOLVED_TEXT = {
  note: PERSON_TEXT.note,
} as const;

/** Whether the answer text (labels joined by the separator) has `label` as one of them. */
function chose(answer: string, label: string): boolean {
  const sep = ANSWER_SEPARATOR;
  return answer === label || answer.startsWith(label + sep) || answer.endsWith(sep + label) ||
    answer.includes(sep + label + sep);
}

/** The answer as the person reads it: each chosen label without its "(Recommended)". */
function shownAnswer(question: Question, answer: string): string {
  let shown = answer;
  for (const option of question.options) {
    const match = RECOMMENDED.exec(option.label);
    if (match !== null && chose(answer, option.label)) {
      shown = shown.replace(option.label, option.label.slice(0, match.index).trimEnd());
    }
  }
  return shown;
}

/** The chosen options' previews (monospace text), in option order. */
function chosenPreviews(question: Question, answer: string): HTMLElement[] {
  return question.options
    .filter((option) => (option.preview ?? "") !== "" && chose(answer, option.label))
    .map((option) => {
      const item = el("dd", "nbask-resolved-preview");
      item.append(el("pre", "nbask-preview", option.preview));
      return item;
    });
}

/** The list, or null when it would be empty. */
export function resolvedList(questions: readonly Question[], result: unknown, status: string): HTMLElement | null {
  const answers = isObject(result) && isObject(result.answers) ? result.answers : {};
  const notes = isObject(result) && isObject(result.notes) ? result.notes : {};
  // An answered question with no entry in the result is one the person left empty.
  const given = questions.map((question) => {
    const text = answers[question.question];
    return typeof text === "string" ? text : status === "answered" ? NO_PREFERENCE : null;
  });
  const noted = questions.map((question) => {
    const text = notes[question.question];
    return typeof text === "string" && text.trim() !== "" ? text : null;
  });
  // A description list only with answers or notes in it (a <dl> of terms alone is not one); a
  // request that ended without any lists its questions as plain lines.
  const described = given.some((answer) => answer !== null) || noted.some((note) => note !== null);
  const list = el(described ? "dl" : "div", "nbask-resolved-list");
  questions.forEach((question, qi) => {
    const term = el(described ? "dt" : "div", "nbask-resolved-question");
    const chip = headerChip(question.header);
    if (chip) term.append(chip);
    term.append(textEl("span", "nbask-question-text", question.question));
    list.append(term);
    const answer = given[qi];
    if (answer !== null && answer !== undefined) {
      list.append(textEl("dd", "nbask-resolved-answer", shownAnswer(question, answer)));
      list.append(...chosenPreviews(question, answer));
    }
    const note = noted[qi];
    if (note !== null && note !== undefined) {
      list.append(labelledText("dd", "nbask-resolved-note", RESOLVED_TEXT.note, note));
    }
  });
  return list.childElementCount > 0 ? list : null;
}
