// The nbask front end's entry: anywidget calls render() once per output view; the model's
// `kind` picks the view from VIEWS (a question set, an approval or a typed form), all built on
// the shared shell. A kind this front end does not know fails loudly: an error in the widget
// and on the console, never a question rendered in its place.
//
// One view per rendered output. The kernel owns the model; a view keeps only the person's
// unsent draft, so every view of one model (and a reloaded page) shows the same state.
import type { AnyModel, RenderProps } from "@anywidget/types";
import { alertBox } from "./alert";
import { ApprovalView } from "./approval";
import type { Kind, Model } from "./contract";
import { asText, el } from "./dom";
import { FormView } from "./form";
import { QuestionView } from "./question";

type View = (model: AnyModel<Model>, host: HTMLElement) => { destroy: () => void };

/** Each kind's view; the kernel's `kind` trait names one of them. */
export const VIEWS: Readonly<Record<Kind, View>> = {
  question: (model, host) => new QuestionView(model, host),
  approval: (model, host) => new ApprovalView(model, host),
  form: (model, host) => new FormView(model, host),
};

export function unknownKindText(kind: string): string {
  return `nbask cannot show this request: its kind "${kind}" is unknown to this front end. Update nbask in the notebook's environment, then run the cell again.`;
}

function isKind(kind: string): kind is Kind {
  return Object.hasOwn(VIEWS, kind);
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

function render({ model, el: host }: RenderProps<Model>): () => void {
  const kind = asText(model.get("kind"));
  if (!isKind(kind)) return unknownKind(kind, host);
  const view = VIEWS[kind](model, host);
  return () => view.destroy();
}

export default { render };
