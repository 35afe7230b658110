/**
 * Prometheus metrics of the process (issue 26; docs/operations.md 'Metrics and health'): requests by route pattern,
 * database query times and pool, the PDF pool's queue, and Node's own (event-loop lag, heap, GC). One registry per
 * server rather than prom-client's global one, so a test process can start several servers.
 */
import { createHash, timingSafeEqual } from "node:crypto";

import type { Context, MiddlewareHandler } from "hono";
import type { LogEvent } from "kysely";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

import type { PoolStats } from "../db/connection.ts";

/** Set by a handler that knows what it served (static files); otherwise the route is looked up after the answer. */
export type RouteVariables = { route?: string };

/** Methods outside this list share one label: a client may send any token as a method. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Query times: most are a few milliseconds; reports and exports take up to seconds. */
const QUERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A client that left before the answer is logged as 499 (api/lib/request-frame.ts); Remix answers such a one 500. */
const CLIENT_CLOSED_REQUEST = 499;

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const httpLabels = ["method", "route", "status_class"] as const;
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status class",
    labelNames: httpLabels,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival until its answer is ready to send, by method, route pattern and status class",
    labelNames: httpLabels,
    registers: [registry],
  });
  const queries = new Histogram({
    name: "db_query_duration_seconds",
    help: "Time the database took per query (without waiting for a pool connection), by outcome",
    labelNames: ["outcome"] as const,
    buckets: QUERY_BUCKETS,
    registers: [registry],
  });

  return {
    registry,

    /**
     * Outermost middleware: times and counts requests that came in on the socket (the web app's in-process calls to
     * the API never pass here). `routeOf` names the pattern once the answer is known, unless a handler set `route`.
     */
    middleware(
      routeOf: (method: string, pathname: string) => string,
    ): MiddlewareHandler<{ Variables: RouteVariables }> {
      return async (c, next) => {
        const begin = performance.now();
        try {
          await next();
        } finally {
          const method = METHODS.has(c.req.method) ? c.req.method : "other";
          const route = c.get("route") ?? routeOf(c.req.method, c.req.path);
          const status = c.req.raw.signal.aborted ? CLIENT_CLOSED_REQUEST : c.res.status;
          const labels = { method, route, status_class: `${Math.floor(status / 100)}xx` };
          requests.inc(labels);
          durations.observe(labels, (performance.now() - begin) / 1000);
        }
      };
    },

    /** Kysely's `log` (api/db/connection.ts openDatabase's `onQuery`). */
    observeQuery(event: LogEvent) {
      queries.observe({ outcome: event.level === "error" ? "error" : "ok" }, event.queryDurationMillis / 1000);
    },

    /** PostgreSQL's connection pool, read at each scrape. PGlite has no pool: not called for it. */
    watchDatabasePool(stats: () => PoolStats) {
      new Gauge({
        name: "db_pool_connections",
        help: "PostgreSQL pool: connections open (total), idle, and queries waiting for one (waiting)",
        labelNames: ["state"] as const,
        registers: [registry],
        collect() {
          const { total, idle, waiting } = stats();
          this.set({ state: "total" }, total);
          this.set({ state: "idle" }, idle);
          this.set({ state: "waiting" }, waiting);
        },
      });
      new Gauge({
        name: "db_pool_max",
        help: "PostgreSQL pool: most connections it opens (DATABASE_POOL_SIZE)",
        registers: [registry],
        collect() {
          this.set(stats().max);
        },
      });
    },

    /** The PDF workers' queue (api/lib/pdf-pool.ts), read at each scrape. */
    watchPdfPool(pdf: { stats(): { running: number; queued: number } }) {
      new Gauge({
        name: "pdf_queue_length",
        help: "PDF documents waiting for a worker",
        registers: [registry],
        collect() {
          this.set(pdf.stats().queued);
        },
      });
      new Gauge({
        name: "pdf_running",
        help: "PDF documents being built",
        registers: [registry],
        collect() {
          this.set(pdf.stats().running);
        },
      });
    },
  };
}

/** `middleware`'s own answers (those it gives without calling next) are counted under `route`: the static files. */
export function answeredAs(
  route: string,
  middleware: MiddlewareHandler,
): MiddlewareHandler<{ Variables: RouteVariables }> {
  return async (c, next) => {
    let passedOn = false;
    const answer = await middleware(c, () => {
      passedOn = true;
      return next();
    });
    if (!passedOn) c.set("route", route);
    return answer;
  };
}

/**
 * GET /metrics in Prometheus's text format for a bearer of `token` (METRICS_TOKEN), 401 otherwise. Without a token
 * the metrics are not served: 404 (a scraper left configured says so plainly, rather than following the web app's
 * redirect of unknown paths to the sign-in page).
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined) {
  return async (c: Context) => {
    if (!token) return c.text("Not Found", 404);
    if (!bearerMatches(c.req.header("authorization"), token)) {
      return c.text("Unauthorized", 401, { "www-authenticate": 'Bearer realm="metrics"' });
    }
    return c.body(await metrics.registry.metrics(), 200, {
      "content-type": metrics.registry.contentType,
      "cache-control": "no-store",
    });
  };
}

/** Constant-time comparison: digests of both sides, so neither the token's length nor its prefix leaks by timing. */
export function bearerMatches(header: string | undefined, token: string) {
  const given = /^Bearer +(\S+) *$/i.exec(header ?? "")?.[1] ?? "";
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}
