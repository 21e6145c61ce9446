// The nbask front end's shell for anywidget: `widget(views)` makes the module anywidget loads,
// whose render() runs once per output view and picks the view of the model's `_kind` from
// `views`. Each kind is built into a bundle of its own (js/kinds/<kind>/widget.ts, one
// src/nbask/static/widget-<kind>.js), so a request carries its own kind's code and not the
// others'; js/kinds/all.ts has every kind at once. A kind the bundle does not know fails loudly:
// an error in the widget and on the console, never a question rendered in its place.
//
// One view per rendered output. The kernel owns the model; a view keeps only the person's
// unsent draft, so every view of one model (and a reloaded page) shows the same state.
import type { AnyModel, InitializeProps, RenderProps } from "@anywidget/types";
import { alertBox } from "./shell/alert";
import { BatchHeading } from "./batch/heading";
import type { Kind, Model } from "./contract/contract";
import { readable } from "./contract/oldnames";
import { followRun } from "./reload/cellrun";
import { asText, el } from "./parts/dom";
import { trackViews, watchOrphan } from "./reload/orphans";
import { SourceLine } from "./batch/source";

export type View = (model: AnyModel<Model>, host: HTMLElement) => { destroy: () => void };
/** The views a bundle knows, by kind; the kernel's `_kind` trait names one of them. */
export type Views = Readonly<Partial<Record<Kind, View>>>;

export function unknownKindText(kind: string): string {
  return `nbask cannot show this request: its kind "${kind}" is unknown to this front end. Update nbask in the notebook's environment, then run the cell again.`;
}


/** The error shown instead of a view. */
function unknownKind(kind: string, host: HTMLElement): () => void {
  const text = unknownKindText(kind);
  console.error(text);
  const root = el("div", "nbask");
  root.dataset.status = "error";
  const alert = alertBox();
  alert.textContent = text;
  alert.hidden = false;
  root.append(alert);
  host.append(root);
  return () => root.remove();
}

/** The module anywidget loads, showing the kinds in `views`. */
export function widget(views: Views): {
  initialize: (props: InitializeProps<Model>) => () => void;
  render: (props: RenderProps<Model>) => () => void;
} {
  function render({ model: given, el: host }: Pick<RenderProps<Model>, "model" | "el">): () => void {
    const model = readable(given);
    const kind = asText(model.get("_kind"));
    const show = Object.hasOwn(views, kind) ? views[kind as Kind] : undefined;
    if (show === undefined) return unknownKind(kind, host);
    const view = show(model, host);
    // A batch's heading (shown on its lead card only) sits above the card's own content.
    const root = host.querySelector(":scope > .nbask");
    // Who asks, in a batch of several sources: at the top of the card, under any heading.
    const source = new SourceLine(model);
    root?.prepend(source.element);
    const heading = new BatchHeading(model, (node) => root?.prepend(node));
    // A page reloaded while the cell ran: what the cell does after the answer shows in the view.
    const run = root instanceof HTMLElement ? followRun(model, root) : () => undefined;
    return () => {
      run();
      heading.destroy();
      source.destroy();
      view.destroy();
    };
  }

  /** Once per model: a request still waiting with no view on the page (its cell's output was not
   *  saved before a reload) is shown in a page-level panel instead (js/reload/orphans.ts). */
  function initialize({ model: given }: InitializeProps<Model>): () => void {
    const model = readable(given);
    return watchOrphan(model, (host) => render({ model, el: host }));
  }

  return { initialize, render: trackViews<RenderProps<Model>>(render) };
}
