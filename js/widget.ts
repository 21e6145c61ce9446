// The nbask front end's entry: anywidget calls render() once per output view; the model's
// `kind` picks the form (a question set, an approval or a typed form), all built on the shared
// shell.
//
// One view per rendered output. The kernel owns the model; a view keeps only the person's
// unsent draft, so every view of one model (and a reloaded page) shows the same state.
import type { RenderProps } from "@anywidget/types";
import { ApprovalView } from "./approval";
import type { Model } from "./contract";
import { FormView } from "./form";
import { QuestionView } from "./question";

function render({ model, el }: RenderProps<Model>): () => void {
  const kind = model.get("kind");
  const view =
    kind === "approval" ? new ApprovalView(model, el) : kind === "form" ? new FormView(model, el) : new QuestionView(model, el);
  return () => view.destroy();
}

export default { render };
