/**
 * What route matching costs as the route table grows (docs/decisions/005): builds the route tree from the built
 * server bundle (as @remix-run/server-runtime does), then times `matchRoutes` — which flattens and ranks every
 * branch on each call — for a few URLs, at the table's real size and with dummy pages added up to ~150 routes.
 * Run with `npx tsx bench/route-matching.ts` after `npm run build`.
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

const manifest = build.routes as unknown as Manifest;
const size = Object.keys(manifest).length;
console.log("Route matching (matchRoutes, flatten + rank + match; a document request matches about 4 times)");
for (const total of [size, 100, 150]) {
  const us = measure(total === size ? manifest : withDummies(manifest, total));
  console.log(
    `  ${String(total).padStart(3)} routes: ${us.toFixed(1)} µs per match, ~${((us * 4) / 1000).toFixed(2)} ms per page`,
  );
}
