// Part of `npm run lint`: each kind's widget module stays within its budget. Every widget model
// carries its kind's module (`_esm`) and the stylesheet (`_css`) in its comm_open, so each byte
// here is sent once per request shown (benchmarks/RESULTS.md, "Bytes on the wire per request").
import { statSync } from "node:fs";

const BUDGETS = [
  ["src/nbask/static/widget-question.js", 64_000],
  ["src/nbask/static/widget-approval.js", 64_000],
  ["src/nbask/static/widget-form.js", 64_000],
  ["src/nbask/static/widget.css", 26_000],
];

let failed = false;
for (const [path, limit] of BUDGETS) {
  const size = statSync(path).size;
  if (size > limit) {
    console.error(`${path}: ${size.toLocaleString("en")} bytes minified, over its budget of ${limit.toLocaleString("en")} bytes`);
    failed = true;
  }
}
if (failed) process.exit(1);
