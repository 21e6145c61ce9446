// Every kind at once: the registry the server's inbox page shows its cards with, and the widget
// with all three views that the front end's tests render. The notebook never loads this: each
// kind's bundle (js/kinds/<kind>/widget.ts) holds its own view alone.
import type { Kind } from "../contract/contract";
import { widget, type View } from "../widget";
import { ApprovalView } from "./approval/view";
import { FormView } from "./form/view";
import { QuestionView } from "./question/view";

/** Each kind's view; the kernel's `_kind` trait names one of them. */
export const VIEWS: Readonly<Record<Kind, View>> = {
  question: (model, host) => new QuestionView(model, host),
  approval: (model, host) => new ApprovalView(model, host),
  form: (model, host) => new FormView(model, host),
};

export default widget(VIEWS);
