/**
 * The process: validates the configuration, opens the database and migrates it, writes demo data on first start,
 * then serves /healthz, the REST API under /api, static files and the Remix app on one port.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { serve, type ServerType } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { sql } from "kysely";
import pino from "pino";

import { createApi } from "./api/app.ts";
import { ConfigError, loadConfig, type Config } from "./api/config.ts";
import { openDatabase, type Database } from "./api/db/connection.ts";
import { migrate } from "./api/db/migrate.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isEmpty, seedDemo } from "./api/db/seed.ts";
import { createMailer } from "./api/services/mailer.ts";
import { createDiskStorage } from "./api/services/storage.ts";

const root = path.dirname(fileURLToPath(import.meta.url));

type Variables = { requestId: string; nonce: string };

export async function startServer(config: Config) {
  const startedAt = performance.now();
  const logger = pino({ level: config.logLevel, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });

  const database: Database = config.databaseUrl
    ? await openDatabase({ databaseUrl: config.databaseUrl })
    : await openDatabase({ dataDir: config.dataDir });
  const applied = await migrate(database);
  if (applied.length) logger.info({ migrations: applied }, "migrations applied");
  let seeded = false;
  if (config.demoData && (await isEmpty(database))) {
    await seedDemo(database);
    seeded = true;
  }

  const api = createApi({
    database,
    config,
    logger,
    mailer: createMailer(database, logger, config.smtpUrl, config.mailFrom),
    storage: createDiskStorage(path.join(config.dataDir, "uploads")),
  });

  const buildPath = path.join(root, "build", "index.js");
  if (!existsSync(buildPath))
    throw new ConfigError("The web app is not built: run `npm run build` (npm start does it).");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const remix = createRequestHandler(build, config.env === "production" ? "production" : "development");

  const app = new Hono<{ Variables: Variables }>();

  app.use("*", async (c, next) => {
    const requestId = c.req.header("x-request-id")?.slice(0, 64) || randomUUID();
    const nonce = randomBytes(16).toString("base64");
    c.set("requestId", requestId);
    c.set("nonce", nonce);
    const begin = performance.now();
    await next();
    c.header("x-request-id", requestId);
    setSecurityHeaders(c.res.headers, nonce, config.env === "production");
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
  app.use("*", compress());

  app.get("/healthz", async (c) => {
    try {
      await sql`select 1`.execute(database.db);
      return c.json({ status: "ok", database: database.kind });
    } catch (error) {
      logger.error({ err: error }, "health check failed");
      return c.json({ status: "error" }, 503);
    }
  });

  app.all("/api/*", (c) => api.fetch(c.req.raw));

  // Fingerprinted build assets never change under one name; the rest of public/ may.
  app.use(
    "/build/*",
    serveStatic({
      root: path.join(root, "public"),
      onFound: (_path, c) => c.header("cache-control", "public, max-age=31536000, immutable"),
    }),
  );
  app.use(
    "*",
    serveStatic({
      root: path.join(root, "public"),
      onFound: (_path, c) => c.header("cache-control", "public, max-age=3600"),
    }),
  );

  app.all("*", async (c) => {
    // Forms must come from our own pages (the cookie is SameSite=Lax too): a cross-site POST is refused.
    if (!["GET", "HEAD"].includes(c.req.method) && !sameOrigin(c.req.raw)) {
      return c.text("Origem da requisição não permitida.", 403);
    }
    return remix(c.req.raw, {
      api: (request: Request) => api.fetch(request),
      apiUrl: config.apiUrl,
      requestId: c.get("requestId"),
      nonce: c.get("nonce"),
      secureCookies: config.env === "production",
      sessionSecret: config.sessionSecret,
    });
  });

  const server: ServerType = await new Promise((resolve) => {
    const instance = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(instance));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  logger.info(
    { url, database: database.kind, startupMs: Math.round(performance.now() - startedAt), seeded },
    "server listening",
  );

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    })());

  return { url, port, close, database, seeded, logger };
}

function setSecurityHeaders(headers: Headers, nonce: string, production: boolean) {
  if ((headers.get("content-type") ?? "").startsWith("text/html")) {
    headers.set(
      "content-security-policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join("; "),
    );
  }
  headers.set("x-content-type-options", "nosniff");
  headers.set("referrer-policy", "strict-origin-when-cross-origin");
  headers.set("x-frame-options", "DENY");
  if (production) headers.set("strict-transport-security", "max-age=31536000");
}

function sameOrigin(request: Request) {
  const origin = request.headers.get("origin");
  // Browsers send Origin on every cross-site POST; its absence means a same-site navigation or a non-browser client.
  if (!origin || origin === "null") return origin !== "null";
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const server = await startServer(config);
  if (config.demoData) {
    const demo = await server.database.db
      .selectFrom("users")
      .select("email")
      .where("email", "=", DEMO_ACCOUNTS[0].email)
      .executeTakeFirst();
    if (demo) {
      console.log(`\nDemo: open ${server.url} and sign in with any of these accounts, password ${DEMO_PASSWORD}`);
      for (const account of DEMO_ACCOUNTS) console.log(`  ${account.email.padEnd(26)} ${account.nivel}`);
      console.log("");
    }
  }
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, async () => {
      server.logger.info({ signal }, "shutting down");
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      await server.close();
      process.exit(0);
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
