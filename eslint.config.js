// ESLint (flat config) with typescript-eslint's recommended rules: `npm run lint`.
// Syntax-based rules only (no type-aware rules), so a lint of the whole tree stays a few seconds
// on a two-core machine; `npm run typecheck` is the type check. Formatting is Prettier's job
// (`npm run format:check`), so no stylistic rule is enabled here. docs/decisions/047-lint-and-format.md.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  { ignores: ["build/", "public/build/", ".cache/", ".data/", "node_modules/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_name` marks a parameter or binding that is required by a signature but unused.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
  {
    // CommonJS configuration files (.dependency-cruiser.cjs).
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } },
  },
  {
    // The theme extension's storefront script runs in shoppers' browsers.
    files: ["extensions/**/*.js"],
    languageOptions: { sourceType: "script", globals: { window: "readonly", document: "readonly", fetch: "readonly" } },
  },
  {
    // The example customer portal (an ES module page the app serves as is).
    files: ["public/examples/**/*.js"],
    languageOptions: {
      sourceType: "module",
      globals: {
        window: "readonly",
        document: "readonly",
        fetch: "readonly",
        location: "readonly",
        URLSearchParams: "readonly",
        Intl: "readonly",
        Option: "readonly",
      },
    },
  },
);
