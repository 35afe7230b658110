import { execFileSync } from "node:child_process";

import { defineConfig, devices } from "@playwright/test";

import { CHROMIUM_LAUNCH } from "./tests/support/chromium.ts";

/**
 * Browser tests against the real server (tests/support/e2e-global-setup.ts starts `tsx server.ts` on a free port
 * with a fresh data directory). Every spec runs twice: with JavaScript and without it, because every page and
 * form must work without JS (DESIGN.md 'The web app'). The build is not done here: `npm test` builds first.
 *
 * The port is chosen once, in the runner process; workers load this file again but inherit the variable.
 */
process.env.E2E_PORT ??= execFileSync(
  process.execPath,
  [
    "-e",
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ],
  { encoding: "utf8" },
).trim();
const baseURL = `http://localhost:${process.env.E2E_PORT}`;

const chromium = {
  ...devices["Desktop Chrome"],
  viewport: { width: 1280, height: 800 },
  locale: "pt-BR",
  timezoneId: "America/Fortaleza",
  launchOptions: CHROMIUM_LAUNCH,
};

/**
 * Specs that prove nothing new without JS (issue 27 item 10: one no-JS run per shared behaviour, not per screen),
 * so the no-js project skips them. The no-JS paths they go through are run by another spec:
 * - downloads and read-only lists are plain links and server-rendered pages: catalogues-export, catalogues-roles;
 * - the catalogue module's own screens (duplicate) and the other lists built from the same components (DataList,
 *   the batch upload, the remove page): catalogues-duplicate, pre-registered-cpfs, environments-import;
 * - the report frame (filters as a GET form, drill-down dialogs as pages) is run without JS by reports and
 *   report-drilldown: activity-reports, incomplete-tasks, client-report;
 * - the accessibility checks read the same server-rendered HTML;
 * - the old-system box of the reports (legacy-toggle) is one more field of the report frame's GET form, its drill-downs
 *   the same pages: reports and report-drilldown run that frame without JS;
 * - the photo's zoom page (photos) is a server-rendered page with a plain link ('Voltar'); its no-JS pieces are each
 *   proved elsewhere: the signed-out redirect keeping the target (guards), links followed without JS (menu), another
 *   tenant's record answering the 404 page (organisation); the zoom page's own rules are API tests (photos.test.ts).
 */
const JS_ONLY_SPECS = [
  "catalogues-export.spec.ts",
  "catalogues-roles.spec.ts",
  "catalogues-duplicate.spec.ts",
  "pre-registered-cpfs.spec.ts",
  "environments-import.spec.ts",
  "activity-reports.spec.ts",
  "incomplete-tasks.spec.ts",
  "client-report.spec.ts",
  "accessibility.spec.ts",
  "legacy-toggle.spec.ts",
  "photos.spec.ts",
].map((file) => `**/${file}`);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "tests/.tmp/test-results",
  globalSetup: "./tests/support/e2e-global-setup.ts",
  fullyParallel: true,
  workers: 2,
  // On CI a test that fails is run once more: one that then passes is named as flaky in the run's summary
  // (tests/run.mjs) and counts as passed; one that fails twice fails the run. Locally nothing is retried.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI
    ? [["list"]]
    : [["list"], ["html", { open: "never", outputFolder: "tests/.tmp/playwright-report" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    actionTimeout: 7_000,
    navigationTimeout: 15_000,
  },
  projects: [
    { name: "js", use: { ...chromium, javaScriptEnabled: true } },
    { name: "no-js", use: { ...chromium, javaScriptEnabled: false }, testIgnore: JS_ONLY_SPECS },
  ],
});
