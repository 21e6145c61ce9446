// Part of `npm run lint`: no stylesheet module of the front end (js/**/*.css) is over
// MAX_LINES lines, the same cap ESLint's max-lines puts on its TypeScript modules.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const MAX_LINES = 400;
const ROOT = "js";

function cssFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith(".css") ? [path] : [];
  });
}

let failed = false;
for (const path of cssFiles(ROOT)) {
  const text = readFileSync(path, "utf8");
  const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  if (lines > MAX_LINES) {
    console.error(`${path}: ${lines} lines, more than ${MAX_LINES}`);
    failed = true;
  }
}
if (failed) process.exit(1);
