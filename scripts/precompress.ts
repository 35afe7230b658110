/**
 * `npm run build`'s last step: writes `.br` and `.gz` beside every compressible build asset (public/build, ignored
 * by git), so the server (api/lib/compression.ts staticFiles) serves them compressed at maximum level without
 * compressing anything per request. The few other files of public/ are compressed once when the server starts.
 * Files already up to date are skipped.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const buildDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "public", "build");
const COMPRESSIBLE = /\.(js|mjs|css|html|json|map|svg|txt)$/;

let written = 0;
function walk(dir: string) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (COMPRESSIBLE.test(entry.name)) compress(full);
  }
}

function compress(file: string) {
  const mtime = statSync(file).mtimeMs;
  const fresh = (target: string) => existsSync(target) && statSync(target).mtimeMs >= mtime;
  if (fresh(`${file}.gz`) && fresh(`${file}.br`)) return;
  const raw = readFileSync(file);
  if (raw.length < 1024) return;
  writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
  writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  written++;
}

walk(buildDir);
console.log(`precompress: ${written} file(s) of public/build written as .br and .gz`);
