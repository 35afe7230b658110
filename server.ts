/**
 * The process: validates the configuration, opens the database and migrates it, writes demo data on first start,
 * then serves /healthz, the REST API under /api, static files and the Remix app on one port.
 */
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { getHeapStatistics } from "node:v8";

import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { Hono } from "hono";
import pino from "pino";

import { createApi, RETRY_AFTER_S, UNAVAILABLE } from "./api/app.ts";
import { ConfigError, loadConfig, type Config } from "./api/config.ts";
import { DatabaseStartError, openDatabase, type Database } from "./api/db/connection.ts";
import { refuseSecondServer, startControlSocket } from "./api/db/control-socket.ts";
import { dumpInProgress } from "./api/db/embedded-dump.ts";
import { migrate } from "./api/db/migrate.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isEmpty, seedDemo } from "./api/db/seed.ts";
import { INCIDENT_TEXTS } from "./api/domain/incidents.ts";
import { limitBodies } from "./api/lib/body-limit.ts";
import { bufferedCompression, staticFiles } from "./api/lib/compression.ts";
import {
  checkFormBody,
  CLIENT_ADDRESS_HEADER,
  noticeResponse,
  PUBLIC_ORIGIN_HEADER,
  publicOrigin,
  sameOrigin,
  serverOrigin,
} from "./api/lib/http-guards.ts";
import { trackRequests } from "./api/lib/in-flight.ts";
import { answeredAs, createMetrics, metricsEndpoint, type RouteVariables } from "./api/lib/metrics.ts";
import { createPdfPool } from "./api/lib/pdf-pool.ts";
import { pageChanges, publicCache } from "./api/lib/public-cache.ts";
import { TooManyAttempts } from "./api/lib/rate-limit.ts";
import { requestFrame, type FrameVariables } from "./api/lib/request-frame.ts";
import { routeLabeller, STATIC } from "./api/lib/route-labels.ts";
import { listenWhileStarting } from "./api/lib/start-up-gate.ts";
import { refuseKnownWebFlood } from "./api/routes/info.ts";
import {
  createExportRunner,
  EXPORT_REFUSED_HEADER,
  sweepExpiredExports,
  type ExportOutcome,
  type ExportRunner,
} from "./api/services/export-jobs.ts";
import { sweepExpiredIdempotencyKeys } from "./api/services/idempotency.ts";
import { readStrippedImage } from "./api/services/images.ts";
import { sendDueAlerts } from "./api/services/incident-alerts.ts";
import { createMailer } from "./api/services/mailer.ts";
import { ORPHAN_SWEEP_EVERY_MS, sweepOrphanFiles } from "./api/services/orphan-files.ts";
import { resumePendingBookings } from "./api/services/scheduling.ts";
import { createStorage } from "./api/services/storage.ts";

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Starts the whole server. The port opens first and answers 503 with Retry-After while the start-up work runs
 * (api/lib/start-up-gate.ts), so no request ever meets a half-started app; a start that fails releases it.
 */
export async function startServer(config: Config) {
  const gate = await listenWhileStarting({ port: config.port, host: config.host });
  try {
    return await startUp(config, gate);
  } catch (error) {
    await gate.close();
    throw error;
  }
}

async function startUp(config: Config, gate: Awaited<ReturnType<typeof listenWhileStarting>>) {
  const startedAt = performance.now();
  const logger = pino({ level: config.logLevel, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
  // The built web app first: a start that cannot serve pages stops before it opens (and would leave open) the database.
  const buildPath = path.join(root, "build", "index.js");
  if (!existsSync(buildPath))
    throw new ConfigError("The web app is not built: run `npm run build` (npm start does it).");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  // Disk under DATA_DIR/uploads, or the STORAGE_URL bucket (checked here: a bucket that does not answer stops the start).
  const storage = await createStorage(config);
  // One registry per server (api/lib/metrics.ts); served at /metrics when METRICS_TOKEN is set.
  const metrics = createMetrics();

  // Two processes on one PGlite directory corrupt it: a server already answering on DATA_DIR stops this start.
  if (!config.databaseUrl) await refuseSecondServer(config.dataDir);
  const database: Database = config.databaseUrl
    ? await openDatabase({
        databaseUrl: config.databaseUrl,
        poolSize: config.databasePoolSize,
        onPoolError: (error) => logger.warn({ err: error }, "database connection lost; the pool reconnects"),
        onQuery: metrics.observeQuery,
      })
    : await openDatabase({ dataDir: config.dataDir, worker: config.pgliteWorker, onQuery: metrics.observeQuery });
  if (database.poolStats) metrics.watchDatabasePool(database.poolStats);
  const applied = await migrate(database);
  if (applied.length) logger.info({ migrations: applied }, "migrations applied");
  let seeded = false;
  if (config.demoData && (await isEmpty(database))) {
    await seedDemo(database, { storage });
    seeded = true;
  }
  // Agendas whose bookings were left half-written (docs/scheduling.md 'Writing bookings in steps'): at start all of
  // them, then every minute those no request has moved for a minute.
  const finishPendingBookings = async (idleFor?: string) => {
    const { finished, failed } = await resumePendingBookings(database.db, { idleFor });
    if (finished.length) logger.info({ agendas: finished }, "half-written agenda bookings finished");
    for (const { id, error } of failed) logger.error({ err: error, agenda: id }, "agenda bookings left half-written");
  };
  await finishPendingBookings();
  // The embedded database: `npm run backup` asks this process for the dump over DATA_DIR/control.sock, since a second
  // process must never open a live PGlite directory (api/db/control-socket.ts, docs/backups.md).
  const control = database.kind === "pglite" ? await startControlSocket({ config, database, logger }) : undefined;

  const mailer = createMailer(database, logger, config.smtpUrl, config.mailFrom);
  // An incident handled through the API changes its room's public page: the page cache forgets it at once.
  const pages = pageChanges();
  // Long exports are jobs (docs/exports.md): the runner is made once the web app's handler exists (below).
  let exportRunner: ExportRunner | undefined = undefined;
  const api = createApi({
    database,
    config,
    logger,
    mailer,
    storage,
    pages,
    exports: { kick: () => exportRunner?.kick() },
  });

  // PDFs are laid out in worker threads, off this event loop (api/lib/pdf-pool.ts); their photos come from `storage`.
  // Photos stored before uploads were re-encoded are stripped of their EXIF on this read too (docs/photos.md).
  const pdf = createPdfPool({ readFile: (folder, name) => readStrippedImage(storage, folder, name), logger });
  metrics.watchPdfPool(pdf);

  const remix = createRequestHandler(build, config.env === "production" ? "production" : "development");
  /** What every page's loaders get (app/context.ts): the in-process API with our headers, the PDF pool, the origin. */
  const webContext = (
    origin: string,
    request: { id: string; nonce: string; clientAddress: string; onApiAnswer?: (answer: Response) => void },
  ) => ({
    api: async (apiRequest: Request) => {
      apiRequest.headers.set(CLIENT_ADDRESS_HEADER, request.clientAddress);
      apiRequest.headers.set(PUBLIC_ORIGIN_HEADER, origin);
      const answer = await api.fetch(apiRequest);
      request.onApiAnswer?.(answer);
      return answer;
    },
    apiUrl: config.apiUrl,
    pdf,
    publicUrl: origin,
    requestId: request.id,
    nonce: request.nonce,
    secureCookies: config.env === "production",
    sessionSecret: config.sessionSecret,
    exportWaitMs: config.exportWaitMs,
  });

  // An export job is its download route run later as its requester, in-process (app/lib/export-jobs.server.ts).
  exportRunner = createExportRunner({
    db: database.db,
    storage,
    logger,
    limits: config.exportLimits,
    render: async (job, signal): Promise<ExportOutcome> => {
      const request = new Request(new URL(job.caminho, job.origem), { signal });
      const context = webContext(job.origem, { id: `export-${job.id}`, nonce: "", clientAddress: "127.0.0.1" });
      const response = await remix(request, { ...context, exportJob: { id: job.id, token: job.token } });
      if (response.headers.has(EXPORT_REFUSED_HEADER)) {
        const refused = (await response.json()) as {
          message: string | null;
          back: string | null;
          status: number | null;
        };
        return { kind: "refused", message: refused.message, back: refused.back, status: refused.status };
      }
      const fileName = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1];
      if (response.status !== 200 || !fileName || !response.body)
        throw new Error(`the export route answered ${response.status} without a file`);
      return {
        kind: "file",
        fileName,
        contentType: response.headers.get("content-type") ?? "application/octet-stream",
        body: response.body,
      };
    },
  });

  const app = new Hono<{ Variables: FrameVariables & RouteVariables }>();

  // Outermost: counts and times what arrives on the socket, by route pattern (api/lib/route-labels.ts).
  app.use(
    "*",
    metrics.middleware(
      routeLabeller({
        api,
        routes: build.routes,
        endpoints: ["/healthz", "/livez", "/metrics"],
      }),
    ),
  );
  app.use("*", requestFrame({ logger, trustProxy: config.trustProxy, production: config.env === "production" }));
  // Short-lived public answers (the room page) kept a few seconds, compressed (api/lib/public-cache.ts).
  app.use("*", publicCache({ pages }));
  // Whole-body gzip of dynamic answers (api/lib/compression.ts, docs/performance.md).
  app.use("*", bufferedCompression());

  // Readiness: answers 200 only when a table of the database can be read (select 1 alone passes with PGlite's files
  // gone, while every page fails).
  app.get("/healthz", async (c) => {
    if (await databaseReachable(database)) return c.json({ status: "ok", database: database.kind });
    logger.error("health check failed: the database does not answer");
    return c.json({ status: "error", database: database.kind }, 503, { "retry-after": String(RETRY_AFTER_S) });
  });
  // Liveness: the process answers, without asking the database (restarting the process would not bring it back).
  app.get("/livez", (c) => c.json({ status: "ok" }));
  app.get("/metrics", metricsEndpoint(metrics, config.metricsToken));

  app.all("/api/*", (c) => {
    // The API's rate limits key on this header, its e-mailed links on the other: always ours, never the client's.
    c.req.raw.headers.set(CLIENT_ADDRESS_HEADER, c.get("clientAddress"));
    c.req.raw.headers.set(PUBLIC_ORIGIN_HEADER, publicOrigin(c.req.raw, config));
    return api.fetch(c.req.raw);
  });

  // A visitor's post from a known flood is refused before its body is read, as the API does for its own path.
  app.post("/info/ambiente/:id", async (c, next) => {
    const environmentId = Number(c.req.param("id"));
    try {
      if (Number.isSafeInteger(environmentId))
        refuseKnownWebFlood(environmentId, c.get("clientAddress"), c.req.header("content-type"));
    } catch (error) {
      if (!(error instanceof TooManyAttempts)) throw error;
      return noticeResponse(c.req.raw, 429, INCIDENT_TEXTS.tooManyTitle, INCIDENT_TEXTS.tooMany, {
        "retry-after": String(error.retryAfterSeconds),
        connection: "close",
      });
    }
    await next();
  });

  // Bodies over BODY_LIMIT (forms) or UPLOAD_LIMIT (multipart) are refused from Content-Length, or while reading a
  // body sent without one, and forms over their parts and fields while they stream in, before Remix buffers anything
  // (the API has the same guard for /api).
  app.use(
    "*",
    limitBodies(
      { body: config.bodyLimit, upload: config.uploadLimit },
      (c, message, status) =>
        noticeResponse(c.req.raw, status, status === 413 ? "Envio grande demais" : "Formulário inválido", message, {
          connection: "close",
        }),
      // Remix parses the bytes itself: the guard only counts (and refuses a form that does not parse).
      { handOn: false },
    ),
  );

  // public/ indexed once, served from memory precompressed: fingerprinted build assets immutable for a year, the
  // rest for an hour; other requests reach Remix without a file-system look-up (api/lib/compression.ts).
  app.use("*", answeredAs(STATIC, staticFiles(path.join(root, "public"))));

  app.all("*", async (c) => {
    // The origin of QR codes and e-mailed links, and the one forms must come from (the cookie is SameSite=Lax too):
    // a cross-site POST, or one without Origin, is refused.
    const origin = publicOrigin(c.req.raw, config);
    if (!["GET", "HEAD"].includes(c.req.method) && !sameOrigin(c.req.raw, origin)) {
      return noticeResponse(c.req.raw, 403, "Envio recusado", "Origem da requisição não permitida.");
    }
    const unreadable = await checkFormBody(c.req.raw);
    if (unreadable) return unreadable;
    let apiUnavailable = false;
    const response = await remix(
      c.req.raw,
      webContext(origin, {
        id: c.get("requestId"),
        nonce: c.get("nonce"),
        clientAddress: c.get("clientAddress"),
        onApiAnswer: (answer) => {
          if (answer.status === 503) apiUnavailable = true;
        },
      }),
    );
    // A failed page while the database is out is an outage, not a bug: the 503 page, and try again shortly. A client
    // that left is no failure (Remix answers 500 to an aborted request; the frame logs 499): no database check.
    if (
      response.status >= 500 &&
      !c.req.raw.signal.aborted &&
      (apiUnavailable || !(await databaseReachable(database)))
    ) {
      return noticeResponse(c.req.raw, 503, "Sistema indisponível", UNAVAILABLE, {
        "retry-after": String(RETRY_AFTER_S),
      });
    }
    return response;
  });

  // Whole: the port, open since the start, now reaches the app.
  const server = gate.server;
  gate.open(app.fetch);
  const requests = trackRequests(server as Server);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  logger.info(
    {
      url,
      database: database.kind,
      startupMs: Math.round(performance.now() - startedAt),
      seeded,
      // npm start and serve cap the JS heap (docs/operations.md 'Memory'): the log says what this process got.
      heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 1024 / 1024),
    },
    "server listening",
  );

  // The incident e-mails that are due (api/services/incident-alerts.ts): claimed row by row, so several instances on
  // one database send each once; at start, then every minute with the bookings sweep. Their links are absolute: no
  // request gives them an origin, so PUBLIC_URL or the address listened on (serverOrigin).
  const linkOrigin = serverOrigin(config, port);
  const sendIncidentAlerts = async () => {
    const { sent } = await sendDueAlerts({ db: database.db, mailer, publicUrl: linkOrigin, logger }, new Date());
    if (sent) logger.info({ sent }, "incident alerts sent");
  };
  // Alerts that fell due while no instance ran go out now, not a minute later.
  let sweeping: Promise<void> | null = sendIncidentAlerts()
    .catch((error) => logger.warn({ err: error }, "incident alerts: sweep failed"))
    .finally(() => (sweeping = null));
  const sweep = setInterval(() => {
    sweeping ??= finishPendingBookings("1 minute")
      .catch((error) => logger.warn({ err: error }, "pending agenda bookings: sweep failed"))
      .then(sendIncidentAlerts)
      .catch((error) => logger.warn({ err: error }, "incident alerts: sweep failed"))
      .then(async () => void (await sweepExpiredExports(database.db, storage, new Date())))
      .catch((error) => logger.warn({ err: error }, "expired exports: sweep failed"))
      // Idempotency keys past their 30 days (docs/field-app.md 'Idempotency').
      .then(async () => void (await sweepExpiredIdempotencyKeys(database.db, new Date())))
      .catch((error) => logger.warn({ err: error }, "expired idempotency keys: sweep failed"))
      .finally(() => (sweeping = null));
  }, 60_000);
  sweep.unref();
  // Photos no row names (a report whose write failed, a process killed in between): a minute after start, then hourly
  // (api/services/orphan-files.ts).
  let sweepingFiles: Promise<void> | null = null;
  const sweepFiles = () => {
    sweepingFiles ??= sweepOrphanFiles({ db: database.db, storage })
      .then((removed) => void (removed && logger.info({ removed }, "orphan files removed")))
      .catch((error) => logger.warn({ err: error }, "orphan files: sweep failed"))
      .finally(() => (sweepingFiles = null));
  };
  const firstFileSweep = setTimeout(sweepFiles, 60_000);
  const fileSweep = setInterval(sweepFiles, ORPHAN_SWEEP_EVERY_MS);
  firstFileSweep.unref();
  fileSweep.unref();

  let closing: Promise<void> | undefined;
  // What a stop is waiting for, named in the log when the grace period runs out (main).
  let stopping = "the backup in progress";
  const close = () =>
    (closing ??= (async () => {
      clearInterval(sweep);
      clearTimeout(firstFileSweep);
      clearInterval(fileSweep);
      // Exports being written go back to the queue (the next start, or another instance, runs them).
      stopping = "the export jobs";
      await exportRunner?.close();
      stopping = "the backup in progress";
      // A backup being written finishes before the database closes.
      await control?.close();
      stopping = "the open connections";
      await requests.drain();
      stopping = "the alerts and bookings sweep";
      await sweeping;
      stopping = "the orphan files sweep";
      await sweepingFiles;
      stopping = "the PDF workers";
      await pdf.close();
      stopping = "the database";
      await database.close();
    })());

  return {
    url,
    port,
    close,
    database,
    seeded,
    logger,
    pdf,
    /** The requests not answered yet, and what the stop is waiting for (both for the forced stop's log line). */
    running: () => requests.running(),
    stopping: () => stopping,
  };
}

/**
 * Whether the database answers within two seconds (the readiness check and the 503 decision). A backup's dump holds
 * the embedded database's one connection for its length: the database is working, requests wait and are then served,
 * so that is not an outage (docs/backups.md 'How long the server waits').
 */
export async function databaseReachable(database: Database) {
  if (dumpInProgress(database)) return true;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      database.ready(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("database check timed out")), 2_000);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Development mode answers stack traces in data responses: fine on a laptop, never on a reachable host. */
export function developmentWarning(config: Pick<Config, "env" | "host">) {
  const local = ["localhost", "127.0.0.1", "::1"].includes(config.host);
  if (config.env === "production" || local) return null;
  return [
    "",
    "!".repeat(78),
    `WARNING: NODE_ENV=${config.env} while listening on ${config.host}, reachable from other machines.`,
    "Development mode sends error details and stack traces to the browser. Set NODE_ENV=production",
    "(with SESSION_SECRET) for any server other people can reach, or HOST=127.0.0.1 for local work.",
    "!".repeat(78),
    "",
  ].join("\n");
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
  const warning = developmentWarning(config);
  if (warning) console.warn(warning);
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
      // Past SHUTDOWN_GRACE the stop is forced, and the log says why: the requests still running (exit 1), or, every
      // request served, what else was still closing (exit 0: nobody was cut off).
      const force = setTimeout(() => {
        const running = server.running();
        if (running.length) {
          server.logger.error(
            { graceS: config.shutdownGraceS, requests: running },
            `shutdown forced after ${config.shutdownGraceS} s: ${running.length} request(s) still running`,
          );
          process.exit(1);
        }
        server.logger.warn(
          { graceS: config.shutdownGraceS, waitingFor: server.stopping() },
          `shutdown forced after ${config.shutdownGraceS} s: every request was served; ${server.stopping()} had not closed`,
        );
        process.exit(0);
      }, config.shutdownGraceS * 1000);
      force.unref();
      await server.close();
      process.exit(0);
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof ConfigError || error instanceof DatabaseStartError ? error.message : error);
    process.exit(1);
  });
}
