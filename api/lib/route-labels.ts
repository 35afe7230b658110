/**
 * The `route` label of the HTTP metrics (api/lib/metrics.ts): the pattern a request matched, never its raw URL, so
 * that ids do not make a new time series each (`/api/environments/:id`, `/ambientes/:id/editar`). Anything that
 * matches no pattern of ours is the one label `unmatched`.
 */
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { RouterRoute } from "hono/types";

export const UNMATCHED = "unmatched";
/** Files served from public/ (api/lib/compression.ts staticFiles). */
export const STATIC = "static";

/** What we need of the REST API's Hono app: its router, with each route's registered path. */
type ApiRouter = {
  router: { match(method: string, path: string): [[[unknown, RouterRoute], unknown][], ...unknown[]] };
};

/**
 * The API's route pattern of a request to /api, looked up in the API app's own router (the match Hono makes
 * inside `api.fetch`, which server.ts cannot see). Middleware (`use`, method ALL) matches every path: the pattern is
 * the last matched route with a method, the handler; a path only middleware matches is `unmatched`.
 */
export function apiRoutePattern(api: ApiRouter, method: string, pathname: string): string {
  // Hono answers HEAD with the GET route.
  const [matches] = api.router.match(method === "HEAD" ? "GET" : method, pathname);
  for (let index = matches.length - 1; index >= 0; index--) {
    const route = matches[index][0][1];
    if (route.method !== "ALL") return route.path;
  }
  return UNMATCHED;
}

type RouteManifest = ServerBuild["routes"];

/**
 * A matcher of the web app's pages: the built routes as a tree (as Remix builds it), matched with the router Remix
 * uses; the label is the full path pattern of the deepest match. The catch-all page (`$.tsx`, the 404) is
 * `unmatched`. Single fetch's data requests (`/ambientes/5/editar.data`, `/_root.data`) count as their page.
 */
export function remixRoutePatterns(manifest: RouteManifest) {
  const tree = routeTree(manifest);
  const patterns = new Map(Object.keys(manifest).map((id) => [id, fullPattern(manifest, id)]));
  return (pathname: string): string => {
    if (pathname === "/__manifest") return pathname; // lazy route discovery's requests
    const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const matches = matchRoutes(tree, page);
    const deepest = matches?.[matches.length - 1]?.route;
    if (!deepest?.id || deepest.path === "*") return UNMATCHED;
    return patterns.get(deepest.id) ?? UNMATCHED;
  };
}

function routeTree(manifest: RouteManifest, parentId?: string): AgnosticRouteObject[] {
  const routes: AgnosticRouteObject[] = [];
  for (const route of Object.values(manifest)) {
    if (!route || route.parentId !== parentId) continue;
    const { id, path, caseSensitive } = route;
    routes.push(
      route.index
        ? { id, path, caseSensitive, index: true }
        : { id, path, caseSensitive, children: routeTree(manifest, id) },
    );
  }
  return routes;
}

/** `/ambientes/:id/editar` for `routes/_app.ambientes.$id.editar`: the paths from the root down to the route. */
function fullPattern(manifest: RouteManifest, id: string) {
  const segments: string[] = [];
  for (
    let route: RouteManifest[string] | undefined = manifest[id];
    route;
    route = route.parentId ? manifest[route.parentId] : undefined
  ) {
    if (route.path) segments.unshift(route.path);
  }
  return `/${segments.join("/")}`.replace(/\/{2,}/g, "/");
}

/**
 * The route label of a request that came in on the socket: the process's own endpoints by their path, /api by the
 * API's pattern, the rest by the web app's (static files are labelled where they are served: metrics.ts answeredAs).
 */
export function routeLabeller(options: { api: ApiRouter; routes: RouteManifest; endpoints: string[] }) {
  const endpoints = new Set(options.endpoints);
  const remixRoute = remixRoutePatterns(options.routes);
  return (method: string, pathname: string): string => {
    if (endpoints.has(pathname)) return pathname;
    if (pathname === "/api" || pathname.startsWith("/api/")) return apiRoutePattern(options.api, method, pathname);
    return remixRoute(pathname);
  };
}
