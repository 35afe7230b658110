/**
 * The README's production start runs after `npm ci --omit=dev` (issue 26): every package the server, its commands,
 * the PDF worker and the built web app import must be a dependency, not a devDependency. esbuild walks the import
 * graph from each entry point with packages left external and lists them.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";

import { build } from "esbuild";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};

/** `lodash/fp` -> lodash, `@scope/name/sub` -> @scope/name. */
const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

test("what production runs imports dependencies only", async () => {
  const builtApp = path.join(root, "build", "index.js");
  expect(existsSync(builtApp), "run `npm run build` first").toBe(true);
  const commands = readdirSync(path.join(root, "api", "db"))
    .filter((file) => file.endsWith("-cli.ts"))
    .map((file) => path.join(root, "api", "db", file));
  const result = await build({
    entryPoints: [path.join(root, "server.ts"), path.join(root, "api", "lib", "pdf-worker.mjs"), builtApp, ...commands],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    write: false,
    metafile: true,
    outdir: path.join(root, "tests", ".tmp", "production-imports"),
    logLevel: "silent",
    loader: { ".node": "empty" },
  });
  const imported = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const entry of input.imports) {
      if (!entry.external || entry.path.startsWith("node:") || builtinModules.includes(entry.path)) continue;
      imported.add(packageOf(entry.path));
    }
  }
  // The scripts `npm run serve` and the commands run through tsx, loaded by node itself.
  imported.add("tsx");
  expect(imported.size).toBeGreaterThan(20);
  expect([...imported].filter((name) => !(name in manifest.dependencies)).sort()).toEqual([]);
  expect(manifest.scripts.serve).toBe("exec node --max-old-space-size=512 --import tsx server.ts");
});
