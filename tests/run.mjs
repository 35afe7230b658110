#!/usr/bin/env node
/**
 * `npm test` (after `npm run build`): runs the vitest suites (unit + api) and the Playwright browser suites, each
 * with a JSON reporter, reads both result files and prints each suite's counts, then one last line
 * `N passed, N failed` over everything. Exits non-zero when a test failed or a runner crashed (no result file,
 * a load error, a global-setup error, or a non-zero exit with no failed test to explain it).
 *
 * With DATABASE_URL set, vitest's api project runs against that PostgreSQL server; the browser tests always
 * start their own server on an embedded database.
 *
 * Before Playwright runs, tests/support/ensure-chromium.mjs checks for Debian's Chromium (CHROMIUM_PATH, else
 * /usr/bin/chromium) and installs it with apt-get when missing and run as root; otherwise it prints the command to
 * run and the browser suite counts as one failure (it is not skipped).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { ensureChromium } from "./support/ensure-chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = path.join(root, "tests", ".tmp", "results");
mkdirSync(resultsDir, { recursive: true });

const npx = process.platform === "win32" ? "npx.cmd" : "npx";

/** Runs a command with the terminal attached; answers its exit code and wall time. */
function run(label, args, env = {}) {
  console.log(`\n▶ ${label}: npx ${args.join(" ")}\n`);
  const started = Date.now();
  const result = spawnSync(npx, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = (Date.now() - started) / 1000;
  if (result.error) console.error(`${label} could not start: ${result.error.message}`);
  return { code: result.status ?? 1, seconds };
}

function readJson(file) {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** vitest's JSON (Jest-compatible): counts per test; a file that failed to load counts as one failure. */
function vitestCounts(report, code) {
  if (!report) return { passed: 0, failed: 1, skipped: 0, note: "no result file: the runner crashed" };
  const passed = report.numPassedTests ?? 0;
  let failed = report.numFailedTests ?? 0;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed"),
  );
  let note = "";
  if (brokenFiles.length) {
    failed += brokenFiles.length;
    note = `files that failed to run: ${brokenFiles.map((file) => path.relative(root, file.name)).join(", ")}`;
  }
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `exited with ${code} without a failed test`;
  }
  const failedTests = (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((test) => test.status === "failed")
      .map((test) => `${path.relative(root, file.name)} › ${test.fullName ?? test.title}`),
  );
  return { passed, failed, skipped, note: withFailedTests(note, failedTests) };
}

/**
 * The suite's line names its failed tests (the first five): CI keeps only the end of the log, and a failure that
 * does not come back when run again must still say where it was.
 */
function withFailedTests(note, titles) {
  if (!titles.length) return note;
  const listed = titles.slice(0, 5).join("; ") + (titles.length > 5 ? `; and ${titles.length - 5} more` : "");
  return [note, `failed: ${listed}`].filter(Boolean).join(" — ");
}

/** Playwright's JSON: stats of the whole run; errors outside tests (global setup, config) count as one failure. */
function playwrightCounts(report, code) {
  if (!report?.stats) return { passed: 0, failed: 1, skipped: 0, note: "no result file: the runner crashed" };
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
  let failed = unexpected;
  let note = "";
  if (report.errors?.length) {
    failed += 1;
    note = `error outside the tests: ${report.errors[0].message?.split("\n")[0] ?? "unknown"}`;
  }
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `exited with ${code} without a failed test`;
  }
  const failedTests = [];
  const flakyTests = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) {
        const name = `[${test.projectName}] ${spec.file}:${spec.line} › ${spec.title}`;
        if (test.status === "unexpected") failedTests.push(`${name} (${firstErrorLine(test)})`);
        if (test.status === "flaky") flakyTests.push(`${name} (first try: ${firstErrorLine(test)})`);
      }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  // A test that passed only on its retry (playwright.config.ts 'retries') counts as passed but is named here: a bug.
  if (flaky)
    note = [note, `${flaky} flaky (passed on retry): ${flakyTests.slice(0, 5).join("; ")}`].filter(Boolean).join(" — ");
  return { passed: expected + flaky, failed, skipped, note: withFailedTests(note, failedTests) };
}

/** The first line of a Playwright test's first error, without colours: CI keeps only the end of the log. */
function firstErrorLine(test) {
  const error = (test.results ?? []).find((result) => result.error)?.error;
  const line = (error?.message ?? "no error recorded").replace(/\u001b\[[0-9;]*m/g, "").split("\n")[0];
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

const suites = [];

const vitestFile = path.join(resultsDir, "vitest.json");
rmSync(vitestFile, { force: true });
const vitestArgs = ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestFile}`];
// Without its config vitest would also collect the Playwright specs (*.spec.ts) and fail on them.
const hasVitestConfig = ["ts", "mts", "js", "mjs"].some((ext) => existsSync(path.join(root, `vitest.config.${ext}`)));
if (!hasVitestConfig) vitestArgs.push("--exclude=tests/e2e/**", "--passWithNoTests");
else vitestArgs.push("--project=unit", "--project=api");
const vitest = run("vitest", vitestArgs);
suites.push({
  name: "vitest (unit + api)",
  seconds: vitest.seconds,
  ...vitestCounts(readJson(vitestFile), vitest.code),
});

// The load test measures latency: alone, after the others (vitest.config.ts 'load').
if (hasVitestConfig) {
  const loadFile = path.join(resultsDir, "vitest-load.json");
  rmSync(loadFile, { force: true });
  const load = run("vitest (load, alone)", [
    "vitest",
    "run",
    "--project=load",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${loadFile}`,
  ]);
  suites.push({ name: "vitest (load, alone)", seconds: load.seconds, ...vitestCounts(readJson(loadFile), load.code) });
}

const playwrightFile = path.join(resultsDir, "playwright.json");
rmSync(playwrightFile, { force: true });
console.log("\n▶ chromium for the browser tests");
const browserStarted = Date.now();
const chromium = ensureChromium();
if (chromium.ok) {
  const playwright = run("playwright", ["playwright", "test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightFile,
  });
  suites.push({
    name: "playwright (js + no-js)",
    seconds: (Date.now() - browserStarted) / 1000,
    ...playwrightCounts(readJson(playwrightFile), playwright.code),
  });
} else {
  console.error(chromium.message);
  suites.push({
    name: "playwright (js + no-js)",
    seconds: (Date.now() - browserStarted) / 1000,
    passed: 0,
    failed: 1,
    skipped: 0,
    note: "not run: Chromium is missing (the command to run is printed above)",
  });
}

/** Seconds per test file, slowest first: vitest's files, and Playwright's files per project (js, no-js). */
function fileTimes() {
  const times = new Map();
  const add = (name, ms) => times.set(name, (times.get(name) ?? 0) + ms);
  for (const file of [vitestFile, path.join(resultsDir, "vitest-load.json")]) {
    for (const result of readJson(file)?.testResults ?? [])
      add(`vitest ${path.relative(root, result.name)}`, (result.endTime ?? 0) - (result.startTime ?? 0));
  }
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        for (const result of test.results ?? [])
          add(`${test.projectName} tests/e2e/${spec.file}`, result.duration ?? 0);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of readJson(playwrightFile)?.suites ?? []) walk(suite);
  return [...times].sort((a, b) => b[1] - a[1]);
}

console.log("\nSeconds per test file (Playwright: summed over its tests, which run two at a time)");
for (const [name, ms] of fileTimes()) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)}  ${name}`);

console.log("\nResults");
for (const suite of suites) {
  const skipped = suite.skipped ? `, ${suite.skipped} skipped` : "";
  const note = suite.note ? ` — ${suite.note}` : "";
  console.log(
    `  ${suite.name}: ${suite.passed} passed, ${suite.failed} failed${skipped} (${suite.seconds.toFixed(1)} s)${note}`,
  );
}
const passed = suites.reduce((total, suite) => total + suite.passed, 0);
const failed = suites.reduce((total, suite) => total + suite.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
