// ESLint for the browser client (src/croupier/web/static, vendored libraries excluded) and its
// Node unit tests; `make test` runs it when Node.js is present (scripts/js-check.sh).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["src/croupier/web/static/vendor/**", "node_modules/**", ".venv/**", "artifacts/**"] },
  js.configs.recommended,
  {
    files: ["src/croupier/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-duplicate-imports": "error",
      eqeqeq: ["error", "smart"],
      "no-implicit-globals": "error",
    },
  },
  {
    files: ["tests/web/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
