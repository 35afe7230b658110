/**
 * The running server's local control channel, for the embedded database only (docs/backups.md): HTTP on the Unix
 * socket DATA_DIR/control.sock, mode 0600 (only this OS user may connect). A live PGlite directory must never be
 * opened by a second process, so `npm run backup` and `npm run move-to-postgres` ask the server that has it open to
 * dump it. One operation: POST /backup {out, uploads?} writes an archive into `out` and answers its path.
 */
import { existsSync } from "node:fs";
import { chmod, lstat, mkdir, unlink } from "node:fs/promises";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { isMainThread } from "node:worker_threads";

import type { Logger } from "pino";

import type { Config } from "../config.ts";

import { writeBackup, type BackupResult } from "./backup-archive.ts";
import { DatabaseStartError, type Database } from "./connection.ts";

export const controlSocketPath = (dataDir: string) => path.join(dataDir, "control.sock");

/** sockaddr_un holds 108 bytes with the final NUL on Linux (104 on macOS). */
const MAX_SOCKET_PATH = 103;
const STATUS_TIMEOUT_MS = 30_000;

export type BackupRequest = { out: string; uploads?: boolean };
export type BackupAnswer = BackupResult & { pid: number };

export type ControlSocket = { path: string | null; close(): Promise<void> };

/**
 * Listens on DATA_DIR/control.sock. A socket file left by a process that died is replaced; one that answers means
 * another server has this DATA_DIR open, and the start stops. The listener is unref'd: it never keeps a process alive
 * (a start that fails after this leaves it answering until the process ends, then a stale file the next start replaces).
 */
export async function startControlSocket(options: {
  config: Pick<Config, "dataDir" | "storage">;
  database: Database;
  logger: Logger;
}): Promise<ControlSocket> {
  const { config, database, logger } = options;
  const socketPath = controlSocketPath(config.dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    // `npm run backup` then finds pgdata/postmaster.pid and refuses rather than open the live directory.
    logger.error({ socketPath }, "control socket disabled: DATA_DIR's path is too long for a Unix socket");
    return { path: null, close: async () => {} };
  }
  await mkdir(config.dataDir, { recursive: true });
  await removeStaleSocket(socketPath);

  let running: Promise<unknown> | null = null;
  const backup = async (body: BackupRequest): Promise<BackupAnswer> => {
    const result = await writeBackup({
      database,
      dataDir: config.dataDir,
      uploadsDir: config.storage.kind === "disk" ? config.storage.root : null,
      outDir: body.out,
      withUploads: body.uploads !== false,
    });
    logger.info(
      { file: result.file, bytes: result.bytes, ms: Math.round(result.ms), blockedMs: Math.round(result.blockedMs) },
      "backup written",
    );
    return { ...result, pid: process.pid };
  };

  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/status") return reply(res, 200, { status: "ready", pid: process.pid });
    if (req.method !== "POST" || req.url !== "/backup") return reply(res, 404, { error: "unknown operation" });
    // One at a time: a second dump would only wait behind the first and double the pause.
    if (running) return reply(res, 409, { error: "a backup is already being written; try again when it is done" });
    const work = readJson(req).then((body) => {
      const out = (body as Partial<BackupRequest>).out;
      if (typeof out !== "string" || !path.isAbsolute(out)) throw new RequestError("out: an absolute directory path");
      return backup({ out, uploads: (body as Partial<BackupRequest>).uploads });
    });
    running = work;
    work
      .then((answer) => reply(res, 200, answer))
      .catch((error: Error) => {
        if (!(error instanceof RequestError)) logger.error({ err: error }, "backup failed");
        reply(res, error instanceof RequestError ? 400 : 500, { error: error.message });
      })
      .finally(() => (running = null));
  });
  await listenPrivately(server, socketPath);
  server.unref();
  return {
    path: socketPath,
    // Waits for a backup being written (the database closes after this); libuv removes the socket file.
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

class RequestError extends Error {}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 64 * 1024) throw new RequestError("request too large");
  }
  try {
    return JSON.parse(text || "{}");
  } catch {
    throw new RequestError("the request body is not JSON");
  }
}

/** Created 0600 from the start (umask around bind, which Node does synchronously), then chmod'ed to be sure. */
async function listenPrivately(server: Server, socketPath: string) {
  const listening = new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const previous = isMainThread ? process.umask(0o177) : undefined;
  try {
    server.listen(socketPath);
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
  await listening;
  await chmod(socketPath, 0o600);
}

/**
 * Stops a start on a DATA_DIR whose server still answers: two processes must never open one embedded database.
 * server.ts calls it before opening the database; startControlSocket again before taking the socket over.
 */
export async function refuseSecondServer(dataDir: string) {
  const status = await askControlSocket(dataDir, "GET", "/status");
  if (status === null) return;
  throw new DatabaseStartError(
    `Another server (pid ${String(status.body.pid)}) is running on DATA_DIR=${dataDir}: its control socket answers. ` +
      "Two processes must never open one embedded database: stop that one first, or use another DATA_DIR.",
  );
}

async function removeStaleSocket(socketPath: string) {
  if (!existsSync(socketPath)) return;
  if (!(await lstat(socketPath)).isSocket()) {
    throw new DatabaseStartError(`${socketPath} exists and is not a socket: move it away and start again.`);
  }
  await refuseSecondServer(path.dirname(socketPath));
  await unlink(socketPath);
}

export type ControlAnswer = { status: number; body: Record<string, unknown> };

/** Asks the server on DATA_DIR; null when no server answers there (no socket, or a stale one). */
export function askControlSocket(dataDir: string, method: "GET" | "POST", url: string, body?: unknown) {
  const socketPath = controlSocketPath(dataDir);
  return new Promise<ControlAnswer | null>((resolve, reject) => {
    if (!existsSync(socketPath)) return resolve(null);
    const headers = { "content-type": "application/json" };
    const req = request({ socketPath, method, path: url, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
        } catch {
          reject(new Error(`${socketPath} answered something else than this app's control channel`));
        }
      });
      res.on("error", reject);
    });
    // A status answers at once, unless a dump holds the event loop for a few seconds; a backup takes what it takes.
    if (method === "GET") {
      req.setTimeout(STATUS_TIMEOUT_MS, () =>
        req.destroy(new Error(`${socketPath} accepted the connection but did not answer within 30 s`)),
      );
    }
    // Refused, missing, or not ours to open (EACCES): no server of ours answers there.
    req.on("error", (error: NodeJS.ErrnoException) =>
      ["ECONNREFUSED", "ENOENT", "ENOTSOCK", "EACCES", "EPERM"].includes(error.code ?? "")
        ? resolve(null)
        : reject(error),
    );
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
