import importX from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/** Lint: TypeScript's recommended rules, import order, and no test code imported by product code (STYLE 12). */
export default tseslint.config(
  // public/campo*.js: the field app's built scripts (scripts/build-field.ts).
  {
    ignores: [
      "node_modules",
      "build",
      "public/build",
      "public/campo/*.js",
      "public/campo-sw.js",
      "data",
      "tests/.tmp",
      ".cache",
    ],
  },
  ...tseslint.configs.recommended,
  {
    plugins: { "import-x": importX },
    rules: {
      "import-x/order": [
        "warn",
        {
          groups: ["builtin", "external", "parent", "internal", "sibling", "index"],
          pathGroups: [{ pattern: "~/**", group: "internal" }],
          pathGroupsExcludedImportTypes: ["builtin"],
          "newlines-between": "always",
          alphabetize: { order: "asc" },
        },
      ],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/tests/**", "@playwright/test", "vitest"],
              message: "Product code must not import test code.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["tests/**", "bench/**", "*.config.ts", "*.config.js"],
    rules: { "no-restricted-imports": "off", "@typescript-eslint/no-explicit-any": "off" },
  },
);
