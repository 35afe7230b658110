/**
 * What route matching costs as the route table grows (docs/decisions/005): builds the route tree from the built
 * server bundle (as @remix-run/server-runtime does), then times `matchRoutes` — which flattens and ranks every
 * branch on each call — for a few URLs, at the table's real size and with dummy pages added up to ~150 routes.
 * Run with `npx tsx bench/route-matching.ts` after `npm run build`. With the patch of @remix-run/router
 * (patches/, docs/performance.md) the branches are flattened and ranked once per routes array, and recent paths'
 * matches are kept; the last column (a new URL each time) shows the cost without that second cache.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const build = (await import(pathToFileURL(path.join(root, "build", "index.js")).href)) as ServerBuild;

type Manifest = Record<string, { id: string; parentId?: string; path?: string; index?: boolean }>;

function tree(manifest: Manifest, parentId?: string): AgnosticRouteObject[] {
  return Object.values(manifest)
    .filter((route) => route.parentId === parentId)
    .map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      ...(route.index ? {} : { children: tree(manifest, route.id) }),
    })) as AgnosticRouteObject[];
}

function withDummies(manifest: Manifest, total: number): Manifest {
  const copy: Manifest = { ...manifest };
  for (let n = 0; Object.keys(copy).length < total; n++) {
    copy[`dummy/${n}`] = { id: `dummy/${n}`, parentId: "routes/_app", path: `tela-${n}/:id/editar` };
  }
  return copy;
}

const URLS = ["/", "/setores", "/setores/12/editar", "/relatorio-geral"];
const ROUNDS = 4_000;

function measure(manifest: Manifest) {
  const routes = tree(manifest);
  for (let i = 0; i < 200; i++) for (const url of URLS) matchRoutes(routes, url);
  const start = performance.now();
  for (let i = 0; i < ROUNDS; i++) for (const url of URLS) matchRoutes(routes, url);
  return ((performance.now() - start) * 1000) / (ROUNDS * URLS.length);
}

/** Every URL a new one (an id per request), so a cache of recent matches (patches/@remix-run+router) never hits. */
function measureDistinct(manifest: Manifest) {
  const routes = tree(manifest);
  const start = performance.now();
  for (let i = 0; i < ROUNDS; i++) matchRoutes(routes, `/setores/${i + 1_000_000}/editar`);
  return ((performance.now() - start) * 1000) / ROUNDS;
}

const manifest = build.routes as unknown as Manifest;
const size = Object.keys(manifest).length;
console.log("Route matching (matchRoutes, flatten + rank + match; a document request matches about 4 times)");
for (const total of [size, 100, 150]) {
  const table = total === size ? manifest : withDummies(manifest, total);
  const us = measure(table);
  const distinct = measureDistinct(table);
  console.log(
    `  ${String(total).padStart(3)} routes: ${us.toFixed(1)} µs per match, ~${((us * 4) / 1000).toFixed(2)} ms per page; ` +
      `a new URL each time: ${distinct.toFixed(1)} µs per match`,
  );
}
