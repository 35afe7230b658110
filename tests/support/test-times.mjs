#!/usr/bin/env node
/**
 * Where a test run's time goes (docs/performance.md 'CI time'): reads a vitest JSON report
 * (`npx vitest run --project api --reporter=json --outputFile=<file>`) or a Playwright one
 * (`PLAYWRIGHT_JSON_OUTPUT_FILE=<file> npx playwright test --reporter=json`) and prints each test file's seconds and
 * its share of the run's sum, slowest first (Playwright: per file and project, js or no-js). Files run two at a time,
 * so the sum is about twice the wall time; on a shared machine compare shares, not seconds.
 *
 * Usage: node tests/support/test-times.mjs <report.json> [how many rows, default 25]
 */
import { readFileSync } from "node:fs";
import path from "node:path";

const [file, rows = "25"] = process.argv.slice(2);
if (!file) {
  console.error("usage: node tests/support/test-times.mjs <report.json> [rows]");
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, "utf8"));
const times = new Map();
const add = (name, ms) => times.set(name, (times.get(name) ?? 0) + ms);

if (report.testResults) {
  for (const result of report.testResults)
    add(path.relative(process.cwd(), result.name), (result.endTime ?? 0) - (result.startTime ?? 0));
  console.log(
    `vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`,
  );
} else {
  const walk = (suite, specFile) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        for (const result of test.results ?? []) add(`${specFile} (${test.projectName})`, result.duration ?? 0);
    for (const child of suite.suites ?? []) walk(child, specFile);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file ?? suite.title);
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0, duration = 0 } = report.stats ?? {};
  console.log(
    `playwright: ${expected} passed, ${unexpected} failed, ${flaky} flaky, ${skipped} skipped, ${(duration / 1000).toFixed(0)} s`,
  );
}
const total = [...times.values()].reduce((sum, ms) => sum + ms, 0);
console.log(`${times.size} files, ${(total / 1000).toFixed(0)} s summed over them`);
for (const [name, ms] of [...times].sort((a, b) => b[1] - a[1]).slice(0, Number(rows)))
  console.log(`${(ms / 1000).toFixed(1).padStart(8)} s ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${name}`);
