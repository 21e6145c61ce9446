// Who asks, on a card of a batch whose requests come from more than one source ("From billing
// agent"): identical cards from two agents can then be told apart. A batch of one source, or of
// none said, shows nothing. The source is model text: plain text only, one line, capped.
import type { AnyModel } from "@anywidget/types";
import type { BaseModel } from "../contract/contract";
import { MAX_SOURCE_CHARS } from "../contract/contract";
import { asText, el, isObject, textEl } from "../parts/dom";

export const SOURCE_TEXT = {
  from: "From ",
} as const;

/** The source to name on the card, or "" when none is shown: only in a batch of more than one
 *  source (the kernel's `batch.sources`), and only where the request says one. */
export function shownSource(source: unknown, batch: unknown): string {
  const text = asText(source).replace(/\s+/g, " ").trim().slice(0, MAX_SOURCE_CHARS);
  const sources = isObject(batch) ? Number(batch.sources) : 0;
  return text !== "" && Number.isFinite(sources) && sources > 1 ? text : "";
}

/** The line at the top of the card (under the batch's heading, if it carries it), hidden while it
 *  names no one; it follows the model's `_source` and `_batch` itself, so a batch change never
 *  redraws the card. */
export class SourceLine {
  readonly element: HTMLElement;
  private readonly label: HTMLElement;
  private readonly name: HTMLElement;

  constructor(private readonly model: AnyModel<BaseModel>) {
    this.element = el("p", "nbask-source");
    this.label = el("span", "nbask-source-label", SOURCE_TEXT.from);
    this.name = textEl("span", "nbask-source-name", "");
    for (const name of ["change:_source", "change:_batch"]) model.on(name, this.update);
    this.update();
  }

  destroy(): void {
    for (const name of ["change:_source", "change:_batch"]) this.model.off(name, this.update);
  }

  private readonly update = (): void => {
    const source = shownSource(this.model.get("_source"), this.model.get("_batch"));
    if (this.name.textContent !== source) this.name.textContent = source;
    // Empty while hidden: a card of no batch holds no trace of it, not even in its text.
    if (source === "") this.element.replaceChildren();
    else if (!this.element.contains(this.name)) this.element.append(this.label, this.name);
    this.element.hidden = source === "";
  };
}
