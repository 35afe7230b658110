import { availableParallelism } from "node:os";
import path from "node:path";

import { configDefaults, defineConfig } from "vitest/config";

/** Measures of a whole server under load: run alone (project 'load'), never beside other test files. */
const LOAD_TESTS = ["tests/api/bounded-load.test.ts"];

/**
 * API files whose subject does not depend on the database kind: the second API run (DATABASE_URL set, CI's run on
 * PostgreSQL, .ci/run) leaves them out, the PGlite run has done them (docs/performance.md 'CI time'). Everything that
 * reads or writes SQL through the file's own database stays in both runs (tenancy, reports, scheduling, the export
 * queue, backups and the move to PostgreSQL, faults, metrics' pool). The reason each file is here:
 */
const PGLITE_RUN_ONLY: Record<string, string> = {
  // A whole server started with testServerConfig (tests/support/server-config.ts) opens its own embedded database
  // whatever DATABASE_URL says: the PostgreSQL run sent the very same requests to PGlite a second time.
  "tests/api/web-fuzz.test.ts": "the web app's 5xx hunt, on a server of its own (PGlite)",
  "tests/api/web-origin.test.ts": "server.ts's Origin/Host check, on a server of its own (PGlite)",
  "tests/api/export-web.test.ts":
    "the download's redirect flow, on a server of its own (PGlite); the queue's SQL is export-jobs'",
  "tests/api/report-branch-web.test.ts":
    "report URLs' filial, on a server of its own (PGlite); the API's scope is tenancy's",
  "tests/api/security-web.test.ts": "the web's body limits, cookies, proxy headers, on servers of their own (PGlite)",
  "tests/api/security-database.test.ts": "the embedded database's files gone, a PostgreSQL URL that does not answer",
  "tests/api/field-proof-web.test.ts":
    "the QR codes, room page link and proof flags as pages and files, on a server of its own (PGlite); the SQL is field-proof's",
  // Child processes on the embedded database (their tests were skipped with DATABASE_URL set before this list).
  "tests/api/shutdown.test.ts": "server.ts's stop and its grace period",
  "tests/api/start-up.test.ts": "the 503 while server.ts starts",
  "tests/api/production-start.test.ts": "create-owner then npm run serve in production, on an embedded database",
  "tests/api/incident-alerts-restart.test.ts": "the alert sweep across a restart of a whole server (PGlite)",
  // No database of the file's own kind, or none that matters.
  "tests/api/create-owner.test.ts": "the command's prompts and messages, on an in-memory PGlite of its own",
  "tests/api/pglite-statements.test.ts": "PGlite's prepared-statement client",
  "tests/api/pglite-worker.test.ts": "PGlite in a worker thread (its tests skip themselves on PostgreSQL)",
  "tests/api/openapi-valid.test.ts": "the OpenAPI document, made by the code alone",
  "tests/api/openapi-order.test.ts": "the OpenAPI document, made by the code alone",
  "tests/api/js-budget.test.ts": "the built app's scripts, no database",
  "tests/api/rollup-check-cli.test.ts": "npm run check:rollups as a child process on an embedded database",
  "tests/api/rollup-backfill.test.ts": "migration 021's backfill, on an in-memory PGlite of its own",
  "tests/api/transport.test.ts": "in-process against a socket; the calls it makes run on PostgreSQL in their own files",
};
const SKIPPED_ON_POSTGRES = process.env.DATABASE_URL ? Object.keys(PGLITE_RUN_ONLY) : [];

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
          exclude: [...configDefaults.exclude, ...LOAD_TESTS, ...SKIPPED_ON_POSTGRES],
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
