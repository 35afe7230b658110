/**
 * Serves the bare Remix app of bench/floor the way server.ts serves the product: Hono on @hono/node-server, a
 * request id and a JSON log line per request, the security headers' cost, the same compression and static files
 * (api/lib/compression.ts), Remix's request handler in production mode. Started by the bench (bench/scale.ts).
 */
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { serve } from "@hono/node-server";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { Hono } from "hono";
import pino from "pino";

import { bufferedCompression, staticFiles } from "../../api/lib/compression.ts";

const root = path.dirname(fileURLToPath(import.meta.url));
const logger = pino({ level: process.env.LOG_LEVEL ?? "info", base: undefined });
const build = (await import(pathToFileURL(path.join(root, "build", "index.js")).href)) as ServerBuild;
const remix = createRequestHandler(build, "production");

const app = new Hono();
app.use("*", async (c, next) => {
  const requestId = c.req.header("x-request-id") ?? randomUUID();
  const nonce = randomBytes(16).toString("base64");
  const begin = performance.now();
  await next();
  c.header("x-request-id", requestId);
  c.header("content-security-policy", `default-src 'self'; script-src 'self' 'nonce-${nonce}'`);
  c.header("x-content-type-options", "nosniff");
  logger.info(
    {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - begin),
    },
    "request",
  );
});
app.use("*", bufferedCompression());
app.get("/healthz", (c) => c.json({ status: "ok" }));
app.use("*", staticFiles(path.join(root, "public")));
app.all("*", (c) => remix(c.req.raw));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3100), hostname: process.env.HOST ?? "127.0.0.1" }, () =>
  logger.info({ startupMs: 0, seeded: false }, "server listening"),
);
