/**
 * The API under test: createApi() over the test file's own database, called either in-process
 * (api.fetch(Request), what the web app does with API_URL unset) or over a real socket (a Node http server on
 * a free port, what the web app does with API_URL set). Helpers are the same for both, so a describe block can
 * run in either mode; API_TRANSPORT=http makes every file use the socket.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { serve, type ServerType } from "@hono/node-server";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";

import { createApi, type Api } from "../../api/app.ts";
import { hashToken } from "../../api/auth/tokens.ts";
import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { createMailer } from "../../api/services/mailer.ts";
import { createDiskStorage, type Storage } from "../../api/services/storage.ts";

import { openTestDatabase, type TestDatabase } from "./db.ts";

export type Transport = "in-process" | "http";
export const TRANSPORTS: readonly Transport[] = ["in-process", "http"];
export const DEFAULT_TRANSPORT: Transport = process.env.API_TRANSPORT === "http" ? "http" : "in-process";

/** The host in-process requests are addressed to (it shows up in links the API builds, e.g. reset e-mails). */
export const IN_PROCESS_ORIGIN = "http://test.local";

export type CallOptions = {
  token?: string;
  /** A JSON body (sent with content-type application/json). */
  json?: unknown;
  /** A multipart body. */
  form?: FormData;
  /** A body sent as is (set its content-type in headers). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
};

export type ApiAnswer<T = any> = {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, the text otherwise ('' for 204). */
  body: T;
};

export type TestApi = {
  transport: Transport;
  /** The origin requests go to: http://test.local in-process, http://127.0.0.1:<port> over HTTP. */
  origin: string;
  database: TestDatabase;
  db: TestDatabase["db"];
  api: Api;
  storageDir: string;
  /** The raw Response of one call. path starts with /api. */
  fetch(method: string, path: string, options?: CallOptions): Promise<Response>;
  /** One call, body parsed. */
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<ApiAnswer<T>>;
  get<T = any>(path: string, options?: CallOptions): Promise<ApiAnswer<T>>;
  post<T = any>(path: string, json?: unknown, options?: CallOptions): Promise<ApiAnswer<T>>;
  put<T = any>(path: string, json?: unknown, options?: CallOptions): Promise<ApiAnswer<T>>;
  patch<T = any>(path: string, json?: unknown, options?: CallOptions): Promise<ApiAnswer<T>>;
  delete<T = any>(path: string, options?: CallOptions): Promise<ApiAnswer<T>>;
  /** POST /api/sessions with the demo password unless told; fails the test unless it answers 200. */
  signIn(email: string, password?: string): Promise<string>;
  /** Ends the session row of a token in the database (as if a day had passed). */
  expireToken(token: string): Promise<void>;
  close(): Promise<void>;
};

export type TestApiOptions = {
  transport?: Transport;
  /** Where uploads go; by default a fresh directory (storageDir) removed by close(). */
  storage?: Storage;
};

export async function createTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const transport = options.transport ?? DEFAULT_TRANSPORT;
  const database = await openTestDatabase();
  const storageDir = mkdtempSync(path.join(tmpdir(), "api-test-uploads-"));
  const logger = pino({ level: "silent" });
  const api = createApi({
    database,
    config: { publicUrl: undefined, env: "test" },
    logger,
    mailer: createMailer(database, logger),
    storage: options.storage ?? createDiskStorage(storageDir),
  });

  let server: ServerType | undefined;
  let origin = IN_PROCESS_ORIGIN;
  if (transport === "http") {
    server = await new Promise<ServerType>((resolve) => {
      const instance = serve({ fetch: api.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(instance));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const send = (method: string, pathname: string, callOptions: CallOptions = {}) => {
    const headers = new Headers(callOptions.headers);
    if (callOptions.token) headers.set("authorization", `Bearer ${callOptions.token}`);
    let body: BodyInit | undefined;
    if (callOptions.form) body = callOptions.form;
    else if (callOptions.raw !== undefined) body = callOptions.raw as BodyInit;
    else if (callOptions.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(callOptions.json);
    }
    const request = new Request(new URL(pathname, origin), { method, headers, body });
    return transport === "http" ? fetch(request) : Promise.resolve(api.fetch(request));
  };

  const call = async (method: string, pathname: string, callOptions?: CallOptions): Promise<ApiAnswer> => {
    const response = await send(method, pathname, callOptions);
    const type = response.headers.get("content-type") ?? "";
    const body = type.includes("application/json") ? await response.json() : await response.text();
    return { status: response.status, headers: response.headers, body };
  };

  const testApi: TestApi = {
    transport,
    origin,
    database,
    db: database.db,
    api,
    storageDir,
    fetch: send,
    call,
    get: (pathname, o) => call("GET", pathname, o),
    post: (pathname, json, o) => call("POST", pathname, { ...o, json }),
    put: (pathname, json, o) => call("PUT", pathname, { ...o, json }),
    patch: (pathname, json, o) => call("PATCH", pathname, { ...o, json }),
    delete: (pathname, o) => call("DELETE", pathname, o),
    async signIn(email, password = DEMO_PASSWORD) {
      const answer = await call("POST", "/api/sessions", { json: { email, password } });
      if (answer.status !== 200) {
        throw new Error(`sign-in as ${email} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
      return answer.body.token as string;
    },
    async expireToken(token) {
      await database.db
        .updateTable("sessions")
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where("token_hash", "=", hashToken(token))
        .execute();
    },
    async close() {
      if (server) {
        const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
        // fetch keeps connections alive; without this close() waits for them to time out.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        await closing;
      }
      await database.close();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
  return testApi;
}

/**
 * Registers beforeAll/afterAll in the surrounding describe (or file) and answers a handle to the TestApi they
 * create: one database per block, shared by its tests, which run in order.
 */
export function useTestApi(options: TestApiOptions = {}): TestApi {
  let current: TestApi | undefined;
  beforeAll(async () => {
    current = await createTestApi(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as TestApi, {
    get(_target, property) {
      if (!current) throw new Error(`useTestApi: '${String(property)}' used before beforeAll ran`);
      const value = current[property as keyof TestApi];
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}
