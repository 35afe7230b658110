/**
 * `npm run build`'s first step: `remix build`, failing on a Go crash dump of esbuild's service even when Remix exits 0.
 * Remix's CLI exits right after building; esbuild contexts it left open made the service print 'fatal error: all
 * goroutines are asleep - deadlock!' whenever a keep-alive ping was unanswered at exit (patches/@remix-run+dev: the
 * build now disposes them; docs/upgrading.md). Should the dump come back (an upgrade that drops the patch), the build
 * says so and fails instead of leaving a newcomer to guess whether it worked.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { buildFieldScripts } from "./build-field.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What esbuild's service prints when the Go runtime finds it deadlocked (evanw/esbuild#2485, #3287). */
export const GO_CRASH = /^fatal error: all goroutines are asleep|^goroutine \d+ \[/m;

export const GO_CRASH_MESSAGE =
  "The build printed a Go crash dump of esbuild's service (above). Its output was written, but a build must end " +
  "cleanly: check that patches/@remix-run+dev+*.patch is applied (npm ci applies it; docs/upgrading.md).";

/**
 * Runs a command with its standard error both shown and kept, and answers its exit code, or 1 when that error output
 * holds a Go crash dump. 'close' waits for every holder of the pipe: esbuild's service outlives the CLI and writes
 * its dump after the CLI has exited.
 */
export function runGuarded(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["inherit", "inherit", "pipe"] });
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      errors += chunk.toString();
    });
    child.on("close", (code) => {
      if (GO_CRASH.test(errors)) {
        console.error(`\n${GO_CRASH_MESSAGE}`);
        resolve(1);
      } else resolve(code ?? 1);
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runGuarded(path.join(root, "node_modules", ".bin", "remix"), ["build"]);
  if (process.exitCode === 0) await buildFieldScripts();
}
