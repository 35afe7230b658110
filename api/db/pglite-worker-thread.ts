/**
 * The embedded database's worker thread (api/db/pglite-worker.ts starts it): it owns the PGlite instance, so a
 * statement's WASM run holds this thread, not the server's event loop (docs/performance.md 'PGlite in a worker
 * thread'). It answers the requests of the one client in the server's thread, strictly one after the other in the
 * order they came, as PGlite would run them in that thread.
 */
import { mkdirSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";

import { PGlite } from "@electric-sql/pglite";

import { pgliteCreateOptions } from "./connection.ts";
import { runPgDump } from "./embedded-dump.ts";
import { preparedStatementClient } from "./pglite-statements.ts";
import type { WorkerAnswer, WorkerRequest, WorkerStart } from "./pglite-worker.ts";

const port = parentPort!;
const start = workerData as WorkerStart;

const opened = (async () => {
  if (start.dataDir) mkdirSync(start.dataDir, { recursive: true });
  const pglite = await PGlite.create(
    pgliteCreateOptions(start.dataDir, start.loadDataDir ? new Blob([start.loadDataDir]) : undefined),
  );
  return { pglite, client: preparedStatementClient(pglite) };
})();

async function answer(request: WorkerRequest): Promise<unknown> {
  const { pglite, client } = await opened;
  switch (request.op) {
    case "open":
      return null;
    case "query":
      return client.query(request.sql, request.params);
    case "exec":
      await pglite.exec(request.script);
      await client.forgetAll();
      return null;
    case "pgDump":
      return runPgDump(pglite, request.args, () => client.forgetAll());
    case "dumpDataDir": {
      const blob = await pglite.dumpDataDir("gzip");
      return blob.arrayBuffer();
    }
    case "close":
      await pglite.close();
      return null;
  }
}

/** Errors keep their own fields (a DatabaseError's code and detail, an ErrnoError's name and errno): the API reads them. */
function plainError(error: unknown): WorkerAnswer["error"] {
  if (!(error instanceof Error) && (typeof error !== "object" || error === null)) {
    return { name: "Error", message: String(error), fields: {} };
  }
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (["string", "number", "boolean"].includes(typeof value)) fields[key] = value as string | number | boolean;
  }
  const { name = "Error", message = "", stack } = error as Partial<Error>;
  return { name: String(name), message: String(message), stack, fields };
}

// One at a time: a request starts when the one before it has answered (the order the client sent them in).
let queue: Promise<void> = Promise.resolve();
port.on("message", (request: WorkerRequest) => {
  queue = queue.then(async () => {
    let reply: WorkerAnswer;
    try {
      const value = await answer(request);
      reply = { id: request.id, value };
    } catch (error) {
      reply = { id: request.id, error: plainError(error) };
    }
    port.postMessage(reply, reply.value instanceof ArrayBuffer ? [reply.value] : []);
    if (request.op === "close") port.close();
  });
});
