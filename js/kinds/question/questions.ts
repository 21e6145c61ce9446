// The question kind's model text, read defensively: the kernel validates it, but a view must
// not crash on whatever arrives.
import type { Question } from "../../contract/contract";
import { asText, isObject } from "../../parts/dom";

/** The model's questions, read defensively: the kernel validates them, but a view must not crash. */
export function readQuestions(raw: unknown): Question[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item: unknown) => {
    const q = isObject(item) ? item : {};
    const options = Array.isArray(q.options) ? q.options : [];
    return {
      question: asText(q.question),
      header: asText(q.header),
      header_tooltip: asText(q.header_tooltip),
      multi_select: q.multi_select === true,
      options: options.map((o: unknown) => {
        const option = isObject(o) ? o : {};
        return { label: asText(option.label), description: asText(option.description), preview: asText(option.preview) };
      }),
    };
  });
}
