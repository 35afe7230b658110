import { availableParallelism } from "node:os";
import path from "node:path";

import { configDefaults, defineConfig } from "vitest/config";

/** Measures of a whole server under load: run alone (project 'load'), never beside other test files. */
const LOAD_TESTS = ["tests/api/bounded-load.test.ts"];

/**
 * Three projects:
 * - unit: pure rules (api/domain, app/lib, config), no database;
 * - api: the REST API in-process against a real database. tests/support/db.ts migrates and seeds once
 *   (globalSetup); every test file then gets its own copy (PGlite from a dump, or a PostgreSQL database created
 *   from a template when DATABASE_URL is set), so files run in parallel without sharing state.
 *   API_TRANSPORT=http runs every API test over a real socket instead of in-process;
 * - load: the bounded-load test (issue 22), whose latency target means nothing while other files share the two
 *   cores: `npm test` and CI run it on its own after the others (`vitest run --project load`).
 */
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    // Vitest's default (CPUs - 1) is a single worker on a 2-CPU machine; API files wait on the database and scrypt.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...LOAD_TESTS],
          environment: "node",
          globalSetup: ["tests/support/db.ts"],
          // Every file opens its own database: separate processes keep PGlite's WASM heaps apart.
          pool: "forks",
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "load",
          include: LOAD_TESTS,
          environment: "node",
          pool: "forks",
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
