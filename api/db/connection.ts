import { accessSync, constants, mkdirSync } from "node:fs";
import path from "node:path";

import { PGlite, types } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, sql, type LogEvent } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";

import { runPgDump } from "./embedded-dump.ts";
import { preparedStatementClient } from "./pglite-statements.ts";
import { startPGliteWorker } from "./pglite-worker.ts";
import type { DB } from "./schema.ts";
import { WriteWatch } from "./write-watch.ts";

/** The PostgreSQL pool's connections (the metrics read it at each scrape). */
export type PoolStats = { total: number; idle: number; waiting: number; max: number };

/** One open database: the typed query builder plus a way to run multi-statement scripts (migrations). */
export type Database = {
  kind: "pglite" | "postgres";
  db: Kysely<DB>;
  /** Which tables this process writes, for the read caches (write-watch.ts). */
  writes: WriteWatch;
  execScript(script: string): Promise<void>;
  /** Readiness: throws unless a table can be read (and, for PGlite on disk, its data directory is still there). */
  ready(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL's pool right now (metrics); PGlite has no pool, one connection in this process. */
  poolStats?(): PoolStats;
  /** What only the embedded database has, wherever its instance runs; PostgreSQL has none. */
  embedded?: EmbeddedAccess;
};

/** The embedded database's instance, reached in this thread or in its worker thread (api/db/pglite-worker.ts). */
export type EmbeddedAccess = {
  /** Whether PGlite runs in a worker thread (PGLITE_WORKER) or in this one. */
  inWorker: boolean;
  /** pg_dump's plain SQL (api/db/embedded-dump.ts), the session restored afterwards. */
  pgDump(args: string[]): Promise<string>;
  /** A gzip'd copy of the data directory, loadable with `loadDataDir` (test set-up). */
  dumpDataDir(): Promise<Blob>;
};

const readTable = (db: Kysely<DB>) => sql`select 1 from schema_migrations limit 1`.execute(db);

// Business dates stay 'YYYY-MM-DD' text: parsing them into a local-time Date shifts them a day.
const keepAsText = (value: string) => value;

/** PGlite's options, the same in this thread and in the worker thread. */
export const pgliteCreateOptions = (dataDir: string | undefined, loadDataDir: Blob | undefined) => ({
  dataDir,
  loadDataDir,
  parsers: { [types.DATE]: keepAsText },
});

type QueryObserver = {
  /** Each query's time and outcome (Kysely's `log`), for the metrics; tests and CLIs leave it out. */
  onQuery?: (event: LogEvent) => void;
};
type PostgresOptions = QueryObserver & {
  databaseUrl: string;
  onPoolError?: (error: Error) => void;
  /** pg.Pool's max (DATABASE_POOL_SIZE); 10 when left out. */
  poolSize?: number;
};
type PGliteOptions = QueryObserver & {
  /**
   * PGlite in a worker thread (PGLITE_WORKER; docs/performance.md 'PGlite in a worker thread'): its statements then
   * hold that thread, not this one's event loop. The server and the API tests follow PGLITE_WORKER (off by default);
   * the command-line tools, which do one thing at a time, leave it out and run PGlite in their own thread.
   */
  worker?: boolean;
  /** The worker's silence limit (pglite-worker.ts WORKER_SILENCE_LIMIT_MS); tests shorten it. */
  workerSilenceLimitMs?: number;
} & ({ dataDir: string } | { memory: true; loadDataDir?: Blob });

export type OpenOptions = PostgresOptions | PGliteOptions;

/** A start-up failure of the database, with the cause and the setting to fix in its message. */
export class DatabaseStartError extends Error {}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if ("databaseUrl" in options) return openPostgres(options);
  return openPGlite(options);
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message: string =
      error.message || (error instanceof AggregateError ? error.errors.map(describeError).join("; ") : "");
    return [code, message].filter(Boolean).join(" ") || error.name;
  }
  if (error && typeof error === "object" && "errno" in error) return `errno ${(error as { errno: unknown }).errno}`;
  return String(error);
}

/**
 * PostgreSQL error codes (and Node socket errors) that mean the database cannot be reached right now, not that the
 * request was wrong: the API answers 503 with Retry-After for them. Class 08 is connection exceptions; 57P01-57P03
 * are an administrator ending the connection, a crash shutdown and 'cannot connect now' (starting up, recovering);
 * 53300 too many connections; 58030/58P01 the server cannot read its own files.
 */
const UNAVAILABLE_CODES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "58030",
  "58P01",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  // PGlite's file system errors (its data directory unreadable or gone) are Emscripten ErrnoErrors.
  if (error && typeof error === "object" && (error as { name?: unknown }).name === "ErrnoError") return true;
  if (!(error instanceof Error)) return false;
  const code = String((error as { code?: unknown }).code ?? "");
  if (UNAVAILABLE_CODES.has(code) || code.startsWith("08")) return true;
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|Client was closed/i.test(
      error.message,
    )
  )
    return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return error.cause !== undefined && error.cause !== error && isDatabaseUnavailable(error.cause);
}

async function openPGlite(options: PGliteOptions): Promise<Database> {
  const dataDir = "dataDir" in options ? path.join(options.dataDir, "pgdata") : undefined;
  const loadDataDir = "loadDataDir" in options ? options.loadDataDir : undefined;
  let embedded: OpenedPGlite;
  try {
    embedded = options.worker
      ? await pgliteInWorker(dataDir, loadDataDir, options.workerSilenceLimitMs)
      : await pgliteHere(dataDir, loadDataDir);
  } catch (error) {
    if (!dataDir) throw error;
    throw new DatabaseStartError(
      `Could not open the embedded database in ${dataDir} (DATA_DIR=${path.dirname(dataDir)}): ${describeError(error)}. ` +
        "Check that the directory exists and that this user may read and write it, or point DATA_DIR elsewhere.",
      { cause: error },
    );
  }
  const { client, execScript, close, access } = embedded;
  const writes = new WriteWatch();
  // The dialect calls only `query` and `close`, which the client provides.
  const db = new Kysely<DB>({
    dialect: new PGliteDialect(client as unknown as PGlite),
    plugins: [writes],
    log: options.onQuery,
  });
  return {
    kind: "pglite" as const,
    db,
    writes,
    // PGlite keeps open files and cached pages working after its directory is gone or unreadable, while anything it
    // has to open anew fails: readiness checks the directory itself too.
    ready: async () => {
      if (dataDir) accessSync(path.join(dataDir, "PG_VERSION"), constants.R_OK | constants.W_OK);
      await readTable(db);
    },
    execScript,
    close,
    embedded: access,
  };
}

type OpenedPGlite = {
  /** What kysely-pglite-dialect is given: it calls `query` and `close`. */
  client: Pick<ReturnType<typeof preparedStatementClient>, "query" | "close">;
  execScript(script: string): Promise<void>;
  close(): Promise<void>;
  access: EmbeddedAccess;
};

/** PGlite in this thread, its data statements prepared (pglite-statements.ts). */
async function pgliteHere(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<OpenedPGlite> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(pgliteCreateOptions(dataDir, loadDataDir));
  const client = preparedStatementClient(pglite);
  return {
    client,
    execScript: async (script: string) => {
      await pglite.exec(script);
      await client.forgetAll();
    },
    close: () => pglite.close(),
    access: {
      inWorker: false,
      pgDump: (args: string[]) => runPgDump(pglite, args, () => client.forgetAll()),
      dumpDataDir: () => pglite.dumpDataDir("gzip"),
    },
  };
}

/** PGlite in a worker thread, the same client on the other side of its messages (pglite-worker.ts). */
async function pgliteInWorker(
  dataDir: string | undefined,
  loadDataDir: Blob | undefined,
  silenceLimitMs: number | undefined,
): Promise<OpenedPGlite> {
  const worker = await startPGliteWorker(
    { dataDir, loadDataDir: loadDataDir ? await loadDataDir.arrayBuffer() : undefined },
    { silenceLimitMs },
  );
  return {
    client: worker,
    execScript: worker.exec,
    close: worker.close,
    access: { inWorker: true, pgDump: worker.pgDump, dumpDataDir: worker.dumpDataDir },
  };
}

async function openPostgres(options: PostgresOptions): Promise<Database> {
  const { databaseUrl, onPoolError, poolSize = 10 } = options;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    // During an outage a request waits at most this long for a connection, then answers 503.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === pg.types.builtins.DATE
          ? keepAsText
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client whose connection dies (pg_terminate_backend, a restart, a cut link) is reported here. Without a
  // listener Node treats it as an unhandled 'error' and ends the process; the pool drops that client by itself and
  // opens a new connection on the next query, so logging is all there is to do.
  pool.on("error", (error) => {
    onPoolError?.(error);
  });
  // A checked-out client (inside a query or a transaction) has no pool listener: pg-pool removes it while the client
  // is lent. Its query rejects with the same error, so this listener only keeps the event from being unhandled.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  // Fail fast with the server's own message when the URL is wrong.
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseStartError(
      `Could not connect to PostgreSQL (DATABASE_URL): ${describeError(error)}. ` +
        "Check that the server is running and that DATABASE_URL names the right host, port, database and user.",
      { cause: error },
    );
  }
  client.release();
  const writes = new WriteWatch();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [writes], log: options.onQuery });
  return {
    kind: "postgres",
    db,
    writes,
    ready: async () => {
      await readTable(db);
    },
    execScript: async (script: string) => {
      await pool.query(script);
    },
    close: () => pool.end(),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max ?? poolSize,
    }),
  };
}

/** For test set-up: a compressed copy of an embedded database's files. */
export async function dumpPGlite(database: Database): Promise<Blob> {
  if (!database.embedded) throw new Error("dumpPGlite needs an embedded database");
  return database.embedded.dumpDataDir();
}
