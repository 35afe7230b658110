/**
 * `npm run build`'s field step: the field app's own two scripts (docs/field-app.md 'Offline'), bundled and minified
 * by esbuild into public/ (ignored by git): `campo/app.js`, the pages' script, and `campo-sw.js`, the service worker,
 * which must keep one address (a phone finds updates of it there) and sits above /campo so that its scope can be
 * `/campo` itself ('Hoje'), not only what is under `/campo/`. Stable names, not fingerprints: the service worker
 * refreshes both, and the server lets browsers keep them an hour (api/lib/compression.ts).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export async function buildFieldScripts() {
  await build({
    entryPoints: {
      "campo/app": path.join(root, "app/field/client/app.ts"),
      "campo-sw": path.join(root, "app/field/client/sw.ts"),
    },
    outdir: path.join(root, "public"),
    bundle: true,
    minify: true,
    format: "iife",
    // The browsers of 2019 (Chrome 72+ on Android 8-era phones, the cheapest ones still in use).
    target: "es2019",
    legalComments: "none",
    logLevel: "warning",
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildFieldScripts();
