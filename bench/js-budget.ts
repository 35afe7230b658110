/**
 * The JS budget (at most 120 KB gzip of script on every page; the field app's pages 30 KB, the public room page none):
 * for each route of the built browser
 * manifest (public/build/manifest-*.js), the scripts a first load of that page fetches (the entry, and the module
 * and imports of every route from root down to it), each gzipped at level 9 and summed once per file. Run alone
 * with `npx tsx bench/js-budget.ts` after `npm run build`; `npm run bench` prints the same table.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

export const JS_BUDGET_BYTES = 120 * 1024;
/** The field app's pages (docs/field-app.md): a cheap phone in a basement, script and service worker included. */
export const FIELD_JS_BUDGET_BYTES = 30 * 1024;
/** The field app's own scripts (scripts/build-field.ts), loaded by its pages instead of Remix's. */
const FIELD_SCRIPTS = ["/campo/app.js", "/campo-sw.js"];

type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
};
type Manifest = { entry: { module: string; imports?: string[] }; routes: Record<string, ManifestRoute> };

export type RouteScript = {
  route: string;
  url: string;
  files: number;
  rawBytes: number;
  gzipBytes: number;
  budget: number;
};

function readManifest(root: string): Manifest {
  const dir = path.join(root, "public", "build");
  const file = readdirSync(dir).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`no manifest-*.js in ${dir}: run npm run build first`);
  const text = readFileSync(path.join(dir, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Manifest;
}

/** The URL pattern of a route, from its own and its parents' paths. */
function urlOf(routes: Manifest["routes"], route: ManifestRoute) {
  const parts: string[] = [];
  for (let at: ManifestRoute | undefined = route; at; at = at.parentId ? routes[at.parentId] : undefined) {
    if (at.path) parts.unshift(at.path);
  }
  return `/${parts.join("/")}`.replace(/\/+/g, "/");
}

/**
 * The document each route is served in (app/root.tsx `handle.document`, its own or an enclosing route's), read from
 * the server build: "bare" loads no script at all (the public room page), "field" only the field app's own scripts.
 */
async function documentKinds(root: string) {
  const build = (await import(pathToFileURL(path.join(root, "build", "index.js")).href)) as {
    routes: Record<string, { parentId?: string; module: { handle?: { document?: string } } }>;
  };
  const kindOf = (id: string | undefined): string | undefined => {
    const route = id ? build.routes[id] : undefined;
    return route && (route.module.handle?.document ?? kindOf(route.parentId));
  };
  return new Map(Object.keys(build.routes).map((id) => [id, kindOf(id)]));
}

export async function measureJsBudget(root: string): Promise<RouteScript[]> {
  const manifest = readManifest(root);
  const kinds = await documentKinds(root);
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (url: string) => {
    let size = sizes.get(url);
    if (!size) {
      const bytes = readFileSync(path.join(root, "public", url));
      size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
      sizes.set(url, size);
    }
    return size;
  };
  const results: RouteScript[] = [];
  for (const route of Object.values(manifest.routes)) {
    const kind = kinds.get(route.id);
    const files = new Set<string>();
    if (kind === "field") FIELD_SCRIPTS.forEach((file) => files.add(file));
    else if (kind !== "bare") {
      [manifest.entry.module, ...(manifest.entry.imports ?? [])].forEach((file) => files.add(file));
      for (let at: ManifestRoute | undefined = route; at; at = at.parentId ? manifest.routes[at.parentId] : undefined) {
        files.add(at.module);
        for (const file of at.imports ?? []) files.add(file);
      }
    }
    let rawBytes = 0;
    let gzipBytes = 0;
    for (const file of files) {
      const size = sizeOf(file);
      rawBytes += size.raw;
      gzipBytes += size.gzip;
    }
    const budget = kind === "field" ? FIELD_JS_BUDGET_BYTES : kind === "bare" ? 0 : JS_BUDGET_BYTES;
    results.push({
      route: route.id,
      url: urlOf(manifest.routes, route),
      files: files.size,
      rawBytes,
      gzipBytes,
      budget,
    });
  }
  return results.sort((a, b) => b.gzipBytes - a.gzipBytes);
}

export function jsBudgetTable(rows: RouteScript[]) {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  return {
    headers: ["route", "url", "files", "JS KB", "JS KB gzip", "budget KB", "within"],
    rows: rows.map((row) => [
      row.route,
      row.url,
      String(row.files),
      kb(row.rawBytes),
      kb(row.gzipBytes),
      kb(row.budget),
      row.gzipBytes <= row.budget ? "ok" : "MISSED",
    ]),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const rows = await measureJsBudget(root);
  const table = jsBudgetTable(rows);
  console.log(table.headers.join(" | "));
  for (const row of table.rows) console.log(row.join(" | "));
  const over = rows.filter((row) => row.gzipBytes > row.budget);
  console.log(over.length ? `${over.length} route(s) over their budget` : "every route within its budget");
}
