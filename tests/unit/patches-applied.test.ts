/**
 * `patches/` (patch-package, applied by `npm install`/`npm ci`) changes upstream code for speed (docs/upgrading.md
 * lists each patch, its upstream issue and what it buys). A patch stops applying silently when its package is
 * upgraded (patch-package warns and goes on) or a reinstall skips the postinstall script: then the speed is lost and
 * nothing else fails. This test fails instead: each patch's package is at the version the patch names, and every line
 * the patch adds is in the installed file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const patches = readdirSync(path.join(root, "patches")).filter((file) => file.endsWith(".patch"));

/** '@remix-run+router+1.23.3.patch' -> ['@remix-run/router', '1.23.3']. */
function packageOf(file: string) {
  const parts = file.replace(/\.patch$/, "").split("+");
  const version = parts.pop()!;
  return [parts.join("/"), version] as const;
}

/** The lines each patched file gains, keyed by the file's path in the repository. */
function addedLines(patch: string) {
  const files = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of patch.split("\n")) {
    const target = /^\+\+\+ b\/(.+)$/.exec(line);
    if (target) files.set(target[1], (current = []));
    else if (line.startsWith("+") && current && line.slice(1).trim()) current.push(line.slice(1).trim());
  }
  return files;
}

describe("patches/ are applied", () => {
  test("there are patches to check", () => expect(patches.length).toBeGreaterThan(0));

  for (const file of patches) {
    test(file, () => {
      const [name, version] = packageOf(file);
      const installed = JSON.parse(readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8"));
      expect(installed.version, `${name} was upgraded: redo or drop ${file} (docs/upgrading.md)`).toBe(version);
      const files = addedLines(readFileSync(path.join(root, "patches", file), "utf8"));
      expect(files.size).toBeGreaterThan(0);
      for (const [target, lines] of files) {
        const source = new Set(
          readFileSync(path.join(root, target), "utf8")
            .split("\n")
            .map((line) => line.trim()),
        );
        const missing = lines.filter((line) => !source.has(line));
        expect(missing, `${target}: ${file} is not applied (npm install runs patch-package)`).toEqual([]);
      }
    });
  }
});
