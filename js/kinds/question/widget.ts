// The question kind's bundle, src/nbask/static/widget-question.js (npm run build): the shell with this
// kind's view alone, which every QuestionWidget carries to the page (src/nbask/kinds/question/widget.py).
import { widget } from "../../widget";
import { QuestionView } from "./view";

export default widget({ question: (model, host) => new QuestionView(model, host) });
