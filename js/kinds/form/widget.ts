// The form kind's bundle, src/nbask/static/widget-form.js (npm run build): the shell with this
// kind's view alone, which every FormWidget carries to the page (src/nbask/kinds/form/widget.py).
import { widget } from "../../widget";
import { FormView } from "./view";

export default widget({ form: (model, host) => new FormView(model, host) });
