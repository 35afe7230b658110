/**
 * The embedded database in a worker thread (PGLITE_WORKER, api/db/pglite-worker.ts; docs/performance.md 'PGlite in a
 * worker thread'): what the API relies on from its database, through the thread hop. A statement runs without
 * holding this thread; a transaction's statements stay together (nothing sent meanwhile runs inside it) and a
 * rolled-back one leaves nothing; errors keep the code the services map (23505) and the unavailability rule reads;
 * DATE stays text; pg_dump and the data directory's copy still reach the instance. PGlite only: skipped on a
 * PostgreSQL run, where there is no embedded database.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";

import { createApi } from "../../api/app.ts";
import { isDatabaseUnavailable, openDatabase, type Database } from "../../api/db/connection.ts";
import { dumpEmbeddedDatabase } from "../../api/db/embedded-dump.ts";
import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { createMailer } from "../../api/services/mailer.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { databaseReachable } from "../../server.ts";
import { demoIds } from "../support/demo.ts";

const source = inject("testDatabase");

describe.skipIf(source.kind !== "pglite")("PGlite in a worker thread", () => {
  let database: Database;
  beforeAll(async () => {
    if (source.kind !== "pglite") return;
    const blob = new Blob([readFileSync(source.dumpFile)], { type: "application/x-gzip" });
    database = await openDatabase({ memory: true, loadDataDir: blob, worker: true });
    await database.execScript("create table worker_probe (id int primary key, born date, note text)");
  });
  afterAll(() => database?.close());

  test("a long statement runs while this thread's timers keep firing", async () => {
    expect(database.embedded?.inWorker).toBe(true);
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 10);
    const began = performance.now();
    await sql`select sum(i::bigint * i) from generate_series(1, 2000000) as i`.execute(database.db);
    const ended = performance.now();
    clearInterval(timer);
    const gaps = [began, ...ticks, ended].slice(1).map((at, index) => at - [began, ...ticks][index]!);
    // In this thread the statement would be one gap as long as itself; here the timer keeps its pace.
    expect(ended - began).toBeGreaterThan(200);
    expect(Math.max(...gaps)).toBeLessThan((ended - began) / 2);
  });

  test("a transaction that rolls back leaves nothing, and a statement sent meanwhile runs after it", async () => {
    let seenOutside: Promise<unknown[]> | undefined;
    const failed = await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into worker_probe (id, note) values (1, 'dentro')`.execute(trx);
        // Sent while the transaction holds the connection: it must wait, not run inside it and see the row.
        seenOutside = sql`select id from worker_probe`.execute(database.db).then((result) => result.rows);
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect((await sql`select id from worker_probe`.execute(trx)).rows).toEqual([{ id: 1 }]);
        throw new Error("desfazer");
      })
      .catch((error: Error) => error.message);
    expect(failed).toBe("desfazer");
    expect(await seenOutside).toEqual([]);
    expect((await sql`select id from worker_probe`.execute(database.db)).rows).toEqual([]);
  });

  test("a unique violation keeps its code, constraint and message across the thread", async () => {
    await sql`insert into worker_probe (id, note) values (2, 'primeiro')`.execute(database.db);
    const error = await sql`insert into worker_probe (id, note) values (2, 'segundo')`
      .execute(database.db)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: "23505",
      constraint: "worker_probe_pkey",
      message: 'duplicate key value violates unique constraint "worker_probe_pkey"',
    });
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  test("DATE columns come back as 'YYYY-MM-DD' text, timestamps as Date", async () => {
    await sql`insert into worker_probe (id, born) values (3, '2024-02-29')`.execute(database.db);
    const { rows } = await sql<{
      born: unknown;
      at: unknown;
    }>`select born, timestamptz '2024-02-29 12:00:00+00' as at from worker_probe where id = 3`.execute(database.db);
    expect(rows[0]!.born).toBe("2024-02-29");
    expect(rows[0]!.at).toEqual(new Date("2024-02-29T12:00:00Z"));
  });

  test("the API over it: a sector is created once, a repeated name answers 409 with its message", async () => {
    const storageDir = mkdtempSync(path.join(tmpdir(), "pglite-worker-uploads-"));
    const logger = pino({ level: "silent" });
    const api = createApi({
      database,
      config: { publicUrl: undefined, env: "test" },
      logger,
      mailer: createMailer(database, logger),
      storage: createDiskStorage(storageDir),
    });
    try {
      const call = async (method: string, pathname: string, json: unknown, token?: string) => {
        const response = await api.fetch(
          new Request(`http://test.local${pathname}`, {
            method,
            headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
            body: JSON.stringify(json),
          }),
        );
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const session = await call("POST", "/api/sessions", { email: "admin@demo.com.br", password: DEMO_PASSWORD });
      const token = String(session.body.token);
      const { aldeota } = await demoIds(database.db);
      // At once: whether the service's check or the unique index refuses the others, each answers the same 409.
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          call("POST", "/api/setor", { name: "Setor via worker", companyId: aldeota }, token),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409]);
      const message = "Já existe um setor cadastrado com o mesmo nome e empresa";
      for (const answer of answers.filter((one) => one.status === 409)) {
        expect(answer.body).toEqual({ message, fieldErrors: { name: [message] } });
      }
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from sectors where name = 'Setor via worker'`.execute(database.db);
      expect(rows[0]!.n).toBe(1);
    } finally {
      rmSync(storageDir, { recursive: true, force: true });
    }
  });

  test("pg_dump and the copy of the files reach the instance in the worker; queries work after both", async () => {
    const dump = await dumpEmbeddedDatabase(database);
    expect(dump.script).toContain("CREATE TABLE public.worker_probe");
    expect(dump.tables.worker_probe).toBe(2);
    const copy = await database.embedded!.dumpDataDir();
    expect(copy.size).toBeGreaterThan(1_000_000);
    // pg_dump's DEALLOCATE ALL dropped the prepared statements: the client prepares them anew.
    expect((await sql`select id from worker_probe order by id`.execute(database.db)).rows).toEqual([
      { id: 2 },
      { id: 3 },
    ]);
  });

  test("during a dump the readiness check answers at once, ready, not after the dump or as unreachable", async () => {
    const dump = dumpEmbeddedDatabase(database).then(() => performance.now());
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ready = databaseReachable(database).then((reachable) => ({ reachable, at: performance.now() }));
    const [dumped, answer] = await Promise.all([dump, ready]);
    expect(answer.reachable).toBe(true);
    expect(answer.at).toBeLessThan(dumped);
  });

  test("once the worker has stopped, a query fails as the database being unavailable (503), not as a bug", async () => {
    const blob = new Blob([readFileSync((source as { dumpFile: string }).dumpFile)]);
    const other = await openDatabase({ memory: true, loadDataDir: blob, worker: true });
    await other.close();
    const error = await sql`select 1`.execute(other.db).catch((caught: unknown) => caught);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test("a worker silent past its limit is stopped: the waiting statement and the next fail as unavailable (503)", async () => {
    const blob = new Blob([readFileSync((source as { dumpFile: string }).dumpFile)]);
    const stuck = await openDatabase({ memory: true, loadDataDir: blob, worker: true, workerSilenceLimitMs: 1_000 });
    try {
      // A statement of seconds stands for a worker that stopped answering.
      const long = sql`select sum(i::bigint * i) from generate_series(1, 300000000) as i`.execute(stuck.db);
      const error = await long.catch((caught: unknown) => caught);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect((error as Error).message).toMatch("no answer in 1000 ms");
      expect(isDatabaseUnavailable(await sql`select 1`.execute(stuck.db).catch((caught: unknown) => caught))).toBe(
        true,
      );
    } finally {
      await stuck.close();
    }
  });

  test("a worker that answers slowly but steadily is not stopped", async () => {
    const blob = new Blob([readFileSync((source as { dumpFile: string }).dumpFile)]);
    const busy = await openDatabase({ memory: true, loadDataDir: blob, worker: true, workerSilenceLimitMs: 1_000 });
    try {
      const statement = () => sql`select sum(i)::text as n from generate_series(1, 100000) as i`.execute(busy.db);
      const once = performance.now();
      await statement();
      // Enough short statements queued at once to wait three limits in all: each answer resets the count.
      const count = Math.min(2_000, Math.ceil(3_000 / Math.max(1, performance.now() - once)));
      const began = performance.now();
      const answers = await Promise.all(Array.from({ length: count }, statement));
      expect(answers).toHaveLength(count);
      expect(performance.now() - began).toBeGreaterThan(1_000);
      expect((await sql<{ one: number }>`select 1 as one`.execute(busy.db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await busy.close();
    }
  });
});
