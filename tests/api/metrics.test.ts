/**
 * Issue 26 items 4 and 5 through the whole process (server.ts + the built web app): /metrics in Prometheus's text
 * format behind METRICS_TOKEN, request counters labelled by route pattern (never a raw id), /livez, and the database
 * and PDF gauges. One server (restarted once without the token at the end), on a copy of the suite's embedded
 * database; nothing here signs in. Needs `npm run build` first, as the e2e suite does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";

import { openDatabase } from "../../api/db/connection.ts";
import { bearerMatches, createMetrics } from "../../api/lib/metrics.ts";
import { startServer } from "../../server.ts";
import { openTestDatabase, writeTestDatabase } from "../support/db.ts";
import { testServerConfig } from "../support/server-config.ts";

const TOKEN = "m".repeat(20) + "3tr1c5-t0k3n-0f-t3st";

let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "metrics-"));
  await writeTestDatabase(dataDir);
  server = await startServer(testServerConfig(dataDir, { DEMO_DATA: "false", METRICS_TOKEN: TOKEN }));
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (pathname: string, init: RequestInit = {}) =>
  fetch(new URL(pathname, server.url), { redirect: "manual", ...init });

const scrape = () => get("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });

type Sample = { name: string; labels: Record<string, string>; value: number };

/** Prometheus's text format: `# HELP`/`# TYPE` comments, else `name{label="value",...} number` per line. */
function parseExposition(text: string): Sample[] {
  const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\})? (\S+)$/;
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = sample.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]),
      );
      const value = Number(match[3].replace("+Inf", "Infinity"));
      if (Number.isNaN(value) && !/^nan$/i.test(match[3])) throw new Error(`not a number: ${line}`);
      return { name: match[1], labels, value };
    });
}

const requestsOf = (samples: Sample[], labels: Record<string, string>) =>
  samples
    .filter((s) => s.name === "http_requests_total")
    .filter((s) => Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0);

describe("/livez and /metrics", () => {
  test("/livez answers 200 without the database", async () => {
    const response = await get("/livez");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  test("/metrics asks for the bearer token: 401 with WWW-Authenticate without it or with another", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, "Bearer "]) {
      const response = await get("/metrics", { headers: authorization ? { authorization } : {} });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get("www-authenticate"), authorization).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain("http_requests_total");
    }
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  test("bearerMatches compares the whole token", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches("Bearer", TOKEN)).toBe(false);
  });
});

describe("request metrics", () => {
  let samples: Sample[];

  beforeAll(async () => {
    const answers = await Promise.all([
      get("/api/environments/123"), // an API route with an id, no token: 401
      get("/api/environments/987654", { method: "HEAD" }),
      get("/api/ambientes/123"), // no such API route (401 before 404: no token)
      get("/ambientes/5/editar"), // a page, signed out: redirect to the sign-in
      get("/info/ambiente/424242"), // the public room page, whose loader calls the API in-process
      get("/favicon.svg"), // a file of public/
      get("/nada/de/nada/77"), // no page: the catch-all sends it to /
      get("/healthz"),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 302, 404, 200, 302, 200]);
    const response = await scrape();
    samples = parseExposition(await response.text());
  });

  test("every line of the answer is a comment or a sample", () => {
    expect(samples.length).toBeGreaterThan(20);
  });

  test("requests are counted by route pattern and status class", () => {
    expect(requestsOf(samples, { route: "/api/environments/:id", status_class: "4xx", method: "GET" })).toBe(1);
    expect(requestsOf(samples, { route: "/api/environments/:id", status_class: "4xx", method: "HEAD" })).toBe(1);
    expect(requestsOf(samples, { route: "/ambientes/:id/editar", status_class: "3xx", method: "GET" })).toBe(1);
    expect(requestsOf(samples, { route: "/info/ambiente/:id", status_class: "4xx" })).toBe(1);
    expect(requestsOf(samples, { route: "static", status_class: "2xx" })).toBeGreaterThanOrEqual(1);
    expect(requestsOf(samples, { route: "/healthz", status_class: "2xx" })).toBeGreaterThanOrEqual(1);
    expect(requestsOf(samples, { route: "/livez", status_class: "2xx" })).toBeGreaterThanOrEqual(1);
    expect(requestsOf(samples, { route: "/metrics", status_class: "4xx" })).toBeGreaterThanOrEqual(5);
    // The unknown API route and the unknown page share one label.
    expect(requestsOf(samples, { route: "unmatched", status_class: "4xx" })).toBe(1);
    expect(requestsOf(samples, { route: "unmatched", status_class: "3xx" })).toBe(1);
  });

  test("no label carries a raw URL, and the web app's in-process API calls are not counted", () => {
    const routes = new Set(samples.filter((s) => s.name.startsWith("http_")).map((s) => s.labels.route));
    for (const route of routes) expect(route).not.toMatch(/\d/);
    expect(routes).not.toContain("/api/info/ambiente/:id");
    for (const sample of samples.filter((s) => s.name.startsWith("http_"))) {
      expect(sample.labels.status_class ?? "2xx").toMatch(/^[1-5]xx$/);
    }
  });

  test("durations are a histogram with the same labels", () => {
    const count = samples.find(
      (s) => s.name === "http_request_duration_seconds_count" && s.labels.route === "/ambientes/:id/editar",
    );
    expect(count).toMatchObject({ labels: { method: "GET", status_class: "3xx" }, value: 1 });
    expect(samples.some((s) => s.name === "http_request_duration_seconds_bucket" && s.labels.le === "+Inf")).toBe(true);
  });

  test("Node's own metrics, database query times and the PDF queue are there", () => {
    const names = new Set(samples.map((s) => s.name));
    for (const name of ["nodejs_eventloop_lag_seconds", "process_cpu_seconds_total", "nodejs_heap_size_used_bytes"]) {
      expect(names, name).toContain(name);
    }
    const queries = samples.find((s) => s.name === "db_query_duration_seconds_count" && s.labels.outcome === "ok");
    expect(queries?.value).toBeGreaterThan(0);
    expect(samples.find((s) => s.name === "pdf_queue_length")?.value).toBe(0);
    expect(samples.find((s) => s.name === "pdf_running")?.value).toBe(0);
    // The embedded database has no pool.
    expect(names).not.toContain("db_pool_connections");
  });
});

describe("the database pool", () => {
  test("PostgreSQL's pool is reported at scrape time; PGlite has none", async () => {
    if (inject("testDatabase").kind === "pglite") {
      expect(server.database.poolStats).toBeUndefined();
      return;
    }
    const database = await openTestDatabase();
    try {
      const metrics = createMetrics();
      metrics.watchDatabasePool(database.poolStats!);
      await database.ready();
      const samples = parseExposition(await metrics.registry.metrics());
      const connections = (state: string) =>
        samples.find((s) => s.name === "db_pool_connections" && s.labels.state === state)?.value;
      expect(connections("total")).toBeGreaterThanOrEqual(1);
      expect(connections("idle")).toBeGreaterThanOrEqual(1);
      expect(connections("waiting")).toBe(0);
      expect(samples.find((s) => s.name === "db_pool_max")?.value).toBe(10);
    } finally {
      await database.close();
    }
  });

  test("DATABASE_POOL_SIZE is the pool's max (PostgreSQL only)", async (context) => {
    const source = inject("testDatabase");
    if (source.kind !== "postgres") return context.skip();
    const queries: string[] = [];
    const database = await openDatabase({
      databaseUrl: source.adminUrl,
      poolSize: 3,
      onQuery: (event) => queries.push(event.level),
    });
    try {
      await Promise.all(Array.from({ length: 5 }, () => sql`select pg_sleep(0.05)`.execute(database.db)));
      expect(database.poolStats!()).toMatchObject({ max: 3, total: 3 });
      await expect(sql`select * from no_such_table`.execute(database.db)).rejects.toThrow();
      expect(queries).toEqual(["query", "query", "query", "query", "query", "error"]);
    } finally {
      await database.close();
    }
  });
});

describe("without METRICS_TOKEN", () => {
  test("/metrics answers 404, /livez still answers", async () => {
    await server.close();
    server = await startServer(testServerConfig(dataDir, { DEMO_DATA: "false" }));
    expect((await get("/metrics")).status).toBe(404);
    expect((await get("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await get("/livez")).status).toBe(200);
  }, 30_000);
});
