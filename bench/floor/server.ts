/**
 * Serves the bare Remix app of bench/floor the way server.ts serves the product: Hono on @hono/node-server, the same
 * request frame (request id, security headers, a JSON log line per request: api/lib/request-frame.ts), the same
 * compression and static files (api/lib/compression.ts), Remix's request handler in production mode. Started by the
 * bench (bench/scale.ts).
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { serve } from "@hono/node-server";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { Hono } from "hono";
import pino from "pino";

import { bufferedCompression, staticFiles } from "../../api/lib/compression.ts";
import { requestFrame } from "../../api/lib/request-frame.ts";

const root = path.dirname(fileURLToPath(import.meta.url));
const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
});
const build = (await import(pathToFileURL(path.join(root, "build", "index.js")).href)) as ServerBuild;
const remix = createRequestHandler(build, "production");

const app = new Hono();
app.use("*", requestFrame({ logger, trustProxy: 0, production: true }));
app.use("*", bufferedCompression());
app.get("/healthz", (c) => c.json({ status: "ok" }));
app.use("*", staticFiles(path.join(root, "public")));
app.all("*", (c) => remix(c.req.raw));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3100), hostname: process.env.HOST ?? "127.0.0.1" }, () =>
  logger.info({ startupMs: 0, seeded: false }, "server listening"),
);
