// ESLint for the front end (npm run lint): typed linting of js/**/*.ts with typescript-eslint's
// strict type-checked rules on top of ESLint's recommended ones, and small modules (max-lines;
// scripts/check_css_lines.mjs holds the stylesheets to the same cap).
import eslint from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  {
    files: ["js/**/*.ts"],
    extends: [eslint.configs.recommended, tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Numbers in template literals (counts, ids, "3 / 4000") always read as intended; the
      // strict default would force String(n) around each. Other non-string types stay errors.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // Event handlers written `() => this.send("submit")` return nothing anyone reads; braces
      // around each would say the same thing longer. Void values elsewhere stay errors.
      "@typescript-eslint/no-confusing-void-expression": ["error", { ignoreArrowShorthand: true }],
      // One component or controller per module.
      "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }],
    },
    linterOptions: {
      reportUnusedDisableDirectives: "error",
    },
  },
  {
    // Tests and their fixtures may be as long as the behaviour they cover.
    files: ["js/**/*.test.ts", "js/testing/**/*.ts"],
    rules: { "max-lines": "off" },
  },
);
