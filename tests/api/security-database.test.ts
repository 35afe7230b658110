/**
 * Issue 7 item 10: database faults are told plainly. /healthz (readiness) reads a table, so it fails when the
 * embedded database's files are gone; pages and the API answer 503 with Retry-After then; a database that cannot
 * be opened at start names the cause and the setting to fix.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { RETRY_AFTER_S } from "../../api/app.ts";
import { DatabaseStartError, openDatabase } from "../../api/db/connection.ts";
import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { startServer } from "../../server.ts";
import { testServerConfig } from "../support/server-config.ts";

const dirs: string[] = [];
const scratch = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), name));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("start-up failures name the cause and the setting", () => {
  test("an embedded database directory that cannot be opened", async () => {
    const dataDir = scratch("db-file-");
    writeFileSync(path.join(dataDir, "pgdata"), "not a directory");
    const error = await openDatabase({ dataDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseStartError);
    expect((error as Error).message).toMatch(/DATA_DIR=/);
    expect((error as Error).message).toMatch(/embedded database/);
  });

  test("a PostgreSQL server that does not answer", async () => {
    const error = await openDatabase({ databaseUrl: "postgres://postgres@127.0.0.1:1/nada" }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DatabaseStartError);
    expect((error as Error).message).toMatch(/DATABASE_URL/);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});

describe("the embedded database's files gone while running", () => {
  test("/healthz answers 503; pages answer 503 with Retry-After, never 500", async () => {
    const dataDir = scratch("db-gone-");
    mkdirSync(dataDir, { recursive: true });
    const server = await startServer(testServerConfig(dataDir));
    try {
      const signIn = await fetch(`${server.url}/?index`, {
        method: "POST",
        headers: { origin: server.url },
        body: new URLSearchParams({ email: "admin@demo.com.br", password: DEMO_PASSWORD }),
        redirect: "manual",
      });
      const cookie = signIn.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/dashboard`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);

      renameSync(path.join(dataDir, "pgdata"), path.join(dataDir, "moved-away"));

      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(503);
      const page = await fetch(`${server.url}/dashboard`, {
        headers: { cookie, accept: "text/html" },
        redirect: "manual",
      });
      // The board's query (GET /api/agendas/v2/Agendamentos/company) makes PGlite reopen a table's file in the gone
      // directory ('could not seek to end of file', 58P01): an outage, told as one, never a 500.
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe(String(RETRY_AFTER_S));
      expect(await page.text()).toContain("temporariamente indisponível");
    } finally {
      await server.close().catch(() => {});
    }
  }, 120_000);
});
