// The approval kind's bundle, src/nbask/static/widget-approval.js (npm run build): the shell with this
// kind's view alone, which every ApprovalWidget carries to the page (src/nbask/kinds/approval/widget.py).
import { widget } from "../../widget";
import { ApprovalView } from "./view";

export default widget({ approval: (model, host) => new ApprovalView(model, host) });
