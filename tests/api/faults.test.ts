/**
 * Issue 7's fault suite, on PostgreSQL (FAULTS_DATABASE_URL or DATABASE_URL: a server where databases named sec_*
 * may be created; skipped without one). The whole process (server.ts, built web app) runs against its own database
 * through a TCP proxy this file controls, so the link can be cut and restored:
 * - connections terminated under load (pg_terminate_backend): no crash, only 200 or 503;
 * - an outage (the link cut, connections refused): 503 with Retry-After on the API, the web pages and /healthz;
 * - the database back: 200 again without a restart;
 * - kill -9 of a server process during a CSV import: all rows or none.
 * Run: FAULTS_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx vitest run --project api tests/api/faults.test.ts
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { startServer } from "../../server.ts";
import { testServerConfig } from "../support/server-config.ts";

const ADMIN_URL = process.env.FAULTS_DATABASE_URL ?? process.env.DATABASE_URL;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const NAME = `sec_faults_${process.pid}`;

/** A TCP proxy to PostgreSQL that can refuse and cut connections, as a network outage would. */
class Link {
  server?: Server;
  sockets = new Set<Socket>();
  constructor(
    public port: number,
    private target: { host: string; port: number },
  ) {}
  async up() {
    this.server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as { port: number }).port;
  }
  async down() {
    const closed = new Promise<void>((resolve) => this.server?.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

function urlFor(base: string, database: string, port?: number) {
  const url = new URL(base);
  url.pathname = `/${database}`;
  if (port) {
    url.hostname = "127.0.0.1";
    url.port = String(port);
  }
  return url.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!ADMIN_URL)("faults on PostgreSQL", () => {
  let link: Link;
  let server: Awaited<ReturnType<typeof startServer>>;
  let dataDir: string;
  let token: string;
  let cookie: string;

  beforeAll(async () => {
    await admin(async (client) => {
      await client.query(`drop database if exists ${NAME} with (force)`);
      await client.query(`create database ${NAME}`);
    });
    const target = new URL(ADMIN_URL!);
    link = new Link(0, { host: target.hostname, port: Number(target.port || 5432) });
    await link.up();
    dataDir = mkdtempSync(path.join(tmpdir(), "faults-"));
    server = await startServer(testServerConfig(dataDir, { DATABASE_URL: urlFor(ADMIN_URL!, NAME, link.port) }));
    const session = await fetch(`${server.url}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@demo.com.br", password: DEMO_PASSWORD }),
    });
    token = (await session.json()).token;
    const web = await fetch(`${server.url}/?index`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ email: "principal@demo.com.br", password: DEMO_PASSWORD }),
      redirect: "manual",
    });
    cookie = web.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
  }, 120_000);

  afterAll(async () => {
    await server?.close().catch(() => {});
    await link?.down().catch(() => {});
    await admin((client) => client.query(`drop database if exists ${NAME} with (force)`));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Requests from `workers` loops until stop() resolves; answers counted per status. */
  function load(workers = 8) {
    const statuses = new Map<number, number>();
    const retryAfter: (string | null)[] = [];
    let running = true;
    const targets = [
      () => fetch(`${server.url}/api/users/me`, { headers: { authorization: `Bearer ${token}` } }),
      () => fetch(`${server.url}/api/setor`, { headers: { authorization: `Bearer ${token}` } }),
      () => fetch(`${server.url}/dashboard`, { headers: { cookie, accept: "text/html" }, redirect: "manual" }),
      () => fetch(`${server.url}/setores`, { headers: { cookie, accept: "text/html" }, redirect: "manual" }),
    ];
    const loops = Array.from({ length: workers }, async (_, worker) => {
      for (let i = worker; running; i++) {
        const response = await targets[i % targets.length]().catch(() => null);
        const status = response?.status ?? 0;
        if (response) await response.arrayBuffer().catch(() => {});
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 500 && status !== 503) console.log("unexpected", status, response?.url);
        if (status === 503) retryAfter.push(response!.headers.get("retry-after"));
      }
    });
    return {
      statuses,
      retryAfter,
      async stop() {
        running = false;
        await Promise.all(loops);
        return statuses;
      },
    };
  }

  const terminate = () =>
    admin((client) =>
      client.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [NAME],
      ),
    );

  test("connections terminated under load: no crash, only 200 or 503", async () => {
    const running = load();
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await terminate();
    }
    const statuses = await running.stop();
    console.log("terminated under load:", Object.fromEntries(statuses));
    expect([...statuses.keys()].every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(running.retryAfter.every((value) => Number(value) > 0)).toBe(true);
  }, 60_000);

  test("an outage answers 503 with Retry-After (API, pages, /healthz); back to 200 without a restart", async () => {
    await link.down();
    const api = await fetch(`${server.url}/api/users/me`, { headers: { authorization: `Bearer ${token}` } });
    if (api.status !== 503) console.log(await api.clone().text());
    expect(api.status).toBe(503);
    expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await api.json()).message).toMatch(/temporariamente indisponível/);
    // A page that reads data (the session itself may come from the API's 5 s cache: docs/performance.md 'Caches').
    const page = await fetch(`${server.url}/setores`, {
      headers: { cookie, accept: "text/html" },
      redirect: "manual",
    });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBeTruthy();
    expect(await page.text()).toContain("temporariamente indisponível");
    const signIn = await fetch(`${server.url}/?index`, {
      method: "POST",
      headers: { origin: server.url, accept: "text/html" },
      body: new URLSearchParams({ email: "admin@demo.com.br", password: DEMO_PASSWORD }),
      redirect: "manual",
    });
    expect(signIn.status).toBe(503);
    expect(await signIn.text()).not.toContain("cheque as credenciais");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(503);

    await link.up();
    let healthy = false;
    for (let i = 0; i < 50 && !healthy; i++) {
      healthy = (await fetch(`${server.url}/healthz`)).status === 200;
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(healthy).toBe(true);
    expect((await fetch(`${server.url}/api/users/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    expect((await fetch(`${server.url}/dashboard`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
  }, 60_000);

  test("kill -9 during a CSV import leaves all rows or none", async () => {
    const databaseUrl = urlFor(ADMIN_URL!, NAME);
    const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        NODE_ENV: "test",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let buffer = "";
      child.stdout.on("data", (chunk) => {
        buffer += chunk;
        const match = buffer.match(/"url":"(http:\/\/localhost:\d+)"/);
        if (match) resolve(match[1]);
      });
      child.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
      setTimeout(() => reject(new Error("server did not start")), 60_000);
    });
    const { token: adminToken } = await (
      await fetch(`${url}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@demo.com.br", password: DEMO_PASSWORD }),
      })
    ).json();
    const branch = await admin(async (client) => {
      await client.query(`select 1`);
      const direct = new pg.Client({ connectionString: databaseUrl });
      await direct.connect();
      try {
        const { rows } = await direct.query("select id from branches where nome = 'Matriz Fortaleza'");
        return rows[0].id as number;
      } finally {
        await direct.end();
      }
    });
    const count = async () => {
      const direct = new pg.Client({ connectionString: databaseUrl });
      await direct.connect();
      try {
        const { rows } = await direct.query("select count(*)::int as n from sectors where branch_id = $1", [branch]);
        return rows[0].n as number;
      } finally {
        await direct.end();
      }
    };
    const before = await count();
    const rows = 40_000;
    const csv = ["nome", ...Array.from({ length: rows }, (_, i) => `Setor importado ${i}`)].join("\n");
    const form = new FormData();
    form.set("idEmpresaFilial", String(branch));
    form.set("csvSetores", new File([csv], "setores.csv", { type: "text/csv" }));
    const upload = fetch(`${url}/api/cadastroViaCSV/setor`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}` },
      body: form,
    }).catch(() => null);
    // Kill while the import runs: as soon as its insert is active on the server, or after 1.5 s at the latest.
    const started = Date.now();
    for (;;) {
      const active = await admin((client) =>
        client.query("select 1 from pg_stat_activity where datname = $1 and query ilike 'insert into \"sectors\"%'", [
          NAME,
        ]),
      );
      if (active.rowCount || Date.now() - started > 1500) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill("SIGKILL");
    await upload;
    await new Promise((resolve) => child.once("exit", resolve));
    const after = await count();
    console.log(`kill -9 during import: ${before} → ${after} rows (all or none of ${rows})`);
    expect([before, before + rows]).toContain(after);
  }, 120_000);
});
