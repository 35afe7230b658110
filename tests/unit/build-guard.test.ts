/**
 * `npm run build` (scripts/build.ts) fails when esbuild's service prints a Go crash dump, even when the command it ran
 * exited 0: the dump comes from the service, which outlives the Remix CLI and writes after it has gone.
 */
import { describe, expect, test } from "vitest";

import { runGuarded } from "../../scripts/build.ts";

const DUMP = "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:";

/** A command that exits 0 at once and leaves a process behind that writes `text` to the shared stderr later. */
const leavesBehind = (text: string) => {
  const later = `setTimeout(() => console.error(${JSON.stringify(text)}), 300)`;
  return [
    "-e",
    `require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(later)}], ` +
      `{ stdio: ["ignore", "ignore", "inherit"] }).unref(); process.exit(0)`,
  ];
};

describe("the build's guard against esbuild's crash dump", () => {
  test("a dump written after the command exited 0 fails the build", async () => {
    expect(await runGuarded(process.execPath, leavesBehind(DUMP))).toBe(1);
  });

  test("other error output of a command that exits 0 does not", async () => {
    expect(await runGuarded(process.execPath, leavesBehind("Browserslist: caniuse-lite is outdated."))).toBe(0);
  });

  test("a command's own failure is its exit code", async () => {
    expect(await runGuarded(process.execPath, ["-e", "process.exit(3)"])).toBe(3);
  });
});
