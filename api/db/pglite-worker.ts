/**
 * The embedded database in a worker thread (PGLITE_WORKER, docs/performance.md 'PGlite in a worker thread'): the
 * worker (pglite-worker-thread.ts) owns the PGlite instance and this thread holds a client with the surface
 * kysely-pglite-dialect calls (`query` answering `{ rows, affectedRows, fields }`, `close`), plus what only the
 * embedded database has (a script, pg_dump, a copy of its files).
 *
 * Ordering: the dialect lends its one connection to one caller at a time (a transaction keeps it from BEGIN to
 * COMMIT), and the worker answers requests one after the other in the order they were posted, so a transaction's
 * statements reach PGlite in order with nothing else between them, as in this thread.
 *
 * Hand-written messages rather than a library: PGlite's own PGliteWorker is made for browser tabs (it elects a leader
 * with navigator.locks and BroadcastChannel, which Node 20 lacks), and @electric-sql/pglite-socket with node-postgres
 * would hand every wire message to PGlite separately and drop the prepared statements of pglite-statements.ts
 * (docs/performance.md 'Prepared statements on PGlite'); pg_dump and the file copy need the instance anyway.
 */
import { Worker } from "node:worker_threads";

import type { Results } from "@electric-sql/pglite";

/** What the worker is started with (workerData). */
export type WorkerStart = { dataDir?: string; loadDataDir?: ArrayBuffer };

export type WorkerRequest = { id: number } & (
  | { op: "open" }
  | { op: "query"; sql: string; params: unknown[] }
  | { op: "exec"; script: string }
  | { op: "pgDump"; args: string[] }
  | { op: "dumpDataDir" }
  | { op: "close" }
);

export type WorkerAnswer = {
  id: number;
  value?: unknown;
  /** An error as plain data: its name, message and every field of a simple value (code, detail, errno...). */
  error?: { name: string; message: string; stack?: string; fields: Record<string, string | number | boolean> };
};

type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

// A plain .mjs that registers tsx (this project's runtime: npm start is `node --import tsx`) and loads the TypeScript
// worker; started with execArgv [] so it loads the same under tsx, vitest and plain node.
const WORKER_URL = new URL("./pglite-worker-entry.mjs", import.meta.url);

export type PGliteWorkerClient = Awaited<ReturnType<typeof startPGliteWorker>>;

/**
 * A worker that answers nothing for this long while requests wait for it is taken as stuck (a loop in WASM, a lost
 * message): it is stopped and its requests fail as the database being unavailable (503; `/healthz` then says so and
 * an orchestrator restarts the process) instead of hanging forever. Far above any one statement or dump it runs
 * (docs/performance.md 'PGlite in a worker thread').
 */
export const WORKER_SILENCE_LIMIT_MS = 10 * 60_000;

export async function startPGliteWorker(start: WorkerStart, { silenceLimitMs = WORKER_SILENCE_LIMIT_MS } = {}) {
  const worker = new Worker(WORKER_URL, {
    execArgv: [],
    workerData: start,
    transferList: start.loadDataDir ? [start.loadDataDir] : [],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let ended: Error | undefined;
  /** When the worker last answered, or began to be waited for: what the silence limit counts from. */
  let heardAt = performance.now();
  // Like PGlite in this thread, an idle database does not keep the process alive; a request waiting for its answer does.
  worker.unref();

  worker.on("message", (answer: WorkerAnswer) => {
    heardAt = performance.now();
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    if (!pending.size) worker.unref();
    if (answer.error) waiting.reject(rebuiltError(answer.error));
    else waiting.resolve(answer.value);
  });
  // A worker that dies (out of memory, a crash in WASM) fails what it had and everything after: class 08, a
  // connection failure, which the API answers with 503 (isDatabaseUnavailable in connection.ts).
  const stop = (reason: string) => {
    ended ??= Object.assign(new Error(`The embedded database's worker thread stopped: ${reason}`), { code: "08006" });
    for (const waiting of pending.values()) waiting.reject(ended);
    pending.clear();
  };
  worker.on("error", (error) => stop(error.message));
  worker.on("exit", (code) => stop(`exit code ${code}`));

  function call<T>(request: Request): Promise<T> {
    if (ended) return Promise.reject(ended);
    const id = ++nextId;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (pending.size === 1) {
        worker.ref();
        heardAt = performance.now();
      }
      try {
        worker.postMessage({ ...request, id });
      } catch (error) {
        // A parameter that cannot be copied to another thread (a function, a class with private state).
        pending.delete(id);
        if (!pending.size) worker.unref();
        reject(error as Error);
      }
    });
  }

  try {
    await call({ op: "open" });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  // From the opening on: loading a large data directory may take its time.
  const watchdog = setInterval(
    () => {
      if (ended) return clearInterval(watchdog);
      if (!pending.size || performance.now() - heardAt <= silenceLimitMs) return;
      stop(`no answer in ${silenceLimitMs} ms`);
      void worker.terminate();
    },
    Math.min(silenceLimitMs / 4, 5_000),
  );
  watchdog.unref();

  return {
    query: <T>(sql: string, params: unknown[] = []) => call<Results<T>>({ op: "query", sql, params }),
    /** A multi-statement script (migrations); the prepared statements are forgotten afterwards. */
    exec: (script: string) => call<null>({ op: "exec", script }).then(() => undefined),
    /** pg_dump's plain SQL, the session restored afterwards (api/db/embedded-dump.ts). */
    pgDump: (args: string[]) => call<string>({ op: "pgDump", args }),
    dumpDataDir: async () => new Blob([await call<ArrayBuffer>({ op: "dumpDataDir" })], { type: "application/x-gzip" }),
    close: async () => {
      if (ended) return;
      await call({ op: "close" });
      await worker.terminate();
      stop("the database was closed");
    },
  };
}

function rebuiltError(plain: NonNullable<WorkerAnswer["error"]>) {
  const error = Object.assign(new Error(plain.message), plain.fields);
  Object.defineProperty(error, "name", { value: plain.name, configurable: true, writable: true });
  return error;
}
