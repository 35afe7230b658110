/**
 * Shared helpers for the benchmarks: cleanup on any exit, a server in a child process, sign-in,
 * a single probing request, an autocannon load run and plain-text tables.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

import autocannon from "autocannon";
import pg from "pg";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const HOST = "127.0.0.1";

// ---------------------------------------------------------------------------------------------------------------
// Cleanup: every child process, temp dir and bench file registers here; the list runs on normal exit, on an error,
// and on SIGINT/SIGTERM, so nothing is left behind even when a step fails.

const cleanups = new Map<number, () => void>();
let nextCleanupId = 0;

/** Registers a synchronous cleanup; returns a function that runs it now (once) and unregisters it. */
export function onCleanup(action: () => void) {
  const id = nextCleanupId++;
  cleanups.set(id, action);
  return () => {
    if (!cleanups.delete(id)) return;
    action();
  };
}

export function runCleanups() {
  for (const [id, action] of [...cleanups].reverse()) {
    cleanups.delete(id);
    try {
      action();
    } catch (error) {
      console.error("cleanup failed:", error);
    }
  }
}

process.on("exit", runCleanups);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the benchmark`);
    runCleanups();
    process.exit(130);
  });
}

/** A fresh temp dir, removed at the end. */
export function tempDir(prefix: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `limpeza-bench-${prefix}-`));
  const remove = onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, remove };
}

/** A perf_* database on the server of `adminUrl`, and how to drop it. */
export async function temporaryDatabase(adminUrl: string) {
  const name = `perf_${process.pid}_${Date.now().toString(36)}`;
  await admin(adminUrl, `create database ${name}`);
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  return { url: target.href, drop: () => admin(adminUrl, `drop database if exists ${name} with (force)`) };
}

async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Writes a file (e.g. under public/) that is deleted at the end, even on failure. */
export function benchFile(file: string, content: string | Buffer) {
  writeFileSync(file, content);
  return onCleanup(() => unlinkSync(file));
}

// ---------------------------------------------------------------------------------------------------------------
// The server in a child process.

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The settings every benchmark server gets, whatever the caller's shell holds. */
export const SERVER_ENV = {
  NODE_ENV: process.env.BENCH_NODE_ENV ?? "production",
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
  // Production requires a secret; a random one per run (sessions need not outlive the run).
  SESSION_SECRET: randomBytes(32).toString("hex"),
};

export type ServerOptions = {
  dataDir: string;
  demoData: boolean;
  label: string;
  timeoutMs?: number;
  /** A PostgreSQL database for the server (DATABASE_URL); PGlite in dataDir otherwise. */
  databaseUrl?: string;
  /** Extra node arguments before the script (e.g. another --import), and another script (the bare Remix app). */
  nodeArgs?: string[];
  script?: string;
  env?: Record<string, string>;
};

export type RunningServer = {
  url: string;
  port: number;
  child: ChildProcess;
  logFile: string;
  /** From spawn() to the first 200 from GET /healthz, measured here. */
  spawnToHealthyMs: number;
  /** The server's own figure from its 'server listening' log line. */
  startupMs: number | undefined;
  seeded: boolean | undefined;
  stop(): Promise<void>;
};

export class ServerStartError extends Error {}

/** Starts `node --import tsx server.ts` on a free port with PGlite in dataDir and waits for /healthz to answer 200. */
export async function startServer({
  dataDir,
  demoData,
  label,
  timeoutMs = 90_000,
  databaseUrl,
  nodeArgs = [],
  script = "server.ts",
  env: extraEnv = {},
}: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const logFile = path.join(os.tmpdir(), `limpeza-bench-${label}-${process.pid}-${port}.log`);
  const removeLog = onCleanup(() => rmSync(logFile, { force: true }));
  // stdout/stderr go to a file, not a pipe: the per-request log lines then cost this process nothing under load.
  const logFd = openSync(logFile, "w");
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "API_URL", "PUBLIC_URL", "SMTP_URL", "HOST", "PORT", "DATA_DIR", "DEMO_DATA"]) {
    delete env[name];
  }
  // PUBLIC_URL: production requires it (links leave the server absolute); here the address the bench calls.
  Object.assign(env, SERVER_ENV, {
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    DEMO_DATA: String(demoData),
    PUBLIC_URL: `http://${HOST}:${port}`,
  });
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  Object.assign(env, extraEnv);

  const began = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", ...nodeArgs, script], {
    cwd: ROOT,
    env,
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );
  const kill = onCleanup(() => {
    if (!exited) child.kill("SIGKILL");
  });

  const url = `http://${HOST}:${port}`;
  const logTail = () => readFileSync(logFile, "utf8").split("\n").slice(-30).join("\n");
  let spawnToHealthyMs: number | undefined;
  while (spawnToHealthyMs === undefined) {
    if (exited) {
      throw new ServerStartError(
        `server '${label}' exited (${JSON.stringify(exited)}) before /healthz answered:\n${logTail()}`,
      );
    }
    if (performance.now() - began > timeoutMs) {
      kill();
      throw new ServerStartError(`server '${label}' did not answer /healthz within ${timeoutMs} ms:\n${logTail()}`);
    }
    if ((await healthStatus(url)) === 200) spawnToHealthyMs = performance.now() - began;
    else await sleep(10);
  }

  let listening: { startupMs?: number; seeded?: boolean } | undefined;
  for (let attempt = 0; attempt < 50 && !listening; attempt++) {
    listening = readLogLines(logFile).find((line) => line.msg === "server listening") as typeof listening;
    if (!listening) await sleep(20);
  }

  return {
    url,
    port,
    child,
    logFile,
    spawnToHealthyMs,
    startupMs: listening?.startupMs,
    seeded: listening?.seeded,
    async stop() {
      if (!exited) {
        child.kill("SIGTERM");
        const forced = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exit;
        clearTimeout(forced);
      }
      kill();
      removeLog();
    },
  };
}

function healthStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(`${url}/healthz`, { agent: false, timeout: 2_000 }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(0));
  });
}

export function readLogLines(logFile: string): Record<string, unknown>[] {
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Requests.

export type RequestSpec = {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
};

export type ProbeResult = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Body bytes as sent on the wire (compressed when content-encoding is set). */
  wireBytes: number;
  /** The body after decoding content-encoding. */
  body: Buffer;
};

/** One request with node:http (which, unlike fetch, does not decompress), so the wire size can be seen. */
export function probe(baseUrl: string, spec: RequestSpec, timeoutMs = 30_000): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}${spec.path}`,
      { method: spec.method ?? "GET", headers: spec.headers, agent: false, timeout: timeoutMs },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const wire = Buffer.concat(chunks);
          try {
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              wireBytes: wire.length,
              body: decode(wire, response.headers["content-encoding"]),
            });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error(`timeout: ${spec.path}`)));
    request.on("error", reject);
    request.end(spec.body);
  });
}

function decode(body: Buffer, encoding: string | undefined) {
  switch (encoding) {
    case undefined:
    case "identity":
      return body;
    case "gzip":
      return zlib.gunzipSync(body);
    case "deflate":
      return zlib.inflateSync(body);
    case "br":
      return zlib.brotliDecompressSync(body);
    default:
      throw new Error(`unknown content-encoding ${encoding}`);
  }
}

/** Signs in through the web form (POST /?index, as the page's <form> does) and returns the 'sessao' cookie pair. */
export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  /** The field app's sign-in (/campo/entrar) sets the `campo` cookie instead. */
  { path = "/?index", cookie = "sessao" }: { path?: string; cookie?: string } = {},
) {
  const response = await probe(baseUrl, {
    method: "POST",
    path,
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(baseUrl).origin },
    body: new URLSearchParams({ email, password, redirectTo: "" }).toString(),
  });
  const cookies = ([] as string[]).concat(response.headers["set-cookie"] ?? []);
  const pair = cookies.map((line) => line.split(";")[0]).find((line) => line.startsWith(`${cookie}=`));
  if (response.status !== 302 || !pair) {
    throw new Error(
      `sign-in as ${email} failed: status ${response.status}, no '${cookie}' cookie (${response.body.toString("utf8").slice(0, 200)})`,
    );
  }
  return pair;
}

/** Signs in through the API (POST /api/sessions) and returns the bearer token. */
export async function apiSignIn(baseUrl: string, email: string, password: string) {
  const response = await probe(baseUrl, {
    method: "POST",
    path: "/api/sessions",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const token =
    response.status === 200 ? (JSON.parse(response.body.toString("utf8")) as { token?: unknown }).token : undefined;
  if (typeof token !== "string") {
    throw new Error(
      `API sign-in as ${email} failed: status ${response.status} (${response.body.toString("utf8").slice(0, 200)})`,
    );
  }
  return token;
}

/** A request whose answer must have the given status and a JSON body, which is returned parsed. */
export async function requestJson<T = unknown>(
  baseUrl: string,
  spec: RequestSpec,
  expectStatus = 200,
  timeoutMs?: number,
) {
  const response = await probe(baseUrl, spec, timeoutMs);
  const text = response.body.toString("utf8");
  if (response.status !== expectStatus) {
    throw new Error(
      `${spec.method ?? "GET"} ${spec.path}: status ${response.status}, expected ${expectStatus} (${text.slice(0, 300)})`,
    );
  }
  return JSON.parse(text) as T;
}

/** A multipart/form-data body as a browser form sends it: text fields and files. */
export function multipartBody(
  fields: Record<string, string | { filename: string; type: string; content: string | Buffer }>,
) {
  const boundary = `----limpezaBench${randomBytes(12).toString("hex")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type}\r\n\r\n`,
        ),
        Buffer.from(value.content),
        Buffer.from("\r\n"),
      );
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// ---------------------------------------------------------------------------------------------------------------
// Load.

export type LoadOptions = RequestSpec & {
  connections: number;
  durationS: number;
  warmupS: number;
  /** The server's process: its CPU time over the measured run gives `cpuMsPerRequest`. */
  serverPid?: number;
};

export type LoadResult = {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /**
   * The server process's user + system CPU time over the measured run, per response (Linux /proc). Steadier than
   * req/s when other processes share the cores; a PostgreSQL server's own time is not in it.
   */
  cpuMsPerRequest?: number;
};

/** A process's user + system CPU time in ms (/proc/PID/stat fields 14 and 15, in clock ticks), if readable. */
export function processCpuMs(pid: number | undefined) {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}
// USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK).
const CLOCK_TICKS_PER_S = 100;

/** A warm-up run (discarded) then a measured autocannon run; percentiles are exact, from every response time. */
export async function runLoad(baseUrl: string, options: LoadOptions): Promise<LoadResult> {
  const base: autocannon.Options = {
    url: `${baseUrl}${options.path}`,
    connections: options.connections,
    method: (options.method ?? "GET") as autocannon.Request["method"],
    headers: options.headers,
    body: options.body,
    timeout: 30,
  };
  if (options.warmupS > 0) await autocannon({ ...base, duration: options.warmupS });

  const times: number[] = [];
  const cpuBefore = processCpuMs(options.serverPid);
  // The callback form returns the instance (for its 'response' events); without a callback autocannon's types
  // give only the promise.
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ ...base, duration: options.durationS }, (error, done) =>
      error ? reject(error as Error) : resolve(done),
    );
    instance.on("response", (_client, _status, _bytes, responseTimeMs) => {
      times.push(responseTimeMs);
    });
  });
  const cpuAfter = processCpuMs(options.serverPid);
  const sorted = Float64Array.from(times).sort();
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]),
  );
  return {
    requests: sorted.length,
    rps: sorted.length / result.duration,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes,
    cpuMsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || !sorted.length
        ? undefined
        : (cpuAfter - cpuBefore) / sorted.length,
  };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number) {
  if (!sorted.length) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

// ---------------------------------------------------------------------------------------------------------------
// Output.

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const fmt = {
  int: (value: number | undefined) => (value === undefined || Number.isNaN(value) ? "-" : integer.format(value)),
  ms: (value: number | undefined) => (value === undefined || Number.isNaN(value) ? "-" : oneDecimal.format(value)),
  ratio: (value: number | undefined) =>
    value !== undefined && Number.isFinite(value) ? twoDecimals.format(value) : "-",
  bytes: (value: number) => `${integer.format(value)} B`,
};

/** A plain-text table; columns whose header starts with '>' are right-aligned (the '>' is not shown). */
export function formatTable(headers: string[], rows: string[][]) {
  const right = headers.map((header) => header.startsWith(">"));
  const titles = headers.map((header) => header.replace(/^>/, ""));
  const widths = titles.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (right[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join("  ")
      .trimEnd();
  return [line(titles), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}
